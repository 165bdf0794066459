package danger

import (
	"fmt"
	"regexp"
	resyntax "regexp/syntax"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/shellguard/shellguard/danger/internal/interp"
	"github.com/shellguard/shellguard/danger/internal/reprefix"
	"github.com/shellguard/shellguard/internal/programs"
	"github.com/shellguard/shellguard/shellparse"
)

// Detector checks command lines against a registry of patterns. It is safe
// for concurrent use: registry changes (Add, Remove, Replace) build a new
// immutable registry that later checks use, while checks already running
// finish with the one they started with.
type Detector struct {
	mu     sync.Mutex // serialises writers
	reg    atomic.Pointer[registry]
	parser *shellparse.Parser
}

// Default returns a detector over the built-in registry: the rules of the
// packs on by default (see Packs). The registry is static data: building
// it compiles and allocates nothing per rule.
func Default() *Detector {
	d := &Detector{parser: shellparse.New(shellparse.Limits{})}
	d.reg.Store(builtinRegistry())
	return d
}

// NewDetector returns a detector over patterns, and only them: nil or an
// empty slice gives a detector with no rules (Default gives the built-in
// ones). It fails when a pattern is invalid: no name, a duplicate name, an
// invalid level, a regex that does not compile, an unknown check, or
// neither a regex nor a match spec.
func NewDetector(patterns []Pattern) (*Detector, error) {
	reg, err := compile(patterns)
	if err != nil {
		return nil, err
	}
	d := &Detector{parser: shellparse.New(shellparse.Limits{})}
	d.reg.Store(reg)
	return d, nil
}

// Add appends a pattern to the registry (patterns are checked in order).
func (d *Detector) Add(p Pattern) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	old := d.reg.Load()
	ps := append(old.patterns(), p)
	reg, err := compile(ps)
	if err != nil {
		return err
	}
	d.reg.Store(reg)
	return nil
}

// Remove deletes the pattern with that name and reports whether it was
// present.
func (d *Detector) Remove(name string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	old := d.reg.Load()
	ps := old.patterns()
	for i, p := range ps {
		if p.Name == name {
			ps = append(ps[:i], ps[i+1:]...)
			reg, err := compile(ps)
			if err != nil {
				return false // cannot happen: the rest compiled before
			}
			d.reg.Store(reg)
			return true
		}
	}
	return false
}

// Replace replaces the whole registry.
func (d *Detector) Replace(patterns []Pattern) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	reg, err := compile(patterns)
	if err != nil {
		return err
	}
	d.reg.Store(reg)
	return nil
}

// Patterns returns a copy of the registry, in order.
func (d *Detector) Patterns() []Pattern { return d.reg.Load().patterns() }

// Check returns every warning for command, in registry order, one per
// matching pattern.
func (d *Detector) Check(command string) []Warning {
	return d.CheckParsed(d.parser.Parse(command))
}

// CheckFirst returns the first warning in registry order, if any.
func (d *Detector) CheckFirst(command string) (Warning, bool) {
	ws := d.Check(command)
	if len(ws) == 0 {
		return Warning{}, false
	}
	return ws[0], true
}

// IsDangerous reports whether command matches any pattern.
func (d *Detector) IsDangerous(command string) bool { return len(d.Check(command)) > 0 }

// MaxLevel returns the highest level among command's warnings; ok is false
// when there is none.
func (d *Detector) MaxLevel(command string) (level Level, ok bool) {
	return MaxLevel(d.Check(command))
}

// MaxLevel returns the highest level among ws; ok is false when ws is empty.
func MaxLevel(ws []Warning) (level Level, ok bool) {
	for _, w := range ws {
		if w.Level > level {
			level = w.Level
		}
	}
	return level, len(ws) > 0
}

// CheckParsed checks a Result the caller already parsed.
func (d *Detector) CheckParsed(res *shellparse.Result) []Warning {
	return d.reg.Load().check(res)
}

// registry is an immutable compiled set of patterns.
type registry struct {
	// rules are the compiled rules; use rule(i), which also serves the
	// built-in registry.
	rules []rule
	// builtin: the rules are the default built-in ones (builtinRule),
	// indexed by builtinByProgram rather than byProgram.
	builtin bool
	// noGates: try every rule of a program, whatever its gate (the tests
	// compare the two).
	noGates bool
	// byProgram indexes the rules that name programs; writeProgram lists
	// the others that match only what an invocation writes (writes or
	// redirect with no programs: tried only on an invocation with a
	// writing redirection or a program whose data says it writes files);
	// anyProgram the rest (regex-only patterns, checks).
	byProgram map[string][]int
	// globs are the program globs of the rules (mkfs.*, python*), in
	// rule order: a rule is tried on an invocation only when one of its
	// globs matches the program's name.
	globs        []globEntry
	anyProgram   []int
	writeProgram []int
	// lineLevel lists the rules matchLine can match: the parse checks and
	// regex-only patterns.
	lineLevel []int
	// scratch pools *scratch for checks.
	scratch sync.Pool
}

// builtinRegistry returns the registry of the built-in rules: generated
// static data (see rules_gen.go), nothing to compile.
func builtinRegistry() *registry {
	return &registry{
		builtin:      true,
		globs:        builtinGlobs[:],
		anyProgram:   builtinAnyProgram[:],
		writeProgram: builtinWriteProgram[:],
		lineLevel:    builtinLineLevel[:],
	}
}

// globEntry is a program glob of a rule: mkfs.* is the prefix "mkfs.".
type globEntry struct {
	prefix string
	rule   int
	key    byte // globKey(prefix)
}

