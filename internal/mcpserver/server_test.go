package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/policy"
)

// fakeDecider gives fixed verdicts: verdicts[command], Ask when absent.
// An Ask turns into Allow once the command was approved (exactly) for the
// session or always.
type fakeDecider struct {
	verdicts map[string]policy.Verdict

	mu         sync.Mutex
	always     map[string]bool
	approvals  []approvalCall
	decided    []policy.Request
	approveErr error
}

type approvalCall struct {
	command    string
	exact      bool
	scope      approval.Scope
	hasSession bool
	via        string
}

func newFake(v map[string]policy.Verdict) *fakeDecider {
	return &fakeDecider{verdicts: v, always: map[string]bool{}}
}

func (f *fakeDecider) Decide(req policy.Request) policy.Decision {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.decided = append(f.decided, req)
	v, ok := f.verdicts[req.Command]
	if !ok {
		v = policy.Ask
	}
	d := policy.Decision{Command: req.Command, Verdict: v, Reason: "fake says " + v.String()}
	if v == policy.Deny {
		l := danger.Critical
		d.Level = &l
	}
	if v == policy.Ask {
		if f.always[req.Command] {
			d.Verdict, d.Reason = policy.Allow, "approved always"
		}
		for _, e := range req.Session.Entries() {
			if e.Kind == approval.Exact && e.Pattern == req.Command {
				d.Verdict, d.Reason = policy.Allow, "approved for the session"
			}
		}
	}
	return d
}

func (f *fakeDecider) Approve(command string, exact bool, scope approval.Scope, session *approval.SessionStore, via string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.approvals = append(f.approvals, approvalCall{command, exact, scope, session != nil, via})
	if f.approveErr != nil {
		return f.approveErr
	}
	switch scope {
	case approval.Session:
		if session == nil {
			return errors.New("no session")
		}
		session.Add(approval.Entry{Kind: approval.Exact, Pattern: command, GrantedVia: via})
	case approval.Always:
		f.always[command] = true
	}
	return nil
}

func (f *fakeDecider) approvalCalls() []approvalCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.approvals)
}

// elicitor answers approval questions with a fixed answer and counts them.
type elicitor struct {
	action string // accept, decline, cancel
	choice string

	mu       sync.Mutex
	asked    int
	commands []string
}

func (e *elicitor) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.asked++
	cmd, _ := req.Params.Meta[MetaCommand].(string)
	e.commands = append(e.commands, cmd)
	res := &mcp.ElicitResult{Action: e.action}
	if e.action == "accept" {
		res.Content = map[string]any{"choice": e.choice}
	}
	return res, nil
}

func (e *elicitor) count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.asked
}

// protocolVersions are the versions the elicitation tests run under: the
// legacy one (server-initiated elicitation/create) and the newest (multi
// round-trip, answered by the client).
var protocolVersions = []string{"2025-11-25", ""}

func testCtx(t *testing.T) context.Context {
	// A guard against hangs, not a timing assertion.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// connect starts New(d, opts) and a client in memory.
func connect(t *testing.T, d Decider, opts Options, copts *mcp.ClientOptions, version string) *mcp.ClientSession {
	t.Helper()
	ctx := testCtx(t)
	srv := New(d, opts)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, copts)
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Close()
	})
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(testCtx(t), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s, %v): %v", tool, args, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func runOutput(t *testing.T, res *mcp.CallToolResult) RunOutput {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool error: %s", text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var out RunOutput
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
	return out
}

