package shellparse

import (
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
)

// Programs that run code they are given: an option, an operand, an
// environment variable or their standard input holds a shell command (tar
// --to-command, git -c core.pager, LESSOPEN), an argv (gdb --args, screen
// CMD), or a program of another language whose few calls that run commands
// can be read (awk system(), sed e, vim :!, emacs shell-command, gdb shell,
// make recipes, expect spawn). What such code runs is re-parsed like the
// string of bash -c, so that every stage after the parser sees it; code that
// is built at run time, or that cannot be read, marks the invocation
// StdinUnknown: it runs something that cannot be verified.
//
// The facts are data, in internal/programs: each program's code runs
// (programs.CodeRun: where it takes code and which reader reads it), its
// option syntax (the same facts every package reads), and the
// configuration keys that hold commands (git -c core.pager). The readers
// (awk, sed, vim, emacs, gdb, lldb, make, expect, git configuration,
// terminal keys) are code of their own, in the coderun_*.go files, each
// bounded in time and output.

// optSyntax says how a program, or one of its subcommands, reads its
// options, so that options, their values and operands can be told apart.
// It is a view of the program's facts in internal/programs (which options
// take a value, clusters, abbreviations, where options end); a program
// the data does not describe has only flags, clustered, GNU-style.
type optSyntax struct {
	p *programs.Program
	// path is the subcommand path ("rebase", "submodule foreach"), "" for
	// the program's own options.
	path string
}

// syntaxFor returns the option syntax of a program or "program
// subcommand" ("git rebase").
func syntaxFor(key string) optSyntax {
	name, path, _ := strings.Cut(key, " ")
	return optSyntax{p: programs.Lookup(name), path: path}
}

// single: options are whole words with one or two dashes (-ex, --ex),
// never clusters.
func (sx optSyntax) single() bool { return sx.p.Has(programs.NoCluster) }

// plus: a word starting with + is an option with its value attached
// (vim +CMD).
func (sx optSyntax) plus() bool { return sx.p.Has(programs.PlusOptions) }

// oldTar: a first word without a dash is a cluster of options.
func (sx optSyntax) oldTar() bool { return sx.path == "" && sx.p.Has(programs.OldStyle) }

// abbrev: an unambiguous prefix of a long option counts (GNU
// getopt_long).
func (sx optSyntax) abbrev() bool { return sx.p.Has(programs.Abbrev) }

// subs: the first operand is a subcommand the data knows words below.
func (sx optSyntax) subs() bool {
	if !sx.p.Has(programs.Subcommands) {
		return false
	}
	for k := range sx.p.Subs {
		n := sx.p.Subs[k].Path
		if sx.path == "" || len(n) > len(sx.path) && n[len(sx.path)] == ' ' && strings.HasPrefix(n, sx.path) {
			return true
		}
	}
	return false
}

// posix: options end at the first operand.
func (sx optSyntax) posix() bool {
	if sx.path == "" {
		if sx.p.Has(programs.Posix) {
			return true
		}
	} else if n := sx.p.Node(sx.path); n != nil && n.Posix {
		return true
	}
	return sx.subs()
}

// takes reports whether the option (as the scanner names it: "-c",
// "--command"; a single-dash program's "--ex" is the data's "-ex") takes
// the rest of its cluster or the next word as its value.
func (sx optSyntax) takes(name string) bool {
	if sx.p == nil {
		return false
	}
	return sx.p.TakesValueAt(sx.path, sx.dataName(name))
}

// optional reports a short option whose value, if any, is attached.
func (sx optSyntax) optional(name string) bool {
	return sx.p != nil && sx.p.Optional.Has(name)
}

// two reports a long option that takes the next two words (bwrap --bind).
func (sx optSyntax) two(name string) bool {
	return sx.p != nil && sx.p.TwoValues.Has(sx.dataName(name))
}

// ends reports an option after which every word is an operand (gdb
// --args, screen -X).
func (sx optSyntax) ends(name string) bool {
	return sx.p != nil && sx.p.Ends.Has(sx.dataName(name))
}

// singleDash reports a single-dash long option of a program whose other
// single-dash words are clusters (screen -Logfile).
func (sx optSyntax) singleDash(v string) bool {
	return sx.p != nil && sx.p.SingleDash != "" && sx.p.SingleDash.Has(v)
}

// hasEnds reports whether the program has options of ends.
func (sx optSyntax) hasEnds() bool { return sx.p != nil && sx.p.Ends != "" }

// dataName spells an option as the data does: a single-dash program's
// options with one dash.
func (sx optSyntax) dataName(name string) string {
	if len(name) > 2 && name[1] == '-' && sx.single() {
		return name[1:]
	}
	return name
}

// eachLong calls f with the long options the syntax names (without their
// dashes: those that take a value, those whose value is optional, and
// whole flags) until f returns true.
func (sx optSyntax) eachLong(f func(string) bool) bool {
	p := sx.p
	if p == nil {
		return false
	}
	g := func(w string) bool { return len(w) > 2 && w[1] == '-' && f(w[2:]) }
	if p.Root.Values.Each(g) || p.Optional.Each(g) || p.Whole.Each(g) || p.TwoValues.Each(g) || sx.path == "" && p.Globals.Each(g) {
		return true
	}
	if sx.path == "" {
		return false
	}
	for k := range p.Subs {
		n := &p.Subs[k]
		if (n.Path == sx.path || strings.HasPrefix(sx.path, n.Path) && sx.path[len(n.Path)] == ' ') && n.Values.Each(g) {
			return true
		}
	}
	return false
}

// hasWord reports whether list (space-separated) holds w.
func hasWord(list, w string) bool {
	for len(list) > 0 {
		var f string
		f, list, _ = strings.Cut(list, " ")
		if f == w {
			return true
		}
	}
	return false
}
