package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/internal/jsonw"
	"github.com/shellguard/shellguard/internal/shquote"
)

// The protocol adapters: one per answer shape (agents.Output), each
// rendering an answer in that agent's documented output. Every adapter
// writes only the fields its protocol documents; no output at all is "no
// opinion" (the agent's own permission flow decides).

// hookSpecific is the hookSpecificOutput of Claude Code's (and its
// followers') and Codex's PreToolUse answer.
//
// Claude Code: "Hooks reference", PreToolUse decision control
// (https://code.claude.com/docs/en/hooks#pretooluse-decision-control):
// exit 0 with {"hookSpecificOutput": {"hookEventName": "PreToolUse",
// "permissionDecision": "allow"|"deny"|"ask", "permissionDecisionReason":
// "..."}}. A deny reason is shown to Claude, an ask reason to the user (and,
// in a headless run, to Claude). Empty output means no opinion. Qwen Code
// (PreToolUseHookOutput in its bundle), Factory Droid
// (https://docs.factory.ai/reference/hooks-reference) and Augment
// (https://docs.augmentcode.com/cli/hooks; its hook executor's
// hookSpecificOutput schema) read the same answer.
//
// Codex: https://developers.openai.com/codex/hooks (PreToolUse) and
// openai/codex codex-rs/hooks/src/engine/output_parser.rs
// (parse_pre_tool_use): only permissionDecision "deny" with a non-empty
// reason blocks; "ask", and "allow" without updatedInput, are rejected as
// unsupported, which marks the hook failed and lets the tool run; so
// shellguard writes exactly this shape for deny and nothing otherwise.
type hookSpecific struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

type hookSpecificOutput struct {
	HookSpecificOutput appender `json:"hookSpecificOutput"`
}

// permissionRequest is Codex's PermissionRequest answer (openai/codex
// codex-rs/hooks/src/events/permission_request.rs and output_parser.rs,
// parse_permission_request): {"hookSpecificOutput": {"hookEventName":
// "PermissionRequest", "decision": {"behavior": "allow"}}} approves the
// request without asking the person, "deny" with a message refuses it; no
// output leaves it to Codex's own approval flow. updatedInput,
// updatedPermissions and interrupt are unsupported there (the hook would
// count as failed).
type permissionRequest struct {
	HookEventName string             `json:"hookEventName"`
	Decision      permissionDecision `json:"decision"`
}

type permissionDecision struct {
	Behavior string `json:"behavior"`
	Message  string `json:"message,omitempty"`
}

// geminiOutput is Gemini CLI's BeforeTool answer
// (google-gemini/gemini-cli docs/hooks/reference.md; in the 0.61 bundle,
// DefaultHookOutput and evaluateBeforeToolHook): "decision" "deny" (or
// "block") blocks and "reason" goes to the model as the tool error; "ask"
// forces Gemini CLI's confirmation prompt, showing "systemMessage" in it;
// "allow" is no objection (Gemini CLI's own approval mode still applies).
type geminiOutput struct {
	Decision      string `json:"decision"`
	Reason        string `json:"reason,omitempty"`
	SystemMessage string `json:"systemMessage,omitempty"`
}

// copilotOutput is GitHub Copilot CLI's camelCase preToolUse answer
// (https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference,
// "preToolUse decision control"): "permissionDecision" "deny" blocks and
// the model gets "Denied by preToolUse hook: REASON"; "ask" shows
// Copilot's prompt with the reason, and where no one can answer (-p,
// autopilot) denies with it; "allow" runs the tool without Copilot's own
// prompt (verified with 1.0.102).
type copilotOutput struct {
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
}

// cursorOutput is Cursor's beforeShellExecution answer
// (https://cursor.com/docs/agent/hooks): "permission" allow, deny or ask,
// "user_message" shown to the user (and, on a deny, the text the agent
// gets back), "agent_message" for the agent.
type cursorOutput struct {
	Permission   string `json:"permission"`
	UserMessage  string `json:"user_message,omitempty"`
	AgentMessage string `json:"agent_message,omitempty"`
}

