// Package shquote quotes a string as one shell word: shellguard's one
// quoting function, used wherever a word is written back into a command
// line (nested commands re-checked, approval prefixes, suggested fixes,
// hook commands). A word the shell reads back as itself is left as it is;
// any other is quoted by mvdan.cc/sh's syntax.Quote for bash, which the
// parser already links.
package shquote

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Quote returns s unchanged when a POSIX shell (and bash and zsh) reads it
// back as the same single word (letters, digits and -_./=:,+@%^), and a
// quoted form otherwise: ” for the empty string, single quotes where
// possible, $'...' for control characters. A NUL byte, which no shell word
// can hold, is written as \0 in an otherwise unquoted word: the result is
// then for display only.
func Quote(s string) string { return quote(s, &plain) }

// Path quotes a path as one shell word that the shell reads as the path
// was meant: a leading ~ or ~/ stays unquoted (the home directory), a
// path that starts with a variable or a substitution ($HOME/x, $(pwd)) is
// double-quoted so that it still expands, and any other is Quote's.
func Path(p string) string {
	switch {
	case strings.HasPrefix(p, "$"):
		var b strings.Builder
		b.WriteByte('"')
		for i := 0; i < len(p); i++ {
			if p[i] == '"' || p[i] == '\\' {
				b.WriteByte('\\')
			}
			b.WriteByte(p[i])
		}
		b.WriteByte('"')
		return b.String()
	case p == "~", p == "~/":
		return p
	case strings.HasPrefix(p, "~/"):
		return "~/" + Quote(p[2:])
	}
	return Quote(p)
}

// With returns a Quote that also leaves a word unchanged when its other
// bytes are in extra (for display: a caller may show glob characters as
// written).
func With(extra string) func(string) string {
	set := bytesOf(extra)
	return func(s string) string { return quote(s, set) }
}

// plain is the set of bytes Quote leaves as they are.
var plain = *bytesOf("")

// bytesOf returns the set of letters, digits, -_./=:,+@%^ and extra.
func bytesOf(extra string) *[256]bool {
	var set [256]bool
	for c := 'a'; c <= 'z'; c++ {
		set[c], set[c-'a'+'A'] = true, true
	}
	for c := '0'; c <= '9'; c++ {
		set[c] = true
	}
	for _, c := range []byte("-_./=:,+@%^" + extra) {
		set[c] = true
	}
	return &set
}

func quote(s string, set *[256]bool) string {
	if s == "" {
		return "''"
	}
	asIs := true
	for i := 0; i < len(s); i++ {
		if !set[s[i]] {
			asIs = false
			break
		}
	}
	if asIs {
		return s
	}
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		return strings.ReplaceAll(s, "\x00", `\0`)
	}
	return q
}

// Plain reports a byte Quote leaves as it is: letters, digits and
// -_./=:,+@%^.
func Plain(c byte) bool { return plain[c] }
