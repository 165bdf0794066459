package approval

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/shellguard/shellguard/internal/jsonw"
)

// The refusals file is read and written on every ask or deny answer, in
// the hook's process. encoding/json learns event's 25 fields by
// reflection the first time it meets the type, which costs more than
// the rest of such an answer; appendEvent and decodeEvent stand in for it
// on the lines shellguard itself writes, and defer to it for anything
// else. FuzzEventCodec holds them to encoding/json.

// appendEvent appends ev as a json.Encoder with HTML escaping off writes
// it, newline included.
func appendEvent(b []byte, ev *event) ([]byte, error) {
	if ev.Grant != nil || !jsonTime(ev.Time) || !jsonTime(ev.Expires) || !jsonTime(ev.Approved) ||
		!jsonTime(ev.ApprovedUntil) || !jsonTime(ev.Used) {
		// Rare: a session approval, or a time MarshalJSON refuses.
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(ev); err != nil {
			return b, err
		}
		return append(b, buf.Bytes()...), nil
	}
	r := &ev.Refusal
	b = append(b, `{"event":`...)
	b = jsonw.AppendString(b, ev.Event)
	b = jsonw.AppendField(b, "code", r.Code, false)
	b = jsonw.AppendField(b, "command", r.Command, false)
	b = jsonw.AppendField(b, "digest", r.Digest, false)
	if r.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	b = jsonw.AppendField(b, "cwd", r.Cwd, false)
	b = jsonw.AppendField(b, "cwd_id", r.CwdID, true)
	b = append(b, `,"time":`...)
	b = jsonw.AppendTime(b, r.Time)
	if r.Count != 0 {
		b = append(b, `,"count":`...)
		b = strconv.AppendInt(b, int64(r.Count), 10)
	}
	b = append(b, `,"expires":`...)
	b = jsonw.AppendTime(b, r.Expires)
	b = jsonw.AppendField(b, "verdict", r.Verdict, false)
	b = jsonw.AppendField(b, "reason", r.Reason, true)
	b = jsonw.AppendField(b, "level", r.Level, true)
	b = jsonw.AppendList(b, "rules", r.Rules)
	b = jsonw.AppendField(b, "source", r.Source, true)
	b = jsonw.AppendField(b, "session", r.Session, true)
	b = jsonw.AppendList(b, "prefixes", r.Prefixes)
	b = jsonw.AppendField(b, "prefix_reason", r.PrefixReason, true)
	for _, f := range [...]struct {
		name string
		t    time.Time
	}{{"approved", r.Approved}, {"approved_until", r.ApprovedUntil}, {"used", r.Used}} {
		if !f.t.IsZero() {
			b = append(b, ',', '"')
			b = append(b, f.name...)
			b = append(b, '"', ':')
			b = jsonw.AppendTime(b, f.t)
		}
	}
	if r.Locked {
		b = append(b, `,"locked":true`...)
	}
	return append(b, "}\n"...), nil
}

// jsonTime reports whether time.Time's MarshalJSON accepts t (a year of
// four digits, a zone offset under a day).
func jsonTime(t time.Time) bool {
	if y := t.Year(); y < 0 || y > 9999 {
		return false
	}
	_, off := t.Zone()
	return off > -24*3600 && off < 24*3600
}

// unmarshalEvent is json.Unmarshal(line, ev) for a zero ev: decodeEvent
// when the line is one it reads, encoding/json otherwise.
func unmarshalEvent(line []byte, ev *event) error {
	if decodeEvent(line, ev) {
		return nil
	}
	*ev = event{}
	return json.Unmarshal(line, ev)
}

// decodeEvent reads line into ev (zero) as json.Unmarshal would, when
// line is an object of event's own keys (exact case, each a string,
// true/false, a whole number, a time or a list of strings as
// appendEvent writes them); false for anything else (ev is then
// partly filled).
func decodeEvent(line []byte, ev *event) bool {
	d := eventDecoder{s: line}
	if !d.take('{') {
		return false
	}
	if d.take('}') {
		return d.end()
	}
	for {
		key, ok := d.plainString()
		if !ok || !d.take(':') {
			return false
		}
		r := &ev.Refusal
		switch key {
		case "event":
			ok = d.str(&ev.Event)
		case "code":
			ok = d.str(&r.Code)
		case "command":
			ok = d.str(&r.Command)
		case "digest":
			ok = d.str(&r.Digest)
		case "truncated":
			ok = d.boolean(&r.Truncated)
		case "cwd":
			ok = d.str(&r.Cwd)
		case "cwd_id":
			ok = d.str(&r.CwdID)
		case "time":
			ok = d.time(&r.Time)
		case "count":
			ok = d.integer(&r.Count)
		case "expires":
			ok = d.time(&r.Expires)
		case "verdict":
			ok = d.str(&r.Verdict)
		case "reason":
			ok = d.str(&r.Reason)
		case "level":
			ok = d.str(&r.Level)
		case "rules":
			ok = d.list(&r.Rules)
		case "source":
			ok = d.str(&r.Source)
		case "session":
			ok = d.str(&r.Session)
		case "prefixes":
			ok = d.list(&r.Prefixes)
		case "prefix_reason":
			ok = d.str(&r.PrefixReason)
		case "approved":
			ok = d.time(&r.Approved)
		case "approved_until":
			ok = d.time(&r.ApprovedUntil)
		case "used":
			ok = d.time(&r.Used)
		case "locked":
			ok = d.boolean(&r.Locked)
		default:
			return false // session_approval, a key in other case, ...
		}
		if !ok {
			return false
		}
		if d.take('}') {
			return d.end()
		}
		if !d.take(',') {
			return false
		}
	}
}

