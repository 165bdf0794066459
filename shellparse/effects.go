package shellparse

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// What commands do to the shell's variables (see env.go): assignments,
// declare and export, read and mapfile from a known input, printf -v,
// unset, set and shift; and everything that may assign variables the
// parser cannot follow, which makes them unknown.

// assignValue resolves an assignment's value (no brace expansion, no
// splitting, no globbing): static, resolved, or dynamic (value as
// written).
func (w *walker) assignValue(word *syntax.Word) (value string, dynamic, resolved bool) {
	if plainWord(word) {
		return w.parts(word.Parts).Value, false, false
	}
	w.forgetAssigned(word.Parts)
	if v, ok := w.resolveLiteral(word); ok {
		return v, false, true
	}
	return w.raw(word), true, false
}

// bindAssign records an assignment statement (x=1, a=(1 2), x+=y) in the
// environment.
func (w *walker) bindAssign(a *syntax.Assign, value string, known bool) {
	if a.Name == nil {
		return
	}
	name := a.Name.Value
	switch {
	case a.Index != nil:
		w.env.forget(name)
	case a.Array != nil:
		if a.Append {
			w.env.forget(name)
			return
		}
		list, ok := w.arrayValues(a.Array)
		if !ok {
			w.env.forget(name)
			return
		}
		w.env.set(name, binding{known: true, array: true, list: list})
	case a.Append:
		if b, ok := w.env.get(name); ok && known && !b.array && !b.unset && len(b.value)+len(value) <= maxValue {
			w.env.set(name, binding{known: true, value: b.value + value})
		} else {
			w.env.forget(name)
		}
	case known && len(value) <= maxValue:
		w.env.set(name, binding{known: true, value: value})
	default:
		w.env.forget(name)
	}
}

// arrayValues resolves the elements of a=(...): every element static or
// resolved, no [i]= index.
func (w *walker) arrayValues(arr *syntax.ArrayExpr) ([]string, bool) {
	var list []string
	for _, e := range arr.Elems {
		if e == nil || e.Index != nil || e.Value == nil {
			return nil, false
		}
		var one [1]Arg
		vals := w.appendWord(one[:0], e.Value)
		for _, v := range vals {
			if v.Dynamic || v.Glob {
				return nil, false
			}
			list = append(list, v.Value)
		}
	}
	return list, true
}

// forgetAssigned makes unknown the variables a word's own expansions
// assign (${x:=y}, ${x=y}, $((x=1)), $((x++))), before the word is
// resolved: they assign whatever the parser makes of the word.
func (w *walker) forgetAssigned(parts []syntax.WordPart) {
	for _, p := range parts {
		switch x := p.(type) {
		case *syntax.DblQuoted:
			w.forgetAssigned(x.Parts)
		case *syntax.ParamExp:
			if x.Exp != nil {
				if x.Param != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) {
					w.env.forget(x.Param.Value)
				}
				if x.Exp.Word != nil {
					w.forgetAssigned(x.Exp.Word.Parts)
				}
			}
			if x.Index != nil {
				w.forgetArithm(x.Index)
			}
			if x.Slice != nil {
				w.forgetArithm(x.Slice.Offset)
				w.forgetArithm(x.Slice.Length)
			}
		case *syntax.ArithmExp:
			w.forgetArithm(x.X)
		}
	}
}

// forgetArithm makes unknown the variables an arithmetic expression
// assigns (=, +=, ..., ++, --), walked without recursion per operator.
func (w *walker) forgetArithm(root syntax.ArithmExpr) {
	if root == nil {
		return
	}
	stack := []syntax.ArithmExpr{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := n.(type) {
		case *syntax.BinaryArithm:
			if arithAssign(x.Op) {
				w.forgetArithmTarget(x.X)
			}
			if x.X != nil {
				stack = append(stack, x.X)
			}
			if x.Y != nil {
				stack = append(stack, x.Y)
			}
		case *syntax.UnaryArithm:
			if x.Op == syntax.Inc || x.Op == syntax.Dec {
				w.forgetArithmTarget(x.X)
			}
			if x.X != nil {
				stack = append(stack, x.X)
			}
		case *syntax.ParenArithm:
			if x.X != nil {
				stack = append(stack, x.X)
			}
		case *syntax.Word:
			if x != nil {
				w.forgetAssigned(x.Parts)
			}
		}
	}
}

