package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/shellguard/shellguard/internal/testbin"
)

func TestMain(m *testing.M) { os.Exit(testbin.Main(m)) }

// shellguardBinary returns the shellguard binary, built once per test
// process (fuzz workers and runs of other tests do not pay for it).
func shellguardBinary(t *testing.T) string { return testbin.Path(t, "shellguard") }

// binaryEnv is the environment of the server under test: a temporary home
// and configuration, and a PATH whose `rm` only records that it ran.
type binaryEnv struct {
	home    string
	env     []string
	workdir string
	marker  string
}

func newBinaryEnv(t *testing.T) *binaryEnv {
	t.Helper()
	shellguardBinary(t)
	home := t.TempDir()
	bin := t.TempDir()
	marker := filepath.Join(t.TempDir(), "executed")
	script := "#!/bin/sh\necho \"$0 $*\" >> '" + marker + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "rm"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME", k == "PATH", strings.HasPrefix(k, "XDG_"), strings.HasPrefix(k, "SHELLGUARD_"):
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
	)
	workdir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &binaryEnv{home: home, env: env, workdir: workdir, marker: marker}
}

// connectBinary starts `shellguard mcp --cwd workdir` and connects a client
// to it over stdio.
func connectBinary(t *testing.T, be *binaryEnv, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	cs, _ := startBinary(t, be, copts)
	return cs
}

// onlyOnce approves exactly the listed commands once and denies the rest,
// so a wrong verdict can never run anything else.
func onlyOnce(commands ...string) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		cmd, _ := req.Params.Meta[MetaCommand].(string)
		for _, c := range commands {
			if c == cmd {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": ChoiceOnce}}, nil
			}
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": ChoiceDeny}}, nil
	}
}

func TestBinaryListsTools(t *testing.T) {
	cs := connectBinary(t, newBinaryEnv(t), nil)
	res, err := cs.ListTools(testCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != ToolCheck+","+ToolRun && strings.Join(names, ",") != ToolRun+","+ToolCheck {
		t.Errorf("tools %v", names)
	}
	if got := cs.InitializeResult().ServerInfo; got == nil || got.Name != "shellguard" {
		t.Errorf("server info %+v", got)
	}
}

// TestBinaryRuns runs safe commands through the real policy. Whether the
// policy allows them outright or asks (the elicitation handler approves
// exactly these commands once), they run and report their exit code.
func TestBinaryRuns(t *testing.T) {
	be := newBinaryEnv(t)
	tests := []struct {
		command  string
		args     map[string]any
		exitCode int
		output   string
		timedOut bool
	}{
		{command: "echo hello", exitCode: 0, output: "hello\n"},
		{command: "sh -c 'exit 3'", exitCode: 3, output: ""},
		{command: "pwd", exitCode: 0, output: be.workdir + "\n"},
		{command: "sleep 30", args: map[string]any{"timeout_seconds": 1}, exitCode: 137, timedOut: true},
	}
	var commands []string
	for _, tc := range tests {
		commands = append(commands, tc.command)
	}
	cs := connectBinary(t, be, &mcp.ClientOptions{ElicitationHandler: onlyOnce(commands...)})
	for _, tc := range tests {
		t.Run(tc.command, func(t *testing.T) {
			args := map[string]any{"command": tc.command}
			for k, v := range tc.args {
				args[k] = v
			}
			out := runOutput(t, call(t, cs, ToolRun, args))
			if out.ExitCode != tc.exitCode || out.TimedOut != tc.timedOut || !tc.timedOut && out.Output != tc.output {
				t.Errorf("got %+v, want exit %d output %q timed_out %v", out, tc.exitCode, tc.output, tc.timedOut)
			}
		})
	}
}

func TestBinaryHugeOutput(t *testing.T) {
	const cmd = "yes | head -c 5000000"
	cs := connectBinary(t, newBinaryEnv(t), &mcp.ClientOptions{ElicitationHandler: onlyOnce(cmd)})
	out := runOutput(t, call(t, cs, ToolRun, map[string]any{"command": cmd}))
	if !out.Truncated || out.ExitCode != 0 || len(out.Output) > DefaultMaxOutput+200 {
		t.Errorf("truncated=%v exit=%d len=%d", out.Truncated, out.ExitCode, len(out.Output))
	}
}

// TestBinaryRefusesRmRf: without elicitation, rm -rf / is a tool error
// whatever the verdict (deny, or ask that cannot be asked), and never runs.
func TestBinaryRefusesRmRf(t *testing.T) {
	be := newBinaryEnv(t)
	cs := connectBinary(t, be, nil)
	res := call(t, cs, ToolRun, map[string]any{"command": "rm -rf /"})
	if !res.IsError {
		t.Fatalf("rm -rf / was not refused: %s", text(res))
	}
	if executed(be.marker) {
		t.Fatal("rm -rf / was executed")
	}
}

// TestBinaryDeniesRmRf needs the real policy.Decide: rm -rf / is denied
// (not asked), so even a client that would approve everything is not asked.
// It fails against the policy stub, which asks about everything.
func TestBinaryDeniesRmRf(t *testing.T) {
	be := newBinaryEnv(t)
	var asked atomic.Int32
	cs := connectBinary(t, be, &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked.Add(1)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": ChoiceDeny}}, nil
	}})
	res := call(t, cs, ToolRun, map[string]any{"command": "rm -rf /"})
	if !res.IsError || !strings.Contains(text(res), "refused") {
		t.Errorf("rm -rf / was not denied outright: %s", text(res))
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the user was asked about rm -rf / (%d times); a deny verdict is never put to the user", n)
	}
	if executed(be.marker) {
		t.Fatal("rm -rf / was executed")
	}

	chk := call(t, cs, ToolCheck, map[string]any{"command": "rm -rf /"})
	var d struct {
		Decision string `json:"decision"`
		Level    string `json:"level"`
	}
	b, _ := json.Marshal(chk.StructuredContent)
	if err := json.Unmarshal(b, &d); err != nil || d.Decision != "deny" || d.Level != "critical" {
		t.Errorf("check_command rm -rf / = %s, want decision deny, level critical", b)
	}
}

