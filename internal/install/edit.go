package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/shellguard/shellguard/internal/agents"
)

// The settings layout is the same for the three agents:
//
//	{"hooks": {"<Event>": [{"matcher": "<tool>", "hooks": [{"type": "command", "command": "...", ...}]}]}}
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

// Timeouts are generous: an agent treats a timed-out hook as a failed one
// and runs the command, so a slow machine must not reach them.
func entryFor(agent agents.Agent, command string) hookEntry {
	switch agent {
	case agents.Gemini:
		return hookEntry{Matcher: "run_shell_command", Hooks: []hookCommand{{Type: "command", Command: command, Name: "shellguard", Timeout: 30000}}}
	case agents.Codex:
		return hookEntry{Matcher: "^Bash$", Hooks: []hookCommand{{Type: "command", Command: command, Timeout: 30}}}
	}
	return hookEntry{Matcher: "Bash", Hooks: []hookCommand{{Type: "command", Command: command, Timeout: 30}}}
}

// allowsComments reports whether the agent's settings file may hold
// comments (Gemini CLI strips them before parsing).
func allowsComments(agent agents.Agent) bool { return agent == agents.Gemini }

// IsShellguardCommand reports whether a hook command is shellguard's hook
// for agent: it mentions shellguard and runs its "hook <agent>" command.
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
	hooksObj, eventArr, group, inner, cmd *node
	eventIdx, groupIdx, innerIdx          int // member / element indexes
	hooksIdx                              int // index of "hooks" in root
	command                               string
}

// find returns every shellguard hook for agent in root, in text order: the
// commands IsShellguardCommand recognises, and also exact, a command that
// is known to be shellguard's even if its binary was renamed.
func find(data []byte, root *node, agent agents.Agent, exact string) []found {
	var out []found
	hooksIdx := lastMember(root, "hooks")
	if hooksIdx < 0 {
		return nil
	}
	hooksObj := root.members[hooksIdx].value
	eventIdx := lastMember(hooksObj, agent.Event())
	if eventIdx < 0 {
		return nil
	}
	eventArr := hooksObj.members[eventIdx].value
	if eventArr.kind != '[' {
		return nil
	}
	for gi, group := range eventArr.elems {
		inner := group.get("hooks")
		if inner == nil || inner.kind != '[' {
			continue
		}
		for hi, h := range inner.elems {
			cmd := h.get("command")
			if cmd == nil || cmd.kind != '"' {
				continue
			}
			var s string
			if json.Unmarshal(data[cmd.start:cmd.end], &s) != nil || !(IsShellguardCommand(s, agent) || exact != "" && s == exact) {
				continue
			}
			out = append(out, found{hooksObj: hooksObj, eventArr: eventArr, group: group, inner: inner, cmd: cmd,
				eventIdx: eventIdx, groupIdx: gi, innerIdx: hi, hooksIdx: hooksIdx, command: s})
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

// InstalledCommands returns the shellguard hook commands for agent found in
// a settings file's content (empty content has none). also, when not
// empty, is a command recognised as shellguard's too (see RemoveHook).
func InstalledCommands(data []byte, agent agents.Agent, also ...string) ([]string, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	root, err := parseSettings(data, agent)
	if err != nil {
		return nil, err
	}
	var cmds []string
	exact := ""
	if len(also) > 0 {
		exact = also[0]
	}
	for _, f := range find(data, root, agent, exact) {
		cmds = append(cmds, f.command)
	}
	return cmds, nil
}

// AddHook returns data with shellguard's hook for agent running command.
// It changes nothing (changed false) when the hook is already there with
// that command; an existing shellguard hook with another command (the
// binary moved) gets the new command. Everything else in data is kept
// byte for byte: the entry is spliced in with the file's indentation.
func AddHook(data []byte, agent agents.Agent, command string) (out []byte, changed bool, err error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return renderNew(agent, command)
	}
	root, err := parseSettings(data, agent)
	if err != nil {
		return nil, false, err
	}
	if hs := find(data, root, agent, command); len(hs) > 0 {
		out = data
		// Replace from the last so earlier offsets stay valid.
		for i := len(hs) - 1; i >= 0; i-- {
			if hs[i].command == command {
				continue
			}
			q, err := marshal(command, "", "")
			if err != nil {
				return nil, false, err
			}
			out = splice(out, hs[i].cmd.start, hs[i].cmd.end, q)
			changed = true
		}
		return out, changed, nil
	}
	unit := indentUnit(data)
	entry := entryFor(agent, command)
	hooksObj := root.get("hooks")
	switch {
	case hooksObj == nil:
		out, err = insertMember(data, root, "hooks", map1(agent.Event(), []hookEntry{entry}), unit)
	case hooksObj.kind != '{':
		return nil, false, &ParseError{fmt.Errorf(`"hooks" is not an object`)}
	default:
		ev := hooksObj.get(agent.Event())
		switch {
		case ev == nil:
			out, err = insertMember(data, hooksObj, agent.Event(), []hookEntry{entry}, unit)
		case ev.kind != '[':
			return nil, false, &ParseError{fmt.Errorf(`"hooks.%s" is not an array`, agent.Event())}
		default:
			out, err = insertElem(data, ev, entry, unit)
		}
	}
	if err != nil {
		return nil, false, err
	}
	return out, true, nil
}

// orderedMap1 is a one-member JSON object.
type orderedMap1 struct {
	key   string
	value any
}

func map1(k string, v any) orderedMap1 { return orderedMap1{k, v} }

func (m orderedMap1) MarshalJSON() ([]byte, error) {
	k, err := json.Marshal(m.key)
	if err != nil {
		return nil, err
	}
	v, err := json.Marshal(m.value)
	if err != nil {
		return nil, err
	}
	return []byte("{" + string(k) + ":" + string(v) + "}"), nil
}

func renderNew(agent agents.Agent, command string) ([]byte, bool, error) {
	b, err := marshal(map1("hooks", map1(agent.Event(), []hookEntry{entryFor(agent, command)})), "", "  ")
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
// object would remain, in which case the caller removes the file.
// changed is false when data holds no shellguard hook for agent. A hook
// whose command is exactly command (when not empty) is removed too, even if
// it does not mention shellguard.
func RemoveHook(data []byte, agent agents.Agent, command string) (out []byte, changed, empty bool, err error) {
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
			return out, changed, changed && empty, nil
		}
		f := hs[len(hs)-1]
		changed = true
		switch {
		case len(f.inner.elems) > 1:
			out = removeChild(out, f.inner, f.innerIdx)
		case len(f.eventArr.elems) > 1:
			out = removeChild(out, f.eventArr, f.groupIdx)
		case len(f.hooksObj.members) > 1:
			out = removeChild(out, f.hooksObj, f.eventIdx)
		default:
			out = removeChild(out, root, f.hooksIdx)
		}
	}
	return nil, false, false, errors.New("too many shellguard hooks to remove")
}