// globKey is the lower-case first byte of a glob's prefix, or 0 when the
// prefix is empty or starts with a non-ASCII byte: a glob with key 0 is
// tried on every program (a non-ASCII letter may fold to another first
// byte), any other only on a program whose name starts with its key.
// Registries keep their globs sorted by key.
func globKey(prefix string) byte {
	if prefix == "" || prefix[0] >= utf8.RuneSelf {
		return 0
	}
	return lowerASCII(prefix[0])
}

// globsFor returns the globs that may match the program name: those of
// key 0 and, for an ASCII first letter, those of its key (all of them for
// a name starting with a non-ASCII byte).
func (r *registry) globsFor(name string) (always, same []globEntry) {
	gs := r.globs
	k := 0
	for k < len(gs) && gs[k].key == 0 {
		k++
	}
	always, gs = gs[:k], gs[k:]
	if name == "" || name[0] >= utf8.RuneSelf {
		return always, gs
	}
	first := lowerASCII(name[0])
	lo := sort.Search(len(gs), func(x int) bool { return gs[x].key >= first })
	hi := lo
	for hi < len(gs) && gs[hi].key == first {
		hi++
	}
	return always, gs[lo:hi]
}

// matches reports whether the program name matches the glob, as nameIn
// compares: case-insensitively.
func (g *globEntry) matches(name string) bool {
	return name != "" && len(name) >= len(g.prefix) && strings.EqualFold(name[:len(g.prefix)], g.prefix)
}

// onlyCheck reports a spec that names a check and nothing else.
func onlyCheck(s *Spec) bool {
	if s == nil || s.Check == "" {
		return false
	}
	c := *s
	c.Check = ""
	return c.empty() && len(c.Except) == 0
}

// rule returns rule i of the registry.
func (r *registry) rule(i int) *rule {
	if r.builtin {
		return builtinRule(i)
	}
	return &r.rules[i]
}

// size returns how many rules the registry has.
func (r *registry) size() int {
	if r.builtin {
		return builtinDefault
	}
	return len(r.rules)
}

// builtinMade holds the built-in rules made so far: a cache of immutable
// values, each filled once (see builtinRule).
var builtinMade [builtinCount]atomic.Pointer[rule]

// builtinRule returns built-in rule i, made on its first use: as static
// data the rules would cost every process their start-up (see the
// generator), though a line uses a few dozen of them. Goroutines that make
// the same rule at once agree on one value.
func builtinRule(i int) *rule {
	if x := builtinMade[i].Load(); x != nil {
		return x
	}
	x := builtinRuleAt(i)
	if builtinMade[i].CompareAndSwap(nil, x) {
		return x
	}
	return builtinMade[i].Load()
}

// forProgram returns the indexes of the rules that name the program name.
func (r *registry) forProgram(name string) []int {
	idx, _ := r.forProgramGated(name)
	return idx
}

// forProgramGated is forProgram with each rule's gate: the first
// subcommand words one of which an invocation must start with for the
// rule to match it, joined by NUL bytes ("" or a nil list: any). The
// built-in rules have them (the generator reads them from the specs), so
// that a line such as git status makes and tries none of the git rules
// about other subcommands.
func (r *registry) forProgramGated(name string) ([]int, []string) {
	if r.builtin {
		return builtinByProgram(name)
	}
	return r.byProgram[name], nil
}

// gateOpen reports whether invocation i may match a rule with gate g:
// its first positional word is one of g's words as the spec's
// subcommands compare it (argv.wordIs).
func (sc *scan) gateOpen(i int, g string) bool {
	a := sc.argv(i)
	if len(a.pos) == 0 {
		return false
	}
	for g != "" {
		w, rest, _ := strings.Cut(g, "\x00")
		if a.wordIs(0, w) {
			return true
		}
		g = rest
	}
	return false
}

// patterns returns deep copies of the registry's patterns (the built-in
// ones with their examples).
func (r *registry) patterns() []Pattern {
	out := make([]Pattern, r.size())
	for i := range out {
		out[i] = r.rule(i).p.clone()
		if r.builtin {
			out[i].Hit, out[i].Miss = builtinExamples(i)
		}
	}
	return out
}

// clone returns p with a copy of its Spec, so that what leaves the
// package never shares memory with a registry.
func (p Pattern) clone() Pattern {
	if p.Match != nil {
		m := p.Match.clone()
		p.Match = &m
	}
	p.Hit = slices.Clone(p.Hit)
	p.Miss = slices.Clone(p.Miss)
	return p
}

func (s *Spec) clone() Spec {
	m := *s
	m.Programs = slices.Clone(m.Programs)
	m.Subcommands = slices.Clone(m.Subcommands)
	m.FlagsAll = slices.Clone(m.FlagsAll)
	m.FlagsAny = slices.Clone(m.FlagsAny)
	m.FlagsNone = slices.Clone(m.FlagsNone)
	m.Values = slices.Clone(m.Values)
	m.Wrappers = slices.Clone(m.Wrappers)
	m.FeedsInto = slices.Clone(m.FeedsInto)
	m.Except = slices.Clone(m.Except)
	if m.Any != nil {
		m.Any = make([]Spec, len(s.Any))
		for i := range s.Any {
			m.Any[i] = s.Any[i].clone()
		}
	}
	return m
}

// rule is a compiled pattern. Its Pattern (p.Match included) is never
// modified nor handed out.
type rule struct {
	p     Pattern
	regex *lazyRE
	m     matcher
	// check is the function of a rule that is its check alone (not a
	// line check): matching it is running it.
	check func(*scan, int) bool
}

// matcher holds the compiled expressions of a Spec (and of its
// alternatives, in the same order as Spec.Any).
type matcher struct {
	operand, operandNone, last, args, redirect, writes, reads, stdin *lazyRE
	more                                                             *matcherMore // nil without values or alternatives
}

