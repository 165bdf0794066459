package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/policy"
)

// fixture is one agent's realistic hook inputs, shaped like its
// documented (and, where it could be run, observed) stdin.
type fixture struct {
	// call is a call of the shell tool; %s is the command's JSON.
	call string
	// other is a call of another tool (or, for agents whose hook is for
	// shell commands only, another event).
	other string
	// noArgs is a call of the shell tool without its arguments, noTool
	// one that names no tool.
	noArgs, noTool string
	// commandKey is the member holding the command.
	commandKey string
}

var fixtures = map[agents.Agent]fixture{
	agents.Claude: {
		call: `{"session_id":"abc123","transcript_path":"/home/u/.claude/projects/p/abc123.jsonl","cwd":"/home/u/project",` +
			`"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash",` +
			`"tool_input":{"command":%s,"description":"Run it","timeout":120000},"tool_use_id":"toolu_01"}`,
		other:      `{"session_id":"abc123","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/p/a.go"}}`,
		noArgs:     `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash"}`,
		noTool:     `{"session_id":"s","cwd":"/p","tool_input":{"command":"ls"}}`,
		commandKey: "command",
	},
	agents.Gemini: {
		call: `{"session_id":"abc123","transcript_path":"/home/u/.gemini/tmp/chats/abc123.json","cwd":"/home/u/project",` +
			`"hook_event_name":"BeforeTool","timestamp":"2026-01-02T03:04:05.000Z","tool_name":"run_shell_command",` +
			`"tool_input":{"command":%s,"description":"Run it"}}`,
		other:      `{"session_id":"abc123","cwd":"/p","hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"file_path":"a.go"}}`,
		noArgs:     `{"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool","tool_name":"run_shell_command"}`,
		noTool:     `{"session_id":"s","cwd":"/p","tool_input":{"command":"ls"}}`,
		commandKey: "command",
	},
	agents.Codex: {
		call: `{"session_id":"abc123","turn_id":"turn-1","transcript_path":null,"cwd":"/home/u/project",` +
			`"hook_event_name":"PreToolUse","model":"gpt-5","permission_mode":"default","tool_name":"Bash",` +
			`"tool_input":{"command":%s},"tool_use_id":"call_1"}`,
		other:      `{"session_id":"abc123","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch"}}`,
		noArgs:     `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash"}`,
		noTool:     `{"session_id":"s","cwd":"/p","tool_input":{"command":"ls"}}`,
		commandKey: "command",
	},
	// Observed with Copilot CLI 1.0.102 (toolArgs an object; the
	// documentation shows a JSON string, which is read too).
	agents.Copilot: {
		call:       `{"sessionId":"abc123","timestamp":1796303229795,"cwd":"/home/u/project","toolName":"bash","toolArgs":{"command":%s,"description":"Run it","mode":"sync"}}`,
		other:      `{"sessionId":"abc123","timestamp":1796303229795,"cwd":"/p","toolName":"view","toolArgs":{"path":"/p/a.go"}}`,
		noArgs:     `{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"bash"}`,
		noTool:     `{"sessionId":"s","timestamp":1,"cwd":"/p","toolArgs":{"command":"ls"}}`,
		commandKey: "command",
	},
	// What shellguard's OpenCode plugin sends (package install).
	agents.OpenCode: {
		call:       `{"hook_event_name":"tool.execute.before","session_id":"abc123","cwd":"/home/u/project","tool_name":"bash","tool_input":{"command":%s,"description":"Run it"}}`,
		other:      `{"hook_event_name":"tool.execute.before","session_id":"abc123","cwd":"/p","tool_name":"read","tool_input":{"filePath":"/p/a.go"}}`,
		noArgs:     `{"hook_event_name":"tool.execute.before","session_id":"s","cwd":"/p","tool_name":"bash"}`,
		noTool:     `{"hook_event_name":"tool.execute.before","session_id":"s","cwd":"/p","tool_input":{"command":"ls"}}`,
		commandKey: "command",
	},
	// https://cursor.com/docs/agent/hooks (beforeShellExecution).
	agents.Cursor: {
		call: `{"conversation_id":"abc123","generation_id":"gen-1","model":"default","hook_event_name":"beforeShellExecution",` +
			`"cursor_version":"2.0.77","workspace_roots":["/home/u/project"],"user_email":null,"transcript_path":null,` +
			`"command":%s,"cwd":"/home/u/project","sandbox":false}`,
		other:      `{"conversation_id":"abc123","hook_event_name":"beforeReadFile","workspace_roots":["/p"],"file_path":"/p/.env","content":"X=1"}`,
		noArgs:     `{"conversation_id":"s","hook_event_name":"beforeShellExecution","workspace_roots":["/p"],"cwd":"/p"}`,
		noTool:     `{"conversation_id":"s","hook_event_name":"beforeShellExecution","cwd":"/p","cmd":"ls"}`,
		commandKey: "command",
	},
	// https://docs.windsurf.com/windsurf/cascade/hooks (pre_run_command).
	agents.Windsurf: {
		call:       `{"agent_action_name":"pre_run_command","trajectory_id":"abc123","execution_id":"exec-1","timestamp":"2026-01-02T03:04:05Z","tool_info":{"command_line":%s,"cwd":"/home/u/project"}}`,
		other:      `{"agent_action_name":"pre_read_code","trajectory_id":"abc123","tool_info":{"file_path":"/p/a.go"}}`,
		noArgs:     `{"agent_action_name":"pre_run_command","trajectory_id":"s"}`,
		noTool:     `{"agent_action_name":"pre_run_command","trajectory_id":"s","tool_info":{"cwd":"/p"}}`,
		commandKey: "command_line",
	},
	// Observed with Cline CLI 3.0.65 (a PreToolUse hook file).
	agents.Cline: {
		call: `{"clineVersion":"","timestamp":"2026-01-02T03:04:05.000Z","taskId":"abc123","sessionContext":{"rootSessionId":"r1"},` +
			`"workspaceRoots":["/home/u/project"],"workspaceInfo":{"rootPath":"/home/u/project","hint":"project"},"userId":"u",` +
			`"agent_id":"agent_1","parent_agent_id":null,"hookName":"tool_call","iteration":1,` +
			`"tool_call":{"id":"call_1","name":"run_commands","input":{"commands":%s}},` +
			`"preToolUse":{"toolName":"run_commands","parameters":{"commands":"[]"}}}`,
		other:      `{"hookName":"tool_call","taskId":"abc123","workspaceRoots":["/p"],"tool_call":{"id":"c","name":"read_files","input":{"paths":["a.go"]}}}`,
		noArgs:     `{"hookName":"tool_call","taskId":"s","workspaceRoots":["/p"],"tool_call":{"id":"c","name":"run_commands"}}`,
		noTool:     `{"hookName":"tool_call","taskId":"s","workspaceRoots":["/p"],"tool_call":{"id":"c","input":{"commands":["ls"]}}}`,
		commandKey: "commands",
	},
	// Observed with Qwen Code 0.24.4.
	agents.Qwen: {
		call: `{"session_id":"abc123","transcript_path":"/home/u/.qwen/projects/p/chats/abc123.jsonl","cwd":"/home/u/project",` +
			`"hook_event_name":"PreToolUse","timestamp":"2026-01-02T03:04:05.000Z","permission_mode":"default","prompt_id":"abc123########0",` +
			`"tool_name":"run_shell_command","tool_input":{"command":%s,"description":"Run it"},"tool_use_id":"toolu_1","tool_call_id":"call_1"}`,
		other:      `{"session_id":"abc123","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"read_file","tool_input":{"absolute_path":"/p/a.go"}}`,
		noArgs:     `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"run_shell_command"}`,
		noTool:     `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_input":{"command":"ls"}}`,
		commandKey: "command",
	},
	// Observed with droid 0.215.0.
	agents.Droid: {
		call: `{"session_id":"abc123","transcript_path":"/home/u/.factory/sessions/p/abc123.jsonl","cwd":"/home/u/project",` +
			`"permission_mode":"auto-high","hook_event_name":"PreToolUse","tool_name":"Execute",` +
			`"tool_input":{"command":%s,"riskLevel":"low","riskLevelReason":"Run it","summary":"Run it"}}`,
		other:      `{"session_id":"abc123","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/p/a.go"}}`,
		noArgs:     `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Execute"}`,
		noTool:     `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_input":{"command":"ls"}}`,
		commandKey: "command",
	},
	// charmbracelet/crush docs/hooks/README.md (stdin payload).
	agents.Crush: {
		call:       `{"event":"PreToolUse","session_id":"abc123","cwd":"/home/u/project","tool_name":"bash","tool_input":{"command":%s,"description":"Run it"}}`,
		other:      `{"event":"PreToolUse","session_id":"abc123","cwd":"/p","tool_name":"view","tool_input":{"file_path":"/p/a.go"}}`,
		noArgs:     `{"event":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"bash"}`,
		noTool:     `{"event":"PreToolUse","session_id":"s","cwd":"/p","tool_input":{"command":"ls"}}`,
		commandKey: "command",
	},
	// What shellguard's Pi extension sends (package install).
	agents.Pi: {
		call:       `{"hook_event_name":"tool_call","session_id":"abc123","cwd":"/home/u/project","tool_name":"bash","tool_input":{"command":%s},"attended":true}`,
		other:      `{"hook_event_name":"tool_call","session_id":"abc123","cwd":"/p","tool_name":"read","tool_input":{"path":"/p/a.go"},"attended":true}`,
		noArgs:     `{"hook_event_name":"tool_call","session_id":"s","cwd":"/p","tool_name":"bash"}`,
		noTool:     `{"hook_event_name":"tool_call","session_id":"s","cwd":"/p","tool_input":{"command":"ls"}}`,
		commandKey: "command",
	},
	// What shellguard's Kilo Code plugin sends (the OpenCode plugin).
	agents.Kilo: {
		call:       `{"hook_event_name":"tool.execute.before","session_id":"abc123","cwd":"/home/u/project","tool_name":"bash","tool_input":{"command":%s,"description":"Run it","workdir":"/home/u/project"}}`,
		other:      `{"hook_event_name":"tool.execute.before","session_id":"abc123","cwd":"/p","tool_name":"read","tool_input":{"filePath":"/p/a.go"}}`,
		noArgs:     `{"hook_event_name":"tool.execute.before","session_id":"s","cwd":"/p","tool_name":"bash"}`,
		noTool:     `{"hook_event_name":"tool.execute.before","session_id":"s","cwd":"/p","tool_input":{"command":"ls"}}`,
		commandKey: "command",
	},
	// What shellguard's Amp plugin sends (package install).
	agents.Amp: {
		call:       `{"hook_event_name":"tool.call","session_id":"abc123","cwd":"/home/u/project","tool_name":"Bash","tool_input":{"command":%s}}`,
		other:      `{"hook_event_name":"tool.call","session_id":"T-abc123","cwd":"/p","tool_name":"Read","tool_input":{"path":"/p/a.go"}}`,
		noArgs:     `{"hook_event_name":"tool.call","session_id":"s","cwd":"/p","tool_name":"Bash"}`,
		noTool:     `{"hook_event_name":"tool.call","session_id":"s","cwd":"/p","tool_input":{"command":"ls"}}`,
		commandKey: "command",
	},
	// https://docs.augmentcode.com/cli/hooks and auggie 0.36.0's hook
	// executor (the PreToolUse payload).
	agents.Augment: {
		call: `{"hook_event_name":"PreToolUse","conversation_id":"abc123","workspace_roots":["/home/u/project"],"tool_name":"launch-process",` +
			`"tool_input":{"command":%s,"wait":true,"max_wait_seconds":600},"is_mcp_tool":false}`,
		other:      `{"hook_event_name":"PreToolUse","conversation_id":"abc123","workspace_roots":["/p"],"tool_name":"view","tool_input":{"path":"a.go"},"is_mcp_tool":false}`,
		noArgs:     `{"hook_event_name":"PreToolUse","conversation_id":"s","workspace_roots":["/p"],"tool_name":"launch-process"}`,
		noTool:     `{"hook_event_name":"PreToolUse","conversation_id":"s","workspace_roots":["/p"],"tool_input":{"command":"ls"}}`,
		commandKey: "command",
	},
}

