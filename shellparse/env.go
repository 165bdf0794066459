package shellparse

import (
	"strconv"

	"mvdan.cc/sh/v3/expand"
)

// What bash resolves statically, the parser resolves too, within one
// line: variables assigned constants, loop variables over literal lists,
// positional parameters of bash -c, read from a known input, and the
// output of echo, printf, which and command -v in $(...). The variables
// are tracked here, as the walk goes through the line in the order bash
// runs it. A variable is known only while nothing could have changed it:
// whatever may assign it (read, printf -v, declare with a computed value,
// a function call, eval of unknown text, an assignment in a subshell, a
// loop body or one branch of a conditional) makes it unknown from there
// on, and an unknown variable is never resolved.

// binding is what the parser knows of one variable.
type binding struct {
	// known: the value below is the variable's value; otherwise it is
	// unknown.
	known bool
	// unset: known to be unset (unset x).
	unset bool
	// array: an indexed array of list.
	array bool
	value string
	list  []string
	// values, when several, are the values of a loop variable: each
	// command that uses it runs once with each (for d in a b; do ...).
	values   []string
	exported bool
	// readonly: assigning or unsetting it fails (bash keeps the value,
	// or a non-interactive bash stops); the parser makes it unknown.
	readonly bool
}

// undo is one entry of the environment's journal: the binding name had
// before a change (had reports that it had one).
type undo struct {
	name string
	prev binding
	had  bool
	// all: the change was a clobber (every variable made unknown);
	// prevAll is the flag before it.
	all, prevAll bool
}

// env is the variables of the shell being walked. The zero value is the
// environment a line starts in: every variable comes from outside
// (unknown) except IFS, which bash sets to space, tab and newline, and
// HOME, the home directory ("~").
type env struct {
	vars map[string]binding
	// journal records every change, so that a region (a subshell, a
	// branch) can be undone or its assignments found.
	journal []undo
	// clobbered: something may have assigned any variable; a variable
	// not bound since is unknown, IFS included.
	clobbered bool
}

// posName is the binding of the positional parameters: $0 is its value,
// $1, $2, ... its list. It is journaled like any variable (set -- in a
// subshell does not change the parent's).
const posName = "@"

// newEnv returns an empty environment.
func newEnv() *env { return &env{} }

// get returns the binding of name and whether it is known.
func (e *env) get(name string) (binding, bool) {
	if b, ok := e.vars[name]; ok {
		return b, b.known
	}
	if !e.clobbered {
		switch name {
		case "IFS":
			return binding{known: true, value: " \t\n"}, true
		case "HOME":
			// The home directory, written as the parser writes it
			// everywhere (a tilde word is "~"), whatever its path.
			return binding{known: true, value: "~", exported: true}, true
		}
	}
	return binding{}, false
}

// set binds name (journaled).
func (e *env) set(name string, b binding) {
	if e.vars == nil {
		e.vars = make(map[string]binding)
	}
	prev, had := e.vars[name]
	e.journal = append(e.journal, undo{name: name, prev: prev, had: had})
	if had && prev.exported {
		b.exported = true
	}
	if had && prev.readonly {
		// Assigning a readonly variable fails: whatever it holds is
		// not followed further.
		b = binding{exported: b.exported, readonly: true}
	}
	if shellVariable(name) {
		b = binding{exported: b.exported}
	}
	e.vars[name] = b
}

// shellVariable reports a variable bash sets itself, or that does not
// hold what is assigned to it (RANDOM, SECONDS, UID, ...): never known.
func shellVariable(name string) bool {
	switch name {
	case "RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID", "EPOCHSECONDS", "EPOCHREALTIME", "BASH_COMMAND",
		"FUNCNAME", "HISTCMD", "PIPESTATUS", "UID", "EUID", "PPID", "BASHOPTS", "SHELLOPTS", "BASH_VERSINFO",
		"BASH_ARGC", "BASH_ARGV", "BASH_LINENO", "BASH_SOURCE", "BASH_REMATCH", "GROUPS", "DIRSTACK", "PWD",
		"OLDPWD", "OPTIND", "OPTARG", "BASH_SUBSHELL", "SHLVL", "_":
		return true
	}
	return false
}

// forget makes name unknown.
func (e *env) forget(name string) {
	b, had := e.vars[name]
	switch {
	case had && !b.known:
		return
	case !had && (name != "IFS" && name != "HOME" || e.clobbered):
		return // never bound: unknown already
	}
	e.set(name, binding{exported: b.exported})
}

// clobber makes every variable unknown: something may have assigned any.
func (e *env) clobber() {
	e.journal = append(e.journal, undo{all: true, prevAll: e.clobbered})
	e.clobbered = true
	for name, b := range e.vars {
		if b.known {
			e.forget(name)
		}
	}
}