// forgetArithmTarget makes the variable an arithmetic assignment writes
// unknown; a target the parser cannot name makes every variable unknown.
func (w *walker) forgetArithmTarget(x syntax.ArithmExpr) {
	if word, ok := x.(*syntax.Word); ok && word != nil {
		if len(word.Parts) == 1 {
			switch p := word.Parts[0].(type) {
			case *syntax.Lit:
				w.env.forget(p.Value)
				return
			case *syntax.ParamExp:
				if p.Param != nil {
					w.env.forget(p.Param.Value)
					return
				}
			}
		}
	}
	w.env.clobber()
}

// specialBuiltin reports a POSIX special builtin: in sh (bash in POSIX
// mode, dash), assignments written before it stay after it.
func specialBuiltin(name string) bool {
	switch name {
	case ":", ".", "source", "eval", "exec", "export", "readonly", "return", "set", "shift", "times", "trap", "unset",
		"break", "continue", "exit":
		return true
	}
	return false
}

// effects records what an invocation the shell runs itself does to its
// variables. in is its standard input as the invocation reads it.
func (w *walker) effects(inv *Invocation, in *input) {
	if len(inv.Args) == 0 {
		return
	}
	if inv.NameDynamic() {
		if a := inv.Args[0]; !a.Dynamic && strings.Contains(a.Value, "/") {
			return // a path: a program, not the shell's builtin or function
		}
		// Whatever it is: it may be read, eval, a function.
		w.env.clobber()
		return
	}
	for _, wr := range inv.Wrappers {
		if wr.Name != "command" && wr.Name != "builtin" {
			// sudo read x, env read x: run as a program, not by the
			// shell.
			return
		}
	}
	name := inv.Name
	for _, f := range w.res.Functions {
		if f == name {
			w.env.clobber()
			return
		}
	}
	if specialBuiltin(name) {
		for _, a := range inv.Assigns {
			if a.Via == "" {
				w.env.forget(a.Name)
			}
		}
	}
	args := inv.Args[1:]
	for _, a := range args {
		if a.Dynamic {
			// An option or a name that cannot be read: any variable.
			switch name {
			case "read", "mapfile", "readarray", "printf", "getopts", "let", "unset", "export", "declare", "typeset",
				"local", "readonly", "wait", "set", "shift":
				w.env.clobber()
				return
			}
		}
	}
	switch name {
	case "read":
		w.read(args, inv, in)
	case "mapfile", "readarray":
		w.mapfile(args, in)
	case "printf":
		if len(args) > 0 && strings.HasPrefix(args[0].Value, "-v") {
			target, rest := args[0].Value[2:], args[1:]
			if target == "" && len(rest) > 0 {
				target, rest = rest[0].Value, rest[1:]
			}
			out, ok := printfOutput(append([]Arg{{Value: "printf"}}, rest...))
			if i := strings.IndexByte(target, '['); i >= 0 {
				target, ok = target[:i], false
			}
			if ok && len(out) <= maxValue {
				w.env.set(target, binding{known: true, value: out})
			} else {
				w.env.forget(target)
			}
		}
	case "getopts":
		for _, a := range args {
			w.env.forget(a.Value)
		}
		w.env.forget("OPTARG")
		w.env.forget("OPTIND")
	case "let":
		// let x=1 y++: every name in the expressions.
		for _, a := range args {
			forgetNames(w.env, a.Value)
		}
	case "unset":
		fn := false
		for _, a := range args {
			switch a.Value {
			case "-f":
				fn = true
			case "-v":
			case "-n":
				w.env.clobber() // unsets what a nameref names
				return
			default:
				if !fn {
					w.env.set(a.Value, binding{known: true, unset: true})
				}
			}
		}
	case "export", "declare", "typeset", "local", "readonly":
		// As a command (command export X=1); the keyword forms are
		// DeclClause (decl).
		readonly := name == "readonly"
		for _, a := range args {
			v := a.Value
			if strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+") {
				if strings.ContainsAny(v[1:], "ilucnA") {
					w.env.clobber()
					return
				}
				readonly = readonly || v[0] == '-' && strings.Contains(v, "r")
				continue
			}
			n, val, hasVal := strings.Cut(v, "=")
			switch {
			case name == "local" && len(w.calling) == 0:
				// local outside a function fails.
				w.env.forget(n)
			case !hasVal:
				if b, ok := w.env.vars[n]; ok {
					b.exported = b.exported || name == "export"
					w.env.set(n, b)
				}
			default:
				w.env.set(n, binding{known: !a.Dynamic, value: val, exported: name == "export"})
			}
			if readonly {
				w.env.markReadonly(n)
			}
		}
	case "cd", "pushd", "popd":
		w.env.forget("PWD")
		w.env.forget("OLDPWD")
		w.env.forget("DIRSTACK")
	case "wait":
		for i, a := range args {
			if a.Value == "-p" && i+1 < len(args) {
				w.env.forget(args[i+1].Value)
			}
		}
	case "set":
		w.setPositional(args)
	case "shift":
		n := 1
		if len(args) > 0 {
			n = 0
			for _, c := range args[0].Value {
				if c < '0' || c > '9' || n > 1<<20 {
					w.env.forget(posName)
					return
				}
				n = n*10 + int(c-'0')
			}
		}
		if b, ok := w.env.vars[posName]; ok && b.known && n <= len(b.list) {
			w.env.setPositional(b.value, b.list[n:])
		} else {
			w.env.forget(posName)
		}
	case "source", ".", "trap", "fc", "enable", "alias":
		if name == "trap" && len(args) > 0 && (args[0].Value == "-" || args[0].Value == "" || args[0].Value == "-l" || args[0].Value == "-p") {
			return
		}
		w.env.clobber()
	}
}

