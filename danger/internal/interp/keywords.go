package interp

// keyword handles a statement that starts with a keyword: imports (which
// bind aliases), loops (which may be endless, and bind their variables),
// and the keywords that only introduce an expression or a block.
func (e *ev) keyword() bool {
	t := e.tok()
	switch e.lang {
	case Python:
		switch t.s {
		case "import":
			e.pyImport()
			return true
		case "from":
			e.pyFrom()
			return true
		case "def", "class":
			for e.i < e.end && !e.isOp(":") {
				if e.isOp("(") {
					e.i = e.closeOf(e.i)
				}
				e.i++
			}
			e.i++
			return true
		case "while":
			return e.while(false)
		case "for":
			return e.forLoop()
		case "if", "elif", "else", "try", "except", "finally", "with", "return", "del", "assert", "raise", "global",
			"nonlocal", "pass", "break", "continue", "async", "yield":
			e.i++
			return true
		case "print":
			if n := e.at(1); !(n.k == tOp && n.s == "(") {
				e.i++
				return true
			}
		}
	case JavaScript, PHP:
		switch t.s {
		case "const", "let", "var", "export", "async", "else", "try", "finally", "case", "default", "break", "continue",
			"if", "switch", "catch", "with", "static", "public", "private", "protected", "abstract", "final", "global",
			"namespace", "declare", "elseif", "return", "throw", "readonly":
			e.i++
			return true
		case "import":
			if n := e.at(1); n.k == tOp && (n.s == "(" || n.s == ".") {
				return false
			}
			if e.lang == JavaScript {
				e.jsImport()
				return true
			}
		case "use":
			if e.lang == PHP {
				for e.i < e.end && !e.isOp(";") {
					e.i++
				}
				return true
			}
		case "function", "class", "interface", "trait":
			e.i++
			for e.tok().k == tIdent {
				e.i++
			}
			e.paramList()
			return true
		case "while":
			return e.while(false)
		case "for", "foreach":
			return e.forLoop()
		case "do":
			return e.doBlock()
		case "include", "require", "include_once", "require_once":
			if e.lang == PHP {
				e.i++
				v := e.expr()
				e.do(act{op: opLoad}, t.s, val{}, []arg{{v: v}})
				return true
			}
		}
	case Perl:
		switch t.s {
		case "my", "our", "local", "state", "if", "unless", "elsif", "else", "return", "last", "next", "redo", "BEGIN", "END":
			e.i++
			return true
		case "use", "no", "require", "package":
			e.i++
			if n := e.tok(); n.k == tIdent && t.s == "use" && len(*e.star) < 16 {
				*e.star = append(*e.star, n.s)
			}
			if e.tok().k == tIdent || t.s != "require" {
				for e.i < e.end && !e.isOp(";") {
					e.i++
				}
			}
			return true
		case "sub":
			if e.at(1).k == tIdent {
				e.i += 2
				return true
			}
		case "while", "until":
			return e.while(t.s == "until")
		case "for", "foreach":
			return e.forLoop()
		case "do":
			if n := e.at(1); n.k == tOp && n.s == "{" {
				return e.doBlock()
			}
		}
	case Ruby:
		switch t.s {
		case "require", "require_relative", "gem":
			e.i++
			e.expr()
			return true
		case "include", "extend":
			e.i++
			if n := e.tok(); n.k == tIdent && len(*e.star) < 16 {
				*e.star = append(*e.star, n.s)
			}
			e.expr()
			return true
		case "def", "class", "module":
			e.i++
			for e.i < e.end && e.tok().k != tNL && !e.isOp(";") {
				if e.isOp("(") {
					e.i = e.closeOf(e.i)
				}
				e.i++
			}
			return true
		case "begin", "end", "rescue", "ensure", "else", "elsif", "then", "return", "unless", "if", "next", "break", "redo",
			"retry", "when", "case", "do", "yield":
			e.i++
			return true
		case "while", "until":
			return e.while(t.s == "until")
		case "for":
			return e.forLoop()
		}
	case Lua:
		switch t.s {
		case "local", "if", "then", "else", "elseif", "end", "return", "do", "break", "goto", "in":
			e.i++
			return true
		case "function":
			e.i++
			for e.tok().k == tIdent || e.isOp(".") || e.isOp(":") {
				e.i++
			}
			e.paramList()
			return true
		case "while":
			return e.while(false)
		case "repeat":
			e.repeats = append(e.repeats, e.i)
			e.i++
			return true
		case "until":
			e.i++
			forks := len(*e.forks)
			c := e.expr()
			if n := len(e.repeats); n > 0 {
				start := e.repeats[n-1]
				e.repeats = e.repeats[:n-1]
				if c.k == vNum && !c.b || len(*e.forks) > forks {
					e.addLoop(start, e.i)
				}
			}
			return true
		case "for":
			// for k, v in ipairs({...}) do: v takes the table's values.
			e.i++
			from := e.i
			for e.i < e.end && e.tok().k != tNL && !e.isWord("in") && !e.isOp("=") {
				e.i++
			}
			if e.isWord("in") {
				names := identsIn(e.toks[from:e.i])
				e.i++
				it := e.data(e.expr())
				if it.k == vObj {
					it = list(it.el)
				}
				if len(names) > 0 {
					e.bindIter(names[len(names)-1:], it)
				}
			}
			return true
		}
	case R:
		switch t.s {
		case "if", "else", "return", "next", "break":
			e.i++
			return true
		case "while":
			return e.while(false)
		case "repeat":
			start := e.i
			e.i++
			e.addLoop(start, e.bodyEnd())
			return true
		case "for":
			return e.forLoop()
		}
	}
	return false
}