// markerShell returns options whose shell runs with a PATH where `rm`
// and `touch-marker` only create a marker file, and the marker's path, so
// tests can tell whether a command was executed.
func markerEnv(t *testing.T) (Options, string) {
	t.Helper()
	bin := t.TempDir()
	marker := filepath.Join(t.TempDir(), "executed")
	script := "#!/bin/sh\necho \"$0 $*\" >> '" + marker + "'\n"
	for _, name := range []string{"rm", "touch-marker"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return Options{Shell: []string{"/bin/sh", "-c"}, Env: env}, marker
}

func executed(marker string) bool {
	_, err := os.Stat(marker)
	return err == nil
}

func TestListTools(t *testing.T) {
	cs := connect(t, newFake(nil), Options{}, nil, "")
	res, err := cs.ListTools(testCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		byName[tool.Name] = tool
	}
	for _, name := range []string{ToolRun, ToolCheck} {
		tool := byName[name]
		if tool == nil {
			t.Fatalf("tool %s not listed; got %v", name, res.Tools)
		}
		if tool.Description == "" {
			t.Errorf("%s has no description", name)
		}
		in, _ := json.Marshal(tool.InputSchema)
		if !strings.Contains(string(in), `"command"`) {
			t.Errorf("%s input schema lacks command: %s", name, in)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s has no output schema", name)
		}
	}
	out, _ := json.Marshal(byName[ToolRun].OutputSchema)
	for _, field := range []string{"exit_code", "output", "truncated", "timed_out"} {
		if !strings.Contains(string(out), `"`+field+`"`) {
			t.Errorf("run output schema lacks %s: %s", field, out)
		}
	}
	if len(res.Tools) != 2 {
		t.Errorf("got %d tools, want 2", len(res.Tools))
	}
}

func TestRunAllowed(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		command string
		cwd     string
		code    int
		output  string
	}{
		{"echo", "echo hello", "", 0, "hello\n"},
		{"non-zero exit", "sh -c 'exit 3'", "", 3, ""},
		{"stderr combined in order", "echo out; echo err >&2; echo out2", "", 0, "out\nerr\nout2\n"},
		{"cwd", "pwd -P", realDir, 0, realDir + "\n"},
		{"relative cwd", "pwd -P", "sub", 0, filepath.Join(realDir, "sub") + "\n"},
		{"default cwd", "pwd -P", "", 0, realDir + "\n"},
		{"stdin is empty", "cat", "", 0, ""},
		{"multi-line", "echo a\necho b", "", 0, "a\nb\n"},
		{"killed by signal", "kill -9 $$", "", 137, ""},
	}
	verdicts := map[string]policy.Verdict{}
	for _, tc := range tests {
		verdicts[tc.command] = policy.Allow
	}
	fake := newFake(verdicts)
	cs := connect(t, fake, Options{Cwd: realDir, Shell: []string{"/bin/sh", "-c"}}, nil, "")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{"command": tc.command}
			if tc.cwd != "" {
				args["cwd"] = tc.cwd
			}
			res := call(t, cs, ToolRun, args)
			out := runOutput(t, res)
			if out.ExitCode != tc.code || out.Output != tc.output || out.Truncated || out.TimedOut {
				t.Errorf("got %+v, want exit %d output %q", out, tc.code, tc.output)
			}
			if want := fmt.Sprintf("%s[exit code: %d]", tc.output, tc.code); text(res) != want {
				t.Errorf("text content %q, want %q", text(res), want)
			}
		})
	}
	// The decider saw the resolved directory and a session store.
	fake.mu.Lock()
	defer fake.mu.Unlock()
	for _, req := range fake.decided {
		if !filepath.IsAbs(req.Cwd) || req.Session == nil {
			t.Errorf("Decide got %+v, want an absolute cwd and a session", req)
		}
	}
}

func TestRunDeniedIsNeverExecuted(t *testing.T) {
	opts, marker := markerEnv(t)
	for _, version := range protocolVersions {
		t.Run("protocol "+version, func(t *testing.T) {
			el := &elicitor{action: "accept", choice: ChoiceOnce}
			fake := newFake(map[string]policy.Verdict{"rm -rf /": policy.Deny})
			cs := connect(t, fake, opts, &mcp.ClientOptions{ElicitationHandler: el.handle}, version)
			res := call(t, cs, ToolRun, map[string]any{"command": "rm -rf /"})
			if !res.IsError {
				t.Fatalf("rm -rf / was not refused: %+v", res)
			}
			if got := text(res); !strings.Contains(got, "fake says deny") || !strings.Contains(got, "refused") {
				t.Errorf("error %q does not carry the reason", got)
			}
			if el.count() != 0 {
				t.Errorf("a deny verdict was elicited %d times", el.count())
			}
			if executed(marker) {
				t.Fatal("rm -rf / was executed")
			}
		})
	}
}

