package install

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Codex runs a hook only after the user trusted its exact definition in
// the /hooks view, which records it in the user's config.toml:
//
//	[hooks.state."<source file>:<event label>:<group>:<handler>"]
//	trusted_hash = "sha256:<hex>"
//
// where <hex> is SHA-256 over the compact, key-sorted JSON of the hook's
// normalized identity {"event_name": label, "matcher": M (when the group
// has one), "hooks": [{"type": "command", "command": C, "timeout": T (600
// when absent, at least 1), "async": A (false when absent),
// "statusMessage": S (when not empty)}]} (openai/codex
// codex-rs/hooks/src/engine/discovery.rs, command_hook_hash, and
// codex-rs/config/src/fingerprint.rs, version_for_toml; checked against
// Codex 0.169.1 by e2e/agents, whose runs pass only when Codex runs a hook
// trusted with this hash). A hook with no record, or whose definition
// changed since (another command: shellguard moved), is skipped silently
// by `codex exec`.

// codexEventLabels maps hooks.json event names to Codex's labels.
var codexEventLabels = map[string]string{
	"PreToolUse": "pre_tool_use", "PostToolUse": "post_tool_use", "PermissionRequest": "permission_request",
	"SessionStart": "session_start", "UserPromptSubmit": "user_prompt_submit", "Stop": "stop",
	"PreCompact": "pre_compact", "PostCompact": "post_compact", "SubagentStart": "subagent_start",
	"SubagentStop": "subagent_stop", "StopFailure": "stop_failure",
}

// CodexEventLabel returns Codex's label of a hook event ("pre_tool_use").
func CodexEventLabel(event string) string {
	if l, ok := codexEventLabels[event]; ok {
		return l
	}
	// CamelCase to snake_case, for events this table does not know yet.
	var b strings.Builder
	for i, r := range event {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CodexHookHash returns the trusted_hash Codex records for a command hook
// ("sha256:<hex>"). matcher is nil for a group without one; timeout and
// async are nil when the handler does not set them.
func CodexHookHash(event string, matcher *string, command string, timeout *float64, async *bool, statusMessage string) string {
	t := 600.0
	if timeout != nil {
		t = math.Max(*timeout, 1)
	}
	handler := jsonObject{
		"type":    jsonString("command"),
		"command": jsonString(command),
		"timeout": jsonNumber(t),
		"async":   jsonBool(async != nil && *async),
	}
	if statusMessage != "" {
		handler["statusMessage"] = jsonString(statusMessage)
	}
	ident := jsonObject{
		"event_name": jsonString(CodexEventLabel(event)),
		"hooks":      jsonArray{handler},
	}
	if matcher != nil {
		ident["matcher"] = jsonString(*matcher)
	}
	var b strings.Builder
	ident.write(&b)
	sum := sha256.Sum256([]byte(b.String()))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// TrustCheck is what Codex's record says of one of shellguard's hooks.
type TrustCheck struct {
	// Key is the hook's [hooks.state] key; Hash what it must record.
	Key, Hash string
	// Event is the hook's event.
	Event string
	// Recorded is the hash Codex recorded, "" when none.
	Recorded string
	// Disabled reports enabled = false.
	Disabled bool
}

// Trusted reports that Codex will run the hook.
func (c TrustCheck) Trusted() bool { return !c.Disabled && c.Recorded == c.Hash }

// Stale reports a recorded trust for another definition of the hook.
func (c TrustCheck) Stale() bool { return c.Recorded != "" && c.Recorded != c.Hash }

// CheckCodexTrust compares the trust Codex recorded in state with what
// shellguard's hook (event, matcher, handler fields) in source (hooks.json
// or config.toml) needs. source is looked up as given and, when different,
// as realSource (the file with symbolic links resolved).
func CheckCodexTrust(state map[string]HookState, source, realSource string, h Hook) TrustCheck {
	c := TrustCheck{Event: h.Event, Key: StateKeyFor(source, h.Event, h.Group, h.Handler),
		Hash: CodexHookHash(h.Event, h.Matcher, h.Command, h.Timeout, h.Async, h.StatusMessage)}
	keys := []string{c.Key}
	if realSource != "" && realSource != source {
		keys = append(keys, StateKeyFor(realSource, h.Event, h.Group, h.Handler))
	}
	for _, k := range keys {
		st, ok := state[k]
		if !ok {
			continue
		}
		c.Key = k
		c.Disabled = st.Enabled != nil && !*st.Enabled
		c.Recorded = st.TrustedHash
		if c.Recorded == c.Hash || c.Disabled {
			break
		}
	}
	return c
}

// HookOf returns the inline hook as a Hook (for CheckCodexTrust).
func (h InlineHook) HookOf() Hook {
	out := Hook{Event: h.Event, Command: h.Command, Group: h.Group, Handler: h.Handler,
		Timeout: h.Timeout, Async: h.Async, StatusMessage: h.StatusMessage}
	if h.HasMatcher {
		m := h.Matcher
		out.Matcher = &m
	}
	return out
}

// A minimal JSON writer with serde_json's compact output: object keys
// sorted (serde_json's Map is a BTreeMap), strings escaped as serde_json
// escapes them (", \, \b \f \n \r \t, other control characters as \u00xx,
// everything else, "<", ">", "&" and non-ASCII included, as is), whole
// numbers without a fraction.
type (
	jsonValue  interface{ write(*strings.Builder) }
	jsonObject map[string]jsonValue
	jsonArray  []jsonValue
	jsonString string
	jsonNumber float64
	jsonBool   bool
)

func (o jsonObject) write(b *strings.Builder) {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		jsonString(k).write(b)
		b.WriteByte(':')
		o[k].write(b)
	}
	b.WriteByte('}')
}

func (a jsonArray) write(b *strings.Builder) {
	b.WriteByte('[')
	for i, v := range a {
		if i > 0 {
			b.WriteByte(',')
		}
		v.write(b)
	}
	b.WriteByte(']')
}

func (s jsonString) write(b *strings.Builder) {
	b.WriteByte('"')
	for _, r := range string(s) {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

func (n jsonNumber) write(b *strings.Builder) {
	f := float64(n)
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		b.WriteString(strconv.FormatInt(int64(f), 10))
		return
	}
	b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
}

func (v jsonBool) write(b *strings.Builder) { b.WriteString(strconv.FormatBool(bool(v))) }
