package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/shellguard/shellguard/internal/testbin"
)

// These tests run the real binary (issue 11 items 7, 8 and 14).

// sleepMark returns a sleep duration no other process uses, so that the
// test can find the processes it started by their command line.
func sleepMark() string {
	return strconv.Itoa(7_000_000 + rand.IntN(1_000_000))
}

// liveWith returns the pids of live (not zombie) processes whose argv is
// exactly argv.
func liveWith(argv ...string) []int {
	want := []byte(strings.Join(argv, "\x00") + "\x00")
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !bytes.Equal(b, want) || processGone(pid) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// killLeftovers kills what a failing test left running.
func killLeftovers(t *testing.T, marks ...string) {
	t.Cleanup(func() {
		for _, m := range marks {
			for _, pid := range liveWith("sleep", m) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
}

// startBinary starts `shellguard mcp --cwd workdir` and connects to it;
// it returns the session and the server's process.
func startBinary(t *testing.T, be *binaryEnv, copts *mcp.ClientOptions) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(shellguardBinary(t), "mcp", "--cwd", be.workdir)
	cmd.Env = be.env
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "binary-test", Version: "v0"}, copts)
	cs, err := client.Connect(testCtx(t), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs, cmd
}

// TestBinaryTimeoutKillsEverything (issue 11 item 7): when the timeout
// expires, the call returns at once and no process the command started
// is left alive: not one in a session of its own (setsid), not one whose
// parent has exited (double fork), not one that also cleared its
// environment and closed its output. At main, `setsid sleep & sleep`
// returned 2 s late (the output pipe, held by the setsid sleep, was closed
// after os/exec's WaitDelay) and the setsid sleep survived the server.
func TestBinaryTimeoutKillsEverything(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the subreaper is Linux only")
	}
	tests := []struct {
		name    string
		command func(bg, fg string) string
	}{
		{"setsid", func(bg, fg string) string { return "setsid sleep " + bg + " & sleep " + fg }},
		{"double fork", func(bg, fg string) string { return "(setsid sleep " + bg + " &); sleep " + fg }},
		{"double fork, env cleared, output closed", func(bg, fg string) string {
			return "(setsid env -i sleep " + bg + " >/dev/null 2>&1 </dev/null &); sleep " + fg
		}},
		{"nohup", func(bg, fg string) string { return "nohup sleep " + bg + " >/dev/null 2>&1 & exec sleep " + fg }},
		{"deep", func(bg, fg string) string {
			return "sh -c 'sh -c \"setsid sleep " + bg + " &\" & sleep " + fg + "'"
		}},
	}
	be := newBinaryEnv(t)
	var commands []string
	type tc struct{ name, command, bg, fg string }
	var cases []tc
	for _, tt := range tests {
		bg, fg := sleepMark(), sleepMark()
		killLeftovers(t, bg, fg)
		c := tc{tt.name, tt.command(bg, fg), bg, fg}
		cases = append(cases, c)
		commands = append(commands, c.command)
	}
	cs := connectBinary(t, be, &mcp.ClientOptions{ElicitationHandler: onlyOnce(commands...)})
	const timeout = 2
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			began := time.Now()
			out := runOutput(t, call(t, cs, ToolRun, map[string]any{"command": c.command, "timeout_seconds": timeout}))
			took := time.Since(began)
			if !out.TimedOut || out.ExitCode != 137 {
				t.Errorf("got %+v, want a timeout", out)
			}
			// Not a benchmark: at main the call took timeout + 2 s.
			if took > timeout*time.Second+1500*time.Millisecond {
				t.Errorf("the call returned %s after it started, %s after its timeout", took, took-timeout*time.Second)
			}
			for _, m := range []string{c.bg, c.fg} {
				if pids := liveWith("sleep", m); len(pids) > 0 {
					t.Errorf("sleep %s (pid %v) outlived the timeout of %q", m, pids, c.command)
				}
			}
		})
	}
}

