package main

import (
	"bytes"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/shellguard/shellguard/danger/internal/reprefix"
	"github.com/shellguard/shellguard/internal/textlex"
)

// packDef is a rule file's [pack] table.
type packDef struct {
	Name        string `toml:"name"`
	Description string `toml:"description"`
	Default     *bool  `toml:"default"`
}

// patternDef is one [[pattern]] as written.
type patternDef struct {
	Name          string   `toml:"name"`
	Regex         string   `toml:"regex"`
	Level         string   `toml:"level"`
	Description   string   `toml:"description"`
	CaseSensitive bool     `toml:"case_sensitive"`
	Match         *specDef `toml:"match"`
	Hit           []string `toml:"hit"`
	Miss          []string `toml:"miss"`
}

// specDef is a [pattern.match] table (danger.Spec).
type specDef struct {
	Programs    []string          `toml:"programs"`
	Subcommands []string          `toml:"subcommands"`
	FlagsAll    []string          `toml:"flags_all"`
	FlagsAny    []string          `toml:"flags_any"`
	FlagsNone   []string          `toml:"flags_none"`
	Values      map[string]string `toml:"values"`
	Operand     string            `toml:"operand"`
	OperandNone string            `toml:"operand_none"`
	MinOperands int               `toml:"min_operands"`
	LastOperand string            `toml:"last_operand"`
	Args        string            `toml:"args"`
	Wrappers    []string          `toml:"wrappers"`
	FeedsInto   []string          `toml:"feeds_into"`
	Redirect    string            `toml:"redirect"`
	Writes      string            `toml:"writes"`
	Reads       string            `toml:"reads"`
	Stdin       string            `toml:"stdin"`
	Except      []string          `toml:"except"`
	Check       string            `toml:"check"`
	Any         []specDef         `toml:"any"`
}

// checkDef is one [[check]] of danger/checks.toml.
type checkDef struct {
	Name        string `toml:"name"`
	Description string `toml:"description"`
	Line        bool   `toml:"line"`
	// Finds makes the check one of the interpreter's: a finding of one
	// of these kinds (interp.Kind's names) in the invocation's code;
	// with Computed, only one whose command or path is computed at run
	// time. The generator writes its function.
	Finds    []string `toml:"finds"`
	Computed bool     `toml:"computed"`
}

// ruleFile is one decoded danger/rules/*.toml.
type ruleFile struct {
	Pack    packDef      `toml:"pack"`
	Program []programDef `toml:"program"`
	Pattern []patternDef `toml:"pattern"`
	Source  []sourceDef  `toml:"source"`
	Sink    []sinkDef    `toml:"sink"`
	file    string
}

var levels = map[string]string{"low": "Low", "medium": "Medium", "high": "High", "critical": "Critical"}

var ruleName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// findKind is the form of the names of interp.Kind (checkDef.Finds).
var findKind = regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
var packName = regexp.MustCompile(`^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$`)

// orderPacks sorts the rule files: packs on by default first (core.*
// before the others), then packs off by default, each group by name.
func orderPacks(files []ruleFile) {
	sort.SliceStable(files, func(i, j int) bool {
		a, b := files[i].Pack, files[j].Pack
		if da, db := isTrue(a.Default), isTrue(b.Default); da != db {
			return da
		}
		if ca, cb := strings.HasPrefix(a.Name, "core."), strings.HasPrefix(b.Name, "core."); ca != cb {
			return ca
		}
		return a.Name < b.Name
	})
}

