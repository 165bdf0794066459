package danger

import (
	"strings"
	"sync"

	"github.com/shellguard/shellguard/internal/programs"
	"github.com/shellguard/shellguard/internal/shquote"
	"github.com/shellguard/shellguard/shellparse"
)

// Programs that run the rest of their argv (direnv exec . CMD, mytool
// --flag CMD, frobnicate sh -c STRING) hide what they run when the parser
// does not know them: no list of such programs can be complete. The
// detector therefore also reads the argv of every program it does not
// know: each suffix of it that starts with a program a rule names (rm,
// dd, git, a shell, ...) is checked as a command line of its own, and
// what it matches is reported on the invocation that holds it ("in the
// arguments of X, which may run them").
//
// A program is known, and its argv is not read this way, when a rule
// names it, when it is a shell or an interpreter the detector reads
// already, when the parser ran what its argv holds (a wrapper or argv
// runner it peeled: docker exec, direnv exec, ...), or when its program
// data says its arguments are data (data_args in internal/programs/data:
// programs that print, search or look up their arguments, such as echo,
// grep, man and which, or read them as their own subcommands and
// operands, such as git, docker, npm, apt-get and kubectl). A data_args
// runner that builds the program it runs (cargo run -- ARGS) has the
// words after "--" read.

// maxArgvSuffixes bounds how many argv suffixes one check re-parses
// (each holds up to the rest of the line, so the work would be quadratic
// without a bound). Past it the line is reported as over the limit.
const maxArgvSuffixes = 16

// checkArgvSuffixes checks the suffixes of invocation i's argv that start
// with a program a rule names, when i's program is not known, and records
// their hits; it reports whether it recorded any. budget counts the
// suffixes the whole check may still re-parse.
func (r *registry) checkArgvSuffixes(sc *scan, i int, hits *hitSet, depth int, budget *int) bool {
	name, args := sc.name(i), sc.args(i)
	if name == "" || len(args) < 3 && !(len(args) == 2 && !args[1].Dynamic) {
		return false
	}
	p := sc.invs[i].prog
	if p.Has(programs.DataArgs) {
		if !p.Has(programs.Runs) {
			return false
		}
		// cargo run -- ARGS: the arguments go to a program cargo builds,
		// which shellguard does not know.
		vals, dyn := argWords(args[1:])
		k := programs.DashDashArgs(p, vals, dyn)
		if k < 0 {
			return false
		}
		args = args[k:]
		if len(args) < 2 {
			return false
		}
		args = append([]shellparse.Arg{{Value: name, Raw: name}}, args...)
	}
	if r.namesProgram(name) || interpreter(name) != "" || strings.HasPrefix(name, "git-") {
		return false
	}
	// The first word that starts a suffix, before any other work: most
	// unknown programs hold none.
	// A shell at k runs a string when a -c option comes after it: the
	// last one is found once (scanning the rest of argv for every k was
	// quadratic).
	lastC := 0
	for k := len(args) - 1; k > 0; k-- {
		if cOption(args[k].Value) {
			lastC = k
			break
		}
	}
	withC := func(k int) bool {
		return k < lastC && !args[k].Dynamic && programs.IsShell(progName(baseName(args[k].Value)))
	}
	first := 0
	for k := 1; k < len(args); k++ {
		if r.startsSuffix(args[k]) || withC(k) {
			first = k
			break
		}
	}
	if first == 0 {
		return false
	}
	// The parser ran what this argv holds: it is a wrapper or argv
	// runner the parser knows (docker exec, direnv exec, ...).
	for j := range sc.res.Invocations {
		if j != i && sc.res.Invocations[j].Parent == i {
			return false
		}
	}
	inv := &sc.res.Invocations[i]
	outer := ""
	any := false
	for k := first; k < len(args); k++ {
		if k > first && !r.startsSuffix(args[k]) && !withC(k) {
			continue
		}
		if *budget <= 0 {
			return r.overLimit(hits) || any
		}
		line := suffixLine(args[k:])
		// A suffix costs one, plus one per 4 KiB: sixteen suffixes of a
		// 64 KiB argv would re-parse a megabyte (the parser's per-line
		// budget does not reach these separate parses).
		*budget -= 1 + len(line)>>12
		var sub hitSet
		if !r.checkInto(suffixParser().Parse(line), &sub, depth+1, budget) {
			continue
		}
		for _, h := range sub.list {
			if hits.has(h.idx) || r.rule(h.idx).isParseCheck() {
				continue
			}
			if outer == "" {
				outer = inv.String()
			}
			hits.set(h.idx, "`"+outer+"`: "+h.what+" in the arguments of "+name+", which may run them")
			any = true
		}
	}
	return any
}