// matcherMore holds what few specs have.
type matcherMore struct {
	values []*lazyRE // one per Spec.Values
	any    []matcher
}

func (m *matcher) values() []*lazyRE {
	if m.more == nil {
		return nil
	}
	return m.more.values
}

func (m *matcher) alt(k int) *matcher { return &m.more.any[k] }

// spec returns the rule's structured matcher, or nil.
func (x *rule) spec() *Spec { return x.p.Match }

// lazyRE is a regular expression checked when the registry is built and
// compiled the first time a rule needs it: most rules are gated by a
// program name that most lines never run, so a process that decides one
// command (a hook) compiles only the few regexes it uses.
type lazyRE struct {
	expr     string
	anchored bool // match the whole string: ^(?:expr)$
	// pre, for an anchored expression, holds prefixes one of which starts
	// every match (reprefix.Join; "" when there are none): a string
	// without one is rejected without compiling or running the
	// expression (/dev/null against the rules' /etc/..., ~/.ssh/...
	// paths). The generator computes it for the built-in rules.
	pre string
	// pres are pre's prefixes (or whole's strings), split at their first
	// use; preFirst holds their first bytes.
	preOnce  sync.Once
	pres     []string
	preFirst byteSet
	once     sync.Once
	re       *regexp.Regexp
	// first holds the bytes a match can start with (anchored expressions
	// that cannot match the empty string and have no pre), when firstOK:
	// a string starting with another byte is rejected without running
	// the expression.
	first   byteSet
	firstOK bool
	// The generator's findings for a built-in expression (vetted: first
	// is already computed): whole, when not empty, holds every string
	// the anchored expression matches (reprefix.Exact), so that it is
	// never compiled; need holds pieces of text one of which every match
	// contains (reprefix.Needs).
	vetted bool
	whole  string
	need   string
}

func newLazyRE(expr string, anchored bool) (*lazyRE, error) {
	l := &lazyRE{expr: expr, anchored: anchored}
	// Parsing finds every error Compile would report. The built-in
	// registry's expressions were compiled by the generator already.
	pre, ok := vetted(expr)
	if !ok {
		if _, err := resyntax.Parse(l.source(), resyntax.Perl); err != nil {
			return nil, err
		}
		// An anchored expression must also parse on its own: "0)|ba("
		// parses only inside ^(?:...)$, where it closes the group and
		// leaves ba unanchored.
		if anchored {
			if _, err := resyntax.Parse(expr, resyntax.Perl); err != nil {
				return nil, err
			}
		}
		if anchored {
			ps, _ := reprefix.Of(expr)
			pre = reprefix.Join(ps)
		}
	}
	if anchored {
		l.pre = pre
	}
	return l, nil
}

func (l *lazyRE) source() string {
	if l.anchored {
		return `^(?:` + l.expr + `)$`
	}
	return l.expr
}

// MatchString reports whether s matches; an expression that cannot be
// compiled (which validation rules out) matches nothing.
func (l *lazyRE) MatchString(s string) bool {
	if l.whole != "" {
		l.preOnce.Do(func() { l.splitPre(l.whole) })
		if s == "" || !l.preFirst.has(s[0]) {
			return false
		}
		i := sort.SearchStrings(l.pres, s)
		return i < len(l.pres) && l.pres[i] == s
	}
	if l.pre != "" {
		l.preOnce.Do(func() { l.splitPre(l.pre) })
		if s == "" || !l.preFirst.has(s[0]) || !reprefix.HasSorted(s, l.pres) {
			return false
		}
	}
	if l.need != "" && !reprefix.HasAny(s, l.need) {
		return false
	}
	l.once.Do(func() {
		src := l.source()
		l.re, _ = regexp.Compile(src)
		if l.anchored && l.pre == "" && !l.vetted {
			l.first, l.firstOK = firstBytes(src)
		}
	})
	if l.firstOK && (s == "" || !l.first.has(s[0])) {
		return false
	}
	return l.re != nil && l.re.MatchString(s)
}

// splitPre sets pres and preFirst from joined, the non-empty strings of
// pre or whole.
func (l *lazyRE) splitPre(joined string) {
	l.pres = reprefix.Split(joined)
	for _, p := range l.pres {
		if p == "" {
			// Never so (reprefix), but an empty one would start anything.
			l.preFirst = byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
			break
		}
		l.preFirst.add(p[0])
	}
}

func anchored(expr string) (*lazyRE, error) {
	if expr == "" {
		return nil, nil
	}
	return newLazyRE(expr, true)
}

// knownCheck reports a check of danger/checks.toml (or none).
func knownCheck(c string) bool {
	if c == "" {
		return true
	}
	for i := range builtinChecks {
		if builtinChecks[i].Name == c {
			return true
		}
	}
	return false
}

