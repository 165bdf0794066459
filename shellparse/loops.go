package shellparse

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// regions collects the variables assigned by alternatives that do not all
// run, or do not run in this shell: the branches of if and case (each
// walked from the same variables), the stages of a pipeline (each a
// subshell). After the last, every variable any of them assigned is
// unknown.
type regions struct {
	names []string
	all   bool
}

// done ends one alternative begun at mark m: it records what it assigned
// and restores the variables as they were at m.
func (r *regions) done(e *env, m int) {
	names, all := e.changedSince(m)
	r.names = append(r.names, names...)
	r.all = r.all || all
	e.undoTo(m)
}

// forget makes unknown what the alternatives assigned.
func (r *regions) forget(e *env) {
	if r.all {
		e.clobber()
		return
	}
	for _, n := range r.names {
		e.forget(n)
	}
}

type (
	branches = regions
	stageEnv = regions
)

// maxForks bounds the invocations one line may get from the values of
// loop variables, the candidates of glob programs and the words xargs
// reads: past it, such words stay dynamic (no limit is reached: this is
// best effort on top of the parse).
const maxForks = 256

// maxForksPerCall bounds the copies of one command.
const maxForksPerCall = 64

// enterLoop starts a loop: every variable its condition or body may
// assign is unknown from the first iteration on (the second sees what the
// first assigned). loopVar and values are a for loop's variable and its
// values, if known. It returns the mark for leaveLoop.
func (w *walker) enterLoop(n syntax.Node, loopVar string, values []string) int {
	m := w.env.mark()
	names, all := w.loopAssigns(loopVar, values, n)
	if all {
		w.env.clobber()
	} else {
		for _, name := range names {
			w.env.forget(name)
		}
	}
	w.loops++
	return m
}

// leaveLoop ends a loop: what it assigned, and its variable, are unknown
// after it (it may have run no time, or several).
func (w *walker) leaveLoop(m int, name string) {
	w.loops--
	w.env.forgetSince(m)
	if name != "" {
		w.env.forget(name)
	}
}

// loopValues returns the values of for NAME in WORDS when every one is
// known (nothing dynamic; a pattern is its own text), and at most
// maxForksPerCall; for
// NAME without in iterates over the positional parameters. ok is false
// otherwise.
func (w *walker) loopValues(it *syntax.WordIter) (values []string, ok bool) {
	if !it.InPos.IsValid() {
		b, ok := w.env.vars[posName]
		if !ok || !b.known || len(b.list) > maxForksPerCall {
			return nil, false
		}
		return b.list, true
	}
	var args []Arg
	for _, word := range it.Items {
		if word == nil {
			continue
		}
		args = w.appendWord(args, word)
		if len(args) > maxForksPerCall || w.stopped {
			return nil, false
		}
	}
	for _, a := range args {
		if a.Dynamic {
			return nil, false
		}
		// A pattern (for f in /var/log/*.log) stands for the files it
		// matches: the variable takes the pattern as written, as danger
		// reads truncate -s 0 /var/log/*.log, and stays a resolved word
		// (approvals never take it for a literal).
		values = append(values, a.Value)
	}
	return values, true
}

// bindLoop binds a for loop's variable to its values (see loopValues):
// each command of the body that uses it then runs once per value (see
// forkLoop).
func (w *walker) bindLoop(name string, values []string, ok bool) {
	switch {
	case !ok || len(values) == 0:
		w.env.forget(name) // with no value the body does not run
	case len(values) == 1:
		w.env.set(name, binding{known: true, value: values[0]})
	default:
		w.env.set(name, binding{known: true, values: values})
	}
}

