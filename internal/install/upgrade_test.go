package install

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/internal/testbin"
)

// An install by an older shellguard (plain command, Claude Code's "Bash"
// matcher, Codex without PermissionRequest) is brought up to date in place,
// and uninstall still removes all of it byte for byte.
func TestInstallUpgradesOlderEntries(t *testing.T) {
	for _, c := range []struct {
		agent agents.Agent
		old   string
	}{
		{agents.Claude, `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "/opt/shellguard/bin/shellguard hook claude", "timeout": 30 }
        ]
      }
    ]
  }
}
`},
		{agents.Codex, `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "^Bash$",
        "hooks": [
          {
            "type": "command",
            "command": "/opt/shellguard/bin/shellguard-hook codex",
            "timeout": 30
          }
        ]
      }
    ]
  }
}
`},
	} {
		t.Run(string(c.agent), func(t *testing.T) {
			cmd := HookCommand(exe, c.agent)
			out, changed, err := AddHook([]byte(c.old), c.agent, cmd)
			if err != nil || !changed {
				t.Fatalf("changed %v, %v", changed, err)
			}
			hooks, err := InstalledHooks(out, c.agent, "")
			if err != nil {
				t.Fatal(err)
			}
			spec := c.agent.Spec()
			if len(hooks) != len(spec.Registrations()) {
				t.Fatalf("hooks %+v\n%s", hooks, out)
			}
			for i, h := range hooks {
				reg := spec.Registrations()[i]
				if h.Event != reg.Event || h.Command != cmd || h.Matcher == nil || *h.Matcher != reg.Matcher {
					t.Errorf("hook %d: %+v, want %s %q", i, h, reg.Event, reg.Matcher)
				}
			}
			if again, changed, _ := AddHook(out, c.agent, cmd); changed || string(again) != string(out) {
				t.Errorf("a second install changed:\n%s", again)
			}
			back, changed, empty, err := RemoveHook(out, c.agent, "")
			if err != nil || !changed {
				t.Fatal(err)
			}
			if !empty && !strings.Contains(string(back), `"model"`) {
				t.Errorf("uninstall: %s", back)
			}
		})
	}
}

// A group where the user put another hook next to shellguard's keeps its
// matcher: changing it would change what the other hook sees.
func TestInstallKeepsSharedMatcher(t *testing.T) {
	in := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/bin/log-it"},{"type":"command","command":"/opt/shellguard/bin/shellguard hook claude"}]}]}}`
	out, changed, err := AddHook([]byte(in), agents.Claude, HookCommand(exe, agents.Claude))
	if err != nil || !changed || !strings.Contains(string(out), `"matcher":"Bash",`) || !strings.Contains(string(out), FailClosedSuffix[:10]) {
		t.Fatalf("changed %v %v:\n%s", changed, err, out)
	}
}

func TestFailsClosed(t *testing.T) {
	for _, c := range []struct {
		agent agents.Agent
		cmd   string
		want  bool
	}{
		{agents.Claude, HookCommand(exe, agents.Claude), true},
		{agents.Claude, LeanHookCommand("/usr/local/bin/shellguard-hook", agents.Claude), true},
		{agents.Claude, exe + " hook claude", false},
		{agents.Codex, exe + " hook codex", false},
		{agents.Codex, HookCommand(exe, agents.Codex), true},
		{agents.Gemini, exe + " hook gemini", true}, // Gemini CLI blocks on exit 127 itself
	} {
		if got := FailsClosed(c.cmd, c.agent); got != c.want {
			t.Errorf("%s %q: %v", c.agent, c.cmd, got)
		}
		if !IsShellguardCommand(c.cmd, c.agent) {
			t.Errorf("%q not recognised", c.cmd)
		}
	}
	if HookCommand(exe, agents.Gemini) != exe+" hook gemini" {
		t.Errorf("Gemini CLI's command is wrapped (its hooks run in PowerShell on Windows): %s", HookCommand(exe, agents.Gemini))
	}
}