// compileSpec checks a spec and compiles its expressions into m.
func compileSpec(s *Spec, m *matcher, top bool) error {
	if !knownCheck(s.Check) {
		return fmt.Errorf("unknown check %q", s.Check)
	}
	var err error
	for _, f := range []struct {
		dst  **lazyRE
		expr string
		what string
	}{{&m.operand, s.Operand, "operand"}, {&m.operandNone, s.OperandNone, "operand_none"}, {&m.last, s.LastOperand, "last_operand"}, {&m.args, s.Args, "args"},
		{&m.redirect, s.Redirect, "redirect"}, {&m.writes, s.Writes, "writes"}, {&m.reads, s.Reads, "reads"}, {&m.stdin, s.Stdin, "stdin"}} {
		if *f.dst, err = anchored(f.expr); err != nil {
			return fmt.Errorf("%s: %v", f.what, err)
		}
	}
	if len(s.Values) > 0 || len(s.Any) > 0 {
		m.more = &matcherMore{}
	}
	for _, v := range s.Values {
		if v.Flag == "" {
			return fmt.Errorf("values: a flag without a name")
		}
		re, err := newLazyRE(v.Value, true)
		if err != nil {
			return fmt.Errorf("values[%q]: %v", v.Flag, err)
		}
		m.more.values = append(m.more.values, re)
	}
	if len(s.Any) > 0 {
		if !top {
			return fmt.Errorf("any: alternatives do not nest")
		}
		m.more.any = make([]matcher, len(s.Any))
		for i := range s.Any {
			if s.Any[i].empty() {
				return fmt.Errorf("any[%d]: empty alternative", i)
			}
			if err := compileSpec(&s.Any[i], &m.more.any[i], false); err != nil {
				return fmt.Errorf("any[%d]: %v", i, err)
			}
		}
	}
	return nil
}

func compile(patterns []Pattern) (*registry, error) {
	reg := &registry{byProgram: map[string][]int{}, rules: make([]rule, 0, len(patterns))}
	seen := map[string]bool{}
	for i, p := range patterns {
		if p.Name == "" {
			return nil, fmt.Errorf("danger: pattern %d has no name", i+1)
		}
		if seen[p.Name] {
			return nil, fmt.Errorf("danger: pattern %q is defined twice", p.Name)
		}
		seen[p.Name] = true
		if !p.Level.Valid() {
			return nil, fmt.Errorf("danger: pattern %q: invalid level %d", p.Name, int(p.Level))
		}
		if p.Regex == "" && p.Match.empty() {
			return nil, fmt.Errorf("danger: pattern %q has neither a regex nor a match spec", p.Name)
		}
		p = p.clone() // the caller keeps its Spec
		r := rule{p: p}
		if p.Regex != "" {
			expr := p.Regex
			if !p.CaseSensitive {
				expr = "(?i)" + expr
			}
			re, err := newLazyRE(expr, false)
			if err != nil {
				return nil, fmt.Errorf("danger: pattern %q: %v", p.Name, err)
			}
			r.regex = re
		}
		if s := p.Match; s != nil {
			if err := compileSpec(s, &r.m, true); err != nil {
				return nil, fmt.Errorf("danger: pattern %q: %v", p.Name, err)
			}
		}
		if p.Regex == "" && onlyCheck(p.Match) && !lineCheck(p.Match.Check) {
			r.check = checkFuncFor(p.Match.Check)
		}
		idx := len(reg.rules)
		reg.rules = append(reg.rules, r)
		switch {
		case p.Match != nil && len(p.Match.Programs) > 0:
			for _, name := range p.Match.Programs {
				if prefix, ok := strings.CutSuffix(name, "*"); ok {
					reg.globs = append(reg.globs, globEntry{prefix: prefix, rule: idx, key: globKey(prefix)})
					continue
				}
				reg.byProgram[name] = append(reg.byProgram[name], idx)
			}
		case p.Regex == "" && p.Match != nil && (p.Match.Writes != "" || p.Match.Redirect != ""):
			reg.writeProgram = append(reg.writeProgram, idx)
		case p.Regex == "" && onlyCheck(p.Match) && lineCheck(p.Match.Check):
			// A line check never matches an invocation (lineLevel).
		default:
			reg.anyProgram = append(reg.anyProgram, idx)
		}
		if reg.rule(idx).lineLevel() {
			reg.lineLevel = append(reg.lineLevel, idx)
		}
	}
	// The globs by their first letter (see globKey), in rule order
	// within one, as the generator writes the built-in ones.
	slices.SortStableFunc(reg.globs, func(a, b globEntry) int { return int(a.key) - int(b.key) })
	return reg, nil
}

// scan holds what one check computes once per invocation and shares
// between rules.
type scan struct {
	res  *shellparse.Result
	invs []invScan
	scr  *scratch
	// reg, depth and budget are the check in progress: a check that
	// judges a command another one makes run (a fan-out, a container's
	// command through its mounts) asks the same registry about it (see
	// checks_infra.go).
	reg    *registry
	depth  int
	budget *int
}

// invScan is what the rules read of one invocation: its effective name
// and argv, and (computed the first time a rule needs them) its canonical
// argv and plain text.
type invScan struct {
	name string
	args []shellparse.Arg
	prog *programs.Program
	// fetched: name is the program a package runner runs (npx rimraf,
	// go run MODULE@VERSION), which the runner fetches.
	fetched   bool
	canon     argv
	canonDone bool
	joinDone  bool
	textDone  bool
	text      string
	codeDone  bool
	code      []interp.Finding // interpreter code's findings (see scan.code)
	// flow caches the secret flow level of a sink (checks_secrets.go):
	// 0 not computed, 1 none, else the level + 2.
	flow uint8
}

func newScan(res *shellparse.Result, scr *scratch) scan {
	n := len(res.Invocations)
	if cap(scr.invs) < n {
		scr.invs = make([]invScan, n)
	}
	scr.n = n
	sc := scan{res: res, invs: scr.invs[:n], scr: scr}
	for i := range res.Invocations {
		v := &sc.invs[i]
		v.name, v.args = effective(&res.Invocations[i])
		v.fetched = false
		if v.name == "" {
			continue
		}
		v.prog = programs.Lookup(v.name)
		if v.prog.Has(programs.Runs) && !parserRan(res, i) {
			// npx rimraf ~ is rimraf ~: the runner's program, with its
			// own arguments (the parser did not peel this runner).
			vals, dyn := argWords(v.args[1:])
			if k, name, ok := programs.RunTarget(v.prog, vals, dyn); ok {
				v.name, v.args = name, v.args[k+1:]
				v.prog = programs.Lookup(name)
				v.fetched = true
			}
		}
		if v.prog != nil && v.prog.ActsAs != "" {
			// rimraf is rm -rf.
			v.name, v.args = actsAs(v.prog, v.args)
			v.prog = programs.Lookup(v.name)
		}
	}
	return sc
}

