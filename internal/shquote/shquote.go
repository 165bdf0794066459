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
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	plain := true
	for i := 0; i < len(s); i++ {
		if !Plain(s[i]) {
			plain = false
			break
		}
	}
	if plain {
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
func Plain(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	switch c {
	case '-', '_', '.', '/', '=', ':', ',', '+', '@', '%', '^':
		return true
	}
	return false
}