// whileRead walks while read NAME...; do BODY; done fed a known input
// (a heredoc, a here-string, echo or printf piped into it): NAME takes
// the value of each line in turn, as a loop variable does. It reports
// false, having walked nothing, for any other loop.
func (w *walker) whileRead(x *syntax.WhileClause, c ctx) bool {
	if x.Until || len(x.Cond) != 1 || x.Cond[0] == nil || len(x.Cond[0].Redirs) > 0 {
		return false
	}
	ce, ok := x.Cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) < 2 || ce.Args[0].Lit() != "read" {
		return false
	}
	// The input must be made just outside this loop (w.loops counts it
	// already): from further out, what is left of it depends on the
	// iterations of the loops around.
	in := c.in
	if in == nil || !in.known || in.used || in.loop != w.loops-1 {
		return false
	}
	raw := false
	var names []string
	for _, word := range ce.Args[1:] {
		v := word.Lit()
		switch {
		case v == "-r":
			raw = true
		case isName(v):
			names = append(names, v)
		default:
			return false
		}
	}
	ifs := " \t\n"
	for _, a := range ce.Assigns {
		if a == nil || a.Name == nil || a.Name.Value != "IFS" || a.Value != nil && a.Value.Lit() != "" || a.Array != nil || a.Index != nil {
			return false
		}
		ifs = ""
	}
	if len(ce.Assigns) == 0 {
		b, ok := w.env.get("IFS")
		if !ok || strings.Trim(b.value, " \t\n") != "" {
			return false
		}
		ifs = b.value
	}
	if len(names) == 0 {
		names = []string{"REPLY"}
	}
	perName := make([][]string, len(names))
	text := in.text
	for text != "" {
		var line string
		line, text = readLine(text, raw)
		vals := readFields(line, ifs, len(names), false)
		for i := range names {
			v := ""
			if i < len(vals) {
				v = vals[i]
			}
			perName[i] = append(perName[i], v)
		}
		if len(perName[0]) > maxForksPerCall {
			return false
		}
	}
	in.consumed()
	w.stmts(x.Cond, c) // read itself, with its input consumed
	for i, n := range names {
		switch len(perName[i]) {
		case 0:
			w.env.forget(n)
		case 1:
			w.env.set(n, binding{known: true, value: perName[i][0]})
		default:
			w.env.set(n, binding{known: true, values: perName[i]})
		}
	}
	w.stmts(x.Do, c)
	return true
}

// loopVars returns the loop variables (several values) that the words of
// a command or its redirections use, in order.
func (w *walker) loopVars(ce *syntax.CallExpr, rs []*syntax.Redirect) []string {
	multi := false
	for _, b := range w.env.vars {
		if len(b.values) > 0 {
			multi = true
			break
		}
	}
	if !multi {
		return nil
	}
	var names []string
	add := func(n string) {
		if b, ok := w.env.vars[n]; ok && len(b.values) > 0 {
			for _, x := range names {
				if x == n {
					return
				}
			}
			names = append(names, n)
		}
	}
	visit := func(n syntax.Node) bool {
		if pe, ok := n.(*syntax.ParamExp); ok && pe.Param != nil {
			add(pe.Param.Value)
		}
		return true
	}
	if ce != nil {
		for _, word := range ce.Args {
			if word != nil && !plainWord(word) {
				syntax.Walk(word, visit)
			}
		}
		for _, a := range ce.Assigns {
			if a != nil && a.Value != nil && !plainWord(a.Value) {
				syntax.Walk(a.Value, visit)
			}
		}
	}
	for _, r := range rs {
		if r == nil {
			continue
		}
		if r.Word != nil && !plainWord(r.Word) {
			syntax.Walk(r.Word, visit)
		}
		if r.Hdoc != nil && !plainWord(r.Hdoc) {
			syntax.Walk(r.Hdoc, visit)
		}
	}
	return names
}

// forkLoop runs walk once for each combination of the values of the loop
// variables names, each bound to one value, when they are few enough
// (maxForksPerCall, and maxForks for the line); it reports false, having
// run nothing, otherwise (the variables then stay unknown to the
// command). What a copy assigns is undone after it: the loop made it
// unknown already.
func (w *walker) forkLoop(names []string, walk func()) bool {
	combos := 1
	for _, n := range names {
		combos *= len(w.env.vars[n].values)
		if combos > maxForksPerCall || w.forks+combos > maxForks {
			return false
		}
	}
	w.forks += combos
	bound := make([]binding, len(names))
	for i, n := range names {
		bound[i] = w.env.vars[n]
	}
	idx := make([]int, len(names))
	for range combos {
		m := w.env.mark()
		for i, n := range names {
			w.env.set(n, binding{known: true, value: bound[i].values[idx[i]]})
		}
		walk()
		w.env.undoTo(m)
		for i := len(idx) - 1; i >= 0; i-- {
			idx[i]++
			if idx[i] < len(bound[i].values) {
				break
			}
			idx[i] = 0
		}
	}
	return true
}
