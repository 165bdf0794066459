package tomldoc

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Error is a document that does not decode.
type Error struct {
	// Line is the 1-based line of the problem, 0 when unknown.
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Lines maps a key path to the line (1-based) where it was written.
//
// A path joins table keys with "." and appends array elements as "[i]"
// (see Join and Index): "rules.allow[2]", "pattern[0].regex",
// "hooks.PreToolUse[1].hooks[0].command". A key, a table and each array
// element are at the line where they start; a table made by a [header]
// at its header's, a table made by dotted keys at its first key's.
// Paths longer than MaxPath bytes are not recorded: Line answers with
// their nearest recorded parent.
type Lines map[string]int

// MaxPath bounds the paths Lines records, so that a hostile document
// (a key of a hundred thousand dotted parts) costs linear time and memory.
const MaxPath = 1024

// Line returns the line of path, or of its nearest recorded parent, or 0.
func (l Lines) Line(path string) int {
	for path != "" {
		if n, ok := l[path]; ok {
			return n
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			return 0
		}
		path = path[:i]
	}
	return 0
}

// Join appends a key to a path.
func Join(base, key string) string {
	if base == "" {
		return key
	}
	return base + "." + key
}

// Index appends an array index to a path.
func Index(base string, i int) string { return base + "[" + strconv.Itoa(i) + "]" }

// Kind names the TOML type of a decoded value, for messages: "a string",
// "an integer", "a float", "a boolean", "an array", "a table" or "a date
// or time".
func Kind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}

// Decode decodes src, a TOML document (TOML 1.1, as go-toml/v2 reads it),
// and returns its tables and the line of each of its keys. A leading
// UTF-8 byte order mark is skipped. The error is an *Error.
func Decode(src []byte) (map[string]any, Lines, error) {
	return decode(src, false)
}

// Decode10 is Decode for documents that must be TOML 1.0: it also
// rejects \e and \xHH escapes, inline tables over several lines or with a
// trailing comma, and times without seconds.
func Decode10(src []byte) (map[string]any, Lines, error) {
	return decode(src, true)
}

func decode(src []byte, toml10 bool) (doc map[string]any, lines Lines, err error) {
	defer func() {
		// go-toml panics on a few internal inconsistencies; a document
		// that makes it do so is one that does not decode.
		if r := recover(); r != nil {
			doc, lines, err = nil, nil, &Error{Msg: fmt.Sprintf("the TOML decoder failed: %v", r)}
		}
	}()
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	if err := toml.Unmarshal(src, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, _ := de.Position()
			return nil, nil, &Error{Line: line, Msg: strings.TrimPrefix(de.Error(), "toml: ")}
		}
		return nil, nil, &Error{Msg: strings.TrimPrefix(err.Error(), "toml: ")}
	}
	if doc == nil {
		doc = map[string]any{}
	}
	w := &walker{src: src, lines: Lines{}, aot: map[string]int{}, toml10: toml10}
	for i, c := range src {
		if c == '\n' {
			w.nl = append(w.nl, i)
		}
	}
	if err := w.document(); err != nil {
		return nil, nil, err
	}
	return doc, w.lines, nil
}

// walker reads the document again with go-toml's parser, for positions.
type walker struct {
	src    []byte
	nl     []int // offsets of the newlines
	lines  Lines
	aot    map[string]int // elements of each array of tables, by path
	toml10 bool
}

// line returns the line of a byte offset.
func (w *walker) line(off uint32) int {
	return sort.SearchInts(w.nl, int(off)) + 1
}

// nodeLine returns where n starts: arrays and table headers carry no
// position of their own, so their first located part's; else fallback.
func (w *walker) nodeLine(n *unstable.Node, fallback int) int {
	for n != nil {
		if n.Raw.Length > 0 {
			return w.line(n.Raw.Offset)
		}
		if n.Kind != unstable.Array && n.Kind != unstable.Table && n.Kind != unstable.ArrayTable {
			break
		}
		n = n.Child()
	}
	return fallback
}

func (w *walker) record(path string, line int) {
	if path == "" || len(path) > MaxPath {
		return
	}
	if _, ok := w.lines[path]; !ok {
		w.lines[path] = line
	}
}

func (w *walker) errorf(n *unstable.Node, format string, args ...any) error {
	return &Error{Line: w.nodeLine(n, 0), Msg: fmt.Sprintf(format, args...)}
}

func (w *walker) document() error {
	var p unstable.Parser
	p.Reset(w.src)
	table := ""
	for p.NextExpression() {
		e := p.Expression()
		var err error
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table, err = w.header(e)
		case unstable.KeyValue:
			err = w.keyValue(table, e)
		}
		if err != nil {
			return err
		}
	}
	if err := p.Error(); err != nil {
		// Unmarshal accepted what the parser rejects: go-toml disagrees
		// with itself, and the document is not trusted.
		return &Error{Msg: "the TOML parser rejects what the decoder accepted: " + err.Error()}
	}
	return nil
}