// setPositional records set -- a b (and set a b): new positional
// parameters; options alone leave them.
func (w *walker) setPositional(args []Arg) {
	optName := false
	for i, a := range args {
		v := a.Value
		switch {
		case optName:
			optName = false // the option's name (set -o history) is not an operand
		case v == "--":
			w.env.setPositional(w.zero(), argValues(args[i+1:]))
			return
		case v == "-o" || v == "+o":
			optName = true
		case strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+"):
		default:
			w.env.setPositional(w.zero(), argValues(args[i:]))
			return
		}
	}
}

// zero returns $0 when known, "" otherwise (it is then unknown anyway,
// and the binding keeps the parameters' list only).
func (w *walker) zero() string {
	if b, ok := w.env.vars[posName]; ok && b.known {
		return b.value
	}
	return ""
}

func argValues(args []Arg) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a.Value
	}
	return out
}

// forgetNames makes unknown every name-like token of s (let's
// expressions).
func forgetNames(e *env, s string) {
	nameTokens(s, e.forget)
}

// nameTokens calls f with every name-like token of s.
func nameTokens(s string, f func(string)) {
	start := -1
	for i := 0; i <= len(s); i++ {
		word := i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || start >= 0 && s[i] >= '0' && s[i] <= '9')
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			f(s[start:i])
			start = -1
		}
	}
}

