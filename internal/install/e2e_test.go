package install

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/internal/testbin"
)

func TestMain(m *testing.M) { os.Exit(testbin.Main(m)) }

func shellguardBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	return testbin.Path(t, "shellguard")
}

type cli struct {
	t       *testing.T
	bin     string
	home    string
	project string
}

func newCLI(t *testing.T) *cli {
	return &cli{t: t, bin: shellguardBinary(t), home: t.TempDir(), project: t.TempDir()}
}

func (c *cli) run(args ...string) (string, int) {
	c.t.Helper()
	cmd := exec.Command(c.bin, args...)
	cmd.Dir = c.project
	cmd.Env = []string{"HOME=" + c.home, "XDG_CONFIG_HOME=" + filepath.Join(c.home, ".config"), "PATH=" + os.Getenv("PATH")}
	return testbin.Run(c.t, cmd)
}

func TestCLIInstallUninstallDoctor(t *testing.T) {
	c := newCLI(t)
	files := map[agents.Agent]string{agents.Claude: "claude-settings.json", agents.Gemini: "gemini-settings.json", agents.Codex: "codex-hooks.json"}

	if out, code := c.run("doctor"); code != 1 || !strings.Contains(out, "installed for no agent") {
		t.Fatalf("doctor before install: exit %d\n%s", code, out)
	}
	for agent, file := range files {
		orig := readTestdata(t, file)
		user, _ := SettingsPath(agent, User, Env{Home: c.home})
		testbin.WriteFile(t, user, orig)
		if out, code := c.run("install", string(agent), "--dry-run"); code != 0 || !strings.Contains(out, c.bin+" hook "+string(agent)) {
			t.Fatalf("dry run: exit %d\n%s", code, out)
		}
		if got, _ := os.ReadFile(user); !bytes.Equal(got, orig) {
			t.Fatal("dry run wrote the file")
		}
		for range 2 {
			if out, code := c.run("install", string(agent)); code != 0 {
				t.Fatalf("install: exit %d\n%s", code, out)
			}
		}
		data, _ := os.ReadFile(user)
		if cmds, err := InstalledCommands(data, agent); err != nil || len(cmds) != 1 || cmds[0] != HookCommand(c.bin, agent) {
			t.Fatalf("installed %q, %v", cmds, err)
		}
		backups, _ := filepath.Glob(user + ".shellguard-bak*")
		if len(backups) != 1 {
			t.Fatalf("backups %v, want one", backups)
		}
		// Project scope, in the working directory.
		if out, code := c.run("install", string(agent), "--project"); code != 0 {
			t.Fatalf("install --project: exit %d\n%s", code, out)
		}
		project, _ := SettingsPath(agent, Project, Env{Dir: c.project})
		if _, err := os.Stat(project); err != nil {
			t.Fatal(err)
		}
	}
	// Installed, but Codex has not been told to trust the hooks and Gemini
	// CLI does not trust the folder: neither would run them.
	out, code := c.run("doctor")
	if code != 1 || !strings.Contains(out, "Codex has no record that you trusted shellguard's PreToolUse hook") ||
		!strings.Contains(out, "Gemini CLI does not trust "+c.project) {
		t.Fatalf("doctor after install, untrusted: exit %d\n%s", code, out)
	}
	c.trustCodex()
	testbin.WriteFile(t, filepath.Join(c.home, ".gemini", "trustedFolders.json"), []byte(`{"`+c.project+`": "TRUST_FOLDER"}`))
	if out, code := c.run("doctor"); code != 0 || strings.Count(out, "ok: /") != 6 || strings.Count(out, "is trusted in /hooks") != 4 {
		t.Fatalf("doctor after install: exit %d\n%s", code, out)
	}
	// A hook that names a missing program needs attention.
	moved := c.bin + ".moved"
	if err := os.Rename(c.bin, moved); err != nil {
		t.Fatal(err)
	}
	c.bin = moved
	if out, code := c.run("doctor"); code != 1 || !strings.Contains(out, "PROBLEM") {
		t.Fatalf("doctor with a missing binary: exit %d\n%s", code, out)
	}
	if err := os.Rename(moved, strings.TrimSuffix(moved, ".moved")); err != nil {
		t.Fatal(err)
	}
	c.bin = strings.TrimSuffix(moved, ".moved")

	for agent, file := range files {
		if out, code := c.run("uninstall", string(agent)); code != 0 {
			t.Fatalf("uninstall: exit %d\n%s", code, out)
		}
		user, _ := SettingsPath(agent, User, Env{Home: c.home})
		if got, _ := os.ReadFile(user); !bytes.Equal(got, readTestdata(t, file)) {
			t.Fatalf("%s: uninstall did not restore the original bytes:\n%s", agent, got)
		}
		if out, code := c.run("uninstall", string(agent), "--project"); code != 0 {
			t.Fatalf("uninstall --project: exit %d\n%s", code, out)
		}
		project, _ := SettingsPath(agent, Project, Env{Dir: c.project})
		if _, err := os.Stat(project); !os.IsNotExist(err) {
			t.Fatalf("project file left behind: %v", err)
		}
	}
}

