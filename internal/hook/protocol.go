package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// claudeOutput is Claude Code's PreToolUse answer.
//
// Documented in "Hooks reference", section PreToolUse decision control
// (https://code.claude.com/docs/en/hooks#pretooluse-decision-control):
// exit 0 with {"hookSpecificOutput": {"hookEventName": "PreToolUse",
// "permissionDecision": "allow"|"deny"|"ask", "permissionDecisionReason":
// "..."}}. A deny reason is shown to Claude, an ask reason to the user.
// Empty output means no opinion; exit 2 blocks with stderr; any other exit
// code is a non-blocking error (the tool runs), which Run never uses.
type claudeOutput struct {
	HookSpecificOutput claudeSpecific `json:"hookSpecificOutput"`
}

type claudeSpecific struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

// geminiOutput is Gemini CLI's BeforeTool answer.
//
// Documented in google-gemini/gemini-cli docs/hooks/reference.md (Common
// output fields; Tool hooks, BeforeTool): "decision" is "allow" or "deny"
// (alias "block"); "reason" is required when denied and is sent to the
// agent as the tool error; "systemMessage" is displayed to the user. The
// reference documents no "ask" for BeforeTool, so an ask is answered with
// deny (fail closed). Exit 2 blocks with stderr as the reason.
type geminiOutput struct {
	Decision      string `json:"decision"`
	Reason        string `json:"reason,omitempty"`
	SystemMessage string `json:"systemMessage,omitempty"`
}

// codexOutput is Codex's PreToolUse answer.
//
// Documented at https://developers.openai.com/codex/hooks (PreToolUse) and
// implemented in openai/codex codex-rs/hooks/src/engine/output_parser.rs
// (parse_pre_tool_use, unsupported_pre_tool_use_hook_specific_output):
// only permissionDecision "deny" with a non-empty permissionDecisionReason
// blocks. "ask", and "allow" without updatedInput, are rejected as
// unsupported, which marks the hook failed and lets the tool run; unknown
// fields make the output invalid the same way. So shellguard writes this
// exact shape for deny and nothing at all otherwise: ask becomes deny
// (fail closed) and allow becomes no output.
type codexOutput struct {
	HookSpecificOutput codexSpecific `json:"hookSpecificOutput"`
}

type codexSpecific struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

// encode renders ans in agent's protocol; nil means no output.
func encode(agent Agent, ans answer) ([]byte, error) {
	var v any
	switch agent {
	case Claude:
		switch ans.action {
		case DenyAction:
			v = claudeOutput{claudeSpecific{"PreToolUse", "deny", ans.modelReason}}
		case AskAction:
			v = claudeOutput{claudeSpecific{"PreToolUse", "ask", ans.userReason}}
		case AllowAction:
			v = claudeOutput{claudeSpecific{"PreToolUse", "allow", ans.userReason}}
		}
	case Gemini:
		switch ans.action {
		case DenyAction, AskAction:
			v = geminiOutput{Decision: "deny", Reason: ans.modelReason, SystemMessage: ans.userReason}
		case AllowAction:
			v = geminiOutput{Decision: "allow"}
		}
	case Codex:
		switch ans.action {
		case DenyAction, AskAction:
			v = codexOutput{codexSpecific{"PreToolUse", "deny", ans.modelReason}}
		}
	default:
		return nil, fmt.Errorf("unknown agent %q", agent)
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