// read records read NAME... from a known input: the first line, split on
// IFS, the last name taking the rest; the input keeps what follows.
// Anything it does not cover (-a, -d, -n, -u, a custom IFS with other
// characters than blanks) makes the names unknown.
func (w *walker) read(args []Arg, inv *Invocation, in *input) {
	raw := false
	var names []string
	array := ""
	known := in != nil && in.known
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if len(v) > 1 && v[0] == '-' && len(names) == 0 {
			for j := 1; j < len(v); j++ {
				switch v[j] {
				case 'r':
					raw = true
				case 's', 'e':
				case 'p', 't':
					if j == len(v)-1 {
						i++ // the prompt or time-out
					}
					j = len(v)
				case 'a':
					// read -a ARR: an array of the fields.
					if j == len(v)-1 && i+1 < len(args) {
						i++
						array = args[i].Value
					} else {
						known = false
					}
					j = len(v)
				default: // -d, -n, -N, -u, -i
					known = false
					if j == len(v)-1 {
						i++
					}
					j = len(v)
				}
			}
			continue
		}
		names = append(names, v)
	}
	if array != "" {
		names = append(names, array)
	}
	if len(names) == 0 {
		names = []string{"REPLY"}
	}
	ifs := " \t\n"
	ifsKnown := true
	for _, a := range inv.Assigns {
		if a.Name == "IFS" && a.Via == "" {
			ifs, ifsKnown = a.Value, !a.Dynamic
		}
	}
	if ifsKnown && !hasAssign(inv.Assigns, "IFS") {
		b, ok := w.env.get("IFS")
		ifs, ifsKnown = b.value, ok
	}
	if !known || !ifsKnown || strings.Trim(ifs, " \t\n") != "" {
		for _, n := range names {
			w.env.forget(n)
		}
		if in != nil {
			in.consumed()
		}
		return
	}
	line, rest := readLine(in.text, raw)
	in.text = rest
	if array != "" {
		w.env.set(array, binding{known: true, array: true, list: strings.FieldsFunc(line, func(r rune) bool {
			return r < 0x80 && strings.IndexByte(ifs, byte(r)) >= 0
		})})
		return
	}
	vals := readFields(line, ifs, len(names), names[0] == "REPLY" && len(args) == 0)
	for i, n := range names {
		v := ""
		if i < len(vals) {
			v = vals[i]
		}
		w.env.set(n, binding{known: true, value: v})
	}
}

func hasAssign(as []Assign, name string) bool {
	for _, a := range as {
		if a.Name == name && a.Via == "" {
			return true
		}
	}
	return false
}