// trustCodex records trust for shellguard's hooks in both Codex layers'
// hooks.json, as Codex's /hooks view does (e2e/agents checks the hash
// against the real Codex).
func (c *cli) trustCodex() {
	c.t.Helper()
	env := Env{Home: c.home, Dir: c.project}
	cfg := filepath.Join(c.home, ".codex", "config.toml")
	text, _ := os.ReadFile(cfg)
	for _, scope := range []Scope{User, Project} {
		path, _ := SettingsPath(agents.Codex, scope, env)
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		hooks, err := InstalledHooks(data, agents.Codex, "")
		if err != nil {
			c.t.Fatal(err)
		}
		text = append(text, trustText(path, hooks)...)
	}
	testbin.WriteFile(c.t, cfg, text)
}

// trustText is the [hooks.state] Codex's /hooks writes when the user
// trusts hooks of source.
func trustText(source string, hooks []Hook) string {
	var b strings.Builder
	for _, h := range hooks {
		tc := CheckCodexTrust(nil, source, "", h)
		fmt.Fprintf(&b, "\n[hooks.state.%q]\ntrusted_hash = %q\n", tc.Key, tc.Hash)
	}
	return b.String()
}

// inlineTrust is trustText for the shellguard hooks written inline in a
// config.toml.
func inlineTrust(t *testing.T, tomlPath string, data []byte) string {
	cfg, err := ParseCodexConfig(data, "")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []Hook
	for _, h := range cfg.Shellguard() {
		hooks = append(hooks, h.HookOf())
	}
	return trustText(tomlPath, hooks)
}

func TestCLIRefusesUnparseable(t *testing.T) {
	c := newCLI(t)
	user, _ := SettingsPath(agents.Claude, User, Env{Home: c.home})
	bad := []byte("{\n  \"model\": \"opus\",\n}\n")
	testbin.WriteFile(t, user, bad)
	out, code := c.run("install", "claude")
	if code != 1 || !strings.Contains(out, "cannot parse") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if got, _ := os.ReadFile(user); !bytes.Equal(got, bad) {
		t.Fatal("file changed")
	}
	if out, code := c.run("doctor"); code != 1 || !strings.Contains(out, "PROBLEM: cannot parse") {
		t.Fatalf("doctor: exit %d\n%s", code, out)
	}
	if _, code := c.run("install", "nosuchagent"); code != 2 {
		t.Fatalf("unknown agent: exit %d, want 2", code)
	}
}