// header reads [a.b] or [[a.b]] and returns the resolved table path.
func (w *walker) header(e *unstable.Node) (string, error) {
	array := e.Kind == unstable.ArrayTable
	path := ""
	it := e.Key()
	for it.Next() {
		k := it.Node()
		if err := w.key(k); err != nil {
			return "", err
		}
		line := w.nodeLine(k, 0)
		path = w.join(path, string(k.Data))
		if it.IsLast() && array {
			n := w.aot[path]
			w.aot[path] = n + 1
			w.record(path, line)
			path = w.index(path, n)
		} else if n := w.aot[path]; n > 0 {
			path = w.index(path, n-1)
		}
		w.record(path, line)
	}
	return path, nil
}

// join and index are Join and Index that stop growing a path past
// MaxPath (its keys are not recorded, and the walk stays linear).
func (w *walker) join(base, key string) string {
	if len(base) > MaxPath {
		return base
	}
	return Join(base, key)
}

func (w *walker) index(base string, i int) string {
	if len(base) > MaxPath {
		return base
	}
	return Index(base, i)
}

// keyValue reads key = value under path.
func (w *walker) keyValue(path string, kv *unstable.Node) error {
	it := kv.Key()
	line := 0
	for it.Next() {
		k := it.Node()
		if err := w.key(k); err != nil {
			return err
		}
		line = w.nodeLine(k, line)
		path = w.join(path, string(k.Data))
		w.record(path, line)
	}
	return w.value(path, kv.Value(), line)
}

// value records the elements of arrays and the keys of inline tables
// under path, and checks scalars.
func (w *walker) value(path string, v *unstable.Node, line int) error {
	switch v.Kind {
	case unstable.Array:
		i := 0
		for it := v.Children(); it.Next(); {
			el := it.Node()
			if el.Kind == unstable.Comment {
				continue
			}
			p := w.index(path, i)
			l := w.nodeLine(el, line)
			w.record(p, l)
			if err := w.value(p, el, l); err != nil {
				return err
			}
			i++
		}
	case unstable.InlineTable:
		if w.toml10 {
			if err := w.oneLine(v); err != nil {
				return err
			}
		}
		for it := v.Children(); it.Next(); {
			if kv := it.Node(); kv.Kind == unstable.KeyValue {
				if err := w.keyValue(path, kv); err != nil {
					return err
				}
			}
		}
	case unstable.String:
		if w.toml10 {
			return w.escapes(v)
		}
	case unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		if w.toml10 {
			return w.seconds(v)
		}
	}
	return nil
}

// key checks a key's escapes.
func (w *walker) key(k *unstable.Node) error {
	if w.toml10 {
		return w.escapes(k)
	}
	return nil
}

// escapes rejects TOML 1.1's \e and \xHH in a basic string or key.
func (w *walker) escapes(n *unstable.Node) error {
	raw := w.src[n.Raw.Offset : n.Raw.Offset+n.Raw.Length]
	if len(raw) == 0 || raw[0] != '"' {
		return nil
	}
	for i := 0; i+1 < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		i++
		if c := raw[i]; c == 'e' || c == 'x' {
			return w.errorf(n, `invalid escape \%c (TOML 1.1; shellguard reads TOML 1.0: write \u00XX)`, c)
		}
	}
	return nil
}

// seconds rejects a time without seconds (07:32, TOML 1.1).
func (w *walker) seconds(n *unstable.Node) error {
	raw := w.src[n.Raw.Offset : n.Raw.Offset+n.Raw.Length]
	t := raw
	if n.Kind != unstable.LocalTime {
		if len(raw) < 11 {
			return nil
		}
		t = raw[11:]
	}
	if len(t) < 8 || t[5] != ':' {
		return w.errorf(n, "invalid time %q: no seconds (TOML 1.1; shellguard reads TOML 1.0: write HH:MM:SS)", raw)
	}
	return nil
}

// oneLine rejects an inline table over several lines or with a trailing
// comma (TOML 1.1). Newlines inside its values (a multi-line string or
// array) are TOML 1.0.
func (w *walker) oneLine(t *unstable.Node) error {
	pos := int(t.Raw.Offset) + 1
	for it := t.Children(); it.Next(); {
		kv := it.Node()
		if kv.Kind != unstable.KeyValue {
			continue
		}
		start := int(kv.Raw.Offset)
		if start >= pos && bytes.IndexByte(w.src[pos:start], '\n') >= 0 {
			return w.errorf(t, "an inline table must be on one line (TOML 1.1 allows newlines in it; shellguard reads TOML 1.0: use a [table])")
		}
		pos = start + int(kv.Raw.Length)
	}
	for pos < len(w.src) && (w.src[pos] == ' ' || w.src[pos] == '\t') {
		pos++
	}
	switch {
	case pos < len(w.src) && w.src[pos] == ',':
		return w.errorf(t, "trailing comma in an inline table (TOML 1.1; shellguard reads TOML 1.0)")
	case pos < len(w.src) && w.src[pos] != '}':
		return w.errorf(t, "an inline table must be on one line (TOML 1.1 allows newlines in it; shellguard reads TOML 1.0: use a [table])")
	}
	return nil
}
