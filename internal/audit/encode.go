package audit

import (
	"time"
	"unicode/utf8"
)

// appendRecord appends r as encoding/json writes it (with HTML escaping
// off) followed by a newline. A hook writes one record per process, and
// the reflection encoding/json uses to learn Record's fields cost more
// than the rest of an allowed command's decision; TestAppendRecord and
// FuzzAppendRecord hold the two outputs equal.
func appendRecord(b []byte, r *Record) []byte {
	b = append(b, `{"time":`...)
	b = appendTime(b, r.Time)
	b = appendField(b, "cwd", r.Cwd, false)
	b = appendField(b, "command", r.Command, false)
	b = appendField(b, "verdict", r.Verdict, false)
	b = appendField(b, "level", r.Level, true)
	b = appendList(b, "rules", r.Rules)
	b = appendList(b, "approved_by", r.ApprovedBy)
	b = appendField(b, "reason", r.Reason, true)
	b = appendField(b, "source", r.Source, true)
	b = appendList(b, "warnings", r.Warnings)
	b = appendList(b, "programs", r.Programs)
	b = appendList(b, "prefixes", r.Prefixes)
	b = appendField(b, "code", r.Code, true)
	if r.Shadow {
		b = append(b, `,"shadow":true`...)
	}
	b = appendField(b, "problem", r.Problem, true)
	return append(b, "}\n"...)
}

// appendTime appends t as time.Time's MarshalJSON does (RFC 3339 with
// nanoseconds, in quotes).
func appendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

func appendField(b []byte, name, v string, omitEmpty bool) []byte {
	if omitEmpty && v == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendString(b, v)
}

func appendList(b []byte, name string, vs []string) []byte {
	if len(vs) == 0 {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':', '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, v)
	}
	return append(b, ']')
}

const hex = "0123456789abcdef"

// appendString appends s as a JSON string the way encoding/json does
// without HTML escaping: ", \ and control characters escaped (\b \f \n
// \r \t by name), invalid UTF-8 as \ufffd, U+2028 and U+2029 as \u escapes
// (JavaScript reads them as line ends).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
