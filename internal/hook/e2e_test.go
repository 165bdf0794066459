package hook

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The end-to-end tests run the real binary, built once per test process.
var (
	binDir  string
	binOnce sync.Once
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "shellguard-hook-e2e-")
	if err != nil {
		panic(err)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// shellguardBinary builds ./cmd/shellguard from the module root.
func shellguardBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	binOnce.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(binDir, "shellguard")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/shellguard")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = &buildError{err, string(out)}
		}
	})
	if binErr != nil {
		t.Fatalf("building shellguard: %v", binErr)
	}
	return binPath
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

// isolatedEnv gives the binary a temporary home and configuration.
func isolatedEnv(t *testing.T) []string {
	home := t.TempDir()
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"PATH=" + os.Getenv("PATH")}
	return env
}

func runHook(t *testing.T, bin string, env []string, agent Agent, input string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, "hook", string(agent))
	cmd.Env = env
	cmd.Stdin = strings.NewReader(input)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), errOut.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), 0
}

// TestEndToEnd pipes realistic hook inputs through the real binary. The
// verdicts for rm -rf / (deny) and ls -la (allow, read-only) need the real
// policy implementation; against a stub policy that always answers a bare
// Ask they fail (the stub gives no opinion).
func TestEndToEnd(t *testing.T) {
	bin := shellguardBinary(t)
	env := isolatedEnv(t)
	project := t.TempDir()
	cases := []struct {
		command string
		want    map[Agent]Action
	}{
		{"rm -rf /", same(DenyAction)},
		{"ls -la", byAllow()},
		{"make build", same(NoOpinion)},
	}
	for _, agent := range Agents() {
		for _, tc := range cases {
			t.Run(string(agent)+"/"+tc.command, func(t *testing.T) {
				q, _ := json.Marshal(tc.command)
				in := strings.ReplaceAll(inputFor(agent, string(q)), "/home/u/project", project)
				out, errOut, code := runHook(t, bin, env, agent, in)
				if got := parseResult(t, agent, []byte(out), []byte(errOut), code); got != tc.want[agent] {
					t.Errorf("%s %q: %v, want %v (needs the real policy.Decide); output %s", agent, tc.command, got, tc.want[agent], out)
				}
			})
		}
	}
}

// TestEndToEndFailsClosed checks the paths that must never let a command
// through, whatever the policy says.
func TestEndToEndFailsClosed(t *testing.T) {
	bin := shellguardBinary(t)
	env := isolatedEnv(t)
	inputs := map[string]func(Agent) string{
		"malformed":       func(Agent) string { return `{"tool_name":` },
		"missing-command": func(a Agent) string { return `{"cwd":"/","tool_name":"` + a.ShellTool() + `","tool_input":{}}` },
		"oversized":       func(a Agent) string { return inputFor(a, `"ls `+strings.Repeat("x", MaxInput)+`"`) },
	}
	for _, agent := range Agents() {
		for name, in := range inputs {
			t.Run(string(agent)+"/"+name, func(t *testing.T) {
				out, errOut, code := runHook(t, bin, env, agent, in(agent))
				// The binary runs under no agent: Claude Code's hook
				// environment is absent (a person is assumed), no Gemini
				// CLI process started it (no one is there to answer), and
				// the other agents do not tell, so a problem blocks.
				want := DenyAction
				if agent == Claude {
					want = AskAction
				}
				if got := parseResult(t, agent, []byte(out), []byte(errOut), code); got != want {
					t.Fatalf("%v, want %v: %s", got, want, out)
				}
			})
		}
	}
	t.Run("config-error", func(t *testing.T) {
		// A configuration file that does not parse must not let anything
		// through. (Needs policy.Load to report the error.)
		bad := filepath.Join(t.TempDir(), "bad.toml")
		if err := os.WriteFile(bad, []byte("this is = = not toml [\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := runHook(t, bin, append(env, "SHELLGUARD_CONFIG="+bad), Claude, inputFor(Claude, `"ls -la"`))
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		if got := parseAction(t, Claude, []byte(out)); got != AskAction {
			t.Errorf("%v, want ask (needs policy.Load to reject a bad file): %s", got, out)
		}
	})
	t.Run("unknown-agent", func(t *testing.T) {
		_, errOut, code := runHook(t, bin, env, "nosuchagent", inputFor(Claude, `"ls"`))
		if code != 2 || !strings.Contains(errOut, "unknown agent") {
			t.Fatalf("exit %d, stderr %q; want 2 (blocking) and a reason", code, errOut)
		}
	})
}
