package install

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/shellguard/shellguard/hook"
)

var (
	binDir  string
	binOnce sync.Once
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "shellguard-install-e2e-")
	if err != nil {
		panic(err)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func shellguardBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	binOnce.Do(func() {
		dir, err := os.Getwd()
		if err != nil {
			binErr = err
			return
		}
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				break
			}
			if filepath.Dir(dir) == dir {
				binErr = os.ErrNotExist
				return
			}
			dir = filepath.Dir(dir)
		}
		binPath = filepath.Join(binDir, "shellguard")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/shellguard")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = &os.PathError{Op: "go build", Path: dir, Err: err}
			t.Log(string(out))
		}
	})
	if binErr != nil {
		t.Fatalf("building shellguard: %v", binErr)
	}
	return binPath
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
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		c.t.Fatal(err)
	}
	return out.String(), 0
}

func TestCLIInstallUninstallDoctor(t *testing.T) {
	c := newCLI(t)
	files := map[hook.Agent]string{hook.Claude: "claude-settings.json", hook.Gemini: "gemini-settings.json", hook.Codex: "codex-hooks.json"}

	if out, code := c.run("doctor"); code != 1 || !strings.Contains(out, "installed for no agent") {
		t.Fatalf("doctor before install: exit %d\n%s", code, out)
	}
	for agent, file := range files {
		orig := readTestdata(t, file)
		user, _ := SettingsPath(agent, User, Env{Home: c.home})
		if err := os.MkdirAll(filepath.Dir(user), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(user, orig, 0o644); err != nil {
			t.Fatal(err)
		}
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
		if cmds, err := InstalledCommands(data, agent); err != nil || len(cmds) != 1 || cmds[0] != c.bin+" hook "+string(agent) {
			t.Fatalf("installed %q, %v", cmds, err)
		}
		backups, _ := filepath.Glob(user + ".shellguard-bak-*")
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
	if out, code := c.run("doctor"); code != 0 || strings.Count(out, "ok: ") != 6 {
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

func TestCLIRefusesUnparseable(t *testing.T) {
	c := newCLI(t)
	user, _ := SettingsPath(hook.Claude, User, Env{Home: c.home})
	if err := os.MkdirAll(filepath.Dir(user), 0o755); err != nil {
		t.Fatal(err)
	}
	bad := []byte("{\n  \"model\": \"opus\",\n}\n")
	if err := os.WriteFile(user, bad, 0o644); err != nil {
		t.Fatal(err)
	}
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
	if _, code := c.run("install", "cursor"); code != 2 {
		t.Fatalf("unknown agent: exit %d, want 2", code)
	}
}