// crushOutput is Crush's PreToolUse answer
// (charmbracelet/crush docs/hooks/README.md, "Output envelope —
// PreToolUse"; internal/hooks/input.go): "decision" "deny" blocks and
// "reason" reaches the model; "allow" pre-approves the call, skipping
// Crush's permission prompt; no decision is no opinion. Crush has no ask.
type crushOutput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
}

// clineOutput is the control JSON a Cline hook file prints (Cline CLI
// 3.0.65, @cline/core: the hook control schema "cancel", "context",
// "errorMessage", "overrideInput"). "cancel" aborts the whole run and
// its reason reaches no one, so a deny replaces the tool's input with a
// command that only prints shellguard's reason and fails
// (overrideInput), which the model then reads as the command's result,
// and adds the reason to its context; "cancel" is kept for a problem
// where the tool's input cannot be rewritten.
type clineOutput struct {
	Cancel        bool           `json:"cancel,omitempty"`
	ErrorMessage  string         `json:"errorMessage,omitempty"`
	Context       string         `json:"context,omitempty"`
	OverrideInput map[string]any `json:"overrideInput,omitempty"`
}

// pluginOutput is what shellguard's own plugins and extensions (OpenCode,
// Kilo Code, Pi, Amp; see package install) read: "decision" deny blocks
// the tool with "reason" for the model; "ask" asks the person with
// "message" where the agent can show a prompt, and blocks with "reason"
// where it cannot or the person declines; "allow" lets it run (Amp's and
// Pi's own permission checks aside). No output is no opinion.
type pluginOutput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
	Message  string `json:"message,omitempty"`
}

// result is an encoded answer: what the hook writes and its exit code.
type result struct {
	stdout, stderr []byte
	code           int
}