// markReadonly records that name is readonly from now on.
func (e *env) markReadonly(name string) {
	b := e.vars[name]
	if b.readonly {
		return
	}
	e.set(name, binding{})
	b.readonly = true
	e.vars[name] = b
}

// setPositional binds $0 and $1, $2, ...
func (e *env) setPositional(zero string, params []string) {
	e.set(posName, binding{known: true, value: zero, list: params})
}

// mark returns the journal position, for undoTo and assignedSince.
func (e *env) mark() int { return len(e.journal) }

// undoTo restores the environment as it was at mark m.
func (e *env) undoTo(m int) {
	for i := len(e.journal) - 1; i >= m; i-- {
		u := e.journal[i]
		switch {
		case u.all:
			e.clobbered = u.prevAll
		case u.had:
			e.vars[u.name] = u.prev
		default:
			delete(e.vars, u.name)
		}
	}
	e.journal = e.journal[:m]
}

// changedSince returns the names bound since mark m, and whether the
// environment was clobbered since.
func (e *env) changedSince(m int) (names []string, all bool) {
	for _, u := range e.journal[m:] {
		if u.all {
			all = true
		} else {
			names = append(names, u.name)
		}
	}
	return names, all
}

// forgetSince makes unknown every variable bound since mark m (the
// region since then may or may not have run, or ran in a subshell).
func (e *env) forgetSince(m int) {
	names, all := e.changedSince(m)
	if all {
		e.clobber()
		return
	}
	for _, n := range names {
		e.forget(n)
	}
}

// child returns the environment of a new shell process started from e:
// its exported known variables, with assigns added, and no positional
// parameters.
func (e *env) child() *env {
	c := newEnv()
	c.clobbered = e.clobbered
	for name, b := range e.vars {
		if b.exported && b.known && len(b.values) == 0 && name != posName {
			c.set(name, b)
		}
	}
	if _, ok := e.vars["IFS"]; ok {
		// IFS is not taken from the environment: a new bash sets it.
		delete(c.vars, "IFS")
	}
	c.journal = c.journal[:0]
	return c
}

// environ is the view of an env that mvdan.cc/sh's expand reads, for one
// expansion. Any variable it is asked for that is not known is recorded,
// so that the expansion is thrown away rather than taken with that
// variable empty.
type environ struct {
	e      *env
	missed bool
	// ifsNeeded: IFS was asked for while it is not known (the default was
	// given): a word whose result is split on IFS is then not resolved.
	ifsNeeded bool
}

func (v *environ) Get(name string) expand.Variable {
	pos := func() (binding, bool) {
		b, ok := v.e.vars[posName]
		if !ok || !b.known {
			v.missed = true
			return b, false
		}
		return b, true
	}
	switch name {
	case "@", "*", "#":
		p, ok := pos()
		switch {
		case !ok:
			return expand.Variable{}
		case name == "#":
			return expand.Variable{Set: true, Kind: expand.String, Str: strconv.Itoa(len(p.list))}
		}
		return expand.Variable{Set: true, Kind: expand.Indexed, List: p.list}
	}
	if name != "" && name[0] >= '0' && name[0] <= '9' {
		n, err := strconv.Atoi(name)
		p, ok := pos()
		switch {
		case err != nil || !ok:
			v.missed = true
			return expand.Variable{}
		case n == 0:
			return expand.Variable{Set: true, Kind: expand.String, Str: p.value}
		case n <= len(p.list):
			return expand.Variable{Set: true, Kind: expand.String, Str: p.list[n-1]}
		}
		return expand.Variable{}
	}
	b, ok := v.e.get(name)
	if name == "PWD" && !ok {
		// expand.Fields asks for it, for globbing, which is off; a word
		// that refers to $PWD was turned away before (resolvable).
		return expand.Variable{}
	}
	if name == "IFS" && !ok {
		v.ifsNeeded = true
		return expand.Variable{Set: true, Kind: expand.String, Str: " \t\n"}
	}
	if !ok || len(b.values) > 0 {
		v.missed = true
		return expand.Variable{}
	}
	switch {
	case b.unset:
		return expand.Variable{}
	case b.array:
		return expand.Variable{Set: true, Kind: expand.Indexed, List: b.list}
	}
	return expand.Variable{Set: true, Kind: expand.String, Str: b.value, Exported: b.exported}
}

// Each is only used by ${!prefix*} and the like, which would need every
// variable of the environment: not known.
func (v *environ) Each(func(string, expand.Variable) bool) { v.missed = true }