func TestAskWithoutElicitation(t *testing.T) {
	opts, marker := markerEnv(t)
	opts.ApprovalsFile = "/tmp/my approvals.json"
	fake := newFake(nil)
	cs := connect(t, fake, opts, nil, "")
	tests := []struct{ command, want string }{
		{"touch-marker make build", `shellguard allow add --approvals '/tmp/my approvals.json' -- 'touch-marker make build'`},
		{"touch-marker it's", `shellguard allow add --approvals '/tmp/my approvals.json' -- "touch-marker it's"`},
		{"touch-marker it's", `shellguard allow add --exact --approvals '/tmp/my approvals.json' -- "touch-marker it's"`},
	}
	for _, tc := range tests {
		res := call(t, cs, ToolRun, map[string]any{"command": tc.command})
		if !res.IsError {
			t.Fatalf("%q ran without approval", tc.command)
		}
		if got := text(res); !strings.Contains(got, tc.want) || !strings.Contains(got, "fake says ask") {
			t.Errorf("error %q does not say how to approve (%s) and why", got, tc.want)
		}
	}
	if executed(marker) {
		t.Fatal("a command needing approval was executed")
	}
	if len(fake.approvalCalls()) != 0 {
		t.Errorf("approvals recorded: %v", fake.approvalCalls())
	}
}

func TestAskElicited(t *testing.T) {
	const cmd = "touch-marker build"
	tests := []struct {
		name      string
		action    string
		choice    string
		runs      bool
		approvals []approvalCall
		// asked is how often the second identical call elicits again
		askedAgain bool
		errWant    string
	}{
		{name: "once", action: "accept", choice: ChoiceOnce, runs: true, askedAgain: true},
		{name: "session", action: "accept", choice: ChoiceSession, runs: true,
			approvals: []approvalCall{{cmd, false, approval.Session, true, "mcp"}}},
		{name: "always", action: "accept", choice: ChoiceAlways, runs: true,
			approvals: []approvalCall{{cmd, false, approval.Always, false, "mcp"}}},
		{name: "deny", action: "accept", choice: ChoiceDeny, askedAgain: true, errWant: "denied"},
		{name: "decline", action: "decline", askedAgain: true, errWant: "declined"},
		{name: "cancel", action: "cancel", askedAgain: true, errWant: "dismissed"},
	}
	for _, version := range protocolVersions {
		for _, tc := range tests {
			t.Run(fmt.Sprintf("%s/protocol %q", tc.name, version), func(t *testing.T) {
				opts, marker := markerEnv(t)
				el := &elicitor{action: tc.action, choice: tc.choice}
				fake := newFake(nil)
				cs := connect(t, fake, opts, &mcp.ClientOptions{ElicitationHandler: el.handle}, version)

				negotiated := cs.InitializeResult().ProtocolVersion
				if version != "" && negotiated != version || version == "" && negotiated < "2026-07-28" {
					t.Fatalf("negotiated protocol %s for %q", negotiated, version)
				}
				res := call(t, cs, ToolRun, map[string]any{"command": cmd})
				if el.count() != 1 {
					t.Fatalf("asked %d times, want 1", el.count())
				}
				if el.commands[0] != cmd {
					t.Errorf("elicitation meta command %q, want %q", el.commands[0], cmd)
				}
				if tc.runs {
					out := runOutput(t, res)
					if out.ExitCode != 0 || !executed(marker) {
						t.Fatalf("approved command did not run: %+v", out)
					}
				} else {
					if !res.IsError || !strings.Contains(text(res), tc.errWant) {
						t.Fatalf("got %v %q, want a tool error with %q", res.IsError, text(res), tc.errWant)
					}
					if executed(marker) {
						t.Fatal("refused command was executed")
					}
				}
				if got := fake.approvalCalls(); !slices.Equal(got, tc.approvals) {
					t.Errorf("approvals %+v, want %+v", got, tc.approvals)
				}

				// The same command again.
				res = call(t, cs, ToolRun, map[string]any{"command": cmd})
				want := 1
				if tc.askedAgain {
					want = 2
				}
				if el.count() != want {
					t.Errorf("second call: asked %d times in all, want %d", el.count(), want)
				}
				if tc.runs && res.IsError {
					t.Errorf("second call failed: %s", text(res))
				}
			})
		}
	}
}