// checkRules validates every pack and pattern against the checks and the
// program facts.
func checkRules(files []ruleFile, checks map[string]checkDef, progs map[string]*program) error {
	seen := map[string]string{}
	packs := map[string]bool{}
	for _, f := range files {
		p := f.Pack
		want := strings.TrimSuffix(baseName(f.file), ".toml")
		switch {
		case p.Name == "":
			return fmt.Errorf("%s: no [pack] name", f.file)
		case !packName.MatchString(p.Name):
			return fmt.Errorf("%s: pack name %q: want dotted lower-case words", f.file, p.Name)
		case p.Name != want:
			return fmt.Errorf("%s: pack %q must be in a file named %s.toml", f.file, p.Name, p.Name)
		case packs[p.Name]:
			return fmt.Errorf("%s: pack %q is defined twice", f.file, p.Name)
		case strings.TrimSpace(p.Description) == "":
			return fmt.Errorf("%s: pack %q has no description", f.file, p.Name)
		case p.Default == nil:
			return fmt.Errorf("%s: pack %q: say default = true or false", f.file, p.Name)
		}
		packs[p.Name] = true
		for _, pat := range f.Pattern {
			where := fmt.Sprintf("%s: pattern %q", f.file, pat.Name)
			if !ruleName.MatchString(pat.Name) {
				return fmt.Errorf("%s: name: want lower-case words joined by _", where)
			}
			if prev, dup := seen[pat.Name]; dup {
				return fmt.Errorf("%s: defined twice (also in %s)", where, prev)
			}
			seen[pat.Name] = f.file
			if _, ok := levels[pat.Level]; !ok {
				return fmt.Errorf("%s: level %q: want low, medium, high or critical", where, pat.Level)
			}
			if strings.TrimSpace(pat.Description) == "" {
				return fmt.Errorf("%s: no description", where)
			}
			if len(pat.Hit) == 0 || len(pat.Miss) == 0 {
				return fmt.Errorf("%s: needs hit = [...] and miss = [...] examples", where)
			}
			if pat.Regex == "" && pat.Match == nil {
				return fmt.Errorf("%s: needs a regex or a match table", where)
			}
			if pat.Regex != "" {
				expr := pat.Regex
				if !pat.CaseSensitive {
					expr = "(?i)" + expr
				}
				if _, err := regexp.Compile(expr); err != nil {
					return fmt.Errorf("%s: regex: %v", where, err)
				}
			}
			if pat.Match != nil {
				if err := checkSpec(pat.Match, checks, progs, false); err != nil {
					return fmt.Errorf("%s: match: %v", where, err)
				}
			}
		}
	}
	return nil
}

// checkSpec reports a spec that can never match.
func checkSpec(s *specDef, checks map[string]checkDef, progs map[string]*program, nested bool) error {
	if specEmpty(s) {
		return fmt.Errorf("the spec is empty (it would match nothing)")
	}
	if s.Check != "" {
		if _, ok := checks[s.Check]; !ok {
			return fmt.Errorf("unknown check %q (danger/checks.toml lists them)", s.Check)
		}
	}
	for _, f := range []struct{ what, expr string }{{"operand", s.Operand}, {"operand_none", s.OperandNone}, {"last_operand", s.LastOperand}, {"args", s.Args}, {"redirect", s.Redirect}, {"writes", s.Writes}, {"reads", s.Reads}, {"stdin", s.Stdin}} {
		if f.expr == "" {
			continue
		}
		if _, err := syntax.Parse(`^(?:`+f.expr+`)$`, syntax.Perl); err != nil {
			return fmt.Errorf("%s: %v", f.what, err)
		}
	}
	for flag, v := range s.Values {
		if _, err := syntax.Parse(`^(?:`+v+`)$`, syntax.Perl); err != nil {
			return fmt.Errorf("values[%q]: %v", flag, err)
		}
	}
	if s.MinOperands < 0 {
		return fmt.Errorf("min_operands is negative")
	}
	named := func(name string) *program {
		if strings.HasSuffix(name, "*") {
			return nil
		}
		return progs[name]
	}
	for _, name := range s.Programs {
		if name == "" {
			return fmt.Errorf("an empty program name")
		}
		if strings.HasPrefix(name, "@") {
			return fmt.Errorf("program class %q was not expanded", name)
		}
		p := named(name)
		if len(s.Subcommands) > 0 && !strings.HasSuffix(name, "*") {
			if p == nil || !isTrue(p.def.Subcommands) {
				return fmt.Errorf("subcommands %v: program %q has no subcommands in the program data (subcommands = true)", s.Subcommands, name)
			}
			for _, sub := range s.Subcommands {
				for _, w := range strings.Fields(sub) {
					if to, ok := p.def.Words[w]; ok {
						return fmt.Errorf("subcommand %q: %q is an alias of %q for %s; write the canonical word", sub, w, to, name)
					}
					if strings.ToLower(w) != w {
						return fmt.Errorf("subcommand %q: write subcommand words in lower case", sub)
					}
				}
				if strings.Join(strings.Fields(sub), " ") != sub {
					return fmt.Errorf("subcommand %q: words must be separated by single spaces", sub)
				}
			}
		}
		for _, fl := range append(append(append([]string{}, s.FlagsAll...), s.FlagsAny...), s.FlagsNone...) {
			if err := producible(name, p, fl); err != nil {
				return err
			}
		}
		for fl := range s.Values {
			if err := producible(name, p, fl); err != nil {
				return err
			}
			if !takesValue(p, fl) && !strings.HasPrefix(fl, "--") {
				return fmt.Errorf("values[%q]: %s's data does not say %s takes a value (add it to values)", fl, name, fl)
			}
		}
	}
	if len(s.Programs) == 0 && (len(s.Subcommands) > 0 || len(s.Values) > 0) && !nested {
		return fmt.Errorf("subcommands and values need programs")
	}
	for i := range s.Any {
		a := &s.Any[i]
		if len(a.Any) > 0 {
			return fmt.Errorf("any[%d]: alternatives do not nest", i)
		}
		if len(a.Programs) == 0 {
			a.Programs = s.Programs
			err := checkSpec(a, checks, progs, true)
			a.Programs = nil
			if err != nil {
				return fmt.Errorf("any[%d]: %v", i, err)
			}
			continue
		}
		if err := checkSpec(a, checks, progs, true); err != nil {
			return fmt.Errorf("any[%d]: %v", i, err)
		}
	}
	return nil
}