// encode renders ans in the agent's protocol.
func (h *hookCall) encode(ans answer) (result, error) {
	spec := h.spec
	var v any
	m, u := ans.modelReason, ans.userReason
	switch spec.Output {
	case agents.OutputClaude:
		v = byAction(ans.action,
			hookSpecificOutput{hookSpecific{spec.Event, "deny", m}},
			hookSpecificOutput{hookSpecific{spec.Event, "ask", u}},
			hookSpecificOutput{hookSpecific{spec.Event, "allow", u}})
	case agents.OutputGemini:
		v = byAction(ans.action,
			geminiOutput{Decision: "deny", Reason: m, SystemMessage: u},
			geminiOutput{Decision: "ask", Reason: u, SystemMessage: u},
			geminiOutput{Decision: "allow"})
	case agents.OutputCodex:
		if ans.event == spec.PermissionEvent {
			deny := hookSpecificOutput{permissionRequest{ans.event, permissionDecision{Behavior: "deny", Message: m}}}
			v = byAction(ans.action, deny, deny,
				hookSpecificOutput{permissionRequest{ans.event, permissionDecision{Behavior: "allow"}}})
			break
		}
		deny := hookSpecificOutput{hookSpecific{spec.Event, "deny", m}}
		v = byAction(ans.action, deny, deny, nil)
	case agents.OutputCopilot:
		v = byAction(ans.action, copilotOutput{"deny", m}, copilotOutput{"ask", u}, copilotOutput{"allow", u})
	case agents.OutputCursor:
		v = byAction(ans.action, cursorOutput{"deny", m, m}, cursorOutput{"ask", u, u}, cursorOutput{Permission: "allow"})
	case agents.OutputCrush:
		deny := crushOutput{"deny", m}
		v = byAction(ans.action, deny, deny, crushOutput{Decision: "allow"})
	case agents.OutputCline:
		if blocks(ans.action) {
			v = h.clineBlock(m)
		}
	case agents.OutputPlugin:
		v = byAction(ans.action, pluginOutput{"deny", m, u}, pluginOutput{"ask", m, u}, pluginOutput{Decision: "allow"})
	case agents.OutputExitCode:
		// Windsurf: exit 2 blocks and shows stderr; exit 0 lets the
		// command through to its own approval flow.
		if blocks(ans.action) {
			return result{stderr: []byte(oneLine(m) + "\n"), code: 2}, nil
		}
		return result{}, nil
	default:
		return result{}, fmt.Errorf("no protocol adapter for agent %q", spec.Name)
	}
	if v == nil {
		return result{}, nil
	}
	if a, ok := v.(appender); ok {
		// What encoding/json writes, without its reflection (a hook
		// process answers once: learning the type costs more).
		return result{stdout: append(a.appendJSON(nil), '\n')}, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // commands are full of < > &
	if err := enc.Encode(v); err != nil {
		return result{}, err
	}
	return result{stdout: buf.Bytes()}, nil
}

// An appender appends itself as encoding/json marshals it (HTML escaping
// off); TestAppendJSON holds them equal.
type appender interface{ appendJSON(b []byte) []byte }

// object opens an object with its first field, "name" and the string v;
// the other fields and the closing brace are the caller's.
func object(b []byte, name, v string) []byte {
	b = append(b, `{"`...)
	b = append(b, name...)
	b = append(b, `":`...)
	return jsonw.AppendString(b, v)
}

func (o hookSpecificOutput) appendJSON(b []byte) []byte {
	b = append(b, `{"hookSpecificOutput":`...)
	return append(o.HookSpecificOutput.appendJSON(b), '}')
}

func (o hookSpecific) appendJSON(b []byte) []byte {
	b = object(b, "hookEventName", o.HookEventName)
	b = jsonw.AppendField(b, "permissionDecision", o.PermissionDecision, false)
	return append(jsonw.AppendField(b, "permissionDecisionReason", o.PermissionDecisionReason, false), '}')
}

func (o permissionRequest) appendJSON(b []byte) []byte {
	b = object(b, "hookEventName", o.HookEventName)
	b = append(b, `,"decision":`...)
	return append(flat(b, "behavior", o.Decision.Behavior, "message", o.Decision.Message), '}')
}

// flat appends an object of string fields: "name" and v, then each name
// and value of pairs, left out when the value is empty (omitempty).
func flat(b []byte, name, v string, pairs ...string) []byte {
	b = object(b, name, v)
	for i := 0; i+1 < len(pairs); i += 2 {
		b = jsonw.AppendField(b, pairs[i], pairs[i+1], true)
	}
	return append(b, '}')
}

func (o geminiOutput) appendJSON(b []byte) []byte {
	return flat(b, "decision", o.Decision, "reason", o.Reason, "systemMessage", o.SystemMessage)
}

func (o copilotOutput) appendJSON(b []byte) []byte {
	return flat(b, "permissionDecision", o.PermissionDecision, "permissionDecisionReason", o.PermissionDecisionReason)
}

func (o cursorOutput) appendJSON(b []byte) []byte {
	return flat(b, "permission", o.Permission, "user_message", o.UserMessage, "agent_message", o.AgentMessage)
}

func (o crushOutput) appendJSON(b []byte) []byte {
	return flat(b, "decision", o.Decision, "reason", o.Reason)
}

func (o pluginOutput) appendJSON(b []byte) []byte {
	return flat(b, "decision", o.Decision, "reason", o.Reason, "message", o.Message)
}

// byAction picks the answer for action a among an agent's answers to
// deny, ask and allow; a nil one, and NoOpinion, write nothing.
func byAction(a Action, deny, ask, allow any) any {
	switch a {
	case DenyAction:
		return deny
	case AskAction:
		return ask
	case AllowAction:
		return allow
	}
	return nil
}

// blocks reports whether a blocks the command where the agent cannot
// ask (deny, and ask).
func blocks(a Action) bool { return a == DenyAction || a == AskAction }

// clineBlock is Cline's blocking answer: the tool's input replaced by a
// command that prints the reason on stderr and fails, where the call's
// command member is known; otherwise a cancel of the run.
func (h *hookCall) clineBlock(reason string) clineOutput {
	if h.argKey == "" {
		return clineOutput{Cancel: true, ErrorMessage: reason}
	}
	refusal := "printf '%s\\n' " + shquote.Quote(oneLine(reason)) + " >&2; exit 1"
	var value any = refusal
	if h.argList {
		value = []string{refusal}
	}
	return clineOutput{Context: reason, OverrideInput: map[string]any{h.argKey: value}}
}

// oneLine turns a reason into one line (stderr messages, a printf
// argument).
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
