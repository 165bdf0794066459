package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/internal/testbin"
	"github.com/shellguard/shellguard/policy"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func level(l danger.Level) *danger.Level { return &l }

// warned is a decision with one warning: p matching inv's command.
func warned(command string, verdict policy.Verdict, reason string, p danger.Pattern, inv policy.InvocationResult) policy.Decision {
	return policy.Decision{
		Command: command, Verdict: verdict, Reason: reason,
		Level:       level(p.Level),
		Warnings:    []danger.Warning{danger.NewWarning(command, p, inv.Command)},
		Invocations: []policy.InvocationResult{inv},
	}
}

func critical(command string) policy.Decision {
	return warned(command, policy.Deny, "It would delete every file on the machine",
		danger.Pattern{Name: "rm_rf_root", Level: danger.Critical, Description: "recursive removal of the root directory"},
		policy.InvocationResult{Command: "rm -rf /", Prefix: "rm", Reason: "critical danger"})
}

func askWarned(command string) policy.Decision {
	return warned(command, policy.Ask, "git reset --hard is not approved",
		danger.Pattern{Name: "git_reset_hard", Level: danger.High, Description: "discards uncommitted changes"},
		policy.InvocationResult{Command: "git reset --hard", Prefix: "git reset"})
}

func allowed(command string) policy.Decision {
	return policy.Decision{
		Command: command, Verdict: policy.Allow, Reason: "Every invocation is approved",
		Invocations: []policy.InvocationResult{{Command: "ls -la", Prefix: "ls", Approved: true, ApprovedBy: policy.Approver{Kind: policy.ByReadOnly, Name: "ls"}}},
	}
}

func unknown(command string) policy.Decision {
	return policy.Decision{
		Command: command, Verdict: policy.Ask, Reason: "make build is not approved",
		Invocations: []policy.InvocationResult{{Command: "make build", Prefix: "make build"}},
	}
}

type call struct{ command, cwd, session string }

type hookCase struct {
	name   string
	input  func(agents.Agent) string
	decide func(command string) (policy.Decision, error)
	// want is the action expected, per agent.
	want map[agents.Agent]Action
	// wantCall is the decide call expected, or nil for none.
	wantCall *call
	// failure marks a case answered as a problem.
	failure bool
}

// same expects a for every agent.
func same(a Action) map[agents.Agent]Action {
	m := map[agents.Agent]Action{}
	for _, ag := range agents.Agents() {
		m[ag] = a
	}
	return m
}

// byAsk expects, for an ask with an opinion, the agent's ask where its
// protocol can ask and a block where it cannot.
func byAsk() map[agents.Agent]Action {
	m := map[agents.Agent]Action{}
	for _, sp := range agents.Specs() {
		m[sp.Name] = DenyAction
		if sp.Ask != agents.AskNever {
			m[sp.Name] = AskAction
		}
	}
	return m
}

// byAllow expects an allow where the protocol has one, no answer where
// it does not.
func byAllow() map[agents.Agent]Action {
	m := map[agents.Agent]Action{}
	for _, sp := range agents.Specs() {
		m[sp.Name] = NoOpinion
		if sp.Allow {
			m[sp.Name] = AllowAction
		}
	}
	return m
}

func ok(f func(string) policy.Decision) func(string) (policy.Decision, error) {
	return func(c string) (policy.Decision, error) { return f(c), nil }
}

// failClosed is the answer to a problem when a person is there: ask where
// the agent can ask and tells whether a person is there, else block;
// unattended, every agent blocks. Pi's extension reports a person in the
// input, so a problem found after that is read is asked (lateFailure).
func failClosed() map[agents.Agent]Action {
	m := same(DenyAction)
	m[agents.Claude], m[agents.Gemini] = AskAction, AskAction
	return m
}

func lateFailure() map[agents.Agent]Action {
	m := failClosed()
	m[agents.Pi] = AskAction
	return m
}

// The environments the golden tests run in: a person at the agent's
// terminal, and a headless run.
var (
	attendedEnv = Env{
		Getenv:      func(k string) string { return map[string]string{"CLAUDE_CODE_SESSION_ATTENDED": "1"}[k] },
		HasTerminal: func() bool { return true },
		Parent:      func() int { return 100 },
		ReadProcess: fakeProcesses(map[int]Process{
			100: {PPID: 50, Argv: []string{"/usr/bin/node", "--max-old-space-size=8192", "/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js"}},
		}),
	}
	unattendedEnv = Env{
		Getenv: func(k string) string { return map[string]string{"CLAUDE_CODE_SESSION_ATTENDED": "0"}[k] },
	}
)

func fakeProcesses(m map[int]Process) func(int) (Process, error) {
	return func(pid int) (Process, error) {
		p, ok := m[pid]
		if !ok {
			return Process{}, errors.New("no such process")
		}
		return p, nil
	}
}

// unattendedWant is the action expected in a headless run: failures
// block (Pi's input still says a person is there); an ask stays an ask on
// agents that refuse it themselves (the fake decisions are not turned into
// deny by the policy: this is unattended = "ask") and blocks on Gemini
// CLI, where an ask would wait forever.
func unattendedWant(tc hookCase, a agents.Agent) Action {
	w := tc.want[a]
	if w == AskAction && (a == agents.Gemini || tc.failure && a != agents.Pi) {
		return DenyAction
	}
	return w
}