// producible reports a canonical flag the program's option syntax can
// never produce.
func producible(name string, p *program, fl string) error {
	if fl == "--" || strings.HasSuffix(fl, "*") {
		return nil
	}
	if !isOption(fl) {
		return fmt.Errorf("flag %q of %s is not an option", fl, name)
	}
	if p == nil {
		if !strings.HasPrefix(fl, "--") && len(fl) > 2 && !textlex.IsDigits(fl[1:]) {
			return fmt.Errorf("flag %q can never match: %s reads %s as a cluster of one-letter options (declare it in the program data: single_dash = [%q], or cluster = false)", fl, name, fl, fl)
		}
		return nil
	}
	d := &p.def
	if to, ok := d.Aliases[fl]; ok {
		return fmt.Errorf("flag %q of %s is an alias: write the canonical %q", fl, name, to)
	}
	noCluster := d.Cluster != nil && !*d.Cluster
	if strings.HasPrefix(fl, "--") {
		if noCluster && len(fl) > 3 {
			return fmt.Errorf("flag %q of %s: %s reads --x as -x; write %q", fl, name, name, fl[1:])
		}
		if isTrue(d.FoldCase) && strings.ToLower(fl) != fl {
			return fmt.Errorf("flag %q of %s: long options are compared in lower case", fl, name)
		}
		return nil
	}
	if len(fl) == 2 || textlex.IsDigits(fl[1:]) {
		return nil
	}
	base := strings.SplitN(fl, "=", 2)[0]
	if noCluster || slices.Contains(d.SingleDash, base) {
		return nil
	}
	return fmt.Errorf("flag %q can never match: %s reads %s as a cluster of one-letter options (declare it in the program data: single_dash = [%q], or cluster = false)", fl, name, fl, base)
}

func takesValue(p *program, fl string) bool {
	if p == nil {
		return false
	}
	d := &p.def
	if slices.Contains(d.Values, fl) || slices.Contains(d.Globals, fl) || slices.Contains(d.Optional, fl) {
		return true
	}
	for _, n := range d.Sub {
		if slices.Contains(n.Values, fl) {
			return true
		}
	}
	return false
}

func specEmpty(s *specDef) bool {
	return len(s.Programs) == 0 && len(s.Subcommands) == 0 && len(s.FlagsAll) == 0 && len(s.FlagsAny) == 0 &&
		len(s.FlagsNone) == 0 && len(s.Values) == 0 && s.MinOperands == 0 && s.Operand == "" && s.OperandNone == "" && s.LastOperand == "" &&
		s.Args == "" && len(s.Wrappers) == 0 && len(s.FeedsInto) == 0 && s.Redirect == "" && s.Writes == "" && s.Reads == "" &&
		s.Stdin == "" && s.Check == "" && len(s.Any) == 0
}

// expandClasses replaces "@shell" in programs and feeds_into by the
// programs the data marks as shells, and "@sink" by the programs of every
// [[sink]] of the packs (sinks).
func expandClasses(s *specDef, progs map[string]*program, sinks []string) error {
	var shells []string
	for name, p := range progs {
		if isTrue(p.def.Shell) {
			shells = append(shells, name)
		}
	}
	sort.Strings(shells)
	expand := func(list []string) ([]string, error) {
		var out []string
		for _, x := range list {
			switch x {
			case "@shell":
				out = append(out, shells...)
			case "@sink":
				out = append(out, sinks...)
			default:
				if strings.HasPrefix(x, "@") {
					return nil, fmt.Errorf("unknown program class %q (known: @shell, @sink)", x)
				}
				out = append(out, x)
			}
		}
		return out, nil
	}
	var err error
	if s.Programs, err = expand(s.Programs); err != nil {
		return err
	}
	if s.FeedsInto, err = expand(s.FeedsInto); err != nil {
		return err
	}
	for i := range s.Any {
		if err := expandClasses(&s.Any[i], progs, sinks); err != nil {
			return err
		}
	}
	return nil
}

