package shellparse

import (
	"errors"
	"io"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Resolution of words with expansions ($x, ${x:-y}, "$@", $(echo x),
// $IFS) against what the walker knows (env.go). mvdan.cc/sh's expand does
// the expansion, with an environment that records every variable it is
// asked for and does not know: such a word is left dynamic, never taken
// with the variable empty. Brace expansion is left to word.go (a word
// with both is not resolved), and globbing is never done: a field with an
// unquoted pattern keeps it, marked Glob.

// maxValue bounds a variable's value: longer values are unknown.
const maxValue = 64 << 10

// errUnknown stops an expansion that needs something not known.
var errUnknown = errors.New("not known statically")

// resolvable checks, before expanding, that word only refers to what
// the walker may know, and estimates the bytes the expansion builds. It
// spends nothing.
func (w *walker) resolvable(parts []syntax.WordPart, size *int) bool {
	for _, p := range parts {
		switch x := p.(type) {
		case *syntax.Lit:
			*size += len(x.Value)
		case *syntax.SglQuoted:
			*size += len(x.Value)
		case *syntax.DblQuoted:
			if !w.resolvable(x.Parts, size) {
				return false
			}
		case *syntax.ParamExp:
			if !w.paramResolvable(x, size) {
				return false
			}
		case *syntax.CmdSubst:
			if w.substOutputShape(x.Stmts) == nil {
				return false
			}
		case *syntax.ArithmExp:
			*size += 24
		default:
			// Process substitution, extended globs, brace expressions.
			return false
		}
	}
	return true
}

// paramResolvable reports a parameter expansion of a kind the resolver
// covers, on a parameter that may be known: $x, ${x}, ${#x}, ${x:-w} and
// the other default/alternate forms, ${x#p} and the other removals, case
// changes, substrings, array elements, positional parameters and $IFS.
// Not covered: indirection, replacement (which can grow a value without
// bound), ${x:=w} (which assigns), ${x@...} and ${!prefix*}.
func (w *walker) paramResolvable(pe *syntax.ParamExp, size *int) bool {
	if pe.Param == nil || pe.Excl || pe.Width || pe.IsSet || pe.Repl != nil || pe.Names != 0 ||
		pe.NestedParam != nil || pe.Flags != nil || len(pe.Modifiers) > 0 {
		return false
	}
	name := pe.Param.Value
	var b binding
	switch {
	case name == "@" || name == "*" || name == "#" || name[0] >= '0' && name[0] <= '9':
		p, ok := w.env.vars[posName]
		if !ok || !p.known {
			return false
		}
		b = p
	default:
		v, ok := w.env.get(name)
		if !ok || len(v.values) > 0 {
			return false
		}
		b = v
	}
	home := strings.Contains(b.value, "~")
	*size += len(b.value)
	for _, v := range b.list {
		*size += len(v) + 1
		home = home || strings.Contains(v, "~")
	}
	// "~" stands for the home directory, whatever its path: what looks
	// at its characters (${HOME:0:1}, ${#d}, ${d#~/}) cannot be known.
	if home && (pe.Length || pe.Slice != nil || pe.Exp != nil && pe.Exp.Op >= syntax.RemSmallSuffix) {
		return false
	}
	if pe.Exp != nil {
		switch pe.Exp.Op {
		case syntax.AlternateUnset, syntax.AlternateUnsetOrNull, syntax.DefaultUnset, syntax.DefaultUnsetOrNull,
			syntax.ErrorUnset, syntax.ErrorUnsetOrNull, syntax.RemSmallSuffix, syntax.RemLargeSuffix, syntax.RemSmallPrefix, syntax.RemLargePrefix,
			syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
		default:
			return false
		}
		if pe.Exp.Word != nil && !w.resolvable(pe.Exp.Word.Parts, size) {
			return false
		}
	}
	return true
}

// expander returns a configuration that expands word against the
// walker's environment; env.missed is set when the expansion needed
// something not known. ok is false when word refers to what the walker
// cannot resolve, or when its size goes over the line's expansion budget
// (Limits.MaxExpandBytes).
func (w *walker) expander(word *syntax.Word) (cfg *expand.Config, ev *environ, ok bool) {
	size := 0
	if w.env == nil || !w.resolvable(word.Parts, &size) || !w.spendExpand(size+fieldCost) {
		return nil, nil, false
	}
	ev = &environ{e: w.env}
	cfg = &expand.Config{Env: ev}
	cfg.CmdSubst = func(out io.Writer, cs *syntax.CmdSubst) error {
		text, ok := w.substOutput(cs.Stmts)
		if !ok {
			return errUnknown
		}
		_, err := io.WriteString(out, text)
		return err
	}
	return cfg, ev, true
}

// untilde replaces the unquoted ~ that starts a word by a quoted one, so
// that the expansion keeps it as written ("~", as the parser writes
// tilde words everywhere) instead of asking for $HOME.
func untilde(word *syntax.Word) *syntax.Word {
	if len(word.Parts) == 0 {
		return word
	}
	lit, ok := word.Parts[0].(*syntax.Lit)
	if !ok || !strings.HasPrefix(lit.Value, "~") {
		return word
	}
	head, tail, slash := strings.Cut(lit.Value, "/")
	parts := make([]syntax.WordPart, 0, len(word.Parts)+1)
	parts = append(parts, &syntax.SglQuoted{Value: head})
	if slash {
		parts = append(parts, &syntax.Lit{Value: "/" + tail})
	}
	parts = append(parts, word.Parts[1:]...)
	return &syntax.Word{Parts: parts}
}

// resolveFields expands a word that holds expansions into the fields bash
// would make of it, when everything it refers to is known. Each field is
// marked Resolved, with the word's source as Raw.
func (w *walker) resolveFields(dst []Arg, word *syntax.Word, raw string) ([]Arg, bool) {
	cfg, ev, ok := w.expander(word)
	if !ok {
		return dst, false
	}
	fields, err := expand.Fields(cfg, untilde(word))
	if err != nil || ev.missed || ev.ifsNeeded && (unquotedExpansion(word.Parts) || starParam(word.Parts)) {
		return dst, false
	}
	glob := unquotedPart(word.Parts)
	for _, f := range fields {
		dst = append(dst, Arg{Value: f, Raw: raw, Resolved: true, Glob: glob && hasGlob(f)})
	}
	return dst, true
}

// resolveLiteral expands a word as an assignment value or a redirection
// target: one string, no field splitting, no globbing.
func (w *walker) resolveLiteral(word *syntax.Word) (string, bool) {
	cfg, ev, ok := w.expander(word)
	if !ok {
		return "", false
	}
	s, err := expand.Literal(cfg, untilde(word))
	if err != nil || ev.missed || ev.ifsNeeded && starParam(word.Parts) || len(s) > maxValue {
		return "", false
	}
	return s, true
}

// resolveDocument expands an unquoted heredoc body.
func (w *walker) resolveDocument(word *syntax.Word) (string, bool) {
	cfg, ev, ok := w.expander(word)
	if !ok {
		return "", false
	}
	s, err := expand.Document(cfg, word)
	if err != nil || ev.missed || ev.ifsNeeded && starParam(word.Parts) {
		return "", false
	}
	return s, true
}

// unquotedPart reports a part outside quotes (whose patterns glob).
func unquotedPart(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
		default:
			return true
		}
	}
	return false
}