// pyImport reads import a.b [as c], ...
func (e *ev) pyImport() {
	e.i++
	for e.i < e.end {
		mod := e.dotted()
		if mod == "" {
			return
		}
		if e.isWord("as") && e.at(1).k == tIdent {
			e.bindName(e.at(1).s, name(mod))
			e.i += 2
		}
		if !e.isOp(",") {
			return
		}
		e.i++
	}
}

// pyFrom reads from m import a [as b], ... and from m import *.
func (e *ev) pyFrom() {
	e.i++
	for e.isOp(".") {
		e.i++
	}
	mod := e.dotted()
	if !e.isWord("import") {
		return
	}
	e.i++
	end := e.end
	if e.isOp("(") {
		end = e.closeOf(e.i)
		e.i++
	}
	for e.i < end {
		t := e.tok()
		switch {
		case t.k == tOp && t.s == "*":
			if len(*e.star) < 16 && mod != "" {
				*e.star = append(*e.star, mod)
			}
			e.i++
			return
		case t.k == tIdent:
			full := t.s
			if mod != "" {
				full = mod + "." + t.s
			}
			e.i++
			alias := t.s
			if e.isWord("as") && e.at(1).k == tIdent {
				alias = e.at(1).s
				e.i += 2
			}
			e.bindName(alias, name(full))
		case t.k == tOp && t.s == ",":
			e.i++
		default:
			if end != e.end {
				e.i = end + 1
			}
			return
		}
	}
	if end != e.end {
		e.i = end + 1
	}
}

// dotted reads a dotted name (a.b.c).
func (e *ev) dotted() string {
	s := ""
	for e.tok().k == tIdent {
		s += e.tok().s
		e.i++
		if !e.isOp(".") || e.at(1).k != tIdent {
			break
		}
		s += "."
		e.i++
	}
	return s
}

