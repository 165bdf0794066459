package programs

import (
	"slices"
	"testing"
)

// TestShellSets: the shells shellparse re-parses are the shell = true
// programs (the list it kept in Go before), and the programs whose start
// interp counts as a shell add the command interpreters, which are not
// read as sh.
func TestShellSets(t *testing.T) {
	want := []string{"ash", "bash", "csh", "dash", "fish", "ksh", "mksh", "posh", "rbash", "sh", "tcsh", "yash", "zsh"}
	if got := Shells(); !slices.Equal(got, want) {
		t.Errorf("Shells() = %q, want %q", got, want)
	}
	for _, n := range []string{"cmd", "powershell", "pwsh", "busybox"} {
		if IsShell(n) || !StartsShell(n) {
			t.Errorf("%s: IsShell %v StartsShell %v, want false true", n, IsShell(n), StartsShell(n))
		}
	}
	for _, n := range append(want, "BASH", "Zsh") {
		if !IsShell(n) || !StartsShell(n) {
			t.Errorf("%s: not a shell", n)
		}
	}
	for _, n := range []string{"", "python3", "node", "env", "sudo", "shx", "bashate"} {
		if StartsShell(n) {
			t.Errorf("%s: StartsShell", n)
		}
	}
}

// TestWrappers: the wrapper facts shellparse peels by.
func TestWrappers(t *testing.T) {
	sudo := Lookup("sudo").Wrapper
	if sudo == nil || !sudo.Values.Has("-u") || !sudo.Values.Has("--user") || !sudo.Assigns || !sudo.NoRun.Has("-l") || sudo.NoRun.Has("-u") {
		t.Errorf("sudo: %+v", sudo)
	}
	if w := Lookup("flock").Wrapper; w == nil || w.Operands != 1 || !w.Shell.Has("-c") || !w.Shell.Has("--command") {
		t.Errorf("flock: %+v", w)
	}
	if w := Lookup("env").Wrapper; w == nil || !w.Shell.Has("-S") || !w.Assigns {
		t.Errorf("env: %+v", w)
	}
	if w := Lookup("nice").Wrapper; w == nil || !w.Numeric {
		t.Errorf("nice: %+v", w)
	}
	if w := Lookup("xargs").Wrapper; w == nil || !w.Optional.Has("-i") || w.Values.Has("-i") || !w.Values.Has("-I") {
		t.Errorf("xargs: %+v", w)
	}
	if w := Lookup("nohup").Wrapper; w == nil || *w != (Wrapper{}) {
		t.Errorf("nohup: %+v", w)
	}
	for _, n := range []string{"rm", "bash", "docker", "python3"} {
		if Lookup(n).Wrapper != nil {
			t.Errorf("%s: a wrapper", n)
		}
	}
}

// TestLaunchers: the launcher facts shellparse finds commands by.
func TestLaunchers(t *testing.T) {
	for _, tc := range []struct{ name, kind string }{
		{"docker", "container"}, {"docker-compose", "container"}, {"kubectl", "pod"}, {"npm", "package"},
		{"tmux", "terminal"}, {"direnv", "env_tool"}, {"distrobox", "toolbox"}, {"perf", "perf"},
		{"nix-shell", "nix_shell"}, {"salt-call", "salt"}, {"pdsh", "fanout"}, {"consul", "consul"}, {"aws", "aws"},
	} {
		p := Lookup(tc.name)
		if p == nil || p.Launcher == nil || p.Launcher.Kind != tc.kind {
			t.Errorf("%s: want launcher kind %q", tc.name, tc.kind)
		}
	}
	d := Lookup("docker").Launcher
	if !d.Globals.Has("--context") || !d.Values.Has("--workdir") || d.Values.Has("--volume") || !d.RunValues.Has("--volume") {
		t.Errorf("docker: %+v", d)
	}
	if s := Lookup("salt").Launcher; !s.Subs.Has("cmd.run") || !s.Kwargs.Has("runas") || s.Values.Has("--retcode-passthrough") {
		t.Errorf("salt: %+v", s)
	}
	if l := Lookup("tmux").Launcher; l.Values.Has("-d") || !l.Values.Has("-t") {
		t.Errorf("tmux: %+v", l)
	}
	if Lookup("rm").Launcher != nil || Lookup("sudo").Launcher != nil {
		t.Error("rm or sudo: a launcher")
	}
}
