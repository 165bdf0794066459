package textlex

import "strings"

// IsDigits reports a non-empty string of ASCII digits.
func IsDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// SplitQuoted splits s into words at blanks, with '...' and "..." quoting
// and backslash escapes (as a shell reads literal text, git an alias,
// xargs its input, Python's shlex.split its argument). With limit > 0 it
// stops after limit words.
func SplitQuoted(s string, limit int) []string {
	var out []string
	var b strings.Builder
	in := false
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else if c == '\\' && q == '"' && i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			} else {
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			q, in = c, true
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
		if limit > 0 && len(out) >= limit {
			return out
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}

// NextEscape writes to b the bytes of s from i up to the next backslash
// that has a byte after it, and returns the index of that byte; when there
// is none it writes the rest of s (a trailing backslash as is) and returns
// false. A decoder loops with
//
//	for i, ok := NextEscape(b, s, 0); ok; i, ok = NextEscape(b, s, i+1) {
//		switch s[i] { ... }
//	}
func NextEscape(b *strings.Builder, s string, i int) (int, bool) {
	if i >= len(s) {
		return len(s), false
	}
	k := strings.IndexByte(s[i:], '\\')
	if k < 0 || i+k+1 >= len(s) {
		b.WriteString(s[i:])
		return len(s), false
	}
	b.WriteString(s[i : i+k])
	return i + k + 1, true
}

// cEscapes maps the letter of each of C's one-letter control escapes to
// its byte.
var cEscapes = [256]byte{'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v'}

// CEscape returns the byte of C's escape \e for the letters a b f n r t v
// that most languages share, and false for any other byte.
func CEscape(e byte) (byte, bool) {
	c := cEscapes[e]
	return c, c != 0
}

// CEscapeAmong is CEscape for the letters among letters only (a subset of
// a b f n r t v: those a language reads), false for any other byte.
func CEscapeAmong(e byte, letters string) (byte, bool) {
	if strings.IndexByte(letters, e) < 0 {
		return 0, false
	}
	return CEscape(e)
}