// readLine returns the first line of text as read takes it (without -r a
// backslash escapes the next character and a backslash-newline joins the
// next line), and what follows it.
func readLine(text string, raw bool) (line, rest string) {
	if raw {
		line, rest, _ = strings.Cut(text, "\n")
		return line, rest
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\\' && i+1 < len(text):
			i++
			if text[i] != '\n' {
				b.WriteByte(text[i])
			}
		case c == '\\':
		case c == '\n':
			return b.String(), text[i+1:]
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

// readFields splits line into n values as read does with an IFS of
// blanks: leading and trailing blanks dropped, the last value keeping
// the rest of the line. REPLY alone keeps the line as it is.
func readFields(line, ifs string, n int, reply bool) []string {
	if reply {
		return []string{line}
	}
	isIFS := func(c byte) bool { return strings.IndexByte(ifs, c) >= 0 }
	var out []string
	i := 0
	for len(out) < n-1 {
		for i < len(line) && isIFS(line[i]) {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		for j < len(line) && !isIFS(line[j]) {
			j++
		}
		out = append(out, line[i:j])
		i = j
	}
	for i < len(line) && isIFS(line[i]) {
		i++
	}
	last := strings.TrimRight(line[i:], ifs)
	if ifs == "" {
		last = line[i:]
	}
	if last != "" || len(out) < n {
		out = append(out, last)
	}
	return out
}

// mapfile records mapfile [-t] ARRAY from a known input: its lines.
func (w *walker) mapfile(args []Arg, in *input) {
	trim := false
	name := "MAPFILE"
	known := in != nil && in.known
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-t":
			trim = true
		case strings.HasPrefix(v, "-"):
			if strings.Contains(v, "C") {
				w.env.clobber() // runs a callback
				return
			}
			known = false
			if len(v) == 2 {
				i++
			}
		default:
			name = v
		}
	}
	if !known {
		w.env.forget(name)
		if in != nil {
			in.consumed()
		}
		return
	}
	var list []string
	for line := range strings.SplitAfterSeq(in.text, "\n") {
		if line == "" {
			continue
		}
		if trim {
			line = strings.TrimSuffix(line, "\n")
		}
		list = append(list, line)
	}
	w.env.set(name, binding{known: true, array: true, list: list})
	in.text = ""
}

// decl records declare, export, local, readonly and typeset.
func (w *walker) declEffects(x *syntax.DeclClause, values []declValue) {
	variant := "declare"
	if x.Variant != nil {
		variant = x.Variant.Value
	}
	exported := variant == "export"
	readonly := variant == "readonly"
	for _, a := range x.Args {
		if a == nil || a.Name != nil || a.Value == nil {
			continue
		}
		flag := a.Value.Lit()
		switch {
		case flag == "":
			w.env.clobber() // a dynamic option or name
			return
		case strings.HasPrefix(flag, "-") && strings.ContainsAny(flag[1:], "ilucnA"),
			strings.HasPrefix(flag, "+") && strings.ContainsAny(flag[1:], "ilucnA"),
			variant == "nameref":
			// Attributes that change what assigning means.
			w.env.clobber()
			return
		case strings.HasPrefix(flag, "-") && strings.ContainsAny(flag, "fF"):
			return // functions, not variables
		}
		exported = exported || strings.HasPrefix(flag, "-") && strings.Contains(flag, "x")
		readonly = readonly || strings.HasPrefix(flag, "-") && strings.Contains(flag, "r")
	}
	for _, v := range values {
		if variant == "local" && len(w.calling) == 0 {
			w.env.forget(v.name) // local outside a function fails
			continue
		}
		if readonly {
			defer w.env.markReadonly(v.name)
		}
		switch {
		case v.a.Naked:
			if b, ok := w.env.vars[v.name]; ok && exported {
				b.exported = true
				w.env.set(v.name, b)
			}
		case v.a.Array != nil || v.a.Index != nil || v.a.Append:
			w.bindAssign(v.a, v.value, v.known)
		default:
			w.env.set(v.name, binding{known: v.known && len(v.value) <= maxValue, value: v.value, exported: exported})
		}
	}
}

// declValue is one NAME=VALUE of a declaration, resolved.
type declValue struct {
	a     *syntax.Assign
	name  string
	value string
	known bool
}

// loopAssigns returns the variables a loop's condition and body may
// assign (a syntactic scan, so that they are unknown from the first
// iteration on), or all when it cannot tell. The scan is charged to the
// line's expansion budget.
func (w *walker) loopAssigns(loopVar string, values []string, nodes ...syntax.Node) (names []string, all bool) {
	visited := 0
	for _, n := range nodes {
		if n == nil || isNilNode(n) {
			continue
		}
		syntax.Walk(n, func(n syntax.Node) bool {
			if all {
				return false
			}
			visited++
			switch x := n.(type) {
			case *syntax.CallExpr:
				if len(x.Args) == 0 {
					for _, a := range x.Assigns {
						if a != nil && a.Name != nil {
							names = append(names, a.Name.Value)
						}
					}
					return true
				}
				prog := x.Args[0].Lit()
				switch prog {
				case "":
					// $c: what it may name (the loop's values, a known
					// variable) must not be a builtin or function
					// that assigns.
					for _, v := range w.programValues(x.Args[0], loopVar, values) {
						if v == "" || assigningCommand(v, w.res.Functions) {
							all = true
						}
					}
				case "read", "mapfile", "readarray", "printf", "getopts", "let", "unset", "export", "declare",
					"typeset", "local", "readonly", "wait":
					for _, a := range x.Args[1:] {
						v := a.Lit()
						if v == "" {
							all = true
						}
						n, _, _ := strings.Cut(strings.TrimPrefix(v, "-v"), "=")
						if isName(n) {
							names = append(names, n)
						}
						forgetNamesInto(&names, v)
					}
					names = append(names, "REPLY", "MAPFILE", "OPTARG", "OPTIND")
				case "cd", "pushd", "popd":
					names = append(names, "PWD", "OLDPWD", "DIRSTACK")
				case "set", "shift":
					names = append(names, posName)
				case "eval", "source", ".", "trap", "fc", "command", "builtin", "enable", "alias":
					all = true
				default:
					for _, f := range w.res.Functions {
						if f == prog {
							all = true
						}
					}
				}
				if specialBuiltin(prog) {
					for _, a := range x.Assigns {
						if a != nil && a.Name != nil {
							names = append(names, a.Name.Value)
						}
					}
				}
			case *syntax.DeclClause:
				for _, a := range x.Args {
					if a == nil {
						continue
					}
					if a.Name != nil {
						names = append(names, a.Name.Value)
					} else if a.Value != nil && a.Value.Lit() == "" {
						all = true
					}
				}
			case *syntax.ParamExp:
				if x.Param != nil && x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) {
					names = append(names, x.Param.Value)
				}
			case *syntax.BinaryArithm:
				if arithAssign(x.Op) {
					names = arithmTarget(names, x.X, &all)
				}
			case *syntax.UnaryArithm:
				if x.Op == syntax.Inc || x.Op == syntax.Dec {
					names = arithmTarget(names, x.X, &all)
				}
			case *syntax.LetClause:
				for _, e := range x.Exprs {
					if word, ok := e.(*syntax.Word); ok {
						forgetNamesInto(&names, word.Lit())
					}
				}
			case *syntax.ForClause:
				if it, ok := x.Loop.(*syntax.WordIter); ok && it.Name != nil {
					names = append(names, it.Name.Value)
				}
			case *syntax.CoprocClause:
				names = append(names, "COPROC")
				if x.Name != nil {
					names = append(names, x.Name.Lit())
				}
			case *syntax.FuncDecl:
				// Its body runs when called: a call is "all".
				all = true
				return false
			}
			return true
		})
	}
	w.expanded += visited
	if w.expanded > w.lim.MaxExpandBytes {
		all = true
	}
	return names, all
}

