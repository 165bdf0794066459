package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/shellguard/shellguard/internal/agents"
)

// Two settings layouts are edited here (agents.Layout):
//
//	groups: {"hooks": {"<Event>": [{"matcher": "<tool>", "hooks": [{"type": "command", "command": "...", ...}]}]}}
//	list:   {"hooks": {"<Event>": [{"command": "...", ...}]}}   (the handler carries its matcher, if any)
//
// and, for Factory Droid's hooks.json, the events at the top level with
// no "hooks" member (agents.Spec.EventsAtRoot).
//
// Claude Code: "Hooks reference", Configuration
// (https://code.claude.com/docs/en/hooks#configuration): event PreToolUse,
// matcher "Bash", timeout in seconds.
//
// Gemini CLI: google-gemini/gemini-cli docs/hooks/reference.md,
// Configuration schema: event BeforeTool, matcher "run_shell_command" (a
// regular expression), hook fields type, command, name, timeout (in
// milliseconds), description. settings.json may contain comments.
//
// Codex: https://developers.openai.com/codex/hooks and
// https://developers.openai.com/codex/config-advanced#hooks: hooks.json
// next to an active config layer (~/.codex/hooks.json,
// <repo>/.codex/hooks.json), event PreToolUse, matcher a regular expression
// on the tool name ("^Bash$" for shell commands), timeout in seconds.
//
// Qwen Code (its settings schema; Claude-shaped groups, timeout in
// seconds), Factory Droid (https://docs.factory.ai/reference/hooks-reference;
// hooks.json keyed by event) and Augment
// (https://docs.augmentcode.com/cli/hooks) use groups.
//
// GitHub Copilot CLI ("copilot help config": inline hooks in settings.json,
// "same schema as .github/hooks/*.json"; the CLI hooks reference): list,
// handler {"type": "command", "bash": CMD, "matcher": regex on the tool
// name, "timeoutSec": N}. Cursor (https://cursor.com/docs/agent/hooks):
// list in {"version": 1, "hooks": ...}, handler {"command", "timeout"}.
// Windsurf (https://docs.windsurf.com/windsurf/cascade/hooks): list,
// handler {"command", "show_output"}. Crush (docs/hooks/README.md): list,
// handler {"name", "matcher", "command", "timeout"}.

// hookEntry is the matcher group shellguard adds; field order is the order
// written.
type hookEntry struct {
	Matcher string        `json:"matcher"`
	Hooks   []hookCommand `json:"hooks"`
}

type hookCommand struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Name    string `json:"name,omitempty"`
	Timeout int    `json:"timeout"`
}

// entryFor is the group install writes for one registration of the agent
// (see agents.Spec: matcher, timeout, name).
func entryFor(spec agents.Spec, reg agents.Registration, command string) hookEntry {
	return hookEntry{Matcher: reg.Matcher, Hooks: []hookCommand{{Type: "command", Command: command, Name: spec.HookName, Timeout: spec.Timeout}}}
}

// kv is one member of an ordered JSON object.
type kv struct {
	key   string
	value any
}

// orderedObject is a JSON object written with its members in order.
type orderedObject []kv

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := marshal(m.key, "", "")
		if err != nil {
			return nil, err
		}
		v, err := marshal(m.value, "", "")
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// handlerFor is the handler install writes in a list layout: "type",
// "name", "matcher", the command, the timeout, "show_output", as the
// agent's Spec says.
func handlerFor(spec agents.Spec, reg agents.Registration, command string) orderedObject {
	var o orderedObject
	if spec.HandlerType {
		o = append(o, kv{"type", "command"})
	}
	if spec.HookName != "" {
		o = append(o, kv{"name", spec.HookName})
	}
	if reg.Matcher != "" {
		o = append(o, kv{"matcher", reg.Matcher})
	}
	o = append(o, kv{commandKey(spec), command})
	if spec.TimeoutKey != "" && spec.Timeout > 0 {
		o = append(o, kv{spec.TimeoutKey, spec.Timeout})
	}
	if spec.ShowOutput {
		o = append(o, kv{"show_output", true})
	}
	return o
}

// entryValue is what install adds to an event's list for reg.
func entryValue(spec agents.Spec, reg agents.Registration, command string) any {
	if spec.Layout == agents.LayoutList {
		return handlerFor(spec, reg, command)
	}
	return entryFor(spec, reg, command)
}

func commandKey(spec agents.Spec) string {
	if spec.CommandKey != "" {
		return spec.CommandKey
	}
	return "command"
}

// allowsComments reports whether the agent's settings file may hold
// comments (Gemini CLI strips them before parsing).
func allowsComments(agent agents.Agent) bool { return agent.Spec().Comments }

