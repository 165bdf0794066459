package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// maker writes the body of a function of builtinMakers: the statements that
// make a rule in a single allocation. The rule, its Spec, the Spec's
// alternatives, its expressions, matchers and every slice's backing array
// are fields of one struct, so that a process pays one allocation for each
// rule it uses rather than one for each of its parts (a fresh process
// pays dearly for each new object size).
type maker struct {
	strs  []string // Go literals of the strings of the []string fields
	alts  int      // Specs of Any lists
	res   []string // lazyRE literals (without &)
	ms    int      // matchers of Any lists
	mores int      // matcherMores
	fvs   []string // FlagValue literals
	lps   int      // *lazyRE of matcherMore.values
	stmts []string
}

// makeRule returns the statements that make pattern p's rule as x and
// return &x.r. A rule that is its check alone (not a line check) holds
// the check's function.
func makeRule(p patternDef, lineChecks map[string]bool) string {
	m := &maker{}
	var regex, match, mt string
	if p.Regex != "" {
		expr := p.Regex
		if !p.CaseSensitive {
			expr = "(?i)" + expr
		}
		regex = ", regex: " + m.re(fmt.Sprintf("lazyRE{expr: %s}", strconv.Quote(expr)))
	}
	if p.Match != nil {
		m.stmts = append(m.stmts, "x.s = "+m.spec(p.Match))
		match = ", Match: &x.s"
		mt = ", m: " + m.matcher(p.Match)
	}
	parts := []string{fmt.Sprintf("Name: %q", p.Name), "Level: " + levels[p.Level], fmt.Sprintf("Description: %q", strings.TrimSpace(p.Description))}
	if p.Regex != "" {
		parts = append(parts, "Regex: "+strconv.Quote(p.Regex))
	}
	if p.CaseSensitive {
		parts = append(parts, "CaseSensitive: true")
	}
	check := ""
	if p.Regex == "" && onlyCheck(p.Match) && !lineChecks[p.Match.Check] {
		check = ", check: " + checkFunc(p.Match.Check)
	}
	rule := "x.r = rule{p: Pattern{" + strings.Join(parts, ", ") + match + "}" + regex + mt + check + "}"

	var fields []string
	field := func(name, typ string, n int) {
		if n > 0 {
			fields = append(fields, fmt.Sprintf("%s [%d]%s", name, n, typ))
		}
	}
	fields = append(fields, "r rule")
	if p.Match != nil {
		fields = append(fields, "s Spec")
	}
	field("a", "Spec", m.alts)
	field("l", "lazyRE", len(m.res))
	field("m", "matcher", m.ms)
	field("mm", "matcherMore", m.mores)
	field("lp", "*lazyRE", m.lps)
	field("fv", "FlagValue", len(m.fvs))
	field("ss", "string", len(m.strs))

	var b strings.Builder
	fmt.Fprintf(&b, "\t\tx := new(struct {\n")
	for _, f := range fields {
		fmt.Fprintf(&b, "\t\t\t%s\n", f)
	}
	b.WriteString("\t\t})\n")
	if len(m.strs) > 0 {
		fmt.Fprintf(&b, "\t\tx.ss = [%d]string{%s}\n", len(m.strs), strings.Join(m.strs, ", "))
	}
	for k, fv := range m.fvs {
		fmt.Fprintf(&b, "\t\tx.fv[%d] = %s\n", k, fv)
	}
	for k, re := range m.res {
		fmt.Fprintf(&b, "\t\tx.l[%d] = %s\n", k, re)
	}
	for _, s := range m.stmts {
		fmt.Fprintf(&b, "\t\t%s\n", s)
	}
	fmt.Fprintf(&b, "\t\t%s\n\t\treturn &x.r\n", rule)
	return b.String()
}

// list returns the slice of x.ss that holds v.
func (m *maker) list(v []string) string {
	from := len(m.strs)
	for _, s := range v {
		m.strs = append(m.strs, strconv.Quote(s))
	}
	return fmt.Sprintf("x.ss[%d:%d:%d]", from, len(m.strs), len(m.strs))
}

// re adds a lazyRE literal and returns a pointer to it.
func (m *maker) re(lit string) string {
	m.res = append(m.res, lit)
	return fmt.Sprintf("&x.l[%d]", len(m.res)-1)
}

// spec returns the literal of s, its lists and alternatives in x.
func (m *maker) spec(s *specDef) string {
	return specFields(s, m.list,
		func(s *specDef) string {
			from := len(m.fvs)
			for _, k := range slices.Sorted(maps.Keys(s.Values)) {
				m.fvs = append(m.fvs, fmt.Sprintf("FlagValue{Flag: %q, Value: %s}", k, strconv.Quote(s.Values[k])))
			}
			return fmt.Sprintf("x.fv[%d:%d:%d]", from, len(m.fvs), len(m.fvs))
		},
		func(as []specDef) string {
			return m.place("a", &m.alts, len(as), func(i int) string { return m.spec(&as[i]) })
		})
}

// matcher returns the literal of s's compiled matcher (see matcherLit),
// its expressions and alternatives in x.
func (m *maker) matcher(s *specDef) string {
	return matcherFields(s,
		func(expr string) string { return m.re(strings.TrimPrefix(anchoredLit(expr), "&")) },
		func(res []string) string {
			return m.place("lp", &m.lps, len(res), func(i int) string { return res[i] })
		},
		func(as []specDef) string {
			return m.place("m", &m.ms, len(as), func(i int) string { return m.matcher(&as[i]) })
		},
		func(extra string) string {
			k := m.mores
			m.mores++
			m.stmts = append(m.stmts, fmt.Sprintf("x.mm[%d] = matcherMore{%s}", k, extra))
			return fmt.Sprintf("&x.mm[%d]", k)
		})
}

// place takes n elements of array field x.<field> from *next on, adds the
// statements that set element i to lit(i), and returns the slice of x
// that holds them. *next moves past them first, so lit may place elements
// of the same field for nested alternatives.
func (m *maker) place(field string, next *int, n int, lit func(i int) string) string {
	from := *next
	*next += n
	for i := range n {
		m.stmts = append(m.stmts, fmt.Sprintf("x.%s[%d] = %s", field, from+i, lit(i)))
	}
	return fmt.Sprintf("x.%s[%d:%d:%d]", field, from, *next, *next)
}
