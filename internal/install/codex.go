package install

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/internal/tomldoc"
)

// Codex also reads hooks written inline in config.toml. What this file
// relies on, from Codex's documentation and source:
//
//   - https://developers.openai.com/codex/hooks ("Where Codex looks for
//     hooks") and https://developers.openai.com/codex/config-advanced#hooks:
//     Codex discovers hooks next to each active config layer either in
//     hooks.json or as inline [hooks] tables in config.toml
//     (~/.codex/config.toml, <repo>/.codex/config.toml), with the same
//     event structure as hooks.json ([[hooks.PreToolUse]] is a matcher
//     group, [[hooks.PreToolUse.hooks]] a handler). Matching hooks from all
//     sources run; a higher-precedence layer does not replace a lower one's
//     hooks. "If a single layer contains both hooks.json and inline [hooks],
//     Codex merges them and warns at startup. Prefer one representation per
//     layer."
//   - Hooks are on by default; [features] hooks = false (or the deprecated
//     alias codex_hooks = false) turns them all off.
//   - openai/codex codex-rs/hooks/src/engine/discovery.rs: per layer, Codex
//     loads hooks.json and the config.toml "hooks" value; when both are
//     non-empty it warns "loading hooks from both <hooks.json> and
//     <config.toml>; prefer a single representation for this layer" and runs
//     both. A "hooks" value that does not deserialize is skipped with a
//     warning ("failed to parse TOML hooks in ..."), so none of that layer's
//     inline hooks run. A group whose matcher is not a valid regular
//     expression is skipped. Per-hook state lives in [hooks.state."<source
//     path>:pre_tool_use:<group>:<handler>"] (enabled, trusted_hash), which
//     Codex itself writes into the user's config.toml from its /hooks view.
//   - codex-rs/config/src/hook_config.rs: handler fields type ("command"),
//     command, timeout (seconds), async, statusMessage.

// CodexConfigPath returns Codex's config.toml of the layer scope: for User
// $CODEX_HOME/config.toml (default ~/.codex/config.toml), for Project
// <dir>/.codex/config.toml. It sits next to the hooks.json SettingsPath
// returns for Codex.
func CodexConfigPath(scope Scope, env Env) (string, error) {
	p, err := SettingsPath(agents.Codex, scope, env)
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(p), "config.toml"), nil
}

// InlineHook is one command hook written inline in a Codex config.toml.
type InlineHook struct {
	// Event is the hook event ("PreToolUse").
	Event string
	// Matcher is the group's matcher ("" when absent: every tool).
	Matcher string
	// Command is the handler's command.
	Command string
	// Line is the 1-based line of the command in the file, 0 when it
	// cannot be told (a multi-line string, say).
	Line int
	// Group and Handler are the indexes Codex keys the hook's state with.
	Group, Handler int
	// Shellguard reports that the command is shellguard's hook for Codex.
	Shellguard bool
	// HasMatcher reports that the group sets a matcher; Timeout, Async and
	// StatusMessage are the handler's fields as written (nil, "": absent),
	// for the trust hash.
	HasMatcher    bool
	Timeout       *float64
	Async         *bool
	StatusMessage string
}

// RunsForShell reports whether Codex runs the hook before shell commands:
// a PreToolUse hook whose matcher (a regular expression, absent or "*"
// for every tool) matches the Bash tool.
func (h InlineHook) RunsForShell() bool {
	return h.Event == agents.Codex.Event() && matcherMatchesBash(h.Matcher)
}

func matcherMatchesBash(m string) bool {
	if m == "" || m == "*" {
		return true
	}
	re, err := regexp.Compile(m)
	return err == nil && re.MatchString("Bash")
}

// HookState is Codex's record of one hook, from [hooks.state] in the
// user's config.toml.
type HookState struct {
	// Enabled is false when the hook was turned off in Codex's /hooks view.
	Enabled *bool
	// TrustedHash is the hash of the definition the user trusted, "" when
	// the hook was never trusted.
	TrustedHash string
}

