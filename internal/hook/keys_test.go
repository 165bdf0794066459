package hook

import (
	"bytes"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/policy"
)

// TestHookKeysAreExact is issue 11 item 10: encoding/json matched keys
// case-insensitively, so {"command":"rm -rf /","Command":"ls"} was
// answered "allow ls", while the agent, reading keys exactly, runs
// rm -rf /. Now the keys are read exactly, and any object with the same
// key twice or two keys that differ only in case is a problem (ask, or
// block where the protocol cannot ask), never decided.
func TestHookKeysAreExact(t *testing.T) {
	head := map[Agent]string{
		Claude: `"hook_event_name":"PreToolUse","tool_name":"Bash"`,
		Gemini: `"hook_event_name":"BeforeTool","tool_name":"run_shell_command"`,
		Codex:  `"hook_event_name":"PreToolUse","tool_name":"Bash"`,
	}
	ambiguous := []struct{ name, body string }{
		{"command and Command", `"cwd":"/p","tool_input":{"command":"rm -rf /","Command":"ls"}}`},
		{"Command and command", `"cwd":"/p","tool_input":{"Command":"ls","command":"rm -rf /"}}`},
		{"command twice", `"cwd":"/p","tool_input":{"command":"rm -rf /","command":"ls"}}`},
		{"COMMAND and command", `"cwd":"/p","tool_input":{"COMMAND":"ls","command":"rm -rf /"}}`},
		{"tool_input twice", `"cwd":"/p","tool_input":{"command":"rm -rf /"},"tool_input":{"command":"ls"}}`},
		{"Tool_Input and tool_input", `"cwd":"/p","tool_input":{"command":"rm -rf /"},"Tool_Input":{"command":"ls"}}`},
		{"cwd and CWD", `"cwd":"/p","CWD":"/q","tool_input":{"command":"ls"}}`},
		{"tool_name and TOOL_NAME", `"TOOL_NAME":"Read","cwd":"/p","tool_input":{"command":"ls"}}`},
		{"long s folds to s", `"cwd":"/p","\u017fession_id":"x","session_id":"y","tool_input":{"command":"ls"}}`},
		{"Kelvin sign folds to k", `"cwd":"/p","tool_input":{"command":"ls","\u212a":"1","k":"2"}}`},
	}
	for _, agent := range Agents() {
		for _, tc := range ambiguous {
			t.Run(string(agent)+"/"+tc.name, func(t *testing.T) {
				in := "{" + head[agent] + "," + tc.body
				called := false
				decide := func(r Request) (policy.Decision, error) {
					called = true
					return allowed(r.Command), nil
				}
				var out, errOut bytes.Buffer
				RunWith(agent, strings.NewReader(in), &out, &errOut, decide, unattendedEnv)
				if called {
					t.Errorf("decided an ambiguous input")
				}
				want := DenyAction
				if got := parseAction(t, agent, out.Bytes()); got != want {
					t.Errorf("action %v, want %v: %s", got, want, out.String())
				}
				if !strings.Contains(out.String(), "ambiguous") {
					t.Errorf("the reason does not say the input is ambiguous: %s", out.String())
				}
			})
		}
	}
}

// Only the exact keys are read: "Command" alone is no command, and the
// directory of Gemini CLI's run_shell_command is read for Gemini CLI only.
func TestHookReadsExactFields(t *testing.T) {
	cases := []struct {
		name    string
		agent   Agent
		input   string
		wantCwd string // "" means decide must not be called
	}{
		{"Command alone", Claude, `{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/p","tool_input":{"Command":"rm -rf /"}}`, ""},
		{"Cwd alone is no cwd", Claude, `{"hook_event_name":"PreToolUse","tool_name":"Bash","Cwd":"/etc","tool_input":{"command":"ls"}}`, "-"},
		{"Claude ignores dir_path", Claude, `{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/p","tool_input":{"command":"ls","dir_path":"/etc"}}`, "/p"},
		{"Codex ignores directory", Codex, `{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/p","tool_input":{"command":"ls","directory":"/etc"}}`, "/p"},
		{"Gemini reads dir_path", Gemini, `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","cwd":"/p","tool_input":{"command":"ls","dir_path":"sub"}}`, "/p/sub"},
		{"Gemini reads directory", Gemini, `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","cwd":"/p","tool_input":{"command":"ls","directory":"/q"}}`, "/q"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var gotCwd *string
			decide := func(r Request) (policy.Decision, error) {
				gotCwd = &r.Cwd
				return allowed(r.Command), nil
			}
			var out, errOut bytes.Buffer
			Run(tc.agent, strings.NewReader(tc.input), &out, &errOut, decide)
			switch {
			case tc.wantCwd == "" && gotCwd != nil:
				t.Errorf("decided %s", out.String())
			case tc.wantCwd == "-" && (gotCwd == nil || *gotCwd != ""):
				t.Errorf("cwd %v, want none", gotCwd)
			case tc.wantCwd != "" && tc.wantCwd != "-" && (gotCwd == nil || *gotCwd != tc.wantCwd):
				t.Errorf("cwd %v, want %s", gotCwd, tc.wantCwd)
			}
		})
	}
}

// A decision that comes from a problem (over budget, audit log not
// written) is an opinion: ask, or block where the protocol cannot ask,
// never left to the agent's own permission flow.
func TestProblemIsAnOpinion(t *testing.T) {
	for _, p := range []string{policy.ProblemOverBudget, policy.ProblemAuditFailed, policy.ProblemInternal} {
		d := policy.Decision{Command: "ls", Verdict: policy.Ask, Problem: p, Reason: "x"}
		if a := ActionFor(d); a != AskAction {
			t.Errorf("%s: %v, want ask", p, a)
		}
	}
}
