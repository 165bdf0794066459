package danger

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestFirstBytes: the first-byte filter never rejects a string the
// expression matches (every rule's expression, and hand-written cases,
// against their examples' words and random strings).
func TestFirstBytes(t *testing.T) {
	exprs := []string{`/etc/(passwd|shadow)`, `(~|\$HOME)/\.bashrc`, `(?i)abc|x+`, `a*b`, `(a|)b`, `[^ab]c`, `.*x`, `(?i)é|z`, `\x{FFFD}q`, `x{0,2}y`, `\bfoo`}
	// The built-in expressions as the generator wrote them (with their
	// whole languages, needed pieces and first bytes), and as a user's
	// rule would compile them.
	var built []*lazyRE
	seen := map[string]bool{}
	var walk func(m *matcher)
	walk = func(m *matcher) {
		for _, l := range append([]*lazyRE{m.operand, m.operandNone, m.last, m.args, m.redirect, m.writes, m.reads, m.stdin}, m.values()...) {
			if l != nil && !seen[l.expr] {
				// One of each: the generator writes an expression
				// the same wherever it stands.
				seen[l.expr] = true
				exprs = append(exprs, l.expr)
				built = append(built, l)
			}
		}
		if m.more != nil {
			for k := range m.more.any {
				walk(&m.more.any[k])
			}
		}
	}
	for i := range builtinCount {
		walk(&builtinRuleAt(i).m)
	}
	words := []string{"", "a", "b", "abc", "ABC", "xx", "y", "ab", "cc", "é", "É", "\xffq", "\x80q", "foo", "/etc/passwd", "~/.bashrc", "$HOME/.bashrc"}
	for i := range builtinCount {
		hit, miss := builtinExamples(i)
		for _, l := range append(hit, miss...) {
			words = append(words, l)
			// Its suffixes from the first bytes and from each word, path
			// element and value on (every byte offset made the test
			// take minutes once the rule packs came).
			for k := 1; k < len(l); k++ {
				if k < 3 || strings.IndexByte(" /=:,'\"", l[k-1]) >= 0 {
					words = append(words, l[k:])
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 2000; k++ {
		b := make([]byte, r.IntN(8))
		for j := range b {
			b[j] = byte(r.IntN(256))
		}
		words = append(words, string(b))
	}
	// Each expression as written in rules_gen.go (when built-in) and as
	// a user's rule compiles it, against the regexp itself.
	for k, e := range exprs {
		ls := []*lazyRE{{expr: e, anchored: true}}
		if k >= len(exprs)-len(built) {
			ls = append(ls, built[k-(len(exprs)-len(built))])
		}
		re := regexp.MustCompile(ls[0].source())
		for _, w := range words {
			want := re.MatchString(w)
			for _, l := range ls {
				if got := l.MatchString(w); got != want {
					t.Fatalf("%q (whole %v, need %q) on %q: %v, want %v", l.expr, l.whole != "", l.need, w, got, want)
				}
			}
		}
	}
}
