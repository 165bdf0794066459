package hook

import (
	"bytes"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/policy"
)

// TestHookKeysAreExact is issue 11 item 10: encoding/json matched keys
// case-insensitively, so {"command":"rm -rf /","Command":"ls"} was
// answered "allow ls", while the agent, reading keys exactly, runs
// rm -rf /. Now the keys are read exactly, and any object with the same
// key twice or two keys that differ only in case is a problem (ask, or
// block where the protocol cannot ask), never decided.
func TestHookKeysAreExact(t *testing.T) {
	// Each mutation inserts members into an agent's realistic call of
	// rm -rf /: into the object holding the command, or at the top.
	type mutation struct {
		name string
		// where: "args" inserts before the command member, "top" at the
		// start of the top-level object.
		where string
		text  func(f fixture, sp agents.Spec) string
	}
	capital := func(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
	lsValue := func(f fixture) string {
		if f.commandKey == "commands" {
			return `["ls"]`
		}
		return `"ls"`
	}
	first := func(path string) string { return strings.Split(path, ".")[0] }
	mutations := []mutation{
		{"command and Command", "args", func(f fixture, _ agents.Spec) string { return `"` + capital(f.commandKey) + `":` + lsValue(f) + `,` }},
		{"command twice", "args", func(f fixture, _ agents.Spec) string { return `"` + f.commandKey + `":` + lsValue(f) + `,` }},
		{"COMMAND and command", "args", func(f fixture, _ agents.Spec) string {
			return `"` + strings.ToUpper(f.commandKey) + `":` + lsValue(f) + `,`
		}},
		{"Kelvin sign folds to k", "args", func(fixture, agents.Spec) string { return `"\u212a":"1","k":"2",` }},
		{"arguments twice", "top", func(_ fixture, sp agents.Spec) string {
			if sp.Input.Args == "" {
				return `"` + sp.Input.Command + `":"ls",`
			}
			return `"` + first(sp.Input.Args) + `":{"x":1},`
		}},
		{"arguments in another case", "top", func(_ fixture, sp agents.Spec) string {
			if sp.Input.Args == "" {
				return `"` + capital(sp.Input.Command) + `":"ls",`
			}
			return `"` + capital(first(sp.Input.Args)) + `":{"x":1},`
		}},
		{"cwd and CWD", "top", func(_ fixture, sp agents.Spec) string {
			k := firstSet(sp.Input.Cwd, sp.Input.Roots, sp.Input.Session)
			return `"` + strings.ToUpper(k) + `":"/q",`
		}},
		{"long s folds to s", "top", func(_ fixture, sp agents.Spec) string {
			k := firstSet(sp.Input.Session, sp.Input.Cwd)
			return `"` + strings.Replace(k, "s", "\u017f", 1) + `":"x",`
		}},
	}
	for _, agent := range agents.Agents() {
		sp := agent.Spec()
		f := fixtures[agent]
		for _, m := range mutations {
			t.Run(string(agent)+"/"+m.name, func(t *testing.T) {
				in := inputFor(agent, `"rm -rf /"`)
				switch m.where {
				case "args":
					at := strings.Index(in, `"`+f.commandKey+`":`)
					in = in[:at] + m.text(f, sp) + in[at:]
				default:
					in = "{" + m.text(f, sp) + in[1:]
				}
				called := false
				decide := func(r Request) (policy.Decision, error) {
					called = true
					return allowed(r.Command), nil
				}
				var out, errOut bytes.Buffer
				code := RunWith(agent, strings.NewReader(in), &out, &errOut, decide, unattendedEnv)
				if called {
					t.Errorf("decided an ambiguous input: %s", in)
				}
				// A problem found once Pi's extension said a person is
				// there (its input's "attended") is asked.
				want := DenyAction
				if agent == agents.Pi && m.where == "args" {
					want = AskAction
				}
				if got := parseResult(t, agent, out.Bytes(), errOut.Bytes(), code); got != want {
					t.Errorf("action %v, want %v: %s", got, want, out.String())
				}
				if !strings.Contains(out.String()+errOut.String(), "ambiguous") {
					t.Errorf("the reason does not say the input is ambiguous: %s%s (input %s)", out.String(), errOut.String(), in)
				}
			})
		}
	}
}

func firstSet(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// Only the exact keys are read: "Command" alone is no command, and the
// directory of Gemini CLI's run_shell_command is read for Gemini CLI only.
func TestHookReadsExactFields(t *testing.T) {
	cases := []struct {
		name    string
		agent   agents.Agent
		input   string
		wantCwd string // "" means decide must not be called
	}{
		{"Command alone", agents.Claude, `{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/p","tool_input":{"Command":"rm -rf /"}}`, ""},
		{"Cwd alone is no cwd", agents.Claude, `{"hook_event_name":"PreToolUse","tool_name":"Bash","Cwd":"/etc","tool_input":{"command":"ls"}}`, "-"},
		{"Claude ignores dir_path", agents.Claude, `{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/p","tool_input":{"command":"ls","dir_path":"/etc"}}`, "/p"},
		{"Codex ignores directory", agents.Codex, `{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/p","tool_input":{"command":"ls","directory":"/etc"}}`, "/p"},
		{"Gemini reads dir_path", agents.Gemini, `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","cwd":"/p","tool_input":{"command":"ls","dir_path":"sub"}}`, "/p/sub"},
		{"Gemini reads directory", agents.Gemini, `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","cwd":"/p","tool_input":{"command":"ls","directory":"/q"}}`, "/q"},
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