// inputFor is a call of a's shell tool with the command whose JSON is
// commandJSON. For Cline, whose run_commands takes a list of command
// lines, a JSON list is that list.
func inputFor(a agents.Agent, commandJSON string) string {
	f, ok := fixtures[a]
	if !ok {
		panic("no fixture for " + string(a))
	}
	if a == agents.Cline && !strings.HasPrefix(commandJSON, "[") {
		commandJSON = "[" + commandJSON + "]"
	}
	return strings.Replace(f.call, "%s", commandJSON, 1)
}

func otherToolInput(a agents.Agent) string { return fixtures[a].other }
func missingArgsInput(a agents.Agent) string {
	return fixtures[a].noArgs
}
func missingToolInput(a agents.Agent) string { return fixtures[a].noTool }

// missingCommandInput is a call of the shell tool whose command member
// has another name.
func missingCommandInput(a agents.Agent) string {
	return strings.Replace(inputFor(a, `"ls"`), `"`+fixtures[a].commandKey+`":`, `"cmd":`, 1)
}

// parseResult reads an answer back in the agent's protocol (stdout,
// stderr and exit code) and checks that it holds only documented fields.
func parseResult(t *testing.T, agent agents.Agent, out, errOut []byte, code int) Action {
	t.Helper()
	spec := agent.Spec()
	if spec.Output == agents.OutputExitCode {
		switch {
		case code == 2 && len(strings.TrimSpace(string(errOut))) > 0 && len(out) == 0:
			return DenyAction
		case code == 0 && len(out) == 0 && len(errOut) == 0:
			return NoOpinion
		}
		t.Fatalf("%s answers with exit 0 and nothing, or exit 2 and a reason on stderr: exit %d, stdout %q, stderr %q", agent, code, out, errOut)
	}
	if code != 0 || len(errOut) != 0 {
		t.Fatalf("exit code %d, stderr %q; want 0 and nothing", code, errOut)
	}
	if len(strings.TrimSpace(string(out))) == 0 {
		return NoOpinion
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(out, &top); err != nil {
		t.Fatalf("output is not a JSON object: %v: %s", err, out)
	}
	only := func(m map[string]json.RawMessage, keys ...string) {
		t.Helper()
		for k := range m {
			if !slices.Contains(keys, k) {
				t.Fatalf("undocumented field %q in %s", k, out)
			}
		}
	}
	str := func(m map[string]json.RawMessage, k string) string {
		var s string
		json.Unmarshal(m[k], &s)
		return s
	}
	switch spec.Output {
	case agents.OutputClaude, agents.OutputCodex:
		if len(top) != 1 || top["hookSpecificOutput"] == nil {
			t.Fatalf("output keys: %s", out)
		}
		var hs map[string]string
		if err := json.Unmarshal(top["hookSpecificOutput"], &hs); err != nil {
			t.Fatal(err)
		}
		if len(hs) != 3 || hs["hookEventName"] != spec.Event || strings.TrimSpace(hs["permissionDecisionReason"]) == "" {
			t.Fatalf("hookSpecificOutput: %v", hs)
		}
		if agent == agents.Codex && hs["permissionDecision"] != "deny" {
			t.Fatalf("Codex supports only deny, got %q", hs["permissionDecision"])
		}
		if agent == agents.Codex && strings.HasSuffix(hs["permissionDecisionReason"], ".") {
			t.Fatalf("Codex appends \". Command: ...\" to the reason; it must not end with a period: %q", hs["permissionDecisionReason"])
		}
		return actionNamed(t, hs["permissionDecision"])
	case agents.OutputGemini:
		only(top, "decision", "reason", "systemMessage")
		if str(top, "decision") == "deny" && strings.TrimSpace(str(top, "reason")) == "" {
			t.Fatal("deny without a reason")
		}
		if str(top, "decision") == "deny" && strings.Contains(str(top, "systemMessage"), "Approve") {
			t.Fatalf("a blocked command's message tells the user to approve it: %q", str(top, "systemMessage"))
		}
		return actionNamed(t, str(top, "decision"))
	case agents.OutputCopilot:
		only(top, "permissionDecision", "permissionDecisionReason")
		d := str(top, "permissionDecision")
		if d != "allow" && strings.TrimSpace(str(top, "permissionDecisionReason")) == "" {
			t.Fatalf("%s without a reason: %s", d, out)
		}
		return actionNamed(t, d)
	case agents.OutputCursor:
		only(top, "permission", "user_message", "agent_message")
		d := str(top, "permission")
		if d != "allow" && (strings.TrimSpace(str(top, "user_message")) == "" || strings.TrimSpace(str(top, "agent_message")) == "") {
			t.Fatalf("%s without messages: %s", d, out)
		}
		return actionNamed(t, d)
	case agents.OutputCrush:
		only(top, "decision", "reason")
		d := str(top, "decision")
		if d != "allow" && d != "deny" {
			t.Fatalf("Crush reads only allow and deny, got %q", d)
		}
		if d == "deny" && strings.TrimSpace(str(top, "reason")) == "" {
			t.Fatal("deny without a reason")
		}
		return actionNamed(t, d)
	case agents.OutputPlugin:
		only(top, "decision", "reason", "message")
		d := str(top, "decision")
		if d != "allow" && (strings.TrimSpace(str(top, "reason")) == "" || strings.TrimSpace(str(top, "message")) == "") {
			t.Fatalf("%s without a reason and a message: %s", d, out)
		}
		return actionNamed(t, d)
	case agents.OutputCline:
		only(top, "cancel", "errorMessage", "context", "overrideInput")
		if string(top["cancel"]) == "true" {
			if strings.TrimSpace(str(top, "errorMessage")) == "" {
				t.Fatalf("cancel without a reason: %s", out)
			}
			return DenyAction
		}
		var override map[string]any
		if err := json.Unmarshal(top["overrideInput"], &override); err != nil || len(override) != 1 || strings.TrimSpace(str(top, "context")) == "" {
			t.Fatalf("a Cline block replaces the input (one member) and gives the reason as context: %s", out)
		}
		for _, v := range override {
			list, _ := v.([]any)
			if s, ok := v.(string); ok {
				list = []any{s}
			}
			for _, c := range list {
				s, _ := c.(string)
				if !strings.HasPrefix(s, "printf '%s\\n' ") || !strings.HasSuffix(s, " >&2; exit 1") {
					t.Fatalf("the replacement command does more than print the reason: %q", s)
				}
			}
		}
		return DenyAction
	}
	t.Fatalf("agent %q", agent)
	return NoOpinion
}

// TestAgentInputs reads each agent's facts where its Input says they are:
// the cwd (and the directory the command runs in), the session, and every
// command of a call.
func TestAgentInputs(t *testing.T) {
	cases := []struct {
		name     string
		agent    agents.Agent
		input    string
		commands []string // the commands decided, in order
		cwd      string
		session  string
	}{
		{"copilot toolArgs as a JSON string", agents.Copilot,
			`{"sessionId":"s1","timestamp":1,"cwd":"/p","toolName":"bash","toolArgs":"{\"command\":\"ls -la\"}"}`,
			[]string{"ls -la"}, "/p", "s1"},
		{"cursor command at the top", agents.Cursor,
			`{"hook_event_name":"beforeShellExecution","conversation_id":"c1","workspace_roots":["/root"],"command":"ls","cwd":"/p/sub"}`,
			[]string{"ls"}, "/p/sub", "c1"},
		{"cursor cwd from the workspace roots", agents.Cursor,
			`{"hook_event_name":"beforeShellExecution","conversation_id":"c1","workspace_roots":["/root","/other"],"command":"ls","cwd":""}`,
			[]string{"ls"}, "/root", "c1"},
		{"windsurf cwd in tool_info", agents.Windsurf,
			`{"agent_action_name":"pre_run_command","trajectory_id":"t1","tool_info":{"command_line":"make","cwd":"/w"}}`,
			[]string{"make"}, "/w", "t1"},
		{"cline every command of run_commands", agents.Cline,
			`{"hookName":"tool_call","taskId":"k1","workspaceRoots":["/c"],"tool_call":{"id":"x","name":"run_commands","input":{"commands":["ls","git status"]}}}`,
			[]string{"ls", "git status"}, "/c", "k1"},
		{"cline execute_command", agents.Cline,
			`{"hookName":"tool_call","taskId":"k1","workspaceRoots":["/c"],"tool_call":{"id":"x","name":"execute_command","input":{"command":"ls","requires_approval":false}}}`,
			[]string{"ls"}, "/c", "k1"},
		{"augment cwd of launch-process", agents.Augment,
			`{"hook_event_name":"PreToolUse","conversation_id":"a1","workspace_roots":["/r"],"tool_name":"launch-process","tool_input":{"command":"ls","cwd":"sub"}}`,
			[]string{"ls"}, "/r/sub", "a1"},
		{"crush working_dir", agents.Crush,
			`{"event":"PreToolUse","session_id":"c2","cwd":"/p","tool_name":"bash","tool_input":{"command":"ls","working_dir":"/q"}}`,
			[]string{"ls"}, "/q", "c2"},
		{"opencode workdir", agents.OpenCode,
			`{"hook_event_name":"tool.execute.before","session_id":"o1","cwd":"/p","tool_name":"bash","tool_input":{"command":"ls","workdir":"/p/x"}}`,
			[]string{"ls"}, "/p/x", "o1"},
		{"qwen directory", agents.Qwen,
			`{"hook_event_name":"PreToolUse","session_id":"q1","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"ls","directory":"d"}}`,
			[]string{"ls"}, "/p/d", "q1"},
		{"claude ignores workdir", agents.Claude,
			`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":{"command":"ls","workdir":"/etc"}}`,
			[]string{"ls"}, "/p", "s"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []Request
			decide := func(r Request) (policy.Decision, error) {
				got = append(got, r)
				return unknown(r.Command), nil
			}
			var out, errOut bytes.Buffer
			RunWith(tc.agent, strings.NewReader(tc.input), &out, &errOut, decide, attendedEnv)
			if len(got) != len(tc.commands) {
				t.Fatalf("decided %d commands, want %v (output %s%s)", len(got), tc.commands, out.String(), errOut.String())
			}
			for i, r := range got {
				if r.Command != tc.commands[i] || r.Cwd != tc.cwd || r.SessionID != tc.session || r.Agent != tc.agent {
					t.Errorf("request %d = %+v, want command %q cwd %q session %q", i, r, tc.commands[i], tc.cwd, tc.session)
				}
			}
		})
	}
}

