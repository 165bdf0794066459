package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/policy"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Realistic hook inputs, shaped like each agent's documented stdin.
const (
	claudeInput = `{"session_id":"abc123","transcript_path":"/home/u/.claude/projects/p/abc123.jsonl","cwd":"/home/u/project",` +
		`"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash",` +
		`"tool_input":{"command":%s,"description":"Run it","timeout":120000},"tool_use_id":"toolu_01"}`
	geminiInput = `{"session_id":"abc123","transcript_path":"/home/u/.gemini/tmp/chats/abc123.json","cwd":"/home/u/project",` +
		`"hook_event_name":"BeforeTool","timestamp":"2026-01-02T03:04:05.000Z","tool_name":"run_shell_command",` +
		`"tool_input":{"command":%s,"description":"Run it"}}`
	codexInput = `{"session_id":"abc123","turn_id":"turn-1","transcript_path":null,"cwd":"/home/u/project",` +
		`"hook_event_name":"PreToolUse","model":"gpt-5","permission_mode":"default","tool_name":"Bash",` +
		`"tool_input":{"command":%s},"tool_use_id":"call_1"}`
)

func inputFor(a Agent, commandJSON string) string {
	tmpl := map[Agent]string{Claude: claudeInput, Gemini: geminiInput, Codex: codexInput}[a]
	return strings.Replace(tmpl, "%s", commandJSON, 1)
}

func otherToolInput(a Agent) string {
	switch a {
	case Gemini:
		return `{"session_id":"abc123","cwd":"/p","hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"file_path":"a.go"}}`
	case Codex:
		return `{"session_id":"abc123","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch"}}`
	}
	return `{"session_id":"abc123","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/p/a.go"}}`
}

func level(l danger.Level) *danger.Level { return &l }

func critical(command string) policy.Decision {
	p := danger.Pattern{Name: "rm_rf_root", Level: danger.Critical, Description: "recursive removal of the root directory"}
	return policy.Decision{
		Command: command, Verdict: policy.Deny, Reason: "It would delete every file on the machine",
		Level:       level(danger.Critical),
		Warnings:    []danger.Warning{danger.NewWarning(command, p, "rm -rf /")},
		Invocations: []policy.InvocationResult{{Command: "rm -rf /", Prefix: "rm", Reason: "critical danger"}},
	}
}

func askWarned(command string) policy.Decision {
	p := danger.Pattern{Name: "git_reset_hard", Level: danger.High, Description: "discards uncommitted changes"}
	return policy.Decision{
		Command: command, Verdict: policy.Ask, Reason: "git reset --hard is not approved",
		Level:       level(danger.High),
		Warnings:    []danger.Warning{danger.NewWarning(command, p, "git reset --hard")},
		Invocations: []policy.InvocationResult{{Command: "git reset --hard", Prefix: "git reset"}},
	}
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
	input  func(Agent) string
	decide func(command string) (policy.Decision, error)
	// want is the action expected, per agent.
	want map[Agent]Action
	// wantCall is the decide call expected, or nil for none.
	wantCall *call
	// failure marks a case answered as a problem.
	failure bool
}

func same(a Action) map[Agent]Action { return map[Agent]Action{Claude: a, Gemini: a, Codex: a} }

func ok(f func(string) policy.Decision) func(string) (policy.Decision, error) {
	return func(c string) (policy.Decision, error) { return f(c), nil }
}

// failClosed is the answer to a problem when a person is there (ask
// where the agent can ask, else block); unattended, every agent blocks.
var failClosed = map[Agent]Action{Claude: AskAction, Gemini: AskAction, Codex: DenyAction}

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
// block; an ask stays an ask on Claude Code (the fake decisions are not
// turned into deny by the policy: this is unattended = "ask") and blocks
// on Gemini CLI, where an ask would wait forever.
func unattendedWant(tc hookCase, a Agent) Action {
	w := tc.want[a]
	if w == AskAction && (a == Gemini || tc.failure) {
		return DenyAction
	}
	return w
}

