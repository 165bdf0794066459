package shellparse

import (
	"strconv"
	"strings"

	"github.com/shellguard/shellguard/internal/textlex"
	"mvdan.cc/sh/v3/syntax"
)

// appendWord appends the argv entries word becomes to dst: brace
// expansion, and the expansions the parser resolves, can turn one word
// into several, or none.
func (w *walker) appendWord(dst []Arg, word *syntax.Word) []Arg {
	raw := w.raw(word)
	// Fast path: a single unquoted literal without escapes or braces.
	if len(word.Parts) == 1 {
		if lit, ok := word.Parts[0].(*syntax.Lit); ok && !hasByte2(lit.Value, '\\', '{') {
			return append(dst, Arg{Value: lit.Value, Raw: raw, Glob: hasGlob(lit.Value)})
		}
	}
	if !plainWord(word) {
		// Expansions: what they assign is unknown from here on; what
		// they refer to may be known.
		w.forgetAssigned(word.Parts)
		if !hasBraces(word) {
			if out, ok := w.resolveFields(dst, word, raw); ok {
				return out
			}
		}
	}
	if hasBraces(word) {
		if tooManyBraces(word) {
			return append(dst, Arg{Value: raw, Raw: raw, Dynamic: true})
		}
		cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), word.Parts...)}
		if syntax.SplitBraces(cp) {
			vals, ok := w.braceFields(cp.Parts)
			if !ok {
				return append(dst, Arg{Value: raw, Raw: raw, Dynamic: true})
			}
			for _, v := range vals {
				a := Arg{Value: v.Value, Raw: raw, Dynamic: v.Dynamic, Glob: v.Glob}
				if v.Dynamic {
					a.Value = raw
				}
				dst = append(dst, a)
			}
			return dst
		}
	}
	a := w.parts(word.Parts)
	a.Raw = raw
	if a.Dynamic {
		a.Value = raw
	}
	return append(dst, a)
}

// hasGlob reports a glob pattern in an unquoted literal: * or ?, or a
// bracket expression [...] (a lone "[", the test command, is not one).
func hasGlob(s string) bool {
	if hasByte2(s, '*', '?') {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i >= 0 && strings.IndexByte(s[i+1:], ']') >= 0
}

// hasByte2 reports whether s holds the byte a or b (faster than
// strings.ContainsAny on the short words of a command line).
func hasByte2(s string, a, b byte) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == a || c == b {
			return true
		}
	}
	return false
}

func hasBraces(word *syntax.Word) bool {
	for _, p := range word.Parts {
		if lit, ok := p.(*syntax.Lit); ok && strings.IndexByte(lit.Value, '{') >= 0 {
			return true
		}
	}
	return false
}

// maxBraces bounds the braces of a word that is brace-expanded: more
// would expand past any field bound anyway, so such a word is dynamic.
const maxBraces = 64

func tooManyBraces(word *syntax.Word) bool {
	n := 0
	for _, p := range word.Parts {
		if lit, ok := p.(*syntax.Lit); ok {
			n += strings.Count(lit.Value, "{")
		}
	}
	return n > maxBraces
}

// parts resolves word parts without brace expansion.
func (w *walker) parts(parts []syntax.WordPart) Arg {
	var v value
	var a Arg
	for _, p := range parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if hasGlob(x.Value) {
				a.Glob = true
			}
			v.unescape(x.Value, false)
		case *syntax.SglQuoted:
			if x.Dollar {
				ansiC(v.builder(), x.Value)
			} else {
				v.add(x.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if lit, ok := q.(*syntax.Lit); ok {
					v.unescape(lit.Value, true)
				} else {
					a.Dynamic = true
				}
			}
		case *syntax.ExtGlob:
			a.Glob = true
			v.add(w.raw(x))
		default:
			// ParamExp, CmdSubst, ArithmExp, ProcSubst: known only at run time.
			a.Dynamic = true
		}
	}
	a.Value = v.String()
	return a
}

// value accumulates a word's value. A word that is one piece of source
// text as it stands ('quoted', "quoted", a literal without escapes) is
// that text itself: only words built from several pieces, or with
// escapes resolved, are copied into a builder.
type value struct {
	one   string
	multi bool // b holds the value
	n     int  // pieces added
	b     strings.Builder
}

func (v *value) add(s string) {
	switch {
	case v.multi:
		v.b.WriteString(s)
	case v.n == 0:
		v.one = s
	default:
		v.builder().WriteString(s)
	}
	v.n++
}

// builder switches to building the value and returns the builder.
func (v *value) builder() *strings.Builder {
	if !v.multi {
		v.multi = true
		v.b.WriteString(v.one)
		v.one = ""
	}
	v.n++
	return &v.b
}

func (v *value) unescape(s string, dquoted bool) {
	if strings.IndexByte(s, '\\') < 0 {
		v.add(s)
		return
	}
	unescape(v.builder(), s, dquoted)
}

func (v *value) String() string {
	if v.multi {
		return v.b.String()
	}
	return v.one
}

// fieldCost is what one field built by an expansion is charged against
// Limits.MaxExpandBytes beyond its bytes: the parser's bookkeeping for a
// word, so that many short fields cost what they take.
const fieldCost = 32