func hookCases() []hookCase {
	cmd := func(c string) func(agents.Agent) string {
		q, _ := json.Marshal(c)
		return func(a agents.Agent) string { return inputFor(a, string(q)) }
	}
	askRule := func(c string) policy.Decision {
		return policy.Decision{Command: c, Verdict: policy.Ask, Reason: "A rule asks for git push", Rules: []string{"ask: git push *"},
			Invocations: []policy.InvocationResult{{Command: c, Prefix: "git push"}}}
	}
	otherEvent := same(NoOpinion)
	otherEvent[agents.Copilot] = DenyAction // its camelCase input names no event: registered on preToolUse only
	return []hookCase{
		{name: "deny", input: cmd("rm -rf /"), decide: ok(critical), want: same(DenyAction),
			wantCall: &call{"rm -rf /", "/home/u/project", "abc123"}},
		{name: "ask", input: cmd("git reset --hard"), decide: ok(askWarned), want: byAsk(),
			wantCall: &call{"git reset --hard", "/home/u/project", "abc123"}},
		{name: "ask-rule", input: cmd("git push origin main"), decide: ok(askRule), want: byAsk()},
		{name: "allow", input: cmd("ls -la"), decide: ok(allowed), want: byAllow()},
		{name: "allow-partly-approved", input: cmd("ls -la && make"), decide: ok(func(c string) policy.Decision {
			d := allowed(c)
			d.Invocations = append(d.Invocations, policy.InvocationResult{Command: "make", Prefix: "make"})
			return d
		}), want: same(NoOpinion)},
		{name: "no-opinion", input: cmd("make build"), decide: ok(unknown), want: same(NoOpinion)},
		{name: "shell-redirection", input: cmd("echo a > out.txt && cat < in.txt"), decide: ok(critical), want: same(DenyAction)},
		{name: "argv-command", input: func(a agents.Agent) string { return inputFor(a, `["bash","-lc","rm -rf /"]`) },
			decide: ok(critical), want: same(DenyAction), wantCall: &call{"bash -lc 'rm -rf /'", "/home/u/project", "abc123"}},
		{name: "non-shell-tool", input: otherToolInput, decide: ok(critical), want: same(NoOpinion)},
		{name: "other-event", input: func(a agents.Agent) string {
			return strings.Replace(cmd("rm -rf /")(a), `"`+a.Event()+`"`, `"PostToolUse"`, 1)
		}, decide: ok(critical), want: otherEvent},
		{name: "malformed", input: func(agents.Agent) string { return `{"tool_name": "Bash", "tool_input": {"command": "rm -rf /"` },
			decide: ok(allowed), want: failClosed(), failure: true},
		{name: "not-an-object", input: func(agents.Agent) string { return `"rm -rf /"` }, decide: ok(allowed), want: failClosed(), failure: true},
		{name: "empty-input", input: func(agents.Agent) string { return `` }, decide: ok(allowed), want: failClosed(), failure: true},
		{name: "trailing-data", input: func(a agents.Agent) string { return cmd("ls")(a) + `{"x":1}` }, decide: ok(allowed), want: failClosed(), failure: true},
		{name: "oversized", input: func(a agents.Agent) string {
			return inputFor(a, `"ls `+strings.Repeat("a", MaxInput)+`"`)
		}, decide: ok(allowed), want: failClosed(), failure: true},
		{name: "missing-command", input: missingCommandInput, decide: ok(allowed), want: lateFailure(), failure: true},
		{name: "empty-command", input: cmd("   "), decide: ok(allowed), want: lateFailure(), failure: true},
		{name: "command-not-a-string", input: func(a agents.Agent) string { return inputFor(a, `42`) }, decide: ok(allowed), want: lateFailure(), failure: true},
		{name: "missing-tool-input", input: missingArgsInput, decide: ok(allowed), want: failClosed(), failure: true},
		{name: "missing-tool-name", input: missingToolInput, decide: ok(allowed), want: failClosed(), failure: true},
		{name: "config-error", input: cmd("ls"), decide: func(string) (policy.Decision, error) {
			return policy.Decision{}, errors.New("loading /home/u/project/.shellguard.toml: line 3: expected '='")
		}, want: lateFailure(), failure: true},
		{name: "decide-panics", input: cmd("ls"), decide: func(string) (policy.Decision, error) { panic("boom") }, want: lateFailure(), failure: true},
		{name: "invalid-verdict", input: cmd("ls"), decide: func(c string) (policy.Decision, error) {
			return policy.Decision{Command: c}, nil
		}, want: lateFailure(), failure: true},
	}
}

