package config

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"
)

// NormalizeRule turns a rule as a user wrote it into the form MatchRule
// works on. It accepts the opencode form ("git push *", "npm run *",
// "rm *") and the Claude Code form ("Bash(git push:*)" becomes
// "git push *", "Bash(npm test)" becomes "npm test", "Bash" or "Bash(*)"
// becomes "*"). Runs of blanks become one space, as in the invocation
// text rules are matched against. Rules for other Claude Code tools
// ("Read(...)") and empty rules are errors.
func NormalizeRule(rule string) (string, error) {
	s := strings.TrimSpace(rule)
	if s == "Bash" {
		s = "*"
	} else if inner, ok := strings.CutPrefix(s, "Bash("); ok {
		inner, ok = strings.CutSuffix(inner, ")")
		if !ok {
			return "", errors.New("unbalanced Bash( rule: want Bash(command) or Bash(prefix:*)")
		}
		inner = strings.TrimSpace(inner)
		if p, ok := strings.CutSuffix(inner, ":*"); ok {
			p = strings.TrimSpace(p)
			if p == "" {
				inner = "*"
			} else {
				inner = p + " *"
			}
		}
		s = inner
	} else if isToolRule(s) {
		return "", errors.New("only Bash(...) rules apply to shell commands")
	}
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "", errors.New("empty rule")
	}
	return s, nil
}

// isToolRule reports whether s looks like a Claude Code permission for a
// tool other than Bash: "Read(...)", "WebFetch(domain:x)".
func isToolRule(s string) bool {
	i := strings.IndexByte(s, '(')
	if i <= 0 || !strings.HasSuffix(s, ")") || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for _, c := range []byte(s[:i]) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// MatchRule reports whether the wildcard rule pattern matches command,
// the text of one invocation (program and arguments joined by single
// spaces), with opencode's semantics: the whole text must match; "*"
// matches any sequence of characters, spaces and newlines included, "?"
// exactly one character, everything else itself (case-sensitively); a
// pattern ending in " *" also matches the command without the trailing
// part, so "git push *" matches "git push" and "git push origin main" but
// not "git pushx". The pattern is normalised first (see NormalizeRule);
// a pattern that does not normalise matches nothing.
//
// Matching is iterative, at worst proportional to len(pattern) *
// len(command), and allocation-free for already normalised patterns.
func MatchRule(pattern, command string) bool {
	p := pattern
	if !isNormal(p) {
		var err error
		if p, err = NormalizeRule(pattern); err != nil {
			return false
		}
	}
	if glob(p, command) {
		return true
	}
	if bare, ok := strings.CutSuffix(p, " *"); ok {
		return glob(bare, command)
	}
	return false
}

// isNormal reports whether NormalizeRule(p) would return p unchanged,
// cheaply and without allocating: p is non-empty, has no Claude Code
// wrapper, and its only blanks are single ASCII spaces between words.
func isNormal(p string) bool {
	if p == "" || strings.HasPrefix(p, "Bash") || isToolRule(p) {
		return false
	}
	prevSpace := true // no leading space
	for _, r := range p {
		space := unicode.IsSpace(r)
		if space && (r != ' ' || prevSpace) {
			return false
		}
		prevSpace = space
	}
	return !prevSpace // no trailing space
}

// glob matches s against p, where '*' matches any run of characters and
// '?' exactly one. It backtracks only to the most recent star, which is
// enough for this pattern language and bounds the work by len(p)*len(s).
func glob(p, s string) bool {
	pi, si := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		if pi < len(p) {
			pr, pn := utf8.DecodeRuneInString(p[pi:])
			if pr == '*' {
				star, mark = pi+pn, si
				pi += pn
				continue
			}
			sr, sn := utf8.DecodeRuneInString(s[si:])
			if pr == '?' || (pr == sr && pn == sn && p[pi:pi+pn] == s[si:si+sn]) {
				pi += pn
				si += sn
				continue
			}
		}
		if star < 0 {
			return false
		}
		_, sn := utf8.DecodeRuneInString(s[mark:])
		mark += sn
		pi, si = star, mark
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}