// IsShellguardCommand reports whether a hook command is shellguard's hook
// for agent: it mentions shellguard and runs its "hook <agent>" command
// (or the lean "shellguard-hook <agent>"), possibly wrapped to fail
// closed (see HookCommand).
func IsShellguardCommand(command string, agent agents.Agent) bool {
	if !strings.Contains(command, "shellguard") {
		return false
	}
	f := strings.Fields(command)
	for i := 0; i+1 < len(f); i++ {
		if f[i] == "hook" && strings.Trim(f[i+1], `'"`) == string(agent) {
			return true
		}
		// The lean binary: ".../shellguard-hook claude".
		if strings.HasSuffix(strings.Trim(f[i], `'"`), "shellguard-hook") && strings.Trim(f[i+1], `'"`) == string(agent) {
			return true
		}
	}
	return false
}

// ErrNotObject is returned for a settings file whose top level is not a
// JSON object.
var ErrNotObject = errors.New("the top level is not a JSON object")

// ParseError reports a settings file that shellguard refuses to edit.
type ParseError struct {
	Err error
}

func (e *ParseError) Error() string {
	return "cannot parse the settings (" + e.Err.Error() + "); fix or move the file first, shellguard did not change it"
}

func (e *ParseError) Unwrap() error { return e.Err }

func parseSettings(data []byte, agent agents.Agent) (*node, error) {
	root, err := parseJSON(data, allowsComments(agent))
	if err != nil {
		return nil, &ParseError{err}
	}
	if root.kind != '{' {
		return nil, &ParseError{ErrNotObject}
	}
	return root, nil
}

// found locates one shellguard hook command in the settings tree.
type found struct {
	// hooksObj holds the events (root's "hooks", or root itself);
	// eventArr is the event's list; group is the list's element (a
	// matcher group, or in a list layout the handler itself); inner is
	// the list holding the handler (the group's "hooks", or eventArr);
	// cmd is the command's value.
	hooksObj, eventArr, group, inner, cmd *node
	event                                 string
	eventIdx, groupIdx, innerIdx          int // member / element indexes
	hooksIdx                              int // index of "hooks" in root; -1 when the events are at the root
	command                               string
}

// eventsObject returns the object holding the events and its index in
// root (-1 for root itself, or when there is none).
func eventsObject(root *node, spec agents.Spec) (*node, int) {
	if spec.EventsAtRoot {
		return root, -1
	}
	i := lastMember(root, "hooks")
	if i < 0 {
		return nil, -1
	}
	return root.members[i].value, i
}

// find returns every shellguard hook for agent in root, in text order,
// under the events install registers for the agent: the commands
// IsShellguardCommand recognises, and also exact, a command that is known
// to be shellguard's even if its binary was renamed. With event set, only
// that event's.
func find(data []byte, root *node, agent agents.Agent, exact string, event ...string) []found {
	spec := agent.Spec()
	var out []found
	hooksObj, hooksIdx := eventsObject(root, spec)
	if hooksObj == nil || hooksObj.kind != '{' {
		return nil
	}
	for eventIdx, m := range hooksObj.members {
		if lastMember(hooksObj, m.key) != eventIdx {
			continue // a duplicate key: the agent reads the last one
		}
		if len(event) > 0 && m.key != event[0] {
			continue
		}
		if _, registered := spec.Matcher(m.key); !registered {
			continue
		}
		eventArr := m.value
		if eventArr.kind != '[' {
			continue
		}
		for gi, group := range eventArr.elems {
			inner, handlers, first := group.get("hooks"), []*node(nil), 0
			if spec.Layout == agents.LayoutList {
				inner, handlers, first = eventArr, []*node{group}, gi
			} else if inner != nil && inner.kind == '[' {
				handlers = inner.elems
			}
			for i, h := range handlers {
				cmd := h.get(commandKey(spec))
				if cmd == nil || cmd.kind != '"' {
					continue
				}
				var s string
				if json.Unmarshal(data[cmd.start:cmd.end], &s) != nil || !(IsShellguardCommand(s, agent) || exact != "" && s == exact) {
					continue
				}
				out = append(out, found{hooksObj: hooksObj, eventArr: eventArr, group: group, inner: inner, cmd: cmd,
					event: m.key, eventIdx: eventIdx, groupIdx: gi, innerIdx: first + i, hooksIdx: hooksIdx, command: s})
			}
		}
	}
	return out
}

func lastMember(n *node, key string) int {
	if n == nil || n.kind != '{' {
		return -1
	}
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			return i
		}
	}
	return -1
}

