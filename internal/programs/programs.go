package programs

import (
	"sort"
	"strings"
	"sync/atomic"
)

// built holds each program once it was built (see program).
var built [nPrograms]atomic.Pointer[Program]

// program returns the program of index i, building it the first time.
// A program's facts never change: the slot is a memo, written once with
// the value every later build would give (concurrent first builds race to
// store equal values; the first stored wins).
func program(i int) *Program {
	if p := built[i].Load(); p != nil {
		return p
	}
	built[i].CompareAndSwap(nil, build(i))
	return built[i].Load()
}

// Lookup returns what shellguard knows about the program called name (a
// basename; upper case is folded), or nil. A name matches a prefix entry
// ("python*") when the rest is a version: digits and dots (python3.12,
// perl5.36).
func Lookup(name string) *Program {
	if p := lookup(name); p != nil {
		return p
	}
	if name == "" {
		return nil
	}
	if l := lower(name); l != name {
		if p := lookup(l); p != nil {
			return p
		}
		name = l
	}
	for _, k := range globs {
		p := program(k)
		prefix := p.Name[:len(p.Name)-1]
		if strings.HasPrefix(name, prefix) && version(name[len(prefix):]) {
			return p
		}
	}
	return nil
}

// Fold returns name in lower case when that is a program shellguard
// knows and name, as written, is not: on a case-insensitive file system
// (macOS) SSH and Git run ssh and git. Any other name is returned as is.
func Fold(name string) string {
	if l := lower(name); l != name && lookup(name) == nil && Lookup(l) != nil {
		return l
	}
	return name
}

func version(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c == '.') {
			return false
		}
	}
	return true
}

// Node returns the facts of the subcommand at path ("" for the program
// itself), or nil when the data declares none.
func (p *Program) Node(path string) *Node {
	if p == nil {
		return nil
	}
	if path == "" {
		return &p.Root
	}
	return p.sub(path)
}

// sub returns the declared node of path, or nil. Subs are sorted by Path
// (the generator writes them so; TestSubsSorted).
func (p *Program) sub(path string) *Node {
	if i := p.seek(path); i < len(p.Subs) && p.Subs[i].Path == path {
		return &p.Subs[i]
	}
	return nil
}

// seek returns the index of the first of Subs whose Path is not less than
// path (len(Subs) when none).
func (p *Program) seek(path string) int {
	subs := p.Subs
	i, j := 0, len(subs)
	for i < j {
		h := int(uint(i+j) >> 1)
		if subs[h].Path < path {
			i = h + 1
		} else {
			j = h
		}
	}
	return i
}

// along calls f with the root and each declared node whose path is a
// prefix of path (by words), shallowest first.
func (p *Program) along(path string, f func(*Node) bool) bool {
	if f(&p.Root) {
		return true
	}
	for n, end := p.nextAlong(path, 0); n != nil; n, end = p.nextAlong(path, end) {
		if f(n) {
			return true
		}
	}
	return false
}

// nextAlong returns the next declared node (after the root) whose path is
// a prefix of path ending at a word boundary after byte from, shortest
// first (as Subs sorts them), and where the search goes on; nil at the
// end. It serves along and the scanner, which cannot pass along a closure
// without its words escaping to the heap.
func (p *Program) nextAlong(path string, from int) (*Node, int) {
	if len(p.Subs) == 0 {
		return nil, len(path)
	}
	for end := from + 1; end <= len(path); end++ {
		if end < len(path) && path[end] != ' ' {
			continue
		}
		if n := p.sub(path[:end]); n != nil {
			return n, end
		}
	}
	return nil, len(path)
}

// Arity returns the approval arity of key, a program name followed by
// subcommand words as written ("docker compose"), or 0 when the data
// gives none.
func Arity(key string) int {
	name, path, _ := strings.Cut(key, " ")
	return Lookup(name).ArityAt(path)
}

// ArityAt returns the approval arity of the program's subcommand path
// ("" for the program itself), or 0 when the data gives none.
func (p *Program) ArityAt(path string) int {
	if n := p.Node(path); n != nil {
		return n.Arity
	}
	return 0
}

// TakesValue reports whether, in a command whose program and subcommand
// words so far are key ("kubectl", "docker compose"), the option opt
// (written without "=value") takes the next word as its value. An option
// the data does not know takes none.
func TakesValue(key, opt string) bool {
	name, path, _ := strings.Cut(key, " ")
	return Lookup(name).TakesValueAt(path, opt)
}

// TakesValueAt is TakesValue for the program's subcommand path.
func (p *Program) TakesValueAt(path, opt string) bool {
	if p == nil {
		return false
	}
	if path == "" && p.hasOpt(p.Globals, opt) {
		return true
	}
	return p.along(path, func(n *Node) bool { return p.hasOpt(n.Values, opt) })
}

// IsScript reports whether opt names the program an interpreter runs
// instead of a script (python -m MODULE): its value is what runs.
func (p *Program) IsScript(opt string) bool { return p != nil && p.Script.Has(opt) }

// IsShell reports whether name is a shell that runs its -c string or its
// standard input as commands.
func IsShell(name string) bool { return Lookup(name).Has(Shell) }

// StartsShell reports whether name is a shell or a command interpreter
// (cmd, powershell, busybox): what code that starts it starts is a shell
// session or a command line.
func StartsShell(name string) bool {
	p := Lookup(name)
	return p.Has(Shell) || p.Has(CommandShell)
}

// Shells returns the sorted names of the shells.
func Shells() []string { return namesWith(func(p *Program) bool { return p.Has(Shell) }) }

func namesWith(f func(*Program) bool) []string {
	var out []string
	for i := range nPrograms {
		if p := program(i); !strings.HasSuffix(p.Name, "*") && f(p) {
			out = append(out, p.Name)
		}
	}
	sort.Strings(out)
	return out
}

// DryRun reports whether flag (canonical, with its value when hasValue)
// makes the command at path a dry run.
func (p *Program) DryRun(path, flag, value string, hasValue bool) bool {
	if p == nil {
		return false
	}
	return p.along(path, func(n *Node) bool {
		return n.DryRun.Each(func(d string) bool {
			name, want, eq := strings.Cut(d, "=")
			if name != flag {
				return false
			}
			return !eq && !hasValue || eq && want == "*" && hasValue || eq && hasValue && want == value
		})
	})
}

// HasDryRun reports whether the data gives the program any dry-run flag.
func (p *Program) HasDryRun() bool { return p.Has(DryRuns) }

// Decodes reports whether the program decodes hidden text given its
// canonical flags (has reports one).
func (p *Program) DecodesWith(has func(string) bool) bool {
	if p == nil {
		return false
	}
	return p.Decodes.Each(func(f string) bool { return f == "*" || has(f) })
}

// Environment lists the environment variables that change which programs
// run, what they load, or where their data goes.
type Environment struct {
	Widen, Prefixes, Suffixes, Except, ExceptPrefix List
}

// EnvWidens reports an environment variable (VAR=x before a command, or
// given to env) that changes which programs run, what they load, or
// where their data goes.
func EnvWidens(name string) bool {
	n := strings.ToUpper(strings.TrimSuffix(name, "+"))
	e := &environment
	if e.Except.Has(n) || e.ExceptPrefix.Each(func(p string) bool { return strings.HasPrefix(n, p) }) {
		return false
	}
	return e.Widen.Has(n) || e.Prefixes.Each(func(p string) bool { return strings.HasPrefix(n, p) }) ||
		e.Suffixes.Each(func(s string) bool { return strings.HasSuffix(n, s) })
}