// TestCLICodexConfigTOML drives install, doctor and uninstall through the
// built binary with Codex hooks written inline in config.toml.
func TestCLICodexConfigTOML(t *testing.T) {
	c := newCLI(t)
	codexDir := filepath.Join(c.home, ".codex")
	tomlPath := filepath.Join(codexDir, "config.toml")
	jsonPath := filepath.Join(codexDir, "hooks.json")
	own := HookCommand(c.bin, agents.Codex)

	// Other tools' inline hooks: install writes hooks.json, notes that
	// Codex loads both files, and never touches config.toml.
	orig := readTestdata(t, "codex-config.toml")
	testbin.WriteFile(t, tomlPath, orig)
	out, code := c.run("install", "codex")
	if code != 0 || !strings.Contains(out, "also holds 2 inline hook(s)") || !strings.Contains(out, "command = '"+own+"'") {
		t.Fatalf("install next to other inline hooks: exit %d\n%s", code, out)
	}
	if cmds, _ := InstalledCommands(mustRead(t, jsonPath), agents.Codex); len(cmds) != 1 || cmds[0] != own {
		t.Fatalf("hooks.json holds %q", cmds)
	}
	out, code = c.run("doctor")
	if code != 1 || !strings.Contains(out, "Codex has no record that you trusted") {
		t.Fatalf("doctor, the hook not trusted: exit %d\n%s", code, out)
	}
	c.trustCodex()
	out, code = c.run("doctor")
	if code != 0 || !strings.Contains(out, "no shellguard hook (2 other inline hook(s))") || !strings.Contains(out, "loads and runs both") {
		t.Fatalf("doctor: exit %d\n%s", code, out)
	}
	if out, code := c.run("uninstall", "codex"); code != 0 {
		t.Fatalf("uninstall: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(jsonPath); !os.IsNotExist(err) {
		t.Fatalf("hooks.json left behind: %v", err)
	}
	orig = mustRead(t, tomlPath) // with the trust recorded
	if got := mustRead(t, tomlPath); !bytes.Equal(got, orig) {
		t.Fatalf("config.toml changed:\n%s", got)
	}

	// The snippet install printed, appended by hand: install adds no
	// duplicate, doctor checks it, uninstall says where it is and fails.
	withHook := append(append([]byte{}, orig...), "\n"+TOMLSnippet(own)...)
	testbin.WriteFile(t, tomlPath, withHook)
	out, code = c.run("install", "codex")
	if code != 0 || !strings.Contains(out, "already configured inline in "+tomlPath+":") || !strings.Contains(out, "Nothing added") {
		t.Fatalf("install with an inline hook: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(jsonPath); !os.IsNotExist(err) {
		t.Fatalf("install wrote hooks.json: %v", err)
	}
	testbin.WriteFile(t, tomlPath, append(append([]byte{}, withHook...), inlineTrust(t, tomlPath, withHook)...))
	out, code = c.run("doctor")
	if code != 0 || !strings.Contains(out, "hook configured inline") || !strings.Contains(out, "ok: "+own+" ("+tomlPath+":") {
		t.Fatalf("doctor with an inline hook: exit %d\n%s", code, out)
	}
	testbin.WriteFile(t, tomlPath, withHook)
	if strings.Contains(out, "installed for no agent") {
		t.Fatalf("the inline hook does not count:\n%s", out)
	}
	out, code = c.run("uninstall", "codex")
	if code != 1 || !strings.Contains(out, "still configured inline in "+tomlPath+":") {
		t.Fatalf("uninstall with an inline hook: exit %d\n%s", code, out)
	}
	if got := mustRead(t, tomlPath); !bytes.Equal(got, withHook) {
		t.Fatal("uninstall changed config.toml")
	}

	// Switched off in Codex: doctor needs attention.
	key := StateKey(tomlPath, 1, 0)
	testbin.WriteFile(t, tomlPath, append(append([]byte{}, withHook...), "\n[hooks.state.\""+key+"\"]\nenabled = false\n"...))
	if out, code := c.run("doctor"); code != 1 || !strings.Contains(out, "disabled in Codex's /hooks view") {
		t.Fatalf("doctor with a disabled hook: exit %d\n%s", code, out)
	}
	testbin.WriteFile(t, tomlPath, bytes.Replace(withHook, []byte("web_search = true"), []byte("hooks = false"), 1))
	if out, code := c.run("doctor"); code != 1 || !strings.Contains(out, "Codex runs no hooks at all") {
		t.Fatalf("doctor with hooks off: exit %d\n%s", code, out)
	}
	// A matcher that misses the shell tool.
	testbin.WriteFile(t, tomlPath, bytes.Replace(withHook, []byte("'^Bash$'"), []byte("'^apply_patch$'"), 1))
	if out, code := c.run("doctor"); code != 1 || !strings.Contains(out, "does not run before shell commands") {
		t.Fatalf("doctor with a wrong matcher: exit %d\n%s", code, out)
	}

	// Both representations in one layer, shellguard in both.
	testbin.WriteFile(t, tomlPath, withHook)
	hooksJSON, _, err := AddHook(nil, agents.Codex, own)
	if err != nil {
		t.Fatal(err)
	}
	testbin.WriteFile(t, jsonPath, hooksJSON)
	// (withHook holds the trust recorded for this hooks.json above.)
	testbin.WriteFile(t, tomlPath, append(append([]byte{}, withHook...), inlineTrust(t, tomlPath, withHook)...))
	out, code = c.run("doctor")
	if code != 0 || !strings.Contains(out, "loads and runs both") || !strings.Contains(out, "runs it twice") {
		t.Fatalf("doctor with both files: exit %d\n%s", code, out)
	}
	os.Remove(jsonPath)

	// A project config.toml that does not parse: doctor reports it with
	// its line, install refuses and writes nothing.
	projectTOML := filepath.Join(c.project, ".codex", "config.toml")
	bad := readTestdata(t, "codex-config-invalid.toml")
	testbin.WriteFile(t, projectTOML, bad)
	out, code = c.run("install", "codex", "--project")
	if code != 1 || !strings.Contains(out, projectTOML+": line 4:") {
		t.Fatalf("install with a broken config.toml: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(c.project, ".codex", "hooks.json")); !os.IsNotExist(err) {
		t.Fatalf("install wrote hooks.json next to a broken config.toml: %v", err)
	}
	if got := mustRead(t, projectTOML); !bytes.Equal(got, bad) {
		t.Fatal("config.toml changed")
	}
	if out, code := c.run("doctor"); code != 1 || !strings.Contains(out, projectTOML+": PROBLEM: cannot parse the settings (line 4:") {
		t.Fatalf("doctor with a broken config.toml: exit %d\n%s", code, out)
	}
}

// TestCLICodexHome checks that $CODEX_HOME selects the user layer's
// config.toml as it selects its hooks.json.
func TestCLICodexHome(t *testing.T) {
	c := newCLI(t)
	codexHome := t.TempDir()
	testbin.WriteFile(t, filepath.Join(codexHome, "config.toml"), []byte("[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \""+c.bin+" hook codex\"\n"))
	cmd := exec.Command(c.bin, "install", "codex")
	cmd.Dir = c.project
	cmd.Env = []string{"HOME=" + c.home, "CODEX_HOME=" + codexHome, "PATH=" + os.Getenv("PATH")}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "already configured inline in "+filepath.Join(codexHome, "config.toml")+":5") {
		t.Fatalf("install with CODEX_HOME: %v\n%s", err, out)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
