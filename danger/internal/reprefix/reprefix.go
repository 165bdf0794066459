package reprefix

import (
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds on the work and on the answer.
const (
	maxSet   = 64 // prefixes in a set
	maxLen   = 32 // bytes in a prefix
	maxClass = 16 // runes of a character class taken one by one
)

// Sep separates the prefixes in Join's string. A prefix never contains
// it: Of cuts a prefix before it (a prefix of a prefix is a prefix).
const Sep = "\x00"

// Of returns prefixes such that every string that ^(?:expr)$ matches
// (Perl syntax, as regexp.Compile reads it) starts with one of them, or
// ok false when there are none worth checking: the expression does not
// parse, can start with too many different strings, or can match a
// string starting with anything (or the empty string). The prefixes are
// sorted, none is empty and none starts another.
func Of(expr string) (prefixes []string, ok bool) {
	_, re, ok := parse(expr)
	if !ok {
		return nil, false
	}
	set, known := of(re, 0)
	if !known || len(set) == 0 {
		return nil, false
	}
	out := make([]string, 0, len(set))
	for _, p := range set {
		s := p.s
		if i := strings.Index(s, Sep); i >= 0 {
			s = s[:i]
		}
		if s == "" {
			return nil, false
		}
		out = append(out, s)
	}
	sort.Strings(out)
	// Keep the shortest of prefixes that start one another: "/etc/"
	// covers "/etc/ssh/".
	min := out[:0]
	for _, s := range out {
		if len(min) > 0 && strings.HasPrefix(s, min[len(min)-1]) {
			continue
		}
		min = append(min, s)
	}
	return min, true
}

// parse returns expr parsed alone and, simplified, as ^(?:expr)$. expr
// must parse on its own: "0)|ba(" parses only inside the wrapper, where
// it closes the group and leaves ba unanchored.
func parse(expr string) (alone, anchored *syntax.Regexp, ok bool) {
	alone, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, nil, false
	}
	re, err := syntax.Parse(`^(?:`+expr+`)$`, syntax.Perl)
	if err != nil {
		return nil, nil, false
	}
	return alone, re.Simplify(), true
}

// Join is the prefixes as one string, separated by Sep.
func Join(prefixes []string) string { return strings.Join(prefixes, Sep) }

// Split returns the prefixes Join joined.
func Split(joined string) []string {
	if joined == "" {
		return nil
	}
	return strings.Split(joined, Sep)
}

// HasSorted reports whether s starts with one of prefixes, sorted and
// none starting another, as Of returns them: then the greatest prefix
// not after s is the only one that can start it (a prefix p of s sorts
// between p and s, so any prefix between them starts with p, and none
// does), and a binary search finds it.
func HasSorted(s string, prefixes []string) bool {
	i := sort.SearchStrings(prefixes, s)
	if i < len(prefixes) && prefixes[i] == s {
		return true
	}
	return i > 0 && strings.HasPrefix(s, prefixes[i-1])
}

// Has reports whether s starts with one of the prefixes Join joined. It
// is on every rule's path: it compares bytes as it goes, and skips the
// rest of a prefix at its first mismatch (most mismatch at once).
func Has(s, joined string) bool {
	for k := 0; k < len(joined); {
		j := 0
		for k < len(joined) && joined[k] != Sep[0] && j < len(s) && s[j] == joined[k] {
			j++
			k++
		}
		if k == len(joined) || joined[k] == Sep[0] {
			return true // the whole prefix matched
		}
		i := strings.IndexByte(joined[k:], Sep[0])
		if i < 0 {
			return false
		}
		k += i + 1
	}
	return false
}

// pre is a string a match starts with; exact when the match is that
// string (so what follows in a concatenation extends it).
type pre struct {
	s     string
	exact bool
}

// empty is the set of an expression that matches only the empty string.
var empty = []pre{{"", true}}

// of returns the strings a match of re starts with; known is false when
// a match can start with anything.
func of(re *syntax.Regexp, depth int) (set []pre, known bool) {
	if depth > 100 {
		return nil, false
	}
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return empty, true
	case syntax.OpLiteral:
		return []pre{literal(re.Rune, re.Flags&syntax.FoldCase != 0)}, true
	case syntax.OpCharClass:
		n := 0
		for k := 0; k+1 < len(re.Rune); k += 2 {
			n += int(re.Rune[k+1]-re.Rune[k]) + 1
			if n > maxClass {
				return nil, false
			}
		}
		for k := 0; k+1 < len(re.Rune); k += 2 {
			for r := re.Rune[k]; r <= re.Rune[k+1]; r++ {
				if r == utf8.RuneError || !utf8.ValidRune(r) {
					// Invalid UTF-8 reads as U+FFFD: any byte >= 0x80;
					// a surrogate (\x{D800}) matches nothing, but
					// string(r) would be U+FFFD.
					return nil, false
				}
				set = append(set, pre{string(r), true})
			}
		}
		return set, true
	case syntax.OpCapture:
		return of(re.Sub[0], depth+1)
	case syntax.OpQuest, syntax.OpStar:
		sub, known := of(re.Sub[0], depth+1)
		if !known {
			return nil, false
		}
		if re.Op == syntax.OpStar {
			sub = inexact(sub)
		}
		return union(empty, sub)
	case syntax.OpPlus:
		sub, known := of(re.Sub[0], depth+1)
		return inexact(sub), known
	case syntax.OpRepeat:
		sub, known := of(re.Sub[0], depth+1)
		if re.Min == 0 {
			if !known {
				return nil, false
			}
			return union(empty, inexact(sub))
		}
		return inexact(sub), known
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			s, known := of(sub, depth+1)
			if !known {
				return nil, false
			}
			if set, known = union(set, s); !known {
				return nil, false
			}
		}
		return set, true
	case syntax.OpConcat:
		set = empty
		for _, sub := range re.Sub {
			if !anyExact(set) {
				break
			}
			s, known := of(sub, depth+1)
			set = concat(set, s, known)
		}
		return set, true
	}
	// OpAnyChar, OpAnyCharNotNL, OpNoMatch and anything new.
	return nil, false
}