// TestClineCommandsWorstWins: a call with several command lines is
// answered for the most restrictive one, and its block replaces the
// member the commands came in.
func TestClineCommandsWorstWins(t *testing.T) {
	in := `{"hookName":"tool_call","taskId":"k","workspaceRoots":["/c"],"tool_call":{"id":"x","name":"run_commands","input":{"commands":["ls -la","rm -rf /","make"]}}}`
	decide := func(r Request) (policy.Decision, error) {
		switch r.Command {
		case "ls -la":
			return allowed(r.Command), nil
		case "rm -rf /":
			return critical(r.Command), nil
		}
		return unknown(r.Command), nil
	}
	var out bytes.Buffer
	RunWith(agents.Cline, strings.NewReader(in), &out, &bytes.Buffer{}, decide, attendedEnv)
	if got := parseAction(t, agents.Cline, out.Bytes()); got != DenyAction || !strings.Contains(out.String(), "rm -rf /") ||
		!strings.Contains(out.String(), `"overrideInput":{"commands":[`) {
		t.Fatalf("%v: %s", got, out.String())
	}
	single := `{"hookName":"tool_call","taskId":"k","workspaceRoots":["/c"],"tool_call":{"id":"x","name":"execute_command","input":{"command":"rm -rf /"}}}`
	out.Reset()
	RunWith(agents.Cline, strings.NewReader(single), &out, &bytes.Buffer{}, decide, attendedEnv)
	if !strings.Contains(out.String(), `"overrideInput":{"command":"printf`) {
		t.Fatalf("execute_command's block must replace its command: %s", out.String())
	}
	// Every command allowed: no answer (Cline's hooks have no allow).
	all := strings.Replace(in, `"rm -rf /","make"`, `"ls -la"`, 1)
	out.Reset()
	RunWith(agents.Cline, strings.NewReader(all), &out, &bytes.Buffer{}, decide, attendedEnv)
	if out.Len() != 0 {
		t.Fatalf("allowed commands got an answer: %s", out.String())
	}
}