func TestBinaryCheck(t *testing.T) {
	be := newBinaryEnv(t)
	cs := connectBinary(t, be, nil)
	res := call(t, cs, ToolCheck, map[string]any{"command": "make build"})
	if res.IsError {
		t.Fatal(text(res))
	}
	var d struct {
		Command  string `json:"command"`
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &d); err != nil || d.Command != "make build" || d.Decision != "ask" || d.Reason == "" {
		t.Errorf("check_command make build = %s", b)
	}
}

func TestBinaryAskWithoutElicitation(t *testing.T) {
	be := newBinaryEnv(t)
	cs := connectBinary(t, be, nil)
	res := call(t, cs, ToolRun, map[string]any{"command": "make build"})
	if !res.IsError || !strings.Contains(text(res), "shellguard allow add -- 'make build'") {
		t.Errorf("got %v %q, want a tool error telling how to approve", res.IsError, text(res))
	}
}

func TestBinaryBadFlags(t *testing.T) {
	binary := shellguardBinary(t)
	for _, args := range [][]string{
		{"mcp", "--cwd", "/nonexistent/shellguard"},
		{"mcp", "extra-arg"},
	} {
		cmd := exec.Command(binary, args...)
		cmd.Stdin = strings.NewReader("")
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("%v: err %v, output %s; want exit 2", args, err, out)
		}
	}
}

// TestBinaryEOF: the server exits 0 when its input ends.
func TestBinaryEOF(t *testing.T) {
	cmd := exec.Command(shellguardBinary(t), "mcp")
	cmd.Dir = t.TempDir()
	cmd.Stdin = strings.NewReader("")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("exit on EOF: %v\n%s", err, out)
	}
}

// TestBinaryKillsCommandsOnEOF: when its input ends, the server kills the
// commands it still runs before it exits. The client here is raw JSON-RPC,
// so that stdin closes at once.
func TestBinaryKillsCommandsOnEOF(t *testing.T) {
	be := newBinaryEnv(t)
	cmd := exec.Command(shellguardBinary(t), "mcp", "--cwd", be.workdir)
	cmd.Env = be.env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	// sleep is read-only for shellguard, so the real policy allows it.
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_shell_command","arguments":{"command":"sleep 61"}}}`,
	} {
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	var child int
	for child == 0 {
		child = childOf(cmd.Process.Pid, "sleep")
		select {
		case <-testCtx(t).Done():
			_ = cmd.Process.Kill()
			t.Fatal("the command never started (is sleep still allowed by the policy?)")
		case <-time.After(10 * time.Millisecond):
		}
	}
	_ = stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("server exit: %v", err)
	}
	if !processGone(child) {
		t.Errorf("process %d outlived the server", child)
	}
}

// childOf returns the pid of a child of parent whose command name is comm,
// or 0.
func childOf(parent int, comm string) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open || end+2 > len(s) {
			continue
		}
		fields := strings.Fields(s[end+2:])
		if s[open+1:end] == comm && len(fields) > 1 && fields[1] == strconv.Itoa(parent) {
			return pid
		}
	}
	return 0
}

// TestBinaryApprovals goes through the real policy's approvals: a session
// approval spares the second identical call the question, and an always
// approval spares a new session too.
func TestBinaryApprovals(t *testing.T) {
	be := newBinaryEnv(t)
	tests := []struct {
		command string
		choice  string
		// askedInNewSession: whether a fresh connection asks again.
		askedInNewSession bool
	}{
		{"touch by-session", ChoiceSession, true},
		{"mkdir -p by-always", ChoiceAlways, false},
	}
	for _, tc := range tests {
		t.Run(tc.choice, func(t *testing.T) {
			el := &elicitor{action: "accept", choice: tc.choice}
			cs := connectBinary(t, be, &mcp.ClientOptions{ElicitationHandler: el.handle})
			for i := range 2 {
				out := runOutput(t, call(t, cs, ToolRun, map[string]any{"command": tc.command}))
				if out.ExitCode != 0 {
					t.Fatalf("call %d: %+v", i+1, out)
				}
			}
			if el.count() != 1 {
				t.Fatalf("asked %d times in one session, want 1", el.count())
			}
			_ = cs.Close()

			el2 := &elicitor{action: "accept", choice: ChoiceDeny}
			cs2 := connectBinary(t, be, &mcp.ClientOptions{ElicitationHandler: el2.handle})
			res := call(t, cs2, ToolRun, map[string]any{"command": tc.command})
			if asked := el2.count() == 1; asked != tc.askedInNewSession {
				t.Errorf("new session asked: %v, want %v (%s)", asked, tc.askedInNewSession, text(res))
			}
			store, _ := os.ReadFile(filepath.Join(be.home, ".config", "shellguard", "approvals.json"))
			word, _, _ := strings.Cut(tc.command, " ")
			saved := strings.Contains(string(store), `"`+word+`"`) && strings.Contains(string(store), `"mcp"`)
			if saved == tc.askedInNewSession {
				t.Errorf("approval store saved %s: %v; store:\n%s", word, saved, store)
			}
		})
	}
}