// arithAssign reports an arithmetic operator that assigns its left
// operand.
func arithAssign(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
		syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn, syntax.AndBoolAssgn,
		syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
		return true
	}
	return false
}

func arithmTarget(names []string, x syntax.ArithmExpr, all *bool) []string {
	if word, ok := x.(*syntax.Word); ok && word != nil && len(word.Parts) == 1 {
		switch p := word.Parts[0].(type) {
		case *syntax.Lit:
			return append(names, p.Value)
		case *syntax.ParamExp:
			if p.Param != nil {
				return append(names, p.Param.Value)
			}
		}
	}
	*all = true
	return names
}

// forgetNamesInto appends every name-like token of s.
func forgetNamesInto(names *[]string, s string) {
	nameTokens(s, func(n string) { *names = append(*names, n) })
}

// readsStdin reports an invocation that may read its standard input: any
// program but the builtins that never do.
func readsStdin(inv *Invocation) bool {
	if len(inv.Args) == 0 || inv.NotRun {
		return false
	}
	switch inv.Name {
	case "echo", "printf", "true", "false", ":", "test", "[", "[[", "((", "cd", "pwd", "export", "declare", "local",
		"readonly", "typeset", "set", "shift", "unset", "type", "which", "hash", "alias", "unalias", "exit",
		"return", "break", "continue", "sleep", "kill", "wait", "umask", "ulimit", "trap", "let", "eval", "shopt",
		"getopts", "command", "builtin":
		return len(inv.Wrappers) > 0 && inv.HasWrapper("xargs")
	}
	return true
}

