package danger

import (
	"strings"

	"github.com/shellguard/shellguard/shellparse"
)

// Spec.Writes: the files an invocation writes, from its redirections and
// from the program data's writes facts (internal/programs: Program.Writes).

// writesRedirect reports whether one of inv's writing redirections opens
// a file re matches.
func writesRedirect(inv *shellparse.Invocation, re *lazyRE) bool {
	for _, r := range inv.Redirs {
		if r.Writes() && re.MatchString(pathShape(r.Target, r.Dynamic)) {
			return true
		}
	}
	return false
}

// pathShape is how a path is compared: cleaned, and a dynamic one as
// written without quotes or braces (see dynShape).
func pathShape(v string, dynamic bool) string {
	if dynamic || strings.ContainsAny(v, `"$`) {
		return dynShape(v)
	}
	return cleanOperand(v)
}

// writesMatch reports whether a file the invocation's argv names for
// writing (by its program's writes facts) matches re; operands are the
// operands after the subcommand.
func (a *argv) writesMatch(re *lazyRE, operands []string) bool {
	var buf [8]string
	return anyMatch(re, a.writtenFiles(operands, buf[:0]))
}

// writtenFiles appends to out the files the argv names for writing by its
// program's writes facts, in canonical form.
func (a *argv) writtenFiles(operands, out []string) []string {
	if a.prog == nil {
		return out
	}
	for w := range a.prog.Writes.All() {
		switch {
		case w == "last":
			// cp -t DIR SRC... writes DIR: the option names it.
			if len(operands) >= 2 && !a.hasTargetOption() {
				out = append(out, operands[len(operands)-1])
			}
		case w == "operands":
			out = append(out, operands...)
		case w == "in_place":
			if !a.hasFlag("-i") {
				continue
			}
			files := operands
			if len(files) > 0 && !a.hasFlag("-e") && !a.hasFlag("-E") && !a.hasFlag("-f") && !a.hasFlag("--expression") && !a.hasFlag("--file") {
				files = files[1:] // the script
			}
			out = append(out, files...)
		case strings.HasPrefix(w, "-"):
			for _, f := range a.flags {
				if f.name == w && f.has && f.value != "" {
					out = append(out, pathShape(f.value, false))
				}
			}
		default: // KEY=
			for _, o := range operands {
				if v, ok := strings.CutPrefix(o, w); ok {
					out = append(out, pathShape(v, false))
				}
			}
		}
	}
	return out
}

// hasTargetOption reports an option among the program's writes facts
// that names the written directory (cp -t DIR): then the last operand is
// a source.
func (a *argv) hasTargetOption() bool {
	for w := range a.prog.Writes.All() {
		if strings.HasPrefix(w, "-") && a.hasFlag(w) {
			return true
		}
	}
	return false
}

// mayWrite reports an invocation that can match a writes or redirect
// spec: it has a writing redirection, or its program's data names files
// it writes and its arguments hold one (sed without -i, sort without -o
// write nothing).
func mayWrite(sc *scan, i int) bool {
	for _, r := range sc.res.Invocations[i].Redirs {
		if r.Writes() {
			return true
		}
	}
	p := sc.invs[i].prog
	if p == nil || len(p.Writes) == 0 || sc.name(i) == "" {
		return false
	}
	a := sc.argv(i)
	for w := range p.Writes.All() {
		switch {
		case w == "last":
			if len(a.pos) >= 2 {
				return true
			}
		case w == "operands":
			if len(a.pos) > 0 {
				return true
			}
		case w == "in_place":
			if a.hasFlag("-i") {
				return true
			}
		case strings.HasPrefix(w, "-"):
			if a.hasFlag(w) {
				return true
			}
		default:
			for _, o := range a.pos {
				if strings.HasPrefix(o, w) {
					return true
				}
			}
		}
	}
	return false
}

// writtenPaths appends to out every file invocation i may write, in each
// canonical form a writes or redirect spec compares: its writing
// redirections' targets and the files its argv names for writing. The
// writes-gated rules are tried only when their expression matches one of
// them.
func writtenPaths(sc *scan, i int, out []string) []string {
	for _, r := range sc.res.Invocations[i].Redirs {
		if r.Writes() {
			out = append(out, cleanOperand(r.Target))
			if shaped := pathShape(r.Target, r.Dynamic); shaped != out[len(out)-1] {
				out = append(out, shaped)
			}
		}
	}
	if p := sc.invs[i].prog; p != nil && len(p.Writes) > 0 && sc.name(i) != "" {
		out = sc.argv(i).writtenFiles(sc.argv(i).pos, out)
	}
	return out
}