// TestBinaryServerExitKillsBackgroundJobs (issue 11 item 7): background
// jobs a command leaves running when it exits normally are not killed
// then, but none outlives the server, whether its input ends or it is
// sent SIGTERM, even one that left the command's session and process
// group, cleared its environment and closed its output.
func TestBinaryServerExitKillsBackgroundJobs(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the subreaper is Linux only")
	}
	for _, how := range []string{"eof", "sigterm"} {
		t.Run(how, func(t *testing.T) {
			a, b := sleepMark(), sleepMark()
			killLeftovers(t, a, b)
			commands := []string{
				"(setsid sleep " + a + " >/dev/null 2>&1 &)",
				"(setsid env -i sleep " + b + " >/dev/null 2>&1 </dev/null &)",
			}
			cs, server := startBinary(t, newBinaryEnv(t), &mcp.ClientOptions{ElicitationHandler: onlyOnce(commands...)})
			for _, c := range commands {
				out := runOutput(t, call(t, cs, ToolRun, map[string]any{"command": c}))
				if out.ExitCode != 0 || out.TimedOut {
					t.Fatalf("%q: %+v", c, out)
				}
			}
			for _, m := range []string{a, b} {
				// The command may return before the job execs sleep.
				deadline := time.Now().Add(30 * time.Second)
				for len(liveWith("sleep", m)) != 1 {
					if time.Now().After(deadline) {
						t.Fatalf("sleep %s is not running after its command returned", m)
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
			switch how {
			case "eof":
				if err := cs.Close(); err != nil {
					t.Errorf("server exit: %v", err)
				}
			case "sigterm":
				if err := server.Process.Signal(syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
				deadline := time.Now().Add(time.Minute)
				for server.ProcessState == nil && syscall.Kill(server.Process.Pid, 0) == nil && !processGone(server.Process.Pid) {
					if time.Now().After(deadline) {
						t.Fatal("the server did not exit on SIGTERM")
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
			for _, m := range []string{a, b} {
				if pids := liveWith("sleep", m); len(pids) > 0 {
					t.Errorf("sleep %s (pid %v) outlived the server (%s)", m, pids, how)
				}
			}
		})
	}
}

// TestBinaryMinimalEnv (issue 11 item 8): commands get a minimal
// environment, not the server's: a secret in the server's environment
// does not reach printenv; PATH and HOME do; a variable the user's
// configuration lists in [mcp] env does; a project file cannot add one.
func TestBinaryMinimalEnv(t *testing.T) {
	be := newBinaryEnv(t)
	be.env = append(be.env,
		"SHELLGUARD_TEST_SECRET=hunter2-server-secret",
		"ANTHROPIC_API_KEY=sk-ant-server-secret",
		"MY_TOOL_HOME=/opt/my-tool",
		"MY_TOOL_FLAGS=-v",
		"PROJECT_WANTS=x",
		"LC_ALL=C.UTF-8",
	)
	cfg := filepath.Join(be.home, ".config", "shellguard", "config.toml")
	testbin.WriteFile(t, cfg, "[mcp]\nenv = [\"MY_TOOL_*\"]\n")
	if err := os.WriteFile(filepath.Join(be.workdir, ".shellguard.toml"), []byte("[mcp]\nenv = [\"PROJECT_WANTS\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const cmd = "printenv"
	cs := connectBinary(t, be, &mcp.ClientOptions{ElicitationHandler: onlyOnce(cmd, "env", "printenv ANTHROPIC_API_KEY")})
	out := runOutput(t, call(t, cs, ToolRun, map[string]any{"command": cmd}))
	for _, secret := range []string{"hunter2-server-secret", "sk-ant-server-secret", "SHELLGUARD_TEST_SECRET", "PROJECT_WANTS", "XDG_CONFIG_HOME"} {
		if strings.Contains(out.Output, secret) {
			t.Errorf("printenv shows %q:\n%s", secret, out.Output)
		}
	}
	for _, want := range []string{"PATH=", "HOME=" + be.home + "\n", "MY_TOOL_HOME=/opt/my-tool\n", "MY_TOOL_FLAGS=-v\n", "LC_ALL=C.UTF-8\n"} {
		if !strings.Contains(out.Output, want) {
			t.Errorf("printenv lacks %q:\n%s", want, out.Output)
		}
	}
	out = runOutput(t, call(t, cs, ToolRun, map[string]any{"command": "printenv ANTHROPIC_API_KEY"}))
	if out.ExitCode != 1 || out.Output != "" {
		t.Errorf("printenv ANTHROPIC_API_KEY = %+v, want exit 1 and nothing", out)
	}
}

// TestBinaryMinimalEnvIsReadOnly (issue 11 item 8): printenv and env are
// read-only where the environment is the minimal one, so the server runs
// them without asking, and asks where the user added variables.
func TestBinaryMinimalEnvIsReadOnly(t *testing.T) {
	for _, extra := range []bool{false, true} {
		t.Run(fmt.Sprint("extra=", extra), func(t *testing.T) {
			be := newBinaryEnv(t)
			be.env = append(be.env, "MY_TOKEN=tok-123")
			if extra {
				cfg := filepath.Join(be.home, ".config", "shellguard", "config.toml")
				testbin.WriteFile(t, cfg, "mcp.env = [\"MY_TOKEN\"]\n")
			}
			cs := connectBinary(t, be, nil) // no elicitation: an ask is a tool error
			for _, c := range []string{"printenv", "env", "printenv HOME"} {
				res := call(t, cs, ToolRun, map[string]any{"command": c})
				if res.IsError != extra {
					t.Errorf("%s: tool error %v (%s), want %v", c, res.IsError, text(res), extra)
				}
				if strings.Contains(text(res), "tok-123") {
					t.Errorf("%s showed the token without approval: %s", c, text(res))
				}
			}
		})
	}
}

// TestBinaryProjectConfigOfCallCwd (issue 11 item 14): each call is
// decided with the project configuration of the directory it runs in, not
// only the server's, and a changed .shellguard.toml is read again.
func TestBinaryProjectConfigOfCallCwd(t *testing.T) {
	be := newBinaryEnv(t)
	sub := filepath.Join(be.workdir, "sub")
	other := t.TempDir()
	for _, d := range []string{sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	deny := "[rules]\ndeny = [\"echo *\"]\n"
	for _, d := range []string{sub, other} {
		if err := os.WriteFile(filepath.Join(d, ".shellguard.toml"), []byte(deny), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := connectBinary(t, be, nil)
	decision := func(cwd string) string {
		t.Helper()
		args := map[string]any{"command": "echo hi"}
		if cwd != "" {
			args["cwd"] = cwd
		}
		res := call(t, cs, ToolCheck, args)
		if res.IsError {
			t.Fatalf("check_command in %q: %s", cwd, text(res))
		}
		var d struct{ Decision string }
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &d)
		return d.Decision
	}
	if got := decision(""); got != "allow" {
		t.Errorf("echo hi in the server's cwd: %s, want allow", got)
	}
	for _, cwd := range []string{"sub", sub, other} {
		if got := decision(cwd); got != "deny" {
			t.Errorf("echo hi in %s (deny rule there): %s, want deny", cwd, got)
		}
		res := call(t, cs, ToolRun, map[string]any{"command": "echo hi", "cwd": cwd})
		if !res.IsError || !strings.Contains(text(res), "denied by your rule echo *") {
			t.Errorf("run echo hi in %s: %v %s, want denied by the rule", cwd, res.IsError, text(res))
		}
	}
	// Edited while the server runs: read again.
	if err := os.WriteFile(filepath.Join(sub, ".shellguard.toml"), []byte("[rules]\nask = [\"git *\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := decision(sub); got != "allow" {
		t.Errorf("echo hi in sub after the deny rule was removed: %s, want allow", got)
	}
	if err := os.WriteFile(filepath.Join(be.workdir, ".shellguard.toml"), []byte(deny), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cwd := range []string{"", "sub"} {
		if got := decision(cwd); got != "deny" {
			t.Errorf("echo hi in %q after a deny rule was added above: %s, want deny", cwd, got)
		}
	}
	// A broken project file refuses the calls under it.
	if err := os.WriteFile(filepath.Join(other, ".shellguard.toml"), []byte("deny_at = \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := call(t, cs, ToolRun, map[string]any{"command": "echo hi", "cwd": other})
	if !res.IsError || !strings.Contains(text(res), ".shellguard.toml:1") {
		t.Errorf("run in a folder with a broken project file: %v %s", res.IsError, text(res))
	}
}

// TestBinaryReapsAdopted: processes the server adopted (their parent
// exited) and that then ended are reaped, not left as zombies.
func TestBinaryReapsAdopted(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the subreaper is Linux only")
	}
	const bg = "for i in 1 2 3 4 5; do (setsid sleep 0.1 &); done"
	cs, server := startBinary(t, newBinaryEnv(t), &mcp.ClientOptions{ElicitationHandler: onlyOnce(bg, "true")})
	runOutput(t, call(t, cs, ToolRun, map[string]any{"command": bg}))
	time.Sleep(500 * time.Millisecond) // the sleeps end, adopted by the server
	runOutput(t, call(t, cs, ToolRun, map[string]any{"command": "true"}))
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[i+2:])
		if len(f) > 1 && f[0] == "Z" && f[1] == strconv.Itoa(server.Process.Pid) {
			t.Errorf("zombie child of the server: %s", s)
		}
	}
}

// TestBinaryReadOnlyRoot (issue 14 §2): the server's own directory is the
// folder read-only commands may read, whatever cwd a call names: a read
// in the project runs at once, a read in another folder needs approval,
// and so does a credential store.
func TestBinaryReadOnlyRoot(t *testing.T) {
	be := newBinaryEnv(t)
	other := t.TempDir()
	for dir, name := range map[string]string{be.workdir: "README.md", other: "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("text of "+name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := connectBinary(t, be, nil) // no elicitation: an ask is a tool error
	tests := []struct {
		command, cwd string
		runs         bool
	}{
		{"cat README.md", "", true},
		{"cat " + filepath.Join(be.workdir, "README.md"), other, true},
		{"cat notes.txt", other, false},
		{"cat " + filepath.Join(other, "notes.txt"), "", false},
		{"ls", other, false},
		{"cat ~/.config/gh/hosts.yml", "", false},
	}
	for _, tc := range tests {
		args := map[string]any{"command": tc.command}
		if tc.cwd != "" {
			args["cwd"] = tc.cwd
		}
		res := call(t, cs, ToolRun, args)
		if res.IsError == tc.runs || strings.Contains(text(res), "text of notes.txt") {
			t.Errorf("%q in %q: tool error %v, want it to run: %v\n%s", tc.command, tc.cwd, res.IsError, tc.runs, text(res))
		}
	}
}