// jobEnv returns the variables a shell string of invocation inv runs
// with: the same shell's for eval; a new shell's for the others — the
// exported variables and the assignments written for the command, with
// $0, $1, ... of bash -c — or nothing known for a string run as another
// user (sudo, su) or elsewhere (ssh, a container).
func (w *walker) jobEnv(inv *Invocation, job reparseJob, xargsPlain bool, c ctx) *env {
	if job.by == "eval" {
		return nil
	}
	fresh := job.remote || inv.Name == "su" || inv.Name == "runuser" || inv.HasWrapper("sudo") || inv.HasWrapper("doas") ||
		inv.Where.Has(FrameRemote)
	for _, wr := range inv.Wrappers {
		if wr.Name == "env" {
			for _, a := range wr.Args {
				if a == "-i" || a == "--ignore-environment" || a == "-" {
					fresh = true
				}
			}
		}
	}
	var e *env
	if fresh {
		// Another user's or machine's environment: nothing known.
		e = newEnv()
	} else {
		e = w.env.child()
		for _, a := range inv.Assigns {
			if a.Dynamic {
				e.forget(a.Name)
			} else {
				e.set(a.Name, binding{known: true, value: a.Value, exported: true})
			}
		}
	}
	if job.hasPositional {
		// bash -c STRING NAME ARG...: $0 is NAME (the shell's name
		// without it), $1... the arguments. Run by xargs (but for one
		// run with every input word) or find -exec ({} replaced by
		// file names), they are not known.
		known := !inv.ArgsFromInput || xargsPlain
		known = known && !c.f.Has(FrameExec)
		zero := inv.Args[0].Value
		params := make([]string, 0, len(job.positional))
		for i, a := range job.positional {
			if a.Dynamic || a.Glob {
				known = false
			}
			if i == 0 {
				zero = a.Value
			} else {
				params = append(params, a.Value)
			}
		}
		if known {
			e.setPositional(zero, params)
		}
	}
	e.journal = e.journal[:0]
	return e
}

// candidates reports the programs a glob program path of invocation idx
// could name (see globPrograms), each as an invocation of its own
// (Candidate), after the glob invocation, which stays unknown.
func (w *walker) candidates(idx int, rawRedirs []*syntax.Redirect, c ctx) {
	inv := &w.res.Invocations[idx]
	if len(inv.Args) == 0 || inv.Candidate || !inv.Args[0].Glob || inv.Args[0].Dynamic || !strings.HasPrefix(inv.Args[0].Value, "/") {
		return
	}
	paths, ok := globPrograms(inv.Args[0].Value)
	if !ok || len(paths) == 0 || w.forks+len(paths) > maxForks {
		return
	}
	w.forks += len(paths)
	base := *inv
	saved := w.alternative
	w.alternative = true
	for _, p := range paths {
		sub := Invocation{Wrappers: slices.Clone(base.Wrappers), Assigns: slices.Clone(base.Assigns), Redirs: base.Redirs,
			Where: base.Where, Parent: base.Parent, Encloser: base.Encloser, Depth: base.Depth, Candidate: true}
		args := make([]Arg, 0, len(base.Args))
		args = append(args, Arg{Value: p, Raw: base.Args[0].Raw, Resolved: true})
		args = append(args, base.Args[1:]...)
		w.invocation(sub, args, rawRedirs, c)
	}
	w.alternative = saved
}

// programValues returns what a program word that is one parameter
// expansion ($c, "${c}") may name: the loop's values when it is the loop
// variable, a known variable's first word; [""] when that is not known.
func (w *walker) programValues(word *syntax.Word, loopVar string, values []string) []string {
	parts := word.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return []string{""}
	}
	pe, ok := parts[0].(*syntax.ParamExp)
	if !ok || !pe.Short && !simpleParam(pe) || pe.Param == nil {
		return []string{""}
	}
	name := pe.Param.Value
	if name == loopVar && len(values) > 0 {
		out := make([]string, len(values))
		for i, v := range values {
			out[i], _, _ = strings.Cut(strings.TrimLeft(v, " \t\n"), " ")
		}
		return out
	}
	if b, ok := w.env.get(name); ok && len(b.values) == 0 && !b.array && !b.unset {
		v, _, _ := strings.Cut(strings.TrimLeft(b.value, " \t\n"), " ")
		return []string{v}
	}
	return []string{""}
}