// sinkPrograms lists the programs of every [[sink]], sorted, once each.
func sinkPrograms(files []ruleFile) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range files {
		for _, s := range f.Sink {
			if s.Match == nil {
				continue
			}
			for _, p := range s.Match.Programs {
				if !seen[p] && !strings.HasPrefix(p, "@") {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// emitRules writes rules_gen.go.
func emitRules(files []ruleFile, checks []checkDef) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header("danger/rules/*.toml and danger/checks.toml", "danger"))
	if slices.ContainsFunc(checks, func(c checkDef) bool { return len(c.Finds) > 0 }) {
		b.WriteString("import \"github.com/shellguard/shellguard/danger/internal/interp\"\n\n")
	}
	var all []patternDef
	type packRange struct {
		p        packDef
		from, to int
	}
	var ranges []packRange
	nDefault := 0
	lineChecks := map[string]bool{}
	for _, c := range checks {
		if c.Line {
			lineChecks[c.Name] = true
		}
	}
	for _, f := range files {
		r := packRange{p: f.Pack, from: len(all)}
		all = append(all, f.Pattern...)
		r.to = len(all)
		ranges = append(ranges, r)
		if isTrue(f.Pack.Default) {
			nDefault = len(all)
		}
	}
	// The rules are made when first used, by builtinRuleAt: as static
	// data every process would map them and the runtime would build the
	// garbage collector's bitmap of them at start (half a megabyte of
	// pointers, a tenth of a hook's instructions), though a line uses a
	// few dozen. Their names and levels stay static: they are looked up
	// by name (configurations, rules show) without making any rule.
	fmt.Fprintf(&b, "// builtinCount is how many built-in rules there are (every pack).\nconst builtinCount = %d\n\n", len(all))
	b.WriteString("// builtinNames and builtinLevels are the names and levels of the\n// built-in rules: the rules of the packs on by default (the first\n// builtinDefault), then those of the packs off by default; each pack in\n// file order.\n")
	b.WriteString("var builtinNames = [builtinCount]string{\n")
	for _, p := range all {
		fmt.Fprintf(&b, "\t%q,\n", p.Name)
	}
	b.WriteString("}\n\n")
	b.WriteString("var builtinLevels = [builtinCount]Level{")
	for i, p := range all {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(levels[p.Level])
	}
	b.WriteString("}\n\n")
	// One function a rule, called by a switch: cases that built the rules
	// themselves would share one stack frame of all their temporaries,
	// hundreds of kilobytes that the first call copies the goroutine's
	// stack to fit. (Not a table of the functions: a check a rule holds
	// may read the registry, which would make the table's initialisation
	// depend on itself.)
	b.WriteString("// builtinRuleAt makes built-in rule i (see builtinRule).\nfunc builtinRuleAt(i int) *rule {\n\tswitch i {\n")
	for i := range all {
		fmt.Fprintf(&b, "\tcase %d:\n\t\treturn makeRule%d()\n", i, i)
	}
	b.WriteString("\t}\n\treturn nil\n}\n\n")
	for i, p := range all {
		// Not inlined into builtinRuleAt's switch, which would be the one
		// large frame again.
		fmt.Fprintf(&b, "//go:noinline\nfunc makeRule%d() *rule {\n%s}\n\n", i, strings.ReplaceAll(makeRule(p, lineChecks), "\n\t\t", "\n\t"))
	}
	// The examples are built when asked for (a hook never does): as
	// static data they would grow the data segment every process maps.
	b.WriteString("// builtinExamples returns the hit and miss examples of built-in rule i.\nfunc builtinExamples(i int) (hit, miss []string) {\n\tswitch i {\n")
	for i, p := range all {
		fmt.Fprintf(&b, "\tcase %d:\n\t\treturn %#v, %#v\n", i, p.Hit, p.Miss)
	}
	b.WriteString("\t}\n\treturn nil, nil\n}\n\n")
	fmt.Fprintf(&b, "// builtinDefault is how many built-in rules are on by default.\nconst builtinDefault = %d\n\n", nDefault)
	b.WriteString("// builtinPacks are the packs of the built-in rules, in order.\nvar builtinPacks = [...]packInfo{\n")
	for _, r := range ranges {
		fmt.Fprintf(&b, "\t{name: %q, description: %q, on: %v, from: %d, to: %d},\n", r.p.Name, strings.TrimSpace(r.p.Description), isTrue(r.p.Default), r.from, r.to)
	}
	b.WriteString("}\n\n")

	// The index by program over the default rules, as compile builds it
	// for any registry.
	byProgram := map[string][]int{}
	gates := map[string][]string{}
	var anyProgram, writeProgram, lineLevel []int
	type glob struct {
		prefix string
		rule   int
	}
	var globList []glob
	for idx, p := range all[:nDefault] {
		switch {
		case p.Match != nil && len(p.Match.Programs) > 0:
			for _, name := range p.Match.Programs {
				if prefix, ok := strings.CutSuffix(name, "*"); ok {
					globList = append(globList, glob{prefix, idx})
					continue
				}
				byProgram[name] = append(byProgram[name], idx)
				gates[name] = append(gates[name], subcommandGate(p.Match, name))
			}
		case p.Regex == "" && p.Match != nil && (p.Match.Writes != "" || p.Match.Redirect != ""):
			writeProgram = append(writeProgram, idx)
		case p.Regex == "" && onlyCheck(p.Match) && lineChecks[p.Match.Check]:
			// A line check never matches an invocation (lineLevel).
		default:
			anyProgram = append(anyProgram, idx)
		}
		if p.Match != nil && lineChecks[p.Match.Check] || p.Regex != "" && p.Match == nil {
			lineLevel = append(lineLevel, idx)
		}
	}
	emitProgramIndex(&b, byProgram, gates)
	// Sorted by their first letter, as the detector looks them up (see
	// globKey in danger/detector.go), in rule order within one letter.
	sort.SliceStable(globList, func(i, j int) bool { return globKey(globList[i].prefix) < globKey(globList[j].prefix) })
	var globs []string
	for _, gl := range globList {
		globs = append(globs, fmt.Sprintf("{prefix: %q, rule: %d, key: %d}", gl.prefix, gl.rule, globKey(gl.prefix)))
	}
	fmt.Fprintf(&b, "// builtinGlobs, builtinAnyProgram, builtinWriteProgram and\n// builtinLineLevel are the other lists of the default registry (see\n// registry).\nvar (\n\tbuiltinGlobs        = [...]globEntry{%s}\n\tbuiltinAnyProgram   = [...]int{%s}\n\tbuiltinWriteProgram = [...]int{%s}\n\tbuiltinLineLevel    = [...]int{%s}\n)\n\n", strings.Join(globs, ", "), ints(anyProgram), ints(writeProgram), ints(lineLevel))

	// The checks.
	b.WriteString("// builtinChecks are the checks of danger/checks.toml.\nvar builtinChecks = [...]CheckInfo{\n")
	for _, c := range checks {
		fmt.Fprintf(&b, "\t{Name: %q, Description: %q, Line: %v},\n", c.Name, strings.TrimSpace(c.Description), c.Line)
	}
	b.WriteString("}\n\n")
	emitFlows(&b, files)
	emitFindsChecks(&b, checks)
	emitInvocationSwitch(&b, checks, "// runCheck runs the check of a spec on invocation i; line-level checks\n// (matched by matchLine) never match an invocation.\nfunc runCheck(name string, sc *scan, i int) bool {\n",
		"%s(sc, i)", "false")
	emitInvocationSwitch(&b, checks, "// checkFuncFor returns the function of a check that concerns an\n// invocation, or nil.\nfunc checkFuncFor(name string) func(*scan, int) bool {\n",
		"%s", "nil")
	b.WriteString("// lineCheck reports a check that concerns the whole line.\nfunc lineCheck(name string) bool {\n\tswitch name {\n")
	var lc []string
	for _, c := range checks {
		if c.Line {
			lc = append(lc, strconv.Quote(c.Name))
		}
	}
	if len(lc) > 0 {
		fmt.Fprintf(&b, "\tcase %s:\n\t\treturn true\n", strings.Join(lc, ", "))
	}
	b.WriteString("\t}\n\treturn false\n}\n\n")

	// vetted lists every expression of the registry: the generator
	// compiled them, so NewDetector need not check them again.
	seenExpr := map[string]bool{}
	var exprs []string
	var add func(s *specDef)
	addE := func(e string) {
		if e != "" && !seenExpr[e] {
			seenExpr[e] = true
			exprs = append(exprs, e)
		}
	}
	add = func(s *specDef) {
		addE(s.Operand)
		addE(s.OperandNone)
		addE(s.LastOperand)
		addE(s.Args)
		addE(s.Redirect)
		addE(s.Writes)
		addE(s.Reads)
		addE(s.Stdin)
		for _, v := range s.Values {
			addE(v)
		}
		for i := range s.Any {
			add(&s.Any[i])
		}
	}
	for _, p := range all {
		addE(p.Regex)
		if p.Match != nil {
			add(p.Match)
		}
	}
	sort.Strings(exprs)
	b.WriteString("// vetted reports an expression of the built-in registry, which the\n// generator compiled; NewDetector skips checking those again. pre is the\n// expression's prefixes when anchored (see lazyRE.pre).\nfunc vetted(expr string) (pre string, ok bool) {\n\tswitch expr {\n")
	for _, e := range exprs {
		fmt.Fprintf(&b, "\tcase %s:\n\t\treturn %s, true\n", strconv.Quote(e), strconv.Quote(prefixes(e)))
	}
	b.WriteString("\t}\n\treturn \"\", false\n}\n")
	return b.Bytes(), nil
}

// anchoredLit is the literal of an anchored lazyRE, with its prefixes.
// It carries what the generator finds about the expression so that a
// process need not compile it, or compiles it only for a string that
// passes the cheaper filters: the whole language when it is a few
// strings, prefixes, pieces every match contains, first bytes.
func anchoredLit(expr string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "&lazyRE{expr: %s, anchored: true, vetted: true", strconv.Quote(expr))
	if all, ok := reprefix.Exact(expr); ok {
		fmt.Fprintf(&b, ", whole: %s}", strconv.Quote(reprefix.Join(all)))
		return b.String()
	}
	pre := prefixes(expr)
	if pre != "" {
		fmt.Fprintf(&b, ", pre: %s", strconv.Quote(pre))
	}
	if ps, ok := reprefix.Needs(expr); ok {
		fmt.Fprintf(&b, ", need: %s", strconv.Quote(reprefix.Join(ps)))
	}
	if pre == "" {
		if f, ok := reprefix.First(`^(?:` + expr + `)$`); ok {
			fmt.Fprintf(&b, ", first: byteSet{%#x, %#x, %#x, %#x}, firstOK: true", f[0], f[1], f[2], f[3])
		}
	}
	b.WriteString("}")
	return b.String()
}

// prefixes is what lazyRE.pre holds for the anchored expr.
func prefixes(expr string) string {
	ps, _ := reprefix.Of(expr)
	return reprefix.Join(ps)
}

// checkFunc names the Go function of a check: fork_bomb is checkForkBomb.
// emitFindsChecks writes the function of each check that looks for
// findings of package interp (checkDef.Finds).
func emitFindsChecks(b *bytes.Buffer, checks []checkDef) {
	for _, c := range checks {
		if len(c.Finds) == 0 {
			continue
		}
		kinds := make([]string, len(c.Finds))
		for i, k := range c.Finds {
			kinds[i] = "interp." + camel(k, "-")
		}
		fmt.Fprintf(b, "// %s: %s.\nfunc %s(sc *scan, i int) bool {\n\treturn codeFinds(sc.code(i), %v, %s)\n}\n\n",
			checkFunc(c.Name), strings.TrimSpace(c.Description), checkFunc(c.Name), c.Computed, strings.Join(kinds, ", "))
	}
}

// emitInvocationSwitch writes a function (head: its comment and
// signature) that switches on the names of the checks that concern an
// invocation: each case returns ret, a format whose %s is the check's
// function; any other name returns fallback.
func emitInvocationSwitch(b *bytes.Buffer, checks []checkDef, head, ret, fallback string) {
	b.WriteString(head + "\tswitch name {\n")
	for _, c := range checks {
		if !c.Line {
			fmt.Fprintf(b, "\tcase %q:\n\t\treturn "+ret+"\n", c.Name, checkFunc(c.Name))
		}
	}
	b.WriteString("\t}\n\treturn " + fallback + "\n}\n\n")
}

func checkFunc(name string) string {
	return "check" + camel(name, "_")
}

// camel joins the parts of name between seps, each capitalised
// ("fork-bomb" is ForkBomb).
func camel(name, sep string) string {
	var b strings.Builder
	for _, part := range strings.Split(name, sep) {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

func ints(v []int) string {
	var parts []string
	for _, x := range v {
		parts = append(parts, strconv.Itoa(x))
	}
	return strings.Join(parts, ", ")
}

// onlyCheck reports a spec that names a check and nothing else.
func onlyCheck(s *specDef) bool {
	if s == nil || s.Check == "" {
		return false
	}
	c := *s
	c.Check = ""
	return specLit(&c) == "Spec{}"
}

// specLit is the literal of s with its lists inline (static data).
func specLit(s *specDef) string {
	return specFields(s, func(v []string) string { return fmt.Sprintf("%#v", v) },
		func(s *specDef) string { return "[]FlagValue{" + flagValues(s.Values) + "}" },
		func(as []specDef) string { return "[]Spec{" + anyLits(as, specLit, "Spec") + "}" })
}

// anyLits is the literals of alts, as lit writes them without their type.
func anyLits(alts []specDef, lit func(*specDef) string, typ string) string {
	var as []string
	for i := range alts {
		as = append(as, strings.TrimPrefix(lit(&alts[i]), typ))
	}
	return strings.Join(as, ", ")
}

// specValues calls fn with the name and value of each of s's fields that
// is set, in specDef's order, which is Spec's (specDef declares Spec's
// fields in that order, with the same names).
func specValues(s *specDef, fn func(name string, v any)) {
	v := reflect.ValueOf(s).Elem()
	for i, f := range reflect.VisibleFields(v.Type()) {
		fv := v.Field(i)
		if fv.IsZero() || (fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map) && fv.Len() == 0 {
			continue
		}
		fn(f.Name, fv.Interface())
	}
}

// specFields is the literal of s, its fields in Spec's order; list,
// values and alts write the literals of its lists, its flag values and
// its alternatives.
func specFields(s *specDef, list func([]string) string, values func(*specDef) string, alts func([]specDef) string) string {
	var parts []string
	specValues(s, func(name string, v any) {
		var lit string
		switch x := v.(type) {
		case []string:
			lit = list(x)
		case string:
			lit = strconv.Quote(x)
		case int:
			lit = strconv.Itoa(x)
		case map[string]string:
			lit = values(s)
		case []specDef:
			lit = alts(x)
		default:
			// A field of a new type: the generator must learn it.
			panic("specFields: no literal for field " + name)
		}
		parts = append(parts, name+": "+lit)
	})
	return braced("Spec", parts)
}

func flagValues(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("{Flag: %q, Value: %s}", k, strconv.Quote(m[k])))
	}
	return strings.Join(parts, ", ")
}

// matcherLit is the compiled matcher of a spec: its anchored expressions.
func matcherLit(s *specDef) string {
	return matcherFields(s, anchoredLit,
		func(res []string) string { return braced("[]*lazyRE", res) },
		func(as []specDef) string { return "[]matcher{" + anyLits(as, matcherLit, "matcher") + "}" },
		func(extra string) string { return "&matcherMore{" + extra + "}" })
}

// matcherFields is the literal of s's matcher, its fields in matcher's
// order; re writes an anchored expression's *lazyRE, values the list of
// the flag values' ones, alts the alternatives' matchers and more the
// *matcherMore of the fields it is given.
func matcherFields(s *specDef, re func(string) string, values func([]string) string, alts func([]specDef) string, more func(string) string) string {
	var parts, extra []string
	// Each of Spec's strings but Check is an expression, in matcher's
	// field of the same name (last for LastOperand).
	specValues(s, func(name string, v any) {
		if expr, ok := v.(string); ok && name != "Check" {
			field := strings.ToLower(name[:1]) + name[1:]
			if name == "LastOperand" {
				field = "last"
			}
			parts = append(parts, field+": "+re(expr))
		}
	})
	if len(s.Values) > 0 {
		var vs []string
		for _, k := range slices.Sorted(maps.Keys(s.Values)) {
			vs = append(vs, re(s.Values[k]))
		}
		extra = append(extra, "values: "+values(vs))
	}
	if len(s.Any) > 0 {
		extra = append(extra, "any: "+alts(s.Any))
	}
	if len(extra) > 0 {
		parts = append(parts, "more: "+more(strings.Join(extra, ", ")))
	}
	return braced("matcher", parts)
}

// emitIndex writes the array arr of the indexes of byName's lists and the
// function fn that returns a name's list, as a switch (holds and returns
// complete the comments).
func emitIndex(b *bytes.Buffer, byName map[string][]int, arr, holds, fn, returns string) {
	var data []int
	var cases bytes.Buffer
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		from := len(data)
		data = append(data, byName[name]...)
		fmt.Fprintf(&cases, "\tcase %s:\n\t\treturn %s[%d:%d:%d]\n", strconv.Quote(name), arr, from, len(data), len(data))
	}
	fmt.Fprintf(b, "// %s holds %s.\nvar %s = [...]int{%s}\n\n", arr, holds, arr, ints(data))
	fmt.Fprintf(b, "// %s returns %s.\nfunc %s(name string) []int {\n\tswitch name {\n", fn, returns, fn)
	b.Write(cases.Bytes())
	b.WriteString("\t}\n\treturn nil\n}\n\n")
}