// TestPiAttendedFromInput: Pi's extension says whether the session has a
// UI; without one an ask is a block, and the request is unattended.
func TestPiAttendedFromInput(t *testing.T) {
	for _, attended := range []bool{true, false} {
		in := strings.Replace(inputFor(agents.Pi, `"git reset --hard"`), `"attended":true`, fmt.Sprintf(`"attended":%v`, attended), 1)
		var req Request
		decide := func(r Request) (policy.Decision, error) { req = r; return askWarned(r.Command), nil }
		var out bytes.Buffer
		// The environment says a person is there; only the input counts.
		RunWith(agents.Pi, strings.NewReader(in), &out, &bytes.Buffer{}, decide, attendedEnv)
		want := map[bool]Action{true: AskAction, false: DenyAction}[attended]
		if got := parseAction(t, agents.Pi, out.Bytes()); got != want || req.Unattended == attended {
			t.Errorf("attended %v: %v (unattended %v), want %v: %s", attended, got, req.Unattended, want, out.String())
		}
	}
}

// TestCopilotPowerShell: Copilot CLI's powershell tool is answered, read
// as POSIX shell, and never allowed.
func TestCopilotPowerShell(t *testing.T) {
	in := `{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"powershell","toolArgs":{"command":"Get-ChildItem"}}`
	var out bytes.Buffer
	called := false
	RunWith(agents.Copilot, strings.NewReader(in), &out, &bytes.Buffer{}, func(r Request) (policy.Decision, error) {
		called = true
		return allowed(r.Command), nil
	}, attendedEnv)
	if !called || out.Len() != 0 {
		t.Fatalf("called %v, output %s; want decided and no allow", called, out.String())
	}
}