// scratch is the memory one check works in, reused through the
// registry's pool: nothing in it outlives the check (warnings hold only
// strings and copies of patterns).
type scratch struct {
	sc    scan // the check's scan (see checkInto)
	invs  []invScan
	n     int      // invs used
	strs  []string // the canonical argv lists, carved by take
	used  int      // strs used
	flags []flag   // the canonical flags, carved by takeFlags
	fused int      // flags used
	bools []bool   // which scanned words are dynamic, carved by takeBools
	bused int      // bools used
}

// take returns n empty strings from the scratch.
func (s *scratch) take(n int) []string { return carve(&s.strs, &s.used, n) }

// takeFlags returns n empty flags from the scratch.
func (s *scratch) takeFlags(n int) []flag { return carve(&s.flags, &s.fused, n) }

// takeBools returns n cleared bools from the scratch.
func (s *scratch) takeBools(n int) []bool { return carve(&s.bools, &s.bused, n) }

// carve returns n zero values from the array *buf, of which *used are
// taken.
func carve[T any](buf *[]T, used *int, n int) []T {
	if *used+n > len(*buf) {
		// A new array: the old one, with the lists already carved
		// from it, is left to the collector.
		*buf = make([]T, max(2*len(*buf), n, 64))
		*used = 0
	}
	out := (*buf)[*used : *used+n : *used+n]
	*used += n
	return out
}

// Scratch larger than this after a check is dropped rather than pooled.
const maxPooledInvs, maxPooledStrs = 64, 1024

func (r *registry) getScratch() *scratch {
	if s, ok := r.scratch.Get().(*scratch); ok {
		return s
	}
	return &scratch{}
}

func (r *registry) putScratch(s *scratch) {
	if cap(s.invs) > maxPooledInvs || len(s.strs) > maxPooledStrs || len(s.flags) > maxPooledStrs || len(s.bools) > maxPooledStrs {
		return
	}
	// Only what this check used: the rest is clear already.
	clear(s.invs[:s.n])
	clear(s.strs[:s.used])
	clear(s.flags[:s.fused])
	clear(s.bools[:s.bused])
	s.n, s.used, s.fused, s.bused = 0, 0, 0, 0
	s.sc = scan{}
	r.scratch.Put(s)
}

func (s *scan) name(i int) string           { return s.invs[i].name }
func (s *scan) args(i int) []shellparse.Arg { return s.invs[i].args }

func (s *scan) argv(i int) *argv {
	v := &s.invs[i]
	if !v.canonDone {
		canonical(&v.canon, v.prog, v.name, v.args, s.scr)
		if v.prog != nil && v.prog.Extract == "find" {
			s.execThroughShell(i, &v.canon)
		}
		v.canonDone = true
	}
	return &v.canon
}

// execThroughShell adds to find's canonical flags -exec=NAME for each
// deleting program its -exec (-execdir, -ok, -okdir) runs through a shell
// (find ~ -exec sh -c 'rm -rf "$1"' _ {} \;): the rules read -exec=rm,
// and the shell's name alone would hide what it runs. The parser re-parsed
// the shell's string: its invocations descend from the one find's -exec
// runs.
func (s *scan) execThroughShell(i int, a *argv) {
	shell := false
	for _, f := range a.flags {
		if name, ok := strings.CutPrefix(f.name, "-exec="); ok && programs.IsShell(name) {
			shell = true
		} else if name, ok := strings.CutPrefix(f.name, "-ok="); ok && programs.IsShell(name) {
			shell = true
		} else if name, ok := strings.CutPrefix(f.name, "-execdir="); ok && programs.IsShell(name) {
			shell = true
		} else if name, ok := strings.CutPrefix(f.name, "-okdir="); ok && programs.IsShell(name) {
			shell = true
		}
	}
	invs := s.res.Invocations
	if !shell || i+1 >= len(invs) {
		return
	}
	// in[k] marks invocation i+1+k as run by find's -exec.
	in := make([]bool, len(invs)-i-1)
	for j := i + 1; j < len(invs); j++ {
		x := &invs[j]
		from := func(k int) bool { return k > i && in[k-i-1] }
		if x.Encloser == i && x.Where != nil && x.Where.Kind == shellparse.FrameExec || from(x.Parent) || from(x.Encloser) {
			in[j-i-1] = true
			switch name := s.name(j); name {
			case "rm", "shred", "unlink", "rmdir", "srm":
				a.flags = append(a.flags, flag{name: "-exec=" + name})
			}
		}
	}
}

// joined returns the arguments after the program, joined by single spaces.
func (s *scan) joined(i int) string {
	a := s.argv(i)
	v := &s.invs[i]
	if !v.joinDone {
		a.joined = joinValues(v.args)
		v.joinDone = true
	}
	return a.joined
}

func (s *scan) text(i int) string {
	v := &s.invs[i]
	if !v.textDone {
		v.text = plainText(&s.res.Invocations[i])
		v.textDone = true
	}
	return v.text
}