// CodexConfig is what ParseCodexConfig found in a Codex config.toml.
type CodexConfig struct {
	// Hooks are the inline command hooks, in file order.
	Hooks []InlineHook
	// HooksErr is set when the file parses but its "hooks" value has a
	// shape Codex cannot load: Codex then skips every inline hook of the
	// file (and Hooks may be incomplete).
	HooksErr error
	// HooksDisabled reports [features] hooks = false (or codex_hooks =
	// false): Codex runs no hooks from any source.
	HooksDisabled bool
	// State is [hooks.state], keyed as Codex keys it (see StateKey).
	State map[string]HookState
}

// Shellguard returns the inline hooks that are shellguard's.
func (c CodexConfig) Shellguard() []InlineHook {
	var out []InlineHook
	for _, h := range c.Hooks {
		if h.Shellguard {
			out = append(out, h)
		}
	}
	return out
}

// Others returns the inline hooks that are not shellguard's.
func (c CodexConfig) Others() []InlineHook {
	var out []InlineHook
	for _, h := range c.Hooks {
		if !h.Shellguard {
			out = append(out, h)
		}
	}
	return out
}

// StateKey is the key Codex gives a PreToolUse hook in [hooks.state]: the
// path of the file that defines it, the event, and its positions.
func StateKey(source string, group, handler int) string {
	return StateKeyFor(source, "PreToolUse", group, handler)
}

// StateKeyFor is the [hooks.state] key of a hook of event (as written in
// hooks.json, "PermissionRequest"): "<source>:<event label>:<group>:<handler>".
func StateKeyFor(source, event string, group, handler int) string {
	return fmt.Sprintf("%s:%s:%d:%d", source, CodexEventLabel(event), group, handler)
}

// TOMLError reports a config.toml that does not parse, with its line
// (the TOML decoder's own error).
type TOMLError = tomldoc.Error

// ParseCodexConfig reads the hooks and hook settings of a Codex
// config.toml. It only reads. A file that is not valid TOML is a
// *ParseError wrapping a *TOMLError with the line; command, when not
// empty, is recognised as shellguard's hook too (see RemoveHook).
//
// The file is decoded into maps, not structs: Codex reads its keys
// case-sensitively (serde), while TOML libraries match struct fields
// case-insensitively, so "[hookS]" would be read as "[hooks]" (or not,
// depending on map order: FuzzCodexConfig found it).
func ParseCodexConfig(data []byte, command string) (CodexConfig, error) {
	var cfg CodexConfig
	doc, lines, err := tomldoc.Decode(data)
	if err != nil {
		var te *TOMLError
		if !errors.As(err, &te) {
			te = &TOMLError{Msg: err.Error()}
		}
		return cfg, &ParseError{te}
	}
	if features, ok := doc["features"].(map[string]any); ok {
		for _, k := range []string{"hooks", "codex_hooks"} {
			if v, ok := features[k].(bool); ok && !v {
				cfg.HooksDisabled = true
			}
		}
	}
	var errs []error
	hooksTable := map[string]any{}
	if v, ok := doc["hooks"]; ok {
		if t, ok := v.(map[string]any); ok {
			hooksTable = t
		} else {
			// Codex deserializes "hooks" as a table of events.
			errs = append(errs, fmt.Errorf("hooks is %s, not a table", tomldoc.Kind(v)))
		}
	}
	events := make([]string, 0, len(hooksTable))
	for k := range hooksTable {
		events = append(events, k)
	}
	sort.Strings(events)
	for _, ev := range events {
		if ev == "state" {
			st, err := codexStates(hooksTable[ev])
			if err != nil {
				errs = append(errs, fmt.Errorf("hooks.state: %w", err))
				continue
			}
			cfg.State = st
			continue
		}
		hooks, err := codexGroups(ev, hooksTable[ev], command)
		if err != nil {
			errs = append(errs, fmt.Errorf("hooks.%s: %w", ev, err))
			continue
		}
		cfg.Hooks = append(cfg.Hooks, hooks...)
	}
	if len(errs) > 0 {
		cfg.HooksErr = errors.Join(errs...)
	}
	for i := range cfg.Hooks {
		cfg.Hooks[i].Line = lines[commandPath(cfg.Hooks[i])]
	}
	sort.SliceStable(cfg.Hooks, func(i, j int) bool {
		a, b := cfg.Hooks[i], cfg.Hooks[j]
		if (a.Line == 0) != (b.Line == 0) {
			return b.Line == 0
		}
		return a.Line < b.Line
	})
	return cfg, nil
}