// jsImport reads import X from 'm', import * as X from 'm',
// import {a as b, c} from 'm', import 'm'.
func (e *ev) jsImport() {
	e.i++
	type bindTo struct{ alias, member string }
	var binds []bindTo
	for steps := 0; e.i < e.end && steps < 256; steps++ {
		t := e.tok()
		switch {
		case t.k == tStr:
			mod := jsModule(t.s)
			e.i++
			for _, b := range binds {
				if b.member == "" {
					e.bindName(b.alias, name(mod))
				} else {
					e.bindName(b.alias, name(mod+"."+b.member))
				}
			}
			return
		case t.k == tOp && t.s == "*":
			if e.at(1).k == tIdent && e.at(1).s == "as" && e.at(2).k == tIdent {
				binds = append(binds, bindTo{alias: e.at(2).s})
				e.i += 3
				continue
			}
			e.i++
		case t.k == tOp && t.s == "{":
			c := e.closeOf(e.i)
			for j := e.i + 1; j < c; j++ {
				x := e.toks[j]
				if x.k != tIdent {
					continue
				}
				if j+2 < c && e.toks[j+1].k == tIdent && e.toks[j+1].s == "as" && e.toks[j+2].k == tIdent {
					binds = append(binds, bindTo{alias: e.toks[j+2].s, member: x.s})
					j += 2
					continue
				}
				binds = append(binds, bindTo{alias: x.s, member: x.s})
			}
			e.i = c + 1
		case t.k == tIdent && t.s != "from" && t.s != "type":
			binds = append(binds, bindTo{alias: t.s})
			e.i++
		case t.k == tOp && t.s == ";", t.k == tNL:
			return
		default:
			e.i++
		}
	}
}

func jsModule(m string) string {
	m = trimPrefix(m, "node:")
	out := []byte(m)
	for i, c := range out {
		if c == '/' {
			out[i] = '.'
		}
	}
	return string(out)
}

// while reads a while/until loop and records it when it never ends (its
// condition is a true constant, or forks).
func (e *ev) while(until bool) bool {
	start := e.i
	e.i++
	forks := len(*e.forks)
	var cond val
	if e.isOp("(") && e.lang != Python && e.lang != Ruby && e.lang != Lua {
		c := e.closeOf(e.i)
		e.i++
		saved := e.end
		e.end = c
		cond = e.expr()
		e.stmts(c)
		e.end = saved
		e.i = c + 1
	} else {
		cond = e.expr()
	}
	endless := !until && cond.truthy() || until && cond.k == vNum && !cond.b || len(*e.forks) > forks
	if e.isOp(":") && e.lang == Python {
		e.i++
	}
	if e.isWord("do") && (e.lang == Ruby || e.lang == Lua) {
		e.i++
	}
	if d := e.doBody; d[1] > 0 && start == d[1]+1 {
		// do { ... } while (COND)
		if endless {
			e.addLoop(d[0], e.i)
		}
		e.doBody = [2]int{}
		return true
	}
	if endless {
		e.addLoop(start, e.bodyEnd())
	}
	return true
}

func (e *ev) doBlock() bool {
	start := e.i
	e.i++
	if e.isOp("{") {
		e.doBody = [2]int{start, e.closeOf(e.i)}
	}
	return true
}

// bodyEnd returns where the body of a loop whose header ends at e.i ends.
func (e *ev) bodyEnd() int {
	switch {
	case e.isOp("{"):
		return e.closeOf(e.i)
	case e.lang == Python:
		if e.tok().k != tNL {
			for j := e.i; j < e.end; j++ {
				if e.toks[j].k == tNL {
					return j
				}
			}
			return e.end
		}
		for j := e.i + 1; j < e.end; j++ {
			if e.toks[j].k == tNL && int(e.toks[j].ind) <= e.lineInd {
				return j
			}
		}
		return e.end
	case e.lang == Ruby || e.lang == Lua:
		return e.blockEnd(e.i)
	}
	for j := e.i; j < e.end; j++ {
		t := e.toks[j]
		if t.k == tOp && t.s == ";" {
			return j
		}
		if k, ok := e.pastNested(j); ok {
			j = k
		}
	}
	return e.end
}