// plainText is the invocation without shell quoting: wrappers, then argv
// values joined by spaces. User regexes are matched against it.
func plainText(inv *shellparse.Invocation) string {
	var b strings.Builder
	for _, a := range inv.Assigns {
		if a.Via != "" {
			continue
		}
		b.WriteString(a.Name + "=" + a.Value + " ")
	}
	for _, w := range inv.Wrappers {
		b.WriteString(w.Name)
		for _, a := range w.Args {
			b.WriteString(" " + a)
		}
		b.WriteByte(' ')
	}
	for i, a := range inv.Args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.Value)
	}
	return b.String()
}

// maxNested bounds how many code strings deep (python -c "os.system('bash
// -c ...')") the detector follows what the parser could not re-parse.
const maxNested = 3

func (r *registry) check(res *shellparse.Result) []Warning {
	var hits hitSet
	budget := maxArgvSuffixes
	if !r.checkInto(res, &hits, 0, &budget) {
		return nil
	}
	hits.sort()
	out := make([]Warning, len(hits.list))
	for i, h := range hits.list {
		// A warning's pattern carries no examples: they document the
		// rule (Patterns, BuiltinPattern), they are not part of a finding.
		p := r.rule(h.idx).p
		p.Hit, p.Miss = nil, nil
		out[i] = NewWarning(res.Source, p.clone(), h.what)
	}
	return out
}

// hitSet records, per rule, what matched it: at most one hit per rule.
// Most lines match no rule or a few, so the rules hit are kept in a bit
// set (on the stack for the first 256 rules) and a short list.
type hitSet struct {
	lo   [4]uint64
	hi   []uint64 // rules from 256 on
	list []hit
}

type hit struct {
	idx  int
	what string
}

func (h *hitSet) has(idx int) bool {
	if idx < 256 {
		return h.lo[idx>>6]&(1<<(idx&63)) != 0
	}
	k := idx>>6 - 4
	return k < len(h.hi) && h.hi[k]&(1<<(idx&63)) != 0
}

// set records what matched rule idx; the rule must not be hit yet.
func (h *hitSet) set(idx int, what string) {
	if idx < 256 {
		h.lo[idx>>6] |= 1 << (idx & 63)
	} else {
		k := idx>>6 - 4
		for len(h.hi) <= k {
			h.hi = append(h.hi, 0)
		}
		h.hi[k] |= 1 << (idx & 63)
	}
	h.list = append(h.list, hit{idx, what})
}

// sort puts the hits in registry order.
func (h *hitSet) sort() {
	slices.SortFunc(h.list, func(a, b hit) int { return a.idx - b.idx })
}

// checkInto records in hits what matched each rule (an invocation, or
// the whole line) and reports whether anything matched. budget counts the
// argv suffixes the whole check may still re-parse (see
// checkArgvSuffixes).
func (r *registry) checkInto(res *shellparse.Result, hits *hitSet, depth int, budget *int) bool {
	scr := r.getScratch()
	defer r.putScratch(scr)
	// The scan lives in the scratch: the checks get it through a function
	// value, which would move a local one to the heap on every call.
	scr.sc = newScan(res, scr)
	sc := &scr.sc
	sc.reg, sc.depth, sc.budget = r, depth, budget
	any := false
	for i := range res.Invocations {
		// indexed: the rule was found by the program name, so its
		// Programs hold the name (or git for git-NAME).
		try := func(idx int, indexed bool) {
			if hits.has(idx) {
				return
			}
			if r.rule(idx).matchInvocation(sc, i, indexed) {
				hits.set(idx, res.Invocations[i].String())
				any = true
			}
		}
		if name := sc.name(i); name != "" {
			idxs, gates := r.forProgramGated(name)
			for k, idx := range idxs {
				if gates != nil && gates[k] != "" && !r.noGates && !sc.gateOpen(i, gates[k]) {
					continue
				}
				try(idx, true)
			}
			if strings.HasPrefix(name, "git-") {
				for _, idx := range r.forProgram("git") {
					try(idx, true)
				}
			}
			always, same := r.globsFor(name)
			for _, gs := range [2][]globEntry{always, same} {
				last := -1
				for _, g := range gs {
					if g.rule != last && g.matches(name) {
						last = g.rule
						try(g.rule, true)
					}
				}
			}
		}
		for _, idx := range r.anyProgram {
			try(idx, false)
		}
		if len(r.writeProgram) > 0 && mayWrite(sc, i) {
			var buf [8]string
			paths := writtenPaths(sc, i, buf[:0])
			for _, idx := range r.writeProgram {
				// The rule's own expression must match a written file
				// for it to match at all.
				m := &r.rule(idx).m
				re := m.writes
				if re == nil {
					re = m.redirect
				}
				if re != nil && !anyMatch(re, paths) {
					continue
				}
				try(idx, false)
			}
		}
	}
	// Line-level checks and regexes over whole pipelines.
	for _, idx := range r.lineLevel {
		if hits.has(idx) {
			continue
		}
		if r.rule(idx).matchLine(sc) {
			hits.set(idx, res.Source)
			any = true
		}
	}
	// Code the parser does not re-parse: an interpreter's shell-outs,
	// GNU parallel's commands. Each is checked as a command line of its
	// own; what it matches is reported on the invocation that runs it.
	if depth >= maxNested {
		return any
	}
	for i := range res.Invocations {
		if res.Invocations[i].NotRun {
			continue
		}
		// Programs shellguard does not know may run what their argv
		// holds (mytool --flag rm -rf /).
		if r.checkArgvSuffixes(sc, i, hits, depth, budget) {
			any = true
		}
		nested := nestedCommands(sc, i)
		nested = append(nested, commandsElsewhere(sc, i)...)
		if len(nested) == 0 {
			continue
		}
		what := res.Invocations[i].String()
		for _, cmd := range nested {
			var sub hitSet
			if !r.checkInto(shellparse.Parse(cmd), &sub, depth+1, budget) {
				continue
			}
			for _, h := range sub.list {
				// A nested line that does not parse is data, not code
				// (print('rm -rf /') is not shell).
				if hits.has(h.idx) || r.rule(h.idx).isParseCheck() {
					continue
				}
				hits.set(h.idx, what)
				any = true
			}
		}
	}
	return any
}