// literal is the prefix of a literal: up to its first rune that has other
// cases when it folds case, and before U+FFFD (which invalid UTF-8 reads
// as) or a rune no UTF-8 text holds (a surrogate).
func literal(runes []rune, fold bool) pre {
	var b strings.Builder
	for _, r := range runes {
		if r == utf8.RuneError || !utf8.ValidRune(r) || fold && unicode.SimpleFold(r) != r || b.Len() >= maxLen {
			return pre{b.String(), false}
		}
		b.WriteRune(r)
	}
	return pre{b.String(), true}
}

func inexact(set []pre) []pre {
	out := make([]pre, len(set))
	for i, p := range set {
		out[i] = pre{p.s, false}
	}
	return out
}

func anyExact(set []pre) bool {
	for _, p := range set {
		if p.exact {
			return true
		}
	}
	return false
}

func union(a, b []pre) ([]pre, bool) {
	if len(a)+len(b) > maxSet {
		return nil, false
	}
	return append(append([]pre(nil), a...), b...), true
}

// concat extends the exact strings of set by next's (known false: by
// anything, so they stop being exact). Past the bounds the strings stop
// growing, which keeps them prefixes.
func concat(set, next []pre, known bool) []pre {
	if !known {
		return inexact(set)
	}
	n := 0
	for _, p := range set {
		if p.exact {
			n += len(next)
		} else {
			n++
		}
	}
	if n > maxSet {
		return inexact(set)
	}
	out := make([]pre, 0, n)
	for _, p := range set {
		if !p.exact {
			out = append(out, p)
			continue
		}
		for _, q := range next {
			s, exact := p.s+q.s, q.exact
			if len(s) > maxLen {
				s, exact = truncate(s), false
			}
			out = append(out, pre{s, exact})
		}
	}
	return out
}

// truncate cuts s to at most maxLen bytes, at a rune boundary.
func truncate(s string) string {
	n := maxLen
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Exact returns, sorted, every string ^(?:expr)$ matches, when they are
// few (the bounds of Of) and none is empty: a string matches exactly
// when it is one of them, so no expression need be compiled. ok is false
// otherwise.
func Exact(expr string) (all []string, ok bool) {
	alone, re, ok := parse(expr)
	if !ok || asserts(alone, 0) {
		return nil, false
	}
	set, known := of(re, 0)
	if !known || len(set) == 0 {
		return nil, false
	}
	for _, p := range set {
		if !p.exact || p.s == "" || strings.Contains(p.s, Sep) {
			return nil, false
		}
		all = append(all, p.s)
	}
	sort.Strings(all)
	return slices.Compact(all), true
}

// Needs returns pieces of text one of which every string ^(?:expr)$
// matches contains ("/.git/hooks" for [^ ]+/\.git/hooks(/.*)?), so that
// a string holding none is rejected without compiling the expression;
// ok is false when there are none worth checking. No piece is empty or
// holds Sep.
func Needs(expr string) (pieces []string, ok bool) {
	_, re, ok := parse(expr)
	if !ok {
		return nil, false
	}
	set, ok := needs(re, 0)
	if !ok {
		return nil, false
	}
	sort.Strings(set)
	return slices.Compact(set), true
}

// needs returns a set of texts one of which every match of re holds.
func needs(re *syntax.Regexp, depth int) ([]string, bool) {
	if depth > 100 {
		return nil, false
	}
	switch re.Op {
	case syntax.OpLiteral:
		// The literal up to its first rune that folds case (or U+FFFD,
		// or maxLen) is in every match.
		p := literal(re.Rune, re.Flags&syntax.FoldCase != 0)
		if p.s == "" || strings.Contains(p.s, Sep) {
			return nil, false
		}
		return []string{p.s}, true
	case syntax.OpCapture, syntax.OpPlus:
		return needs(re.Sub[0], depth+1)
	case syntax.OpRepeat:
		if re.Min == 0 {
			return nil, false
		}
		return needs(re.Sub[0], depth+1)
	case syntax.OpAlternate:
		var set []string
		for _, sub := range re.Sub {
			s, ok := needs(sub, depth+1)
			if !ok || len(set)+len(s) > maxSet {
				return nil, false
			}
			set = append(set, s...)
		}
		return set, true
	case syntax.OpConcat:
		// Any one part's pieces will do: take the one whose shortest
		// piece is longest (the rarest).
		var best []string
		bestLen := 0
		for _, sub := range re.Sub {
			s, ok := needs(sub, depth+1)
			if !ok {
				continue
			}
			m := len(s[0])
			for _, x := range s {
				m = min(m, len(x))
			}
			if m > bestLen {
				best, bestLen = s, m
			}
		}
		return best, best != nil
	}
	return nil, false
}

// HasAny reports whether s contains one of the pieces Join joined.
func HasAny(s, joined string) bool {
	for joined != "" {
		p := joined
		if i := strings.IndexByte(joined, Sep[0]); i >= 0 {
			p, joined = joined[:i], joined[i+1:]
		} else {
			joined = ""
		}
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// asserts reports an empty-width assertion (^, $, \b, ...) in re: Of
// reads one as the empty string, which makes a superset of prefixes but
// not an exact set (0^ matches nothing).
func asserts(re *syntax.Regexp, depth int) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	if depth > 100 {
		return true
	}
	for _, sub := range re.Sub {
		if asserts(sub, depth+1) {
			return true
		}
	}
	return false
}