// commandPath is where h's command is in the decoded file:
// hooks.EVENT[group].hooks[handler].command (see tomldoc.Lines).
func commandPath(h InlineHook) string {
	return tomldoc.Join(tomldoc.Index(tomldoc.Join(tomldoc.Index(tomldoc.Join("hooks", h.Event), h.Group), "hooks"), h.Handler), "command")
}

// CodexLayer is what InspectCodex found in one Codex config layer: its
// hooks.json (as Inspect reports it) and its config.toml.
type CodexLayer struct {
	Scope Scope
	// JSON is the layer's hooks.json (JSON.Hooks holds the positions of
	// shellguard's hooks, for StateKeyFor).
	JSON Status
	// JSONHasHooks reports that hooks.json holds any hook at all.
	JSONHasHooks bool
	// TOMLPath is the layer's config.toml.
	TOMLPath string
	// TOMLExists reports whether config.toml exists.
	TOMLExists bool
	// TOMLErr is a problem reading or parsing config.toml.
	TOMLErr error
	// TOML is what config.toml holds (zero when TOMLErr is set).
	TOML CodexConfig
}

// BothRepresentations reports that the layer has hooks in hooks.json and
// inline in config.toml: Codex loads both, runs both, and warns at
// startup.
func (l CodexLayer) BothRepresentations() bool {
	return l.JSONHasHooks && len(l.TOML.Hooks) > 0
}

// InspectCodex reports on the Codex layer scope: shellguard's hooks in its
// hooks.json and config.toml, config.toml's other inline hooks, and
// whether hooks are switched off there. command, when not empty, is
// recognised as shellguard's hook too. It only reads.
func InspectCodex(scope Scope, env Env, command string) CodexLayer {
	l := CodexLayer{Scope: scope, JSON: Inspect(agents.Codex, scope, env, command)}
	if l.JSON.Exists && l.JSON.Err == nil {
		if data, err := os.ReadFile(l.JSON.Path); err == nil {
			l.JSONHasHooks = jsonHasHooks(data)
		}
	}
	l.TOMLPath, l.TOMLErr = CodexConfigPath(scope, env)
	if l.TOMLErr != nil {
		return l
	}
	var data []byte
	if data, l.TOMLExists, l.TOMLErr = readExisting(l.TOMLPath); !l.TOMLExists || l.TOMLErr != nil {
		return l
	}
	l.TOML, l.TOMLErr = ParseCodexConfig(data, command)
	return l
}

// jsonHasHooks reports whether a Codex hooks.json holds any hook.
func jsonHasHooks(data []byte) bool {
	if len(bytes.TrimSpace(data)) == 0 {
		return false
	}
	root, err := parseSettings(data, agents.Codex)
	if err != nil {
		return false
	}
	if h := root.get("hooks"); h != nil && h.kind == '{' {
		for _, m := range h.members {
			if m.value.kind == '[' && len(m.value.elems) > 0 {
				return true
			}
		}
	}
	return false
}

// TOMLSnippet is the inline config.toml form of shellguard's Codex hook
// running command, for users who keep their hooks in config.toml (append
// it to the file; shellguard recognises it there).
func TOMLSnippet(command string) string {
	spec := agents.Codex.Spec()
	var b strings.Builder
	for i, reg := range spec.Registrations() {
		if i > 0 {
			b.WriteByte('\n')
		}
		e := entryFor(spec, reg, command)
		fmt.Fprintf(&b, "[[hooks.%s]]\nmatcher = %s\n\n[[hooks.%s.hooks]]\ntype = %s\ncommand = %s\ntimeout = %d\n",
			reg.Event, tomlString(e.Matcher), reg.Event, tomlString(e.Hooks[0].Type),
			tomlString(e.Hooks[0].Command), e.Hooks[0].Timeout)
	}
	return b.String()
}

