package doctor

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/internal/install"
	"github.com/shellguard/shellguard/internal/testbin"
	"github.com/shellguard/shellguard/policy"
)

type setup struct {
	t         *testing.T
	home, dir string
	exe       string
}

func newSetup(t *testing.T) *setup {
	s := &setup{t: t, home: t.TempDir(), dir: t.TempDir()}
	s.exe = filepath.Join(t.TempDir(), "shellguard")
	if err := os.WriteFile(s.exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *setup) env() install.Env {
	return install.Env{Home: s.home, Dir: s.dir, Getenv: func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return filepath.Join(s.home, ".config")
		}
		return ""
	}}
}

func (s *setup) install(agent agents.Agent, command string) string {
	s.t.Helper()
	path, _ := install.SettingsPath(agent, install.User, s.env())
	if _, err := install.Install(path, agent, command, install.Options{}); err != nil {
		s.t.Fatal(err)
	}
	return path
}

func (s *setup) write(path, content string) {
	s.t.Helper()
	testbin.WriteFile(s.t, path, content)
}

func (s *setup) run() (string, bool) {
	var out bytes.Buffer
	env := s.env()
	attention := Run(&out, Options{Env: env, Exe: s.exe, Policy: policy.Options{Cwd: s.dir, Env: env.Getenv,
		ApprovalsFile: filepath.Join(s.home, "approvals.json")}})
	return out.String(), attention
}

// trust records, as Codex's /hooks does, trust for the hooks now in path.
func (s *setup) trust(path string) string {
	data, _ := os.ReadFile(path)
	hooks, err := install.InstalledHooks(data, agents.Codex, "")
	if err != nil {
		s.t.Fatal(err)
	}
	var b strings.Builder
	for _, h := range hooks {
		c := install.CheckCodexTrust(nil, path, "", h)
		fmt.Fprintf(&b, "\n[hooks.state.%q]\ntrusted_hash = %q\n", c.Key, c.Hash)
	}
	return b.String()
}

func TestNothingInstalled(t *testing.T) {
	out, attention := newSetup(t).run()
	if !attention || !strings.Contains(out, "installed for no agent") {
		t.Fatalf("attention %v\n%s", attention, out)
	}
}

// TestNotInstalledOneLine: an agent none of whose settings files exists
// takes one line, naming its install command; one whose file exists
// without the hook keeps its lines.
func TestNotInstalledOneLine(t *testing.T) {
	s := newSetup(t)
	s.install(agents.Qwen, install.HookCommand(s.exe, agents.Qwen))
	s.write(filepath.Join(s.home, ".claude", "settings.json"), "{}\n")
	out, _ := s.run()
	head, tail, ok := strings.Cut(out, "Not installed (none of their settings files exists):\n")
	if !ok {
		t.Fatalf("no list of agents not installed:\n%s", out)
	}
	for _, spec := range agents.Specs() {
		line := "  " + spec.Title + " (`shellguard install " + string(spec.Name) + "`)\n"
		switch spec.Name {
		case agents.Qwen, agents.Claude:
			if !strings.Contains(head, spec.Title+"\n  user ") || strings.Contains(tail, line) {
				t.Errorf("%s is not reported in full:\n%s", spec.Title, out)
			}
		default:
			if !strings.Contains(tail, line) || strings.Contains(head, spec.Title+"\n") {
				t.Errorf("%s is not on one line:\n%s", spec.Title, out)
			}
		}
	}
}

func TestClaudeFailsOpenCommand(t *testing.T) {
	s := newSetup(t)
	s.install(agents.Claude, s.exe+" hook claude") // as shellguard wrote it before
	out, attention := s.run()
	if !attention || !strings.Contains(out, "Claude Code runs every command unchecked") {
		t.Fatalf("attention %v\n%s", attention, out)
	}
	s.install(agents.Claude, install.HookCommand(s.exe, agents.Claude))
	if out, attention := s.run(); attention || !strings.Contains(out, "All good.") {
		t.Fatalf("attention %v\n%s", attention, out)
	}
}