// emitProgramIndex writes builtinIndex, builtinGates and
// builtinByProgram: the default rules of each program name, and for each
// the first subcommand words one of which the invocation's first word
// must be for the rule to match it (subcommandGate).
func emitProgramIndex(b *bytes.Buffer, byName map[string][]int, gates map[string][]string) {
	var data []int
	var gateData []string
	var cases bytes.Buffer
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		from := len(data)
		data = append(data, byName[name]...)
		gateData = append(gateData, gates[name]...)
		fmt.Fprintf(&cases, "\tcase %s:\n\t\treturn builtinIndex[%d:%d:%d], builtinGates[%d:%d:%d]\n", strconv.Quote(name), from, len(data), len(data), from, len(data), len(data))
	}
	fmt.Fprintf(b, "// builtinIndex holds the default rules of each program name, for\n// builtinByProgram.\nvar builtinIndex = [...]int{%s}\n\n", ints(data))
	quoted := make([]string, len(gateData))
	for i, g := range gateData {
		quoted[i] = strconv.Quote(g)
	}
	fmt.Fprintf(b, "// builtinGates holds, beside builtinIndex, the first subcommand words\n// one of which an invocation of the program must start with for the rule\n// to match it (\"\": any invocation), joined by NUL bytes.\nvar builtinGates = [...]string{%s}\n\n", strings.Join(quoted, ", "))
	b.WriteString("// builtinByProgram returns the indexes of the default rules that name\n// the program name, and their gates.\nfunc builtinByProgram(name string) ([]int, []string) {\n\tswitch name {\n")
	b.Write(cases.Bytes())
	b.WriteString("\t}\n\treturn nil, nil\n}\n\n")
}