// eventDecoder reads the JSON of one event line.
type eventDecoder struct {
	s []byte
	i int
}

func (d *eventDecoder) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// take consumes c (after white space) when it comes next.
func (d *eventDecoder) take(c byte) bool {
	d.space()
	if d.i < len(d.s) && d.s[d.i] == c {
		d.i++
		return true
	}
	return false
}

// end reports that only white space is left.
func (d *eventDecoder) end() bool {
	d.space()
	return d.i == len(d.s)
}

// raw returns the next JSON string as it stands, quotes included, and
// whether it has escapes; false when it is not a string of valid UTF-8
// without control characters whose escapes are all of the plain kind
// (\" \\ \/ \b \f \n \r \t, or \u of a rune that is not a surrogate).
func (d *eventDecoder) raw() (text []byte, escaped, ok bool) {
	d.space()
	if d.i >= len(d.s) || d.s[d.i] != '"' {
		return nil, false, false
	}
	start := d.i
	for i := d.i + 1; i < len(d.s); {
		c := d.s[i]
		switch {
		case c == '"':
			d.i = i + 1
			return d.s[start:d.i], escaped, true
		case c < 0x20:
			return nil, false, false
		case c == '\\':
			escaped = true
			if i+1 >= len(d.s) {
				return nil, false, false
			}
			switch d.s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d.s) {
					return nil, false, false
				}
				v, err := strconv.ParseUint(string(d.s[i+2:i+6]), 16, 32)
				if err != nil || v >= 0xD800 && v < 0xE000 {
					return nil, false, false
				}
				i += 6
			default:
				return nil, false, false
			}
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(d.s[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, false, false // encoding/json would make it U+FFFD
			}
			i += size
		}
	}
	return nil, false, false
}

// plainString reads a string without escapes (a key).
func (d *eventDecoder) plainString() (string, bool) {
	text, escaped, ok := d.raw()
	if !ok || escaped {
		return "", false
	}
	return string(text[1 : len(text)-1]), true
}

// str reads a string into v.
func (d *eventDecoder) str(v *string) bool {
	text, escaped, ok := d.raw()
	if !ok {
		return false
	}
	if !escaped {
		*v = string(text[1 : len(text)-1])
		return true
	}
	var b []byte
	in := text[1 : len(text)-1]
	for i := 0; i < len(in); {
		c := in[i]
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		switch in[i+1] {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			n, _ := strconv.ParseUint(string(in[i+2:i+6]), 16, 32)
			b = utf8.AppendRune(b, rune(n))
			i += 6
			continue
		default: // " \ /
			b = append(b, in[i+1])
		}
		i += 2
	}
	*v = string(b)
	return true
}

func (d *eventDecoder) boolean(v *bool) bool {
	d.space()
	switch {
	case bytes.HasPrefix(d.s[d.i:], []byte("true")):
		*v, d.i = true, d.i+4
	case bytes.HasPrefix(d.s[d.i:], []byte("false")):
		*v, d.i = false, d.i+5
	default:
		return false
	}
	return true
}

// integer reads a whole number that fits an int, written without
// fraction or exponent.
func (d *eventDecoder) integer(v *int) bool {
	d.space()
	j := d.i
	if j < len(d.s) && d.s[j] == '-' {
		j++
	}
	digits := j
	for j < len(d.s) && d.s[j] >= '0' && d.s[j] <= '9' {
		j++
	}
	if j == digits || d.s[digits] == '0' && j > digits+1 {
		return false // no digits, or a leading zero (not JSON)
	}
	if j < len(d.s) && (d.s[j] == '.' || d.s[j] == 'e' || d.s[j] == 'E') {
		return false
	}
	n, err := strconv.Atoi(string(d.s[d.i:j]))
	if err != nil {
		return false
	}
	*v, d.i = n, j
	return true
}

// time reads a time as time.Time's UnmarshalJSON does, from the string
// as it stands.
func (d *eventDecoder) time(v *time.Time) bool {
	text, _, ok := d.raw()
	return ok && v.UnmarshalJSON(text) == nil
}

// list reads a list of strings (an empty one is empty, not nil, as
// encoding/json makes it).
func (d *eventDecoder) list(v *[]string) bool {
	if !d.take('[') {
		return false
	}
	out := []string{}
	if d.take(']') {
		*v = out
		return true
	}
	for {
		var s string
		if !d.str(&s) {
			return false
		}
		out = append(out, s)
		if d.take(']') {
			*v = out
			return true
		}
		if !d.take(',') {
			return false
		}
	}
}