func (x *rule) isParseCheck() bool {
	return x.spec() != nil && lineCheck(x.spec().Check)
}

// lineLevel reports whether matchLine can ever match the rule.
func (x *rule) lineLevel() bool {
	return x.isParseCheck() || x.regex != nil && x.spec().empty()
}

// matchLine handles the checks that concern the line as a whole, and
// user regexes over each pipeline's text.
func (x *rule) matchLine(sc *scan) bool {
	if x.spec() != nil {
		switch x.spec().Check {
		case "unparseable":
			return hasProblem(sc.res, shellparse.ProblemSyntax)
		case "limit":
			return hasProblem(sc.res, shellparse.ProblemLimit)
		}
	}
	if x.regex == nil || !x.spec().empty() || sc.res.Pipelines == 0 {
		return false
	}
	// A regex-only pattern may span a pipeline ("curl .* | sh").
	stages := map[int][]string{}
	for i := range sc.res.Invocations {
		inv := &sc.res.Invocations[i]
		if inv.Where != nil && inv.Where.Kind == shellparse.FramePipeline {
			stages[inv.Where.Pipe] = append(stages[inv.Where.Pipe], sc.text(i))
		}
	}
	for _, texts := range stages {
		if x.regex.MatchString(strings.Join(texts, " | ")) {
			return true
		}
	}
	return false
}

func hasProblem(res *shellparse.Result, kind string) bool {
	for _, p := range res.Problems {
		if p.Kind == kind {
			return true
		}
	}
	return false
}

func (x *rule) matchInvocation(sc *scan, i int, indexed bool) bool {
	if x.check != nil {
		return !sc.res.Invocations[i].NotRun && x.check(sc, i)
	}
	if x.regex != nil && !x.regex.MatchString(sc.text(i)) {
		return false
	}
	s := x.spec()
	if s == nil {
		return x.regex != nil
	}
	if !matchSpec(sc, i, s, &x.m, indexed) {
		return false
	}
	if len(s.Any) == 0 {
		return true
	}
	for k := range s.Any {
		alt := &s.Any[k]
		if len(alt.Programs) == 0 {
			// An alternative without programs is about the rule's.
			if matchSpec(sc, i, alt, x.m.alt(k), true) {
				return true
			}
			continue
		}
		if matchSpec(sc, i, alt, x.m.alt(k), false) {
			return true
		}
	}
	return false
}