// subcommandGate returns the first words of the subcommands one of which
// an invocation of program name must start with for spec s to match it,
// joined by NUL bytes, or "" when s may match without one. It reads s as
// the detector's matchSpec and matchInvocation do: the spec's own
// subcommands when it names some; else, when it has alternatives, those
// of every alternative that may be about name (one without subcommands
// opens the gate). It errs towards "": an alternative whose programs are
// not all literal names is taken to be about name.
func subcommandGate(s *specDef, name string) string {
	firsts := func(subs []string) ([]string, bool) {
		var out []string
		for _, sub := range subs {
			w, _, _ := strings.Cut(sub, " ")
			if w == "" {
				return nil, false
			}
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
		return out, len(out) > 0
	}
	if len(s.Subcommands) > 0 {
		ws, ok := firsts(s.Subcommands)
		if !ok {
			return ""
		}
		return strings.Join(ws, "\x00")
	}
	if len(s.Any) == 0 {
		return ""
	}
	var words []string
	for i := range s.Any {
		alt := &s.Any[i]
		about := len(alt.Programs) == 0
		for _, p := range alt.Programs {
			about = about || strings.ContainsAny(p, "*?[") || strings.EqualFold(p, name)
		}
		if !about {
			continue
		}
		ws, ok := firsts(alt.Subcommands)
		if !ok {
			return ""
		}
		for _, w := range ws {
			if !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
	}
	return strings.Join(words, "\x00")
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// globKey is danger's globKey: the lower-case first byte of a program
// glob's prefix, or 0 when the prefix is empty or starts with a
// non-ASCII byte (such a glob is tried on every program).
func globKey(prefix string) byte {
	if prefix == "" || prefix[0] >= 0x80 {
		return 0
	}
	c := prefix[0]
	if c >= 'A' && c <= 'Z' {
		c += 'a' - 'A'
	}
	return c
}