// tomlString quotes s as a TOML literal string when it can ('...' keeps
// backslashes and double quotes as they are), else as a basic string.
func tomlString(s string) string {
	if !strings.ContainsAny(s, "'\n\r") && strings.IndexFunc(s, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) < 0 {
		return "'" + s + "'"
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlTables returns v as a list of tables: an array of tables, or an
// array whose elements are all inline tables.
func tomlTables(v any) ([]map[string]any, error) {
	switch x := v.(type) {
	case []map[string]any:
		return x, nil
	case []any:
		out := make([]map[string]any, 0, len(x))
		for _, e := range x {
			t, ok := e.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("an element is %s, not a table", tomldoc.Kind(e))
			}
			out = append(out, t)
		}
		return out, nil
	}
	return nil, fmt.Errorf("is %s, not an array of tables", tomldoc.Kind(v))
}

// tableString returns t[key] when it is a string; ok is false when the key
// is present with another type.
func tableString(t map[string]any, key string) (s string, present, ok bool) {
	v, present := t[key]
	if !present {
		return "", false, true
	}
	s, ok = v.(string)
	return s, true, ok
}

// codexGroups reads one event's matcher groups ([[hooks.EVENT]] with
// matcher and [[hooks.EVENT.hooks]] handlers of type "command").
func codexGroups(ev string, v any, command string) ([]InlineHook, error) {
	groups, err := tomlTables(v)
	if err != nil {
		return nil, err
	}
	var out []InlineHook
	for gi, g := range groups {
		matcher, hasMatcher, ok := tableString(g, "matcher")
		if !ok {
			return nil, fmt.Errorf("matcher is %s, not a string", tomldoc.Kind(g["matcher"]))
		}
		var handlers []map[string]any
		if hv, ok := g["hooks"]; ok {
			if handlers, err = tomlTables(hv); err != nil {
				return nil, fmt.Errorf("hooks %w", err)
			}
		}
		for hi, h := range handlers {
			typ, _, ok := tableString(h, "type")
			if !ok {
				return nil, fmt.Errorf("type is %s, not a string", tomldoc.Kind(h["type"]))
			}
			cmd, _, ok := tableString(h, "command")
			if !ok {
				return nil, fmt.Errorf("command is %s, not a string", tomldoc.Kind(h["command"]))
			}
			if typ != "command" && typ != "" {
				continue
			}
			ih := InlineHook{Event: ev, Command: cmd, Group: gi, Handler: hi, HasMatcher: hasMatcher}
			if hasMatcher {
				ih.Matcher = matcher
			}
			switch t := h["timeout"].(type) {
			case int64:
				f := float64(t)
				ih.Timeout = &f
			case float64:
				ih.Timeout = &t
			}
			if a, ok := h["async"].(bool); ok {
				ih.Async = &a
			}
			ih.StatusMessage, _ = h["statusMessage"].(string)
			ih.Shellguard = IsShellguardCommand(cmd, agents.Codex) || command != "" && cmd == command
			out = append(out, ih)
		}
	}
	return out, nil
}

// codexStates reads [hooks.state."KEY"] tables (enabled, trusted_hash).
func codexStates(v any) (map[string]HookState, error) {
	t, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("is %s, not a table", tomldoc.Kind(v))
	}
	out := make(map[string]HookState, len(t))
	for k, sv := range t {
		st, ok := sv.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s is %s, not a table", k, tomldoc.Kind(sv))
		}
		var hs HookState
		if ev, ok := st["enabled"]; ok {
			b, ok := ev.(bool)
			if !ok {
				return nil, fmt.Errorf("%s.enabled is %s, not a boolean", k, tomldoc.Kind(ev))
			}
			hs.Enabled = &b
		}
		h, _, ok := tableString(st, "trusted_hash")
		if !ok {
			return nil, fmt.Errorf("%s.trusted_hash is %s, not a string", k, tomldoc.Kind(st["trusted_hash"]))
		}
		hs.TrustedHash = h
		out[k] = hs
	}
	return out, nil
}

// Where names an inline hook's place: "file:line", or the file when the
// line is not known.
func Where(path string, h InlineHook) string {
	if h.Line > 0 {
		return fmt.Sprintf("%s:%d", path, h.Line)
	}
	return path
}