func TestSessionApprovalsArePerSession(t *testing.T) {
	const cmd = "echo session"
	fake := newFake(nil)
	el := &elicitor{action: "accept", choice: ChoiceSession}
	srv := New(fake, Options{})
	ctx := testCtx(t)
	var sessions []*mcp.ClientSession
	for range 2 {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, &mcp.ClientOptions{ElicitationHandler: el.handle}).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cs.Close(); _ = ss.Close() })
		sessions = append(sessions, cs)
	}
	for i, cs := range sessions {
		for range 2 {
			if res := call(t, cs, ToolRun, map[string]any{"command": cmd}); res.IsError {
				t.Fatal(text(res))
			}
		}
		if el.count() != i+1 {
			t.Errorf("after session %d: asked %d times, want %d", i+1, el.count(), i+1)
		}
	}
}

func TestApprovalFailureDoesNotRun(t *testing.T) {
	opts, marker := markerEnv(t)
	for _, choice := range []string{ChoiceSession, ChoiceAlways} {
		fake := newFake(nil)
		fake.approveErr = errors.New("disk full")
		el := &elicitor{action: "accept", choice: choice}
		cs := connect(t, fake, opts, &mcp.ClientOptions{ElicitationHandler: el.handle}, "")
		res := call(t, cs, ToolRun, map[string]any{"command": "touch-marker x"})
		if !res.IsError || !strings.Contains(text(res), "disk full") {
			t.Errorf("%s: got %q, want an error naming the failure", choice, text(res))
		}
		if executed(marker) {
			t.Fatalf("%s: ran although the approval was not recorded", choice)
		}
	}
}

// TestForgedAnswers drives the multi round-trip by hand, as a client that
// does not ask the person would: answers need the server's token for the
// same command and directory, once.
func TestForgedAnswers(t *testing.T) {
	opts, marker := markerEnv(t)
	fake := newFake(nil)
	el := &elicitor{action: "accept", choice: ChoiceOnce}
	cs := connect(t, fake, opts, &mcp.ClientOptions{ElicitationHandler: el.handle, MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}}, "")
	ctx := testCtx(t)
	yes := mcp.InputResponseMap{approvalKey: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "always"}}}
	callWith := func(command, state string, answers mcp.InputResponseMap) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolRun, Arguments: map[string]any{"command": command}, InputResponses: answers, RequestState: state})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	for _, state := range []string{"", "bogus"} {
		if res := callWith("touch-marker a", state, yes); !res.IsError {
			t.Fatalf("answer with state %q was honoured", state)
		}
	}
	first := callWith("touch-marker a", "", nil)
	if !first.NeedsInput() || first.RequestState == "" || first.InputRequests[approvalKey] == nil {
		t.Fatalf("first call did not ask: %+v", first)
	}
	ep, ok := first.InputRequests[approvalKey].(*mcp.ElicitParams)
	if !ok || !strings.Contains(ep.Message, "touch-marker a") {
		t.Fatalf("question %+v does not show the command", first.InputRequests[approvalKey])
	}
	if res := callWith("touch-marker b", first.RequestState, yes); !res.IsError {
		t.Fatal("an answer about another command was honoured")
	}
	if executed(marker) {
		t.Fatal("executed on a forged answer")
	}
	// The token was spent by the mismatched attempt: ask again, then answer.
	second := callWith("touch-marker a", "", nil)
	bad := mcp.InputResponseMap{approvalKey: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "sure"}}}
	if res := callWith("touch-marker a", second.RequestState, bad); !res.IsError {
		t.Fatal("an invalid choice was honoured")
	}
	third := callWith("touch-marker a", "", nil)
	if res := callWith("touch-marker a", third.RequestState, yes); res.IsError {
		t.Fatalf("a genuine answer was refused: %s", text(res))
	}
	if !executed(marker) {
		t.Fatal("the approved command did not run")
	}
	if res := callWith("touch-marker c", third.RequestState, yes); !res.IsError {
		t.Fatal("a spent token was honoured")
	}
	if el.count() != 0 {
		t.Errorf("the client handler was used %d times with multi round-trip disabled", el.count())
	}
}