func TestCodexTrust(t *testing.T) {
	s := newSetup(t)
	path := s.install(agents.Codex, install.HookCommand(s.exe, agents.Codex))
	cfg := filepath.Join(s.home, ".codex", "config.toml")
	out, attention := s.run()
	if !attention || !strings.Contains(out, "PROBLEM: Codex has no record that you trusted shellguard's PreToolUse hook") ||
		!strings.Contains(out, "note: Codex has no record that you trusted shellguard's PermissionRequest hook") {
		t.Fatalf("untrusted: attention %v\n%s", attention, out)
	}
	s.write(cfg, "model = \"x\"\n"+s.trust(path))
	if out, attention := s.run(); attention || strings.Count(out, "is trusted in /hooks") != 2 {
		t.Fatalf("trusted: attention %v\n%s", attention, out)
	}
	// Installed again from elsewhere: the trust is stale.
	other := filepath.Join(t.TempDir(), "shellguard")
	if err := os.WriteFile(other, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s.install(agents.Codex, install.HookCommand(other, agents.Codex))
	if out, attention := s.run(); !attention || !strings.Contains(out, "PROBLEM: shellguard's PreToolUse hook changed since you trusted it") {
		t.Fatalf("stale: attention %v\n%s", attention, out)
	}
	// Disabled in /hooks.
	s.write(cfg, strings.Replace(s.trust(path), "trusted_hash", "enabled = false\ntrusted_hash", 1))
	if out, attention := s.run(); !attention || !strings.Contains(out, "disabled in Codex's /hooks view") {
		t.Fatalf("disabled: attention %v\n%s", attention, out)
	}
}

func TestGeminiFolder(t *testing.T) {
	s := newSetup(t)
	s.install(agents.Gemini, install.HookCommand(s.exe, agents.Gemini))
	out, attention := s.run()
	if !attention || !strings.Contains(out, "Gemini CLI does not trust "+s.dir) {
		t.Fatalf("untrusted: attention %v\n%s", attention, out)
	}
	s.write(filepath.Join(s.home, ".gemini", "trustedFolders.json"), `{"`+s.dir+`": "TRUST_FOLDER"}`)
	if out, attention := s.run(); attention || !strings.Contains(out, "folder "+s.dir+": trusted") {
		t.Fatalf("trusted: attention %v\n%s", attention, out)
	}
	s.write(filepath.Join(s.home, ".gemini", "trustedFolders.json"), `{"`+s.dir+`": "DO_NOT_TRUST"}`)
	if out, attention := s.run(); !attention || !strings.Contains(out, "you chose not to trust it") {
		t.Fatalf("distrusted: attention %v\n%s", attention, out)
	}
}

func TestMissingProgram(t *testing.T) {
	s := newSetup(t)
	s.install(agents.Claude, install.HookCommand(s.exe, agents.Claude))
	os.Remove(s.exe)
	out, attention := s.run()
	if !attention || !strings.Contains(out, "PROBLEM: "+s.exe) || !strings.Contains(out, "shellguard install claude` again") {
		t.Fatalf("attention %v\n%s", attention, out)
	}
}

func TestBrokenHookStillCountsAsInstalled(t *testing.T) {
	s := newSetup(t)
	s.install(agents.Claude, install.HookCommand(s.exe, agents.Claude))
	os.Remove(s.exe)
	if out, _ := s.run(); strings.Contains(out, "installed for no agent") {
		t.Fatalf("a hook naming a missing program is reported as not installed:\n%s", out)
	}
}

// TestEveryAgent: doctor reports every agent, and with shellguard's hook
// installed for each (and what each agent needs to run it), all is well.
func TestEveryAgent(t *testing.T) {
	s := newSetup(t)
	for _, a := range agents.Agents() {
		path := s.install(a, install.HookCommandFor(s.exe, a))
		if a == agents.Codex {
			s.write(filepath.Join(s.home, ".codex", "config.toml"), s.trust(path))
		}
	}
	s.write(filepath.Join(s.home, ".gemini", "trustedFolders.json"), `{"`+s.dir+`": "TRUST_FOLDER"}`)
	out, attention := s.run()
	if attention || !strings.Contains(out, "All good.") {
		t.Fatalf("attention %v\n%s", attention, out)
	}
	for _, sp := range agents.Specs() {
		if !strings.Contains(out, sp.Title+"\n") {
			t.Errorf("no section for %s", sp.Title)
		}
	}
	if n := strings.Count(out, "(it runs and answers)"); n < len(agents.Agents()) {
		t.Errorf("%d hooks answered the probe, want %d\n%s", n, len(agents.Agents()), out)
	}
}

// TestProbe: a hook program that does not answer as shellguard does (an
// older release that does not know the agent exits 2; another program
// prints something) is a problem.
func TestProbe(t *testing.T) {
	for name, script := range map[string]string{
		"unknown agent": "#!/bin/sh\necho 'shellguard: unknown agent \"pi\"' >&2\nexit 2\n",
		"talks":         "#!/bin/sh\necho '{\"decision\":\"allow\"}'\n",
	} {
		t.Run(name, func(t *testing.T) {
			s := newSetup(t)
			s.write(s.exe, script)
			s.install(agents.Pi, install.HookCommand(s.exe, agents.Pi))
			out, attention := s.run()
			if !attention || !strings.Contains(out, "does not answer as the Pi hook") {
				t.Fatalf("attention %v\n%s", attention, out)
			}
		})
	}
}

// TestCopilotProjectTrust: Copilot CLI loads a repository's hooks only in
// a trusted folder.
func TestCopilotProjectTrust(t *testing.T) {
	s := newSetup(t)
	path, _ := install.SettingsPath(agents.Copilot, install.Project, s.env())
	if _, err := install.Install(path, agents.Copilot, install.HookCommand(s.exe, agents.Copilot), install.Options{}); err != nil {
		t.Fatal(err)
	}
	out, attention := s.run()
	if !attention || !strings.Contains(out, "GitHub Copilot CLI loads this project's hooks only in a folder you trusted") {
		t.Fatalf("untrusted: attention %v\n%s", attention, out)
	}
	s.write(filepath.Join(s.home, ".copilot", "config.json"), "// managed by copilot\n{\n  \"trustedFolders\": [\""+filepath.Dir(s.dir)+"\"]\n}\n")
	if out, attention := s.run(); attention || !strings.Contains(out, "folder "+s.dir+": trusted") {
		t.Fatalf("trusted: attention %v\n%s", attention, out)
	}
}

// TestForeignPluginFile: a file of the user's where shellguard's plugin
// would go is reported, not taken for shellguard's.
func TestForeignPluginFile(t *testing.T) {
	s := newSetup(t)
	path, _ := install.SettingsPath(agents.OpenCode, install.User, s.env())
	s.write(path, "export const Mine = async () => ({});\n")
	out, attention := s.run()
	if !attention || !strings.Contains(out, "a file shellguard did not write") || !strings.Contains(out, "installed for no agent") {
		t.Fatalf("attention %v\n%s", attention, out)
	}
}

// doctor names the configuration and approval files the Guard reads: a
// relative $XDG_CONFIG_HOME is ignored by both (internal/xdg), and
// $SHELLGUARD_APPROVALS names the store.
func TestConfigurationFilesAreTheGuards(t *testing.T) {
	s := newSetup(t)
	vars := map[string]string{"HOME": s.home, "XDG_CONFIG_HOME": "relative/config"}
	getenv := func(k string) string { return vars[k] }
	user := filepath.Join(s.home, ".config", "shellguard", "config.toml")
	s.write(user, "deny_at = \"nonsense\"\n")
	run := func() string {
		var out bytes.Buffer
		Run(&out, Options{Env: install.Env{Home: s.home, Dir: s.dir, Getenv: getenv}, Exe: s.exe,
			Policy: policy.Options{Cwd: s.dir, Env: getenv}})
		return out.String()
	}
	out := run()
	if !strings.Contains(out, "user configuration   "+user+": exists") || !strings.Contains(out, user+":1:") {
		t.Errorf("doctor does not report the user file the Guard reads (%s):\n%s", user, out)
	}
	if want := filepath.Join(s.home, ".config", "shellguard", "approvals.json"); !strings.Contains(out, "approvals            "+want+": absent") {
		t.Errorf("approvals: want %s:\n%s", want, out)
	}
	s.write(user, "")
	vars[policy.EnvApprovals] = filepath.Join(s.dir, "store.json")
	if out := run(); !strings.Contains(out, "approvals            "+vars[policy.EnvApprovals]+": absent") {
		t.Errorf("approvals: want $SHELLGUARD_APPROVALS:\n%s", out)
	}
}
