package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/policy"
)

// FuzzRun feeds arbitrary input to every agent's hook. Whatever the input,
// Run must not panic, must exit 0 with either nothing or one JSON object,
// and must answer "allow" only for a well-formed shell tool call whose
// decision allowed it.
func FuzzRun(f *testing.F) {
	for _, a := range agents.Agents() {
		f.Add(inputFor(a, `"ls -la"`), byte(0))
		f.Add(inputFor(a, `"rm -rf /"`), byte(1))
		f.Add(inputFor(a, `["ls","-la"]`), byte(0))
		f.Add(otherToolInput(a), byte(0))
	}
	f.Add(`{"tool_name":"Bash","tool_input":{"command":""}}`, byte(0))
	f.Add(`{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_input":null}`, byte(0))
	f.Add(`{"tool_name":"Bash","tool_input":{"command":"ls"}} x`, byte(0))
	f.Add(`[`, byte(2))
	f.Add("\x00\xff", byte(3))
	f.Fuzz(func(t *testing.T, in string, mode byte) {
		for _, agent := range agents.Agents() {
			decide := func(r Request) (policy.Decision, error) {
				command := r.Command
				switch mode % 4 {
				case 1:
					return critical(command), nil
				case 2:
					return policy.Decision{}, errors.New("config error")
				case 3:
					panic("boom")
				}
				return allowed(command), nil
			}
			var out, errOut bytes.Buffer
			code := RunWith(agent, strings.NewReader(in), &out, &errOut, decide, attendedEnv)
			if agent.Spec().Output == agents.OutputExitCode {
				// Windsurf: exit 2 with a reason blocks, exit 0 with nothing
				// lets the command through.
				if code == 2 && errOut.Len() > 0 && out.Len() == 0 {
					continue
				}
				// (exit 0 is no opinion, not an allow: Cascade's own
				// approval still applies.)
				if code != 0 || out.Len() != 0 || errOut.Len() != 0 {
					t.Fatalf("%s: exit %d, stdout %q, stderr %q", agent, code, out.String(), errOut.String())
				}
				continue
			}
			if code != 0 {
				t.Fatalf("%s: exit %d (%s)", agent, code, errOut.String())
			}
			body := bytes.TrimSpace(out.Bytes())
			if len(body) == 0 {
				continue
			}
			var v map[string]any
			if err := json.Unmarshal(body, &v); err != nil {
				t.Fatalf("%s: output is not a JSON object: %s", agent, body)
			}
			if isAllow(v) && (mode%4 != 0 || !wellFormed(agent, in)) {
				t.Fatalf("%s: allow for input %q (mode %d): %s", agent, in, mode%4, body)
			}
		}
	})
}

func isAllow(v map[string]any) bool {
	if v["decision"] == "allow" || v["permissionDecision"] == "allow" || v["permission"] == "allow" {
		return true
	}
	hs, _ := v["hookSpecificOutput"].(map[string]any)
	if hs == nil {
		return false
	}
	if d, _ := hs["decision"].(map[string]any); d != nil && d["behavior"] == "allow" {
		return true // Codex's PermissionRequest
	}
	return hs["permissionDecision"] == "allow"
}

// wellFormed is an independent check that in is one JSON object describing
// a call of the agent's shell tool with a non-empty command (read with
// encoding/json, by the agent's Input paths).
func wellFormed(agent agents.Agent, in string) bool {
	spec := agent.Spec()
	inp := spec.Input
	dec := json.NewDecoder(strings.NewReader(in))
	var top map[string]any
	if len(in) > MaxInput || dec.Decode(&top) != nil || dec.More() {
		return false
	}
	at := func(path string) any {
		var v any = top
		for _, k := range strings.Split(path, ".") {
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		}
		return v
	}
	if inp.Tool != "" {
		name, _ := at(inp.Tool).(string)
		if !spec.IsShellTool(name) {
			return false
		}
	}
	args := top
	if inp.Args != "" {
		a := at(inp.Args)
		if s, ok := a.(string); ok && inp.ArgsString {
			var m map[string]any
			if json.Unmarshal([]byte(s), &m) != nil {
				return false
			}
			a = m
		}
		m, ok := a.(map[string]any)
		if !ok {
			return false
		}
		args = m
	}
	if list, ok := args[inp.Commands].([]any); ok && inp.Commands != "" {
		for _, c := range list {
			if s, ok := c.(string); !ok || strings.TrimSpace(s) == "" {
				return false
			}
		}
		return len(list) > 0
	}
	switch c := args[inp.Command].(type) {
	case string:
		return strings.TrimSpace(c) != ""
	case []any:
		return len(c) > 0
	}
	return false
}