// forLoop reads a for loop: C's for(;;) never ends; a loop over a literal
// list binds its variable to the list's elements.
func (e *ev) forLoop() bool {
	start := e.i
	e.i++
	switch e.lang {
	case Python, Ruby:
		from := e.i
		for e.i < e.end && !e.isWord("in") && e.tok().k != tNL {
			e.i++
		}
		names := identsIn(e.toks[from:e.i])
		if !e.isWord("in") {
			return true
		}
		e.i++
		it := e.expr()
		e.bindIter(names, it)
		if e.isOp(":") || e.isWord("do") {
			e.i++
		}
		if it.f&fEndless != 0 {
			e.addLoop(start, e.bodyEnd())
		}
		return true
	}
	// Perl: for my $x (LIST), foreach $x (LIST), for (LIST).
	var names []string
	for e.tok().k == tIdent && (e.tok().s == "my" || e.tok().s == "our" || e.tok().s == "local") {
		e.i++
	}
	if e.lang == Perl && e.tok().k == tIdent {
		names = []string{e.tok().s}
		e.i++
	}
	if !e.isOp("(") {
		return true
	}
	c := e.closeOf(e.i)
	// C style: for (init; cond; step).
	semis := []int{}
	for j := e.i + 1; j < c; j++ {
		if k, ok := e.pastNested(j); ok {
			j = k
			continue
		}
		t := e.toks[j]
		if t.k == tOp && t.s == ";" {
			semis = append(semis, j)
		}
	}
	if len(semis) == 2 {
		endless := semis[1] == semis[0]+1
		e.i++
		e.stmts(c)
		e.i = c + 1
		if endless {
			e.addLoop(start, e.bodyEnd())
		}
		return true
	}
	e.i++
	saved := e.end
	e.end = c
	switch e.lang {
	case JavaScript:
		// for (const x of LIST)
		for e.tok().k == tIdent && (e.tok().s == "const" || e.tok().s == "let" || e.tok().s == "var") {
			e.i++
		}
		if e.tok().k == tIdent && (e.at(1).s == "of" || e.at(1).s == "in") {
			names = []string{e.tok().s}
			e.i += 2
		}
		e.bindIter(names, e.expr())
	case PHP:
		// foreach ($list as $k => $v)
		it := e.expr()
		if e.isWord("as") {
			e.i++
			var vars []string
			for e.i < c {
				if e.tok().k == tIdent {
					vars = append(vars, e.tok().s)
				}
				e.i++
			}
			if len(vars) > 0 {
				e.bindIter(vars[len(vars)-1:], it)
			}
		}
	case R:
		if e.tok().k == tIdent && e.at(1).s == "in" {
			names = []string{e.tok().s}
			e.i += 2
		}
		e.bindIter(names, e.expr())
	default:
		if len(names) == 0 {
			names = []string{"$_"}
		}
		e.bindIter(names, e.seqVal(c))
	}
	e.stmts(c)
	e.end = saved
	e.i = c + 1
	return true
}

// seqVal reads comma-separated values up to c as a list.
func (e *ev) seqVal(c int) val {
	var el []val
	for e.i < c {
		if e.isOp(",") {
			e.i++
			continue
		}
		s := e.i
		v := e.data(e.expr())
		if stuck(&e.i, s) {
			continue
		}
		if v.k == vList {
			el = append(el, v.el...)
		} else {
			el = append(el, v)
		}
		if len(el) > maxList {
			break
		}
	}
	return list(el)
}

func isKeyword(lang Lang, s string) bool {
	switch s {
	case "return", "if", "while", "for", "not", "and", "or", "in", "is", "else", "elif", "unless", "until", "do", "end", "then":
		return true
	}
	return false
}

// paramList binds the names of a parenthesised parameter list at e.i, if
// any, and moves past it.
func (e *ev) paramList() {
	if e.isOp("(") {
		c := e.closeOf(e.i)
		e.bindParams(identsIn(e.toks[e.i+1 : c]))
		e.i = c + 1
	}
}