// Hook is one shellguard hook found in a settings file.
type Hook struct {
	// Event is the hook event ("PreToolUse").
	Event string
	// Matcher is its group's matcher (nil when the group has none).
	Matcher *string
	// Command is the handler's command.
	Command string
	// Group and Handler are its positions (Codex keys its trust with
	// them).
	Group, Handler int
	// Handler fields as written (nil when absent), for Codex's trust hash.
	Timeout       *float64
	Async         *bool
	StatusMessage string
}

// InstalledHooks returns the shellguard hooks for agent in a settings
// file's content, under every event install registers. also, when not empty, is a command
// recognised as shellguard's too (see RemoveHook).
func InstalledHooks(data []byte, agent agents.Agent, also string) ([]Hook, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	if spec := agent.Spec(); spec.Layout == agents.LayoutFile {
		if cmd, ours := pluginCommand(data, agent); ours || also != "" && cmd == also {
			return []Hook{{Event: spec.Event, Command: cmd}}, nil
		}
		return nil, nil
	}
	root, err := parseSettings(data, agent)
	if err != nil {
		return nil, err
	}
	var out []Hook
	for _, f := range find(data, root, agent, also) {
		h := Hook{Event: f.event, Command: f.command, Group: f.groupIdx, Handler: f.innerIdx}
		if m := f.group.get("matcher"); m != nil && m.kind == '"' {
			var s string
			if json.Unmarshal(data[m.start:m.end], &s) == nil {
				h.Matcher = &s
			}
		}
		handler := f.inner.elems[f.innerIdx]
		if t := handler.get("timeout"); t != nil && t.kind == 'v' {
			var v float64
			if json.Unmarshal(data[t.start:t.end], &v) == nil {
				h.Timeout = &v
			}
		}
		if a := handler.get("async"); a != nil && a.kind == 'v' {
			var v bool
			if json.Unmarshal(data[a.start:a.end], &v) == nil {
				h.Async = &v
			}
		}
		if sm := handler.get("statusMessage"); sm != nil && sm.kind == '"' {
			json.Unmarshal(data[sm.start:sm.end], &h.StatusMessage)
		}
		out = append(out, h)
	}
	return out, nil
}

// InstalledCommands returns the distinct shellguard hook commands for
// agent found in a settings file's content (empty content has none).
// also, when not empty, is a command recognised as shellguard's too (see
// RemoveHook).
func InstalledCommands(data []byte, agent agents.Agent, also ...string) ([]string, error) {
	exact := ""
	if len(also) > 0 {
		exact = also[0]
	}
	hooks, err := InstalledHooks(data, agent, exact)
	if err != nil {
		return nil, err
	}
	var cmds []string
	seen := map[string]bool{}
	for _, h := range hooks {
		if !seen[h.Command] {
			seen[h.Command] = true
			cmds = append(cmds, h.Command)
		}
	}
	return cmds, nil
}

// AddHook returns data with shellguard's hooks for agent running command:
// one group per registration of the agent (agents.Spec.Registrations). It
// changes nothing (changed false) when they are all there with that
// command; an existing shellguard hook with another command (the binary
// moved, or an older form) gets the new command, and its group the
// current matcher when shellguard's hook is alone in it. Everything else
// in data is kept byte for byte: entries are spliced in with the file's
// indentation.
func AddHook(data []byte, agent agents.Agent, command string) (out []byte, changed bool, err error) {
	spec := agent.Spec()
	if len(spec.Registrations()) == 0 {
		return nil, false, fmt.Errorf("unknown agent %q", agent)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return renderNew(spec, command)
	}
	out = data
	for _, reg := range spec.Registrations() {
		var c bool
		if out, c, err = addRegistration(out, spec, reg, command); err != nil {
			return nil, false, err
		}
		changed = changed || c
	}
	return out, changed, nil
}