// simpleParam reports ${name} without operators.
func simpleParam(pe *syntax.ParamExp) bool {
	return pe.Param != nil && !pe.Excl && !pe.Length && !pe.Width && !pe.IsSet && pe.Index == nil && pe.Slice == nil &&
		pe.Repl == nil && pe.Names == 0 && pe.Exp == nil && pe.NestedParam == nil && len(pe.Modifiers) == 0
}

// assigningCommand reports a builtin that may assign variables, or a
// function of the line (which may assign anything).
func assigningCommand(name string, functions []string) bool {
	switch name {
	case "read", "mapfile", "readarray", "printf", "getopts", "let", "unset", "export", "declare", "typeset", "local",
		"readonly", "wait", "set", "shift", "cd", "pushd", "popd", "eval", "source", ".", "trap", "fc", "command",
		"builtin", "enable", "alias":
		return true
	}
	for _, f := range functions {
		if f == name {
			return true
		}
	}
	return false
}

// funcDef is a function the line defines.
type funcDef struct {
	name string
	body *syntax.Stmt
	src  string // the text its positions refer to
}

// callFunction walks the body of the function that invocation idx calls,
// if the line defines it: with the variables as they are at the call and
// its arguments as $1, $2, ... (f() { rm -rf "$1"; }; f ~ deletes ~). The
// invocations found are reported again, after those of the definition.
// Recursion is not followed, nor calls past the line's budget of bodies.
func (w *walker) callFunction(idx int, c ctx) {
	inv := &w.res.Invocations[idx]
	if len(inv.Wrappers) > 0 || inv.NameDynamic() || len(w.funcs) == 0 || w.stopped {
		return
	}
	var def *funcDef
	for i := range w.funcs {
		if w.funcs[i].name == inv.Name {
			def = &w.funcs[i]
		}
	}
	if def == nil || def.body == nil || slices.Contains(w.calling, def.name) {
		return
	}
	size := int(def.body.End().Offset()) - int(def.body.Pos().Offset())
	if size < 0 || w.funcWalked+size > w.lim.MaxReparseBytes {
		return
	}
	w.funcWalked += size
	name, args := inv.Name, argValues(inv.Args[1:])
	for _, a := range inv.Args[1:] {
		if a.Dynamic || a.Glob {
			args = nil
		}
	}
	m := w.env.mark()
	if args != nil || len(inv.Args) == 1 {
		w.env.setPositional(w.zero(), args)
	} else {
		w.env.forget(posName)
	}
	saved := w.src
	w.src = def.src
	w.calling = append(w.calling, name)
	cc := c.with(FrameFunction, name)
	cc.in = nil
	w.stmt(def.body, cc)
	w.calling = w.calling[:len(w.calling)-1]
	w.src = saved
	w.env.undoTo(m) // the call's effects make everything unknown next
}

// stdinScriptParams reports a shell that reads its script from standard
// input although operands follow, because of -s (bash -s a b, sh -s --
// x): the operands are the positional parameters.
func stdinScriptParams(args []Arg) ([]Arg, bool) {
	sFlag := false
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if args[i].Dynamic {
			return nil, false
		}
		switch {
		case v == "--" || v == "-":
			return args[i+1:], sFlag
		case len(v) > 1 && (v[0] == '-' || v[0] == '+') && !strings.HasPrefix(v, "--"):
			if strings.ContainsAny(v, "co") {
				return nil, false // -c, or an option taking a value
			}
			sFlag = sFlag || strings.IndexByte(v, 's') > 0
		case strings.HasPrefix(v, "--"):
		default:
			return args[i:], sFlag
		}
	}
	return nil, sFlag
}