func TestRunGolden(t *testing.T) {
	for _, situation := range []struct {
		name, dir string
		env       Env
	}{{"attended", "", attendedEnv}, {"unattended", "unattended", unattendedEnv}} {
		for _, agent := range agents.Agents() {
			for _, tc := range hookCases() {
				t.Run(situation.name+"/"+string(agent)+"/"+tc.name, func(t *testing.T) {
					var calls []call
					decide := func(r Request) (policy.Decision, error) {
						calls = append(calls, call{r.Command, r.Cwd, r.SessionID})
						return tc.decide(r.Command)
					}
					var out, errOut bytes.Buffer
					code := RunWith(agent, strings.NewReader(tc.input(agent)), &out, &errOut, decide, situation.env)
					want := tc.want[agent]
					if situation.name == "unattended" {
						want = unattendedWant(tc, agent)
					}
					if got := parseResult(t, agent, out.Bytes(), errOut.Bytes(), code); got != want {
						t.Errorf("action = %v, want %v; output %s%s (exit %d)", got, want, out.String(), errOut.String(), code)
					}
					if tc.wantCall != nil && !(agent == agents.Cline && tc.name == "argv-command") && (len(calls) != 1 || calls[0] != *tc.wantCall) {
						t.Errorf("decide calls = %+v, want one %+v", calls, *tc.wantCall)
					}
					got := out.Bytes()
					if agent.Spec().Output == agents.OutputExitCode {
						got = []byte(fmt.Sprintf("exit %d\n%s", code, errOut.Bytes()))
					}
					golden(t, filepath.Join("testdata", string(agent), situation.dir, tc.name+".golden"), got)
				})
			}
		}
	}
}

// parseAction reads a JSON answer back in the agent's protocol (see
// parseResult).
func parseAction(t *testing.T, agent agents.Agent, out []byte) Action {
	t.Helper()
	return parseResult(t, agent, out, nil, 0)
}

func actionNamed(t *testing.T, s string) Action {
	t.Helper()
	switch s {
	case "allow":
		return AllowAction
	case "ask":
		return AskAction
	case "deny":
		return DenyAction
	}
	t.Fatalf("unknown decision %q", s)
	return NoOpinion
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	testbin.Golden(t, path, got, *update)
}

func TestRunUnknownAgent(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Run("nosuchagent", strings.NewReader(inputFor(agents.Claude, `"ls"`)), &out, &errOut, func(Request) (policy.Decision, error) {
		t.Fatal("decide called")
		return policy.Decision{}, nil
	})
	if code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), "unknown agent") {
		t.Fatalf("code %d out %q err %q", code, out.String(), errOut.String())
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestRunWriteFailureBlocks(t *testing.T) {
	var errOut bytes.Buffer
	code := Run(agents.Claude, strings.NewReader(inputFor(agents.Claude, `"rm -rf /"`)), failingWriter{}, &errOut,
		func(r Request) (policy.Decision, error) { return critical(r.Command), nil })
	if code != 2 || !strings.Contains(errOut.String(), "blocking") {
		t.Fatalf("code %d, stderr %q; want 2 and a reason", code, errOut.String())
	}
}

func TestGeminiDirPath(t *testing.T) {
	in := `{"cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"sub"}}`
	var gotCwd string
	Run(agents.Gemini, strings.NewReader(in), &bytes.Buffer{}, &bytes.Buffer{}, func(r Request) (policy.Decision, error) {
		gotCwd = r.Cwd
		return unknown(r.Command), nil
	})
	if gotCwd != filepath.Join("/w", "sub") {
		t.Fatalf("cwd = %q", gotCwd)
	}
}

func TestActionFor(t *testing.T) {
	tests := []struct {
		name string
		d    policy.Decision
		want Action
	}{
		{"deny", critical("rm -rf /"), DenyAction},
		{"ask warned", askWarned("git reset --hard"), AskAction},
		{"ask level only", policy.Decision{Verdict: policy.Ask, Level: level(danger.Low)}, AskAction},
		{"ask rule", policy.Decision{Verdict: policy.Ask, Rules: []string{"ask: x"}}, AskAction},
		{"ask plain", unknown("make build"), NoOpinion},
		{"allow", allowed("ls"), AllowAction},
		{"allow no invocations", policy.Decision{Verdict: policy.Allow}, NoOpinion},
		{"allow unapproved", policy.Decision{Verdict: policy.Allow, Invocations: []policy.InvocationResult{{Approved: true}, {}}}, NoOpinion},
		{"zero verdict", policy.Decision{}, AskAction},
		{"bogus verdict", policy.Decision{Verdict: 42}, AskAction},
	}
	for _, tt := range tests {
		if got := ActionFor(tt.d); got != tt.want {
			t.Errorf("%s: ActionFor = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestParseAgent(t *testing.T) {
	for _, a := range agents.Agents() {
		got, err := agents.ParseAgent(" " + strings.ToUpper(string(a)))
		if err != nil || got != a {
			t.Errorf("ParseAgent(%q) = %q, %v", a, got, err)
		}
	}
	if _, err := agents.ParseAgent("nosuchagent"); err == nil {
		t.Error("ParseAgent(nosuchagent) succeeded")
	}
}

func TestShownTruncatesOnRuneBoundary(t *testing.T) {
	s := shown(strings.Repeat("é", 300))
	if !json.Valid([]byte(`"`+s+`"`)) || len(s) > maxShown+10 {
		t.Fatalf("shown = %q", s)
	}
}
