package hook

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/shellguard/shellguard/internal/agents"
)

// The protocol adapters: one per agent, each rendering an answer in that
// agent's documented output (nil: no output, no opinion).

// hookSpecific is the hookSpecificOutput of Claude Code's and Codex's
// PreToolUse answer.
//
// Claude Code: "Hooks reference", PreToolUse decision control
// (https://code.claude.com/docs/en/hooks#pretooluse-decision-control):
// exit 0 with {"hookSpecificOutput": {"hookEventName": "PreToolUse",
// "permissionDecision": "allow"|"deny"|"ask", "permissionDecisionReason":
// "..."}}. A deny reason is shown to Claude, an ask reason to the user (and,
// in a headless run, to Claude). Empty output means no opinion.
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
	HookSpecificOutput any `json:"hookSpecificOutput"`
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

// encode renders ans in the agent's protocol; nil means no output.
func encode(spec agents.Spec, ans answer) ([]byte, error) {
	var v any
	switch spec.Name {
	case agents.Claude:
		switch ans.action {
		case DenyAction:
			v = hookSpecificOutput{hookSpecific{spec.Event, "deny", ans.modelReason}}
		case AskAction:
			v = hookSpecificOutput{hookSpecific{spec.Event, "ask", ans.userReason}}
		case AllowAction:
			v = hookSpecificOutput{hookSpecific{spec.Event, "allow", ans.userReason}}
		}
	case agents.Gemini:
		switch ans.action {
		case DenyAction:
			v = geminiOutput{Decision: "deny", Reason: ans.modelReason, SystemMessage: ans.userReason}
		case AskAction:
			v = geminiOutput{Decision: "ask", Reason: ans.userReason, SystemMessage: ans.userReason}
		case AllowAction:
			v = geminiOutput{Decision: "allow"}
		}
	case agents.Codex:
		if ans.event == spec.PermissionEvent {
			switch ans.action {
			case AllowAction:
				v = hookSpecificOutput{permissionRequest{ans.event, permissionDecision{Behavior: "allow"}}}
			case DenyAction, AskAction:
				v = hookSpecificOutput{permissionRequest{ans.event, permissionDecision{Behavior: "deny", Message: ans.modelReason}}}
			}
			break
		}
		switch ans.action {
		case DenyAction, AskAction:
			v = hookSpecificOutput{hookSpecific{spec.Event, "deny", ans.modelReason}}
		}
	default:
		return nil, fmt.Errorf("no protocol adapter for agent %q", spec.Name)
	}
	if v == nil {
		return nil, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // commands are full of < > &
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