// The lean binary next to shellguard is preferred.
func TestHookCommandFor(t *testing.T) {
	dir := t.TempDir()
	sg := filepath.Join(dir, "shellguard")
	if got := HookCommandFor(sg, agents.Claude); got != HookCommand(sg, agents.Claude) {
		t.Errorf("without the lean binary: %s", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "shellguard-hook"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := HookCommandFor(sg, agents.Claude); got != LeanHookCommand(filepath.Join(dir, "shellguard-hook"), agents.Claude) {
		t.Errorf("with the lean binary: %s", got)
	}
}

// One backup per file, replaced at each write, never written through a
// symbolic link.
func TestOneBackupPerFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, path+BackupSuffix); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i, exe := range []string{"/a/shellguard", "/b/shellguard", "/c/shellguard"} {
		before, _ := os.ReadFile(path)
		res, err := Install(path, agents.Claude, HookCommand(exe, agents.Claude), Options{})
		if err != nil || res.Backup != path+BackupSuffix {
			t.Fatalf("install %d: %+v %v", i, res, err)
		}
		if b, _ := os.ReadFile(res.Backup); string(b) != string(before) {
			t.Fatalf("backup %d holds %q, want %q", i, b, before)
		}
		if st, _ := os.Lstat(res.Backup); st.Mode()&os.ModeSymlink != 0 || st.Mode().Perm() != 0o600 {
			t.Fatalf("backup mode %v", st.Mode())
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("the symbolic link's target was written: %q", b)
	}
	baks, _ := filepath.Glob(path + ".shellguard-bak*")
	if !reflect.DeepEqual(baks, []string{path + BackupSuffix}) {
		t.Fatalf("backups %v", baks)
	}
}

func TestGeminiFolderTrust(t *testing.T) {
	home := t.TempDir()
	root := t.TempDir()
	proj := filepath.Join(root, "work", "proj")
	if err := os.MkdirAll(filepath.Join(proj, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(proj, link); err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) {
		t.Helper()
		testbin.WriteFile(t, filepath.Join(home, ".gemini", name), content)
	}
	env := func(vars map[string]string) Env {
		return Env{Home: home, Getenv: func(k string) string { return vars[k] }}
	}
	q := func(p string) string { return `"` + p + `"` }
	for _, c := range []struct {
		name, folders, settings string
		vars                    map[string]string
		dir                     string
		want, wantErr           bool
	}{
		{name: "no file", dir: proj},
		{name: "trusted", folders: `{` + q(proj) + `: "TRUST_FOLDER"}`, dir: proj, want: true},
		{name: "below a trusted folder", folders: `{` + q(proj) + `: "TRUST_FOLDER"}`, dir: filepath.Join(proj, "sub"), want: true},
		{name: "through a symbolic link", folders: `{` + q(proj) + `: "TRUST_FOLDER"}`, dir: link, want: true},
		{name: "parent", folders: `{` + q(filepath.Join(root, "work", "other")) + `: "TRUST_PARENT"}`, dir: proj, want: true},
		{name: "not trusted", folders: `{` + q(proj) + `: "DO_NOT_TRUST"}`, dir: proj},
		{name: "the longest rule wins", folders: `{` + q(root) + `: "TRUST_FOLDER", ` + q(proj) + `: "DO_NOT_TRUST"}`, dir: proj},
		{name: "the longest rule wins the other way", folders: `{` + q(root) + `: "DO_NOT_TRUST", ` + q(proj) + `: "TRUST_FOLDER"}`, dir: proj, want: true},
		{name: "another folder", folders: `{` + q(filepath.Join(root, "elsewhere")) + `: "TRUST_FOLDER"}`, dir: proj},
		{name: "comments", folders: "{\n // mine\n" + q(proj) + `: "TRUST_FOLDER"}`, dir: proj, want: true},
		{name: "invalid level", folders: `{` + q(proj) + `: "YES"}`, dir: proj, wantErr: true},
		{name: "env trusts", vars: map[string]string{"GEMINI_CLI_TRUST_WORKSPACE": "true"}, dir: proj, want: true},
		{name: "env distrusts", folders: `{` + q(proj) + `: "TRUST_FOLDER"}`, vars: map[string]string{"GEMINI_CLI_TRUST_WORKSPACE": "false"}, dir: proj},
		{name: "folder trust off", settings: `{"security": {"folderTrust": {"enabled": false}}}`, dir: proj, want: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.RemoveAll(filepath.Join(home, ".gemini"))
			if c.folders != "" {
				write("trustedFolders.json", c.folders)
			}
			if c.settings != "" {
				write("settings.json", c.settings)
			}
			ft := GeminiFolderTrust(env(c.vars), c.dir)
			if ft.Trusted != c.want || (ft.Err != nil) != c.wantErr || ft.Why == "" && ft.Err == nil {
				t.Errorf("%+v", ft)
			}
		})
	}
}