// unquotedExpansion reports an expansion outside double quotes, whose
// result is split on IFS.
func unquotedExpansion(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp:
			return true
		}
	}
	return false
}

// starParam reports a $* or ${a[*]}, which joins with the first
// character of IFS.
func starParam(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch x := p.(type) {
		case *syntax.DblQuoted:
			if starParam(x.Parts) {
				return true
			}
		case *syntax.ParamExp:
			if x.Param != nil && x.Param.Value == "*" {
				return true
			}
			if w, ok := x.Index.(*syntax.Word); ok && w.Lit() == "*" {
				return true
			}
		}
	}
	return false
}

// substOutputShape returns the command of a substitution ($(...), `...`
// or <(...)) whose output the parser can know, or nil: a single simple
// command (no pipe, no list, no assignment), running echo, printf, which,
// command -v, type -P or cat (of a heredoc or here-string), with at most
// those redirections.
func (w *walker) substOutputShape(stmts []*syntax.Stmt) *syntax.CallExpr {
	if len(stmts) != 1 {
		return nil
	}
	st := stmts[0]
	if st == nil || st.Background || st.Coprocess || st.Disown || st.Negated {
		return nil
	}
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return nil
	}
	switch ce.Args[0].Lit() {
	case "echo", "printf", "which", "command", "type":
		if len(st.Redirs) > 0 {
			return nil
		}
	case "cat":
		for _, r := range st.Redirs {
			if r == nil || r.N != nil || r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc && r.Op != syntax.WordHdoc {
				return nil
			}
		}
	default:
		return nil
	}
	return ce
}