// braceFields expands the brace expressions of a word, bounded by
// MaxBraceFields. ok is false when the bound is exceeded. Every field it
// builds, kept or not, is charged to the line's expansion budget.
func (w *walker) braceFields(parts []syntax.WordPart) ([]Arg, bool) {
	acc := []Arg{{}}
	for _, p := range parts {
		var alts []Arg
		if be, ok := p.(*syntax.BraceExp); ok {
			if be.Sequence {
				seq, ok := w.sequence(be, w.lim.MaxBraceFields/len(acc))
				if !ok {
					return nil, false
				}
				alts = seq
			} else {
				for _, e := range be.Elems {
					sub, ok := w.braceFields(e.Parts)
					if !ok {
						return nil, false
					}
					alts = append(alts, sub...)
					if len(acc)*len(alts) > w.lim.MaxBraceFields {
						return nil, false
					}
				}
			}
		} else {
			alts = []Arg{w.parts([]syntax.WordPart{p})}
		}
		if len(acc)*len(alts) > w.lim.MaxBraceFields {
			return nil, false
		}
		size := 0
		for _, x := range acc {
			for _, y := range alts {
				size += len(x.Value) + len(y.Value) + fieldCost
			}
		}
		if !w.spendExpand(size) {
			return nil, false
		}
		next := make([]Arg, 0, len(acc)*len(alts))
		for _, x := range acc {
			for _, y := range alts {
				next = append(next, Arg{Value: x.Value + y.Value, Dynamic: x.Dynamic || y.Dynamic, Glob: x.Glob || y.Glob})
			}
		}
		acc = next
	}
	return acc, true
}

// sequence expands {from..to[..step]}, when it has at most most fields.
func (w *walker) sequence(be *syntax.BraceExp, most int) ([]Arg, bool) {
	if len(be.Elems) < 2 {
		return nil, false
	}
	from, to := be.Elems[0].Lit(), be.Elems[1].Lit()
	step := 1
	if len(be.Elems) > 2 {
		s, err := strconv.Atoi(be.Elems[2].Lit())
		if err != nil {
			return nil, false
		}
		if s < 0 {
			s = -s
		}
		if s == 0 {
			s = 1
		}
		step = s
	}
	var a, b int
	numeric := false
	// Numbers beyond ±2^31 are left unexpanded (so b-a cannot overflow).
	if x, err := strconv.ParseInt(from, 10, 32); err == nil {
		if y, err := strconv.ParseInt(to, 10, 32); err == nil {
			a, b, numeric = int(x), int(y), true
		}
	}
	if !numeric {
		if len(from) != 1 || len(to) != 1 {
			return nil, false
		}
		a, b = int(from[0]), int(to[0])
	}
	d := b - a
	if d < 0 {
		d = -d
	}
	if d/step >= most {
		return nil, false
	}
	n := d/step + 1
	if !w.spendExpand(n * (fieldCost + 4)) {
		return nil, false
	}
	// {01..10}: a bound written with a leading zero pads every term to
	// the width of the wider bound, as bash does.
	width := 0
	if numeric && (zeroLed(from) || zeroLed(to)) {
		width = max(len(from), len(to))
	}
	out := make([]Arg, 0, n)
	for k, i := 0, a; k < n; k++ {
		if numeric {
			out = append(out, Arg{Value: padNumber(i, width)})
		} else {
			out = append(out, Arg{Value: string(rune(i))})
		}
		if a <= b {
			i += step
		} else {
			i -= step
		}
	}
	return out, true
}

// zeroLed reports a number written with a leading zero (01, -07).
func zeroLed(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}

// padNumber formats i with zeros after the sign up to width bytes.
func padNumber(i, width int) string {
	s := strconv.Itoa(i)
	if len(s) >= width {
		return s
	}
	zeros := strings.Repeat("0", width-len(s))
	if i < 0 {
		return "-" + zeros + s[1:]
	}
	return zeros + s
}

// unescape writes s with shell backslash escapes resolved. Inside double
// quotes only \$ \` \" \\ and \newline are escapes.
func unescape(b *strings.Builder, s string, dquoted bool) {
	if strings.IndexByte(s, '\\') < 0 {
		b.WriteString(s)
		return
	}
	for i, ok := textlex.NextEscape(b, s, 0); ok; i, ok = textlex.NextEscape(b, s, i+1) {
		switch n := s[i]; {
		case n == '\n':
			// line continuation
		case !dquoted || n == '$' || n == '`' || n == '"' || n == '\\':
			b.WriteByte(n)
		default:
			b.WriteByte('\\')
			b.WriteByte(n)
		}
	}
}

// ansiC decodes the body of a $'...' string. Like bash, it stops at an
// escape that decodes to a NUL byte: the rest of the string is dropped.
func ansiC(b *strings.Builder, s string) {
	start := b.Len()
	defer func() {
		if i := strings.IndexByte(b.String()[start:], 0); i >= 0 {
			keep := b.String()[:start+i]
			b.Reset()
			b.WriteString(keep)
		}
	}()
	for i, ok := textlex.NextEscape(b, s, 0); ok; i, ok = textlex.NextEscape(b, s, i+1) {
		switch e := s[i]; e {
		case '\'', '"', '?':
			b.WriteByte(e)
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			i = octalEscape(b, s, i)
		default:
			if !commonEscape(b, s, &i) {
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