// matchSpec reports whether invocation i matches s (compiled into m);
// indexed says the rule was found by the program's name, so that the name
// need not be compared again.
func matchSpec(sc *scan, i int, s *Spec, m *matcher, indexed bool) bool {
	inv := &sc.res.Invocations[i]
	name := sc.name(i)
	if !indexed && len(s.Programs) > 0 && !nameIn(name, s.Programs) && !(strings.HasPrefix(name, "git-") && nameIn("git", s.Programs)) {
		return false
	}
	// A line check never matches an invocation; an invocation check runs
	// last (hold below), after the cheaper tests have ruled most out.
	if s.Check != "" && lineCheck(s.Check) {
		return false
	}
	hold := func() bool { return s.Check == "" || runCheck(s.Check, sc, i) }
	// An excepted program (echo) reads and writes only through its
	// redirections; the list is long, so it is looked up last.
	excepted := func() bool { return len(s.Except) > 0 && nameIn(name, s.Except) }
	if m.reads == nil && m.writes == nil && excepted() {
		return false
	}
	if inv.NotRun || name == "" && s.Check == "" && (len(s.Programs) > 0 || len(s.Subcommands) > 0) {
		return false
	}
	// Reads through an input redirection, whatever the program; an
	// excepted program (echo) never reads its operands (checked below).
	readsInput := false
	if m.reads != nil {
		readsInput = readsRedirect(inv, m.reads)
	}
	// Writes through a redirection, whatever the program.
	writesOutput := false
	if m.writes != nil {
		writesOutput = writesRedirect(inv, m.writes)
		// Without a redirection, only a program whose data names the
		// files it writes can write one.
		if !writesOutput && (sc.invs[i].prog == nil || len(sc.invs[i].prog.Writes) == 0 || excepted()) {
			return false
		}
	}
	if len(s.Wrappers) > 0 {
		ok := false
		for _, w := range s.Wrappers {
			ok = ok || inv.HasWrapper(w)
		}
		if !ok {
			return false
		}
	}
	if s.Redirect != "" {
		ok := false
		for _, r := range inv.Redirs {
			if r.Writes() && m.redirect.MatchString(cleanOperand(r.Target)) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if len(s.FeedsInto) > 0 && !feedsInto(sc.res, i, s.FeedsInto) {
		return false
	}
	if m.stdin != nil {
		text, ok := staticStdin(sc, i)
		if !ok || !m.stdin.MatchString(text) {
			return false
		}
	}
	// A dry run is not the act: every rule about the program stands
	// down when a dry-run flag of its data is present (git clean -n,
	// kubectl delete ... --dry-run=server).
	dryRunnable := len(s.Programs) > 0 && sc.invs[i].prog.HasDryRun()
	needArgv := dryRunnable || len(s.Subcommands) > 0 || len(s.FlagsAll) > 0 || len(s.FlagsAny) > 0 || len(s.FlagsNone) > 0 ||
		len(s.Values) > 0 || s.MinOperands > 0 || m.operand != nil || m.operandNone != nil || m.last != nil || m.args != nil || m.reads != nil && !readsInput ||
		m.writes != nil && !writesOutput
	if !needArgv {
		return hold()
	}
	if name == "" {
		return false
	}
	a := sc.argv(i)
	if dryRunnable && a.dry {
		return false
	}
	// The operands after the subcommand words the spec names; for a
	// program with subcommands, a spec that names none still leaves the
	// subcommand out (git status has no operand).
	operands := a.pos
	if len(s.Subcommands) == 0 && a.prog.Has(programs.Subcommands) && len(operands) > 0 {
		operands = operands[1:]
	}
	if len(s.Subcommands) > 0 {
		k := -1
		for _, sub := range s.Subcommands {
			if k = a.subMatch(sub); k >= 0 {
				break
			}
		}
		if k < 0 {
			return false
		}
		operands = a.pos[k:]
	}
	for _, f := range s.FlagsAll {
		if !a.hasFlag(f) {
			return false
		}
	}
	for _, f := range s.FlagsNone {
		if a.hasFlag(f) {
			return false
		}
	}
	if len(s.FlagsAny) > 0 {
		ok := false
		for _, f := range s.FlagsAny {
			if a.hasFlag(f) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	for k, v := range s.Values {
		ok := false
		for _, f := range a.flags {
			if f.name == v.Flag && f.has && m.values()[k].MatchString(f.value) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if m.reads != nil && !readsInput && (!anyMatch(m.reads, operands) && !a.valueMatch(m.reads) || excepted()) {
		return false
	}
	if m.writes != nil && !writesOutput && !a.writesMatch(m.writes, operands) {
		return false
	}
	if m.operand != nil && !anyMatch(m.operand, operands) {
		return false
	}
	if m.operandNone != nil && anyMatch(m.operandNone, operands) {
		return false
	}
	if len(operands) < s.MinOperands {
		return false
	}
	if m.last != nil && (len(operands) == 0 || !m.last.MatchString(operands[len(operands)-1])) {
		return false
	}
	if m.args != nil && !m.args.MatchString(sc.joined(i)) {
		return false
	}
	return hold()
}

func anyMatch(re *lazyRE, list []string) bool {
	for _, o := range list {
		if re.MatchString(o) {
			return true
		}
	}
	return false
}

// staticStdin returns the text invocation i reads on its standard input
// when the line says it statically: the parser's Invocation.Stdin (a
// heredoc body, a here-string, echo, printf or cat of such a text piped
// into it).
func staticStdin(sc *scan, i int) (string, bool) {
	inv := &sc.res.Invocations[i]
	return inv.Stdin, inv.StdinKnown
}

// readsRedirect reports whether one of inv's input redirections (<, <>)
// opens a file re matches.
func readsRedirect(inv *shellparse.Invocation, re *lazyRE) bool {
	for _, r := range inv.Redirs {
		if r.Op != "<" && r.Op != "<>" {
			continue
		}
		t := r.Target
		if r.Dynamic {
			t = dynShape(t)
		} else {
			t = cleanOperand(t)
		}
		if re.MatchString(t) {
			return true
		}
	}
	return false
}

// nameIn reports whether name (a progName) is in list; a trailing * in the
// list matches any suffix. Names compare case-insensitively.
func nameIn(name string, list []string) bool {
	if name == "" {
		return false
	}
	// Two ASCII first bytes that differ in lower case rule a pair out
	// (no non-ASCII letter folds to an ASCII one's first byte); ASCII
	// names of different lengths never fold to each other. Most
	// comparisons end at one of the two.
	first := lowerASCII(name[0])
	ascii := -1
	for _, p := range list {
		n := len(p)
		if n == 0 {
			continue
		}
		if c := p[0]; c != '*' && c < 0x80 && name[0] < 0x80 && lowerASCII(c) != first {
			continue
		}
		if p[n-1] == '*' {
			if len(name) >= n-1 && strings.EqualFold(name[:n-1], p[:n-1]) {
				return true
			}
			continue
		}
		if p == name {
			return true
		}
		if len(p) != len(name) {
			if ascii < 0 {
				ascii = 1
				for i := 0; i < len(name); i++ {
					if name[i] >= 0x80 {
						ascii = 0
						break
					}
				}
			}
			if ascii == 1 {
				continue
			}
		}
		if strings.EqualFold(p, name) {
			return true
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// feedsInto reports whether invocation i's output is run as code by one
// of the programs in targets.
func feedsInto(res *shellparse.Result, i int, targets []string) bool {
	return feeds(res, i, true, func(j int) bool { return nameIn(progName(res.Invocations[j].Name), targets) })
}

// feeds reports whether invocation i's output reaches an invocation that
// fed reports: a later stage of its pipeline, or (with enclosers) a
// command whose words hold it, $(...) or <(...) (bash <(curl ...),
// sh -c "$(curl ...)").
func feeds(res *shellparse.Result, i int, enclosers bool, fed func(j int) bool) bool {
	inv := &res.Invocations[i]
	if p := inv.Where.Find(shellparse.FramePipeline); p != nil {
		for j := i + 1; j < len(res.Invocations); j++ {
			q := res.Invocations[j].Where.Find(shellparse.FramePipeline)
			if q != nil && q.Pipe == p.Pipe && q.Stage > p.Stage && fed(j) {
				return true
			}
		}
	}
	if !enclosers {
		return false
	}
	for e := inv.Encloser; e >= 0 && e < len(res.Invocations); e = res.Invocations[e].Encloser {
		if fed(e) {
			return true
		}
		if e == res.Invocations[e].Encloser {
			break
		}
	}
	return false
}