func TestTimeout(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := "sleep 30 & echo $! > " + pidFile + "; sleep 30"
	fake := newFake(map[string]policy.Verdict{cmd: policy.Allow, "sleep 30": policy.Allow})
	cs := connect(t, fake, Options{}, nil, "")

	out := runOutput(t, call(t, cs, ToolRun, map[string]any{"command": "sleep 30", "timeout_seconds": 1}))
	if !out.TimedOut || out.ExitCode != 137 || !strings.Contains(out.Output, "timed out") {
		t.Errorf("got %+v, want timed_out, exit 137 and a note", out)
	}

	out = runOutput(t, call(t, cs, ToolRun, map[string]any{"command": cmd, "timeout_seconds": 1}))
	if !out.TimedOut {
		t.Fatalf("got %+v, want timed_out", out)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	// The background sleep was in the killed process group. The kill is
	// asynchronous: wait for it to die (gone, or a zombie nobody reaps).
	for !processGone(pid) {
		select {
		case <-testCtx(t).Done():
			t.Fatalf("background process %d survived the timeout", pid)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func processGone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// pid (comm) S ...: the state follows the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && (s[i+2] == 'Z' || s[i+2] == 'X')
}

func TestHugeOutputIsCapped(t *testing.T) {
	const cmd = "yes | head -c 5000000"
	cs := connect(t, newFake(map[string]policy.Verdict{cmd: policy.Allow}), Options{}, nil, "")
	out := runOutput(t, call(t, cs, ToolRun, map[string]any{"command": cmd}))
	if !out.Truncated || out.ExitCode != 0 || out.TimedOut {
		t.Errorf("got truncated=%v exit=%d timed_out=%v", out.Truncated, out.ExitCode, out.TimedOut)
	}
	if len(out.Output) > DefaultMaxOutput+200 {
		t.Errorf("output is %d bytes, cap is %d", len(out.Output), DefaultMaxOutput)
	}
	if !strings.Contains(out.Output, "output truncated: 3951424 bytes left out") {
		t.Errorf("no truncation marker in output")
	}
	if !strings.HasPrefix(out.Output, "y\ny\n") || !strings.HasSuffix(out.Output, "y\ny\n") {
		t.Errorf("head or tail not kept")
	}
}

func TestInvalidInput(t *testing.T) {
	opts, marker := markerEnv(t)
	fake := newFake(map[string]policy.Verdict{"touch-marker x": policy.Allow})
	cs := connect(t, fake, opts, nil, "")
	tests := []struct {
		name string
		args map[string]any
	}{
		{"no command", map[string]any{}},
		{"empty command", map[string]any{"command": ""}},
		{"blank command", map[string]any{"command": "  \n"}},
		{"timeout too long", map[string]any{"command": "touch-marker x", "timeout_seconds": 601}},
		{"negative timeout", map[string]any{"command": "touch-marker x", "timeout_seconds": -1}},
		{"timeout not a number", map[string]any{"command": "touch-marker x", "timeout_seconds": "ten"}},
		{"missing cwd", map[string]any{"command": "touch-marker x", "cwd": "/nonexistent/shellguard"}},
		{"cwd is a file", map[string]any{"command": "touch-marker x", "cwd": "/etc/passwd"}},
		{"command not a string", map[string]any{"command": 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, cs, ToolRun, tc.args)
			if !res.IsError {
				t.Errorf("accepted %v", tc.args)
			}
		})
	}
	if executed(marker) {
		t.Fatal("an invalid call executed its command")
	}
}

func TestCheckCommand(t *testing.T) {
	opts, marker := markerEnv(t)
	fake := newFake(map[string]policy.Verdict{"touch-marker ok": policy.Allow, "rm -rf /": policy.Deny})
	cs := connect(t, fake, opts, nil, "")
	tests := []struct{ command, verdict string }{
		{"touch-marker ok", "allow"},
		{"rm -rf /", "deny"},
		{"make build", "ask"},
	}
	for _, tc := range tests {
		res := call(t, cs, ToolCheck, map[string]any{"command": tc.command})
		if res.IsError {
			t.Fatalf("%s: %s", tc.command, text(res))
		}
		b, _ := json.Marshal(res.StructuredContent)
		var d policy.Decision
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if d.Verdict.String() != tc.verdict || d.Command != tc.command || d.Reason == "" {
			t.Errorf("%s: got %s", tc.command, b)
		}
	}
	if executed(marker) {
		t.Fatal("check_command executed a command")
	}
	if res := call(t, cs, ToolCheck, map[string]any{"command": ""}); !res.IsError {
		t.Error("empty command accepted")
	}
}

// badDecider returns verdicts that are not verdicts.
type badDecider struct{}

func (badDecider) Decide(req policy.Request) policy.Decision {
	return policy.Decision{Command: req.Command}
}

func (badDecider) Approve(string, bool, approval.Scope, *approval.SessionStore, string) error {
	return nil
}

func TestFailClosed(t *testing.T) {
	opts, marker := markerEnv(t)
	for name, d := range map[string]Decider{"nil decider": nil, "zero verdict": badDecider{}} {
		t.Run(name, func(t *testing.T) {
			cs := connect(t, d, opts, nil, "")
			res := call(t, cs, ToolRun, map[string]any{"command": "touch-marker x"})
			if !res.IsError {
				t.Fatal("ran without a verdict")
			}
			if executed(marker) {
				t.Fatal("executed without a verdict")
			}
			if res := call(t, cs, ToolCheck, map[string]any{"command": "touch-marker x"}); d == nil && res.IsError {
				t.Errorf("check with nil decider: %s", text(res))
			}
		})
	}
}

func TestConcurrentCalls(t *testing.T) {
	fake := newFake(map[string]policy.Verdict{})
	for i := range 8 {
		fake.verdicts[fmt.Sprintf("echo %d", i)] = policy.Allow
	}
	cs := connect(t, fake, Options{}, nil, "")
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for i := range 8 {
		wg.Go(func() {
			res, err := cs.CallTool(testCtx(t), &mcp.CallToolParams{Name: ToolRun, Arguments: map[string]any{"command": fmt.Sprintf("echo %d", i)}})
			if err != nil {
				errs <- err.Error()
				return
			}
			b, _ := json.Marshal(res.StructuredContent)
			var out RunOutput
			if json.Unmarshal(b, &out) != nil || out.Output != fmt.Sprintf("%d\n", i) {
				errs <- string(b)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// waitForFile polls for a file a command writes (not a timing assertion:
// the test context bounds the wait).
func waitForFile(t *testing.T, path string) []byte {
	t.Helper()
	for {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 && b[len(b)-1] == '\n' {
			return b
		}
		select {
		case <-testCtx(t).Done():
			t.Fatalf("%s never appeared", path)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(string(waitForFile(t, path))))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// pipeTransports are a client and a server transport over two pipes; close
// clientOut to make the server read EOF, as when a client closes stdin.
func pipeTransports() (client, server mcp.Transport, clientOut io.Closer) {
	toServerR, toServerW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	return &mcp.IOTransport{Reader: toClientR, Writer: toServerW},
		&mcp.IOTransport{Reader: toServerR, Writer: toClientW},
		toServerW
}

// TestRunKillsCommandsAtEOF: when the client's end closes, Run kills what
// is still running and returns only once it is gone.
func TestRunKillsCommandsAtEOF(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := "echo $$ > " + pidFile + "; exec sleep 60"
	fake := newFake(map[string]policy.Verdict{cmd: policy.Allow})
	ctx := testCtx(t)
	ct, st, clientOut := pipeTransports()
	done := make(chan error, 1)
	go func() { done <- Run(ctx, fake, Options{}, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		_, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolRun, Arguments: map[string]any{"command": cmd}})
	}()
	pid := readPid(t, pidFile)
	if processGone(pid) {
		t.Fatal("command not running")
	}
	_ = clientOut.Close()
	<-done
	if !processGone(pid) {
		t.Errorf("process %d outlived Run", pid)
	}
}

// TestCancelKillsCommand: a call the client cancels kills its command.
func TestCancelKillsCommand(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := "echo $$ > " + pidFile + "; exec sleep 60"
	cs := connect(t, newFake(map[string]policy.Verdict{cmd: policy.Allow}), Options{}, nil, "")
	ctx, cancel := context.WithCancel(testCtx(t))
	callErr := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolRun, Arguments: map[string]any{"command": cmd}})
		callErr <- err
	}()
	pid := readPid(t, pidFile)
	cancel()
	if err := <-callErr; err == nil {
		t.Error("the cancelled call reported success")
	}
	for !processGone(pid) {
		select {
		case <-testCtx(t).Done():
			t.Fatalf("process %d outlived its cancelled call", pid)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