// substOutput returns what the statements of a command or process
// substitution print, when the parser can know it (see substOutputShape),
// and charges it to the line's budget.
func (w *walker) substOutput(stmts []*syntax.Stmt) (string, bool) {
	ce := w.substOutputShape(stmts)
	if ce == nil {
		return "", false
	}
	args := make([]Arg, 0, len(ce.Args))
	for _, word := range ce.Args {
		args = w.appendWord(args, word)
		if w.stopped {
			return "", false
		}
	}
	for _, a := range args {
		if a.Dynamic {
			return "", false
		}
	}
	if slices.Contains(w.res.Functions, args[0].Value) {
		return "", false // a function of the line, not the builtin
	}
	var out string
	ok := false
	switch args[0].Value {
	case "echo":
		out, _, ok = echoOutput(args)
	case "printf":
		out, ok = printfOutput(args)
	case "which":
		out, ok = lookupOutput(args[1:], "", w.res.Functions)
	case "command":
		if len(args) > 1 && args[1].Value == "-v" {
			out, ok = lookupOutput(args[2:], "-v", w.res.Functions)
		}
	case "type":
		if len(args) > 1 && (args[1].Value == "-P" || args[1].Value == "-p") {
			out, ok = lookupOutput(args[2:], args[1].Value, w.res.Functions)
		}
	case "cat":
		if len(args) != 1 {
			return "", false
		}
		in := w.redirInput(stmts[0].Redirs)
		if in == nil || !in.known {
			return "", false
		}
		out, ok = in.text, true
	}
	if !ok || !w.spendExpand(len(out)+fieldCost) {
		return "", false
	}
	return out, true
}

// lookupOutput returns what which, command -v (flag "-v") and type -P or
// -p print for names: the path of each program, as found in the standard
// program directories (/usr/bin/NAME: which directory does not matter to
// what runs), or the name itself for a builtin, keyword or function with
// command -v (type -p prints nothing for those). A name with a slash is
// printed as it is.
func lookupOutput(names []Arg, flag string, functions []string) (string, bool) {
	var b strings.Builder
	for _, n := range names {
		v := n.Value
		if v == "" || strings.HasPrefix(v, "-") {
			return "", false
		}
		builtin := isBuiltin(v) || syntax.IsKeyword(v)
		for _, f := range functions {
			builtin = builtin || f == v
		}
		switch {
		case strings.Contains(v, "/"):
			b.WriteString(v)
		case builtin && flag == "-v":
			b.WriteString(v)
		case builtin && flag == "-p":
			continue
		case builtin && flag == "":
			// which knows programs only: a builtin name is looked up
			// in PATH like any other.
			b.WriteString("/usr/bin/" + v)
		default:
			b.WriteString("/usr/bin/" + v)
		}
		b.WriteByte('\n')
	}
	return b.String(), true
}

// isBuiltin reports a bash builtin.
func isBuiltin(name string) bool {
	switch name {
	case ":", ".", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command", "compgen", "complete",
		"compopt", "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec", "exit", "export", "false",
		"fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let", "local", "logout", "mapfile", "popd",
		"printf", "pushd", "pwd", "read", "readarray", "readonly", "return", "set", "shift", "shopt", "source",
		"suspend", "test", "times", "trap", "true", "type", "typeset", "ulimit", "umask", "unalias", "unset", "wait":
		return true
	}
	return false
}