// startsSuffix reports whether the argv word a names a program a rule
// names, so that the argv from it on is checked as a command. Rules that
// need a pipeline (curl ... | sh), a redirection or a wrapper cannot match
// a suffix alone (which has none) and do not count; shells count when a -c
// option follows (see cOption).
func (r *registry) startsSuffix(a shellparse.Arg) bool {
	if a.Dynamic || a.Value == "" || a.Value[0] == '-' {
		return false
	}
	w := progName(baseName(a.Value))
	if w == "" {
		return false
	}
	for _, idx := range r.forProgram(w) {
		if s := r.rule(idx).p.Match; len(s.FeedsInto) == 0 && s.Redirect == "" && len(s.Wrappers) == 0 {
			return true
		}
	}
	return r.namesGlob(w)
}

// cOption reports a short-option cluster with c (-c, -lc, -ec).
func cOption(v string) bool {
	return len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.IndexByte(v, 'c') > 0
}

// namesProgram reports whether some rule of the registry names the
// program name (exactly or through a glob such as mkfs.*).
func (r *registry) namesProgram(name string) bool {
	return len(r.forProgram(name)) > 0 || r.namesGlob(name)
}

// namesGlob reports whether a rule names the program through a glob
// (mkfs.*, python*).
func (r *registry) namesGlob(name string) bool {
	for _, g := range r.globs {
		if g.matches(name) {
			return true
		}
	}
	return false
}

// suffixParser parses argv suffixes: one parser for every check, which
// is safe for concurrent use and keeps its pools between checks.
var suffixParser = sync.OnceValue(func() *shellparse.Parser { return shellparse.New(shellparse.Limits{}) })

// overLimit records the registry's over-limit rule (check "limit"), if it
// has one, and reports whether it recorded it.
func (r *registry) overLimit(hits *hitSet) bool {
	for _, idx := range r.lineLevel {
		if s := r.rule(idx).spec(); s != nil && s.Check == "limit" && !hits.has(idx) {
			hits.set(idx, "more than 16 commands in the arguments of programs shellguard does not know")
			return true
		}
	}
	return false
}

// suffixLine renders args as a command line that parses back to the same
// argv: literal words quoted, dynamic words as written. The invocation's
// wrappers are left out: sudo mytool rm x is not taken for sudo rm x
// (sudo dnf4 rm PACKAGE removes packages).
func suffixLine(args []shellparse.Arg) string {
	var b strings.Builder
	for k, a := range args {
		if k > 0 {
			b.WriteByte(' ')
		}
		switch {
		case a.Dynamic:
			b.WriteString(a.Raw)
		case plainWord(a.Value) || a.Raw == a.Value && globWord(a.Value):
			b.WriteString(a.Value)
		default:
			b.WriteString(shquote.Quote(a.Value))
		}
	}
	return b.String()
}

// plainWord reports a word the shell reads as itself.
func plainWord(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./=:,+@%", c) >= 0) {
			return false
		}
	}
	return true
}

// globWord reports a word of plain characters, glob characters and a
// leading ~ that was written unquoted: it is kept unquoted so that the
// suffix expands as the original would (rm -rf * or ~).
func globWord(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./=:,+@%*?", c) >= 0 || c == '~' && i == 0) {
			return false
		}
	}
	return v != ""
}