// addRegistration makes sure one registration is in data.
func addRegistration(data []byte, spec agents.Spec, reg agents.Registration, command string) ([]byte, bool, error) {
	root, err := parseSettings(data, spec.Name)
	if err != nil {
		return nil, false, err
	}
	if hs := find(data, root, spec.Name, command, reg.Event); len(hs) > 0 {
		// The command, and the matcher of a group (or list handler)
		// holding only shellguard's hook, get the current values; the
		// edits are applied from the last so earlier offsets stay valid.
		type edit struct {
			start, end int
			value      string
		}
		var edits []edit
		for _, f := range hs {
			if f.command != command {
				edits = append(edits, edit{f.cmd.start, f.cmd.end, command})
			}
			alone := spec.Layout == agents.LayoutList || len(f.inner.elems) == 1
			if m := f.group.get("matcher"); m != nil && m.kind == '"' && alone && reg.Matcher != "" {
				var cur string
				if json.Unmarshal(data[m.start:m.end], &cur) == nil && cur != reg.Matcher {
					edits = append(edits, edit{m.start, m.end, reg.Matcher})
				}
			}
		}
		sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
		out := data
		for _, e := range edits {
			q, err := marshal(e.value, "", "")
			if err != nil {
				return nil, false, err
			}
			out = splice(out, e.start, e.end, q)
		}
		return out, len(edits) > 0, nil
	}
	unit := indentUnit(data)
	entry := entryValue(spec, reg, command)
	hooksObj, _ := eventsObject(root, spec)
	var out []byte
	switch {
	case hooksObj == nil:
		out, err = insertMember(data, root, "hooks", map1(reg.Event, []any{entry}), unit)
	case hooksObj.kind != '{':
		return nil, false, &ParseError{fmt.Errorf(`"hooks" is not an object`)}
	default:
		ev := hooksObj.get(reg.Event)
		switch {
		case ev == nil:
			out, err = insertMember(data, hooksObj, reg.Event, []any{entry}, unit)
		case ev.kind != '[':
			return nil, false, &ParseError{fmt.Errorf(`"%s" is not an array`, eventPath(spec, reg.Event))}
		default:
			out, err = insertElem(data, ev, entry, unit)
		}
	}
	if err != nil {
		return nil, false, err
	}
	return out, true, nil
}

// eventPath names an event's member for a message ("hooks.PreToolUse").
func eventPath(spec agents.Spec, event string) string {
	if spec.EventsAtRoot {
		return event
	}
	return "hooks." + event
}

// map1 is a one-member JSON object.
func map1(k string, v any) orderedObject { return orderedObject{{k, v}} }

func renderNew(spec agents.Spec, command string) ([]byte, bool, error) {
	// Build {"hooks": {EVENT: [entry], ...}} in registration order (with
	// the agent's "version" first, or the events at the top level).
	var events bytes.Buffer
	events.WriteByte('{')
	for i, reg := range spec.Registrations() {
		if i > 0 {
			events.WriteByte(',')
		}
		b, err := marshal(map1(reg.Event, []any{entryValue(spec, reg, command)}), "", "")
		if err != nil {
			return nil, false, err
		}
		events.Write(b[1 : len(b)-1])
	}
	events.WriteByte('}')
	var v any = map1("hooks", json.RawMessage(events.Bytes()))
	switch {
	case spec.EventsAtRoot:
		v = json.RawMessage(events.Bytes())
	case spec.Version != 0:
		v = orderedObject{{"version", spec.Version}, {"hooks", json.RawMessage(events.Bytes())}}
	}
	b, err := marshal(v, "", "  ")
	if err != nil {
		return nil, false, err
	}
	return append(b, '\n'), true, nil
}

// marshal encodes v with MarshalIndent's layout, without HTML escaping.
func marshal(v any, prefix, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	compact := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if indent == "" && prefix == "" {
		return compact, nil
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, prefix, indent); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func splice(data []byte, start, end int, repl []byte) []byte {
	out := make([]byte, 0, len(data)-(end-start)+len(repl))
	out = append(out, data[:start]...)
	out = append(out, repl...)
	return append(out, data[end:]...)
}

// indentUnit guesses one level of the file's indentation: the leading
// whitespace of the first indented line, or two spaces.
func indentUnit(data []byte) string {
	for _, line := range bytes.Split(data, []byte("\n")) {
		n := 0
		for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
			n++
		}
		if n > 0 && n < len(line) {
			if line[0] == '\t' {
				return "\t"
			}
			return string(line[:n])
		}
	}
	return "  "
}

// lineIndent returns the leading whitespace of the line holding pos.
func lineIndent(data []byte, pos int) string {
	start := bytes.LastIndexByte(data[:pos], '\n') + 1
	end := start
	for end < len(data) && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	return string(data[start:end])
}

func multiline(data []byte, n *node) bool { return bytes.IndexByte(data[n.start:n.end], '\n') >= 0 }

// childStarts returns the start offsets of a container's children.
func childStarts(n *node) []int {
	var s []int
	for _, m := range n.members {
		s = append(s, m.keyStart)
	}
	for _, e := range n.elems {
		s = append(s, e.start)
	}
	return s
}

func childEnd(n *node, i int) int {
	if n.kind == '{' {
		return n.members[i].value.end
	}
	return n.elems[i].end
}