func hookCases() []hookCase {
	cmd := func(c string) func(Agent) string {
		q, _ := json.Marshal(c)
		return func(a Agent) string { return inputFor(a, string(q)) }
	}
	return []hookCase{
		{name: "deny", input: cmd("rm -rf /"), decide: ok(critical), want: same(DenyAction),
			wantCall: &call{"rm -rf /", "/home/u/project", "abc123"}},
		{name: "ask", input: cmd("git reset --hard"), decide: ok(askWarned),
			want:     map[Agent]Action{Claude: AskAction, Gemini: AskAction, Codex: DenyAction},
			wantCall: &call{"git reset --hard", "/home/u/project", "abc123"}},
		{name: "ask-rule", input: cmd("git push origin main"), decide: ok(func(c string) policy.Decision {
			return policy.Decision{Command: c, Verdict: policy.Ask, Reason: "A rule asks for git push", Rules: []string{"ask: git push *"},
				Invocations: []policy.InvocationResult{{Command: c, Prefix: "git push"}}}
		}), want: map[Agent]Action{Claude: AskAction, Gemini: AskAction, Codex: DenyAction}},
		{name: "allow", input: cmd("ls -la"), decide: ok(allowed),
			want: map[Agent]Action{Claude: AllowAction, Gemini: AllowAction, Codex: NoOpinion}},
		{name: "allow-partly-approved", input: cmd("ls -la && make"), decide: ok(func(c string) policy.Decision {
			d := allowed(c)
			d.Invocations = append(d.Invocations, policy.InvocationResult{Command: "make", Prefix: "make"})
			return d
		}), want: same(NoOpinion)},
		{name: "no-opinion", input: cmd("make build"), decide: ok(unknown), want: same(NoOpinion)},
		{name: "shell-redirection", input: cmd("echo a > out.txt && cat < in.txt"), decide: ok(critical), want: same(DenyAction)},
		{name: "argv-command", input: func(a Agent) string { return inputFor(a, `["bash","-lc","rm -rf /"]`) },
			decide: ok(critical), want: same(DenyAction), wantCall: &call{"bash -lc 'rm -rf /'", "/home/u/project", "abc123"}},
		{name: "non-shell-tool", input: otherToolInput, decide: ok(critical), want: same(NoOpinion)},
		{name: "other-event", input: func(a Agent) string {
			return strings.Replace(cmd("rm -rf /")(a), a.Event(), "PostToolUse", 1)
		}, decide: ok(critical), want: same(NoOpinion)},
		{name: "malformed", input: func(Agent) string { return `{"tool_name": "Bash", "tool_input": {"command": "rm -rf /"` },
			decide: ok(allowed), want: failClosed, failure: true},
		{name: "not-an-object", input: func(Agent) string { return `"rm -rf /"` }, decide: ok(allowed), want: failClosed, failure: true},
		{name: "empty-input", input: func(Agent) string { return `` }, decide: ok(allowed), want: failClosed, failure: true},
		{name: "trailing-data", input: func(a Agent) string { return cmd("ls")(a) + `{"x":1}` }, decide: ok(allowed), want: failClosed, failure: true},
		{name: "oversized", input: func(a Agent) string {
			return inputFor(a, `"ls `+strings.Repeat("a", MaxInput)+`"`)
		}, decide: ok(allowed), want: failClosed, failure: true},
		{name: "missing-command", input: func(a Agent) string {
			return strings.Replace(inputFor(a, `null`), `"command":null`, `"cmd":"ls"`, 1)
		}, decide: ok(allowed), want: failClosed, failure: true},
		{name: "empty-command", input: cmd("   "), decide: ok(allowed), want: failClosed, failure: true},
		{name: "command-not-a-string", input: func(a Agent) string { return inputFor(a, `42`) }, decide: ok(allowed), want: failClosed, failure: true},
		{name: "missing-tool-input", input: func(a Agent) string {
			return `{"session_id":"s","cwd":"/p","hook_event_name":"` + a.Event() + `","tool_name":"` + a.ShellTool() + `"}`
		}, decide: ok(allowed), want: failClosed, failure: true},
		{name: "missing-tool-name", input: func(a Agent) string {
			return `{"session_id":"s","cwd":"/p","tool_input":{"command":"ls"}}`
		}, decide: ok(allowed), want: failClosed, failure: true},
		{name: "config-error", input: cmd("ls"), decide: func(string) (policy.Decision, error) {
			return policy.Decision{}, errors.New("loading /home/u/project/.shellguard.toml: line 3: expected '='")
		}, want: failClosed, failure: true},
		{name: "decide-panics", input: cmd("ls"), decide: func(string) (policy.Decision, error) { panic("boom") }, want: failClosed, failure: true},
		{name: "invalid-verdict", input: cmd("ls"), decide: func(c string) (policy.Decision, error) {
			return policy.Decision{Command: c}, nil
		}, want: failClosed, failure: true},
	}
}