// insertChild appends the rendered child text (a member "key": value or
// an element) at the end of container n.
func insertChild(data []byte, n *node, render func(prefix, unit string) ([]byte, error), unit string) ([]byte, error) {
	starts := childStarts(n)
	if len(starts) > 0 {
		last := childEnd(n, len(starts)-1)
		if !multiline(data, n) {
			text, err := render("", "")
			if err != nil {
				return nil, err
			}
			return splice(data, last, last, append([]byte(", "), text...)), nil
		}
		indent := lineIndent(data, starts[len(starts)-1])
		text, err := render(indent, unit)
		if err != nil {
			return nil, err
		}
		return splice(data, last, last, []byte(",\n"+indent+string(text))), nil
	}
	if !bytes.Contains(bytes.TrimSpace(data), []byte("\n")) {
		// A one-line file stays on one line.
		text, err := render("", "")
		if err != nil {
			return nil, err
		}
		return splice(data, n.end-1, n.end-1, text), nil
	}
	outer := lineIndent(data, n.start)
	inner := outer + unit
	text, err := render(inner, unit)
	if err != nil {
		return nil, err
	}
	open, closing := n.start+1, n.end-1
	if len(bytes.TrimSpace(data[open:closing])) == 0 {
		return splice(data, open, closing, []byte("\n"+inner+string(text)+"\n"+outer)), nil
	}
	// Only comments inside: keep them, add the child after.
	return splice(data, closing, closing, []byte("\n"+inner+string(text)+"\n"+outer)), nil
}

func insertMember(data []byte, obj *node, key string, value any, unit string) ([]byte, error) {
	return insertChild(data, obj, func(prefix, u string) ([]byte, error) {
		k, err := marshal(key, "", "")
		if err != nil {
			return nil, err
		}
		v, err := marshal(value, prefix, u)
		if err != nil {
			return nil, err
		}
		return []byte(string(k) + ": " + string(v)), nil
	}, unit)
}

func insertElem(data []byte, arr *node, value any, unit string) ([]byte, error) {
	return insertChild(data, arr, func(prefix, u string) ([]byte, error) { return marshal(value, prefix, u) }, unit)
}

// removeChild deletes child i of container n with the separator that
// joins it to its neighbours, undoing what insertChild added.
func removeChild(data []byte, n *node, i int) []byte {
	starts := childStarts(n)
	start, end := starts[i], childEnd(n, i)
	switch {
	case len(starts) == 1:
		open, closing := n.start+1, n.end-1
		if len(bytes.TrimSpace(data[open:start])) == 0 {
			start = open
		}
		if len(bytes.TrimSpace(data[end:closing])) == 0 {
			end = closing
		}
	case i > 0:
		start = childEnd(n, i-1)
	default:
		end = starts[1]
	}
	return splice(data, start, end, nil)
}

// RemoveHook returns data without shellguard's hooks for agent. Containers
// left empty by the removal (the matcher group, the event's list, the
// "hooks" object) are removed too; empty reports that nothing but an empty
// object would remain (or, for an agent whose new files get a "version",
// nothing but that version), in which case the caller removes the file.
// changed is false when data holds no shellguard hook for agent. A hook
// whose command is exactly command (when not empty) is removed too, even if
// it does not mention shellguard.
func RemoveHook(data []byte, agent agents.Agent, command string) (out []byte, changed, empty bool, err error) {
	spec := agent.Spec()
	if len(bytes.TrimSpace(data)) == 0 {
		return data, false, false, nil
	}
	out = data
	for range 10000 { // each pass removes one hook; bounded for safety
		root, err := parseSettings(out, agent)
		if err != nil {
			return nil, false, false, err
		}
		hs := find(out, root, agent, command)
		if len(hs) == 0 {
			empty = len(root.members) == 0 && len(bytes.TrimSpace(out[root.start+1:root.end-1])) == 0
			if changed && spec.Version != 0 && len(root.members) == 1 && root.members[0].key == "version" {
				empty = true
			}
			return out, changed, changed && empty, nil
		}
		f := hs[len(hs)-1]
		changed = true
		switch {
		case spec.Layout == agents.LayoutGroups && len(f.inner.elems) > 1:
			out = removeChild(out, f.inner, f.innerIdx)
		case len(f.eventArr.elems) > 1:
			out = removeChild(out, f.eventArr, f.groupIdx)
		case len(f.hooksObj.members) > 1 || f.hooksIdx < 0:
			out = removeChild(out, f.hooksObj, f.eventIdx)
		default:
			out = removeChild(out, root, f.hooksIdx)
		}
	}
	return nil, false, false, errors.New("too many shellguard hooks to remove")
}