func TestRunGolden(t *testing.T) {
	for _, situation := range []struct {
		name, dir string
		env       Env
	}{{"attended", "", attendedEnv}, {"unattended", "unattended", unattendedEnv}} {
		for _, agent := range Agents() {
			for _, tc := range hookCases() {
				t.Run(situation.name+"/"+string(agent)+"/"+tc.name, func(t *testing.T) {
					var calls []call
					decide := func(r Request) (policy.Decision, error) {
						calls = append(calls, call{r.Command, r.Cwd, r.SessionID})
						return tc.decide(r.Command)
					}
					var out, errOut bytes.Buffer
					code := RunWith(agent, strings.NewReader(tc.input(agent)), &out, &errOut, decide, situation.env)
					if code != 0 {
						t.Fatalf("exit code %d, want 0 (stderr %q)", code, errOut.String())
					}
					if errOut.Len() != 0 {
						t.Errorf("stderr = %q, want empty", errOut.String())
					}
					want := tc.want[agent]
					if situation.name == "unattended" {
						want = unattendedWant(tc, agent)
					}
					if got := parseAction(t, agent, out.Bytes()); got != want {
						t.Errorf("action = %v, want %v; output %s", got, want, out.String())
					}
					if tc.wantCall != nil && (len(calls) != 1 || calls[0] != *tc.wantCall) {
						t.Errorf("decide calls = %+v, want one %+v", calls, *tc.wantCall)
					}
					golden(t, filepath.Join("testdata", string(agent), situation.dir, tc.name+".golden"), out.Bytes())
				})
			}
		}
	}
}

// parseAction reads an answer back in the agent's protocol and checks that
// it holds only documented fields.
func parseAction(t *testing.T, agent Agent, out []byte) Action {
	t.Helper()
	if len(bytes.TrimSpace(out)) == 0 {
		return NoOpinion
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(out, &top); err != nil {
		t.Fatalf("output is not a JSON object: %v: %s", err, out)
	}
	switch agent {
	case Claude, Codex:
		if len(top) != 1 || top["hookSpecificOutput"] == nil {
			t.Fatalf("output keys: %s", out)
		}
		var hs map[string]string
		if err := json.Unmarshal(top["hookSpecificOutput"], &hs); err != nil {
			t.Fatal(err)
		}
		if len(hs) != 3 || hs["hookEventName"] != "PreToolUse" || strings.TrimSpace(hs["permissionDecisionReason"]) == "" {
			t.Fatalf("hookSpecificOutput: %v", hs)
		}
		if agent == Codex && hs["permissionDecision"] != "deny" {
			t.Fatalf("Codex supports only deny, got %q", hs["permissionDecision"])
		}
		if agent == Codex && strings.HasSuffix(hs["permissionDecisionReason"], ".") {
			t.Fatalf("Codex appends \". Command: ...\" to the reason; it must not end with a period: %q", hs["permissionDecisionReason"])
		}
		return actionNamed(t, hs["permissionDecision"])
	case Gemini:
		var g map[string]string
		if err := json.Unmarshal(out, &g); err != nil {
			t.Fatal(err)
		}
		for k := range g {
			if k != "decision" && k != "reason" && k != "systemMessage" {
				t.Fatalf("undocumented field %q", k)
			}
		}
		if g["decision"] == "deny" && strings.TrimSpace(g["reason"]) == "" {
			t.Fatal("deny without a reason")
		}
		if g["decision"] == "deny" && strings.Contains(g["systemMessage"], "Approve") {
			t.Fatalf("a blocked command's message tells the user to approve it: %q", g["systemMessage"])
		}
		return actionNamed(t, g["decision"])
	}
	t.Fatalf("agent %q", agent)
	return NoOpinion
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
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./hook -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s:\n got: %s\nwant: %s", path, got, want)
	}
}

func TestRunUnknownAgent(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Run("cursor", strings.NewReader(inputFor(Claude, `"ls"`)), &out, &errOut, func(Request) (policy.Decision, error) {
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
	code := Run(Claude, strings.NewReader(inputFor(Claude, `"rm -rf /"`)), failingWriter{}, &errOut,
		func(r Request) (policy.Decision, error) { return critical(r.Command), nil })
	if code != 2 || !strings.Contains(errOut.String(), "blocking") {
		t.Fatalf("code %d, stderr %q; want 2 and a reason", code, errOut.String())
	}
}

func TestGeminiDirPath(t *testing.T) {
	in := `{"cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"sub"}}`
	var gotCwd string
	Run(Gemini, strings.NewReader(in), &bytes.Buffer{}, &bytes.Buffer{}, func(r Request) (policy.Decision, error) {
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
	for _, a := range Agents() {
		got, err := ParseAgent(" " + strings.ToUpper(string(a)))
		if err != nil || got != a {
			t.Errorf("ParseAgent(%q) = %q, %v", a, got, err)
		}
	}
	if _, err := ParseAgent("cursor"); err == nil {
		t.Error("ParseAgent(cursor) succeeded")
	}
}

func TestShownTruncatesOnRuneBoundary(t *testing.T) {
	s := shown(strings.Repeat("é", 300))
	if !json.Valid([]byte(`"`+s+`"`)) || len(s) > maxShown+10 {
		t.Fatalf("shown = %q", s)
	}
}
