package interp

import "strings"

// ev walks the tokens of one code string of a call language: a tolerant
// parser that evaluates expressions to what can be known of their values,
// applies the language's sinks to calls, and records loops and forks. Every
// step advances over at least one token, and recursion is bounded by
// maxExprNest, so a walk is linear in the number of tokens.
type ev struct {
	a     *analysis
	lang  Lang
	depth int // levels of decoded or evaluated code above this one
	toks  []token
	match []int32 // for each bracket, the index of its partner (-1: none)
	i     int
	end   int // the walk's current limit (a block's end)
	nest  int
	syms  map[string]val // variables and aliases, shared with sub-walks
	star  *[]string      // modules imported whole (from os import *, include FileUtils)
	// loops are the token ranges of endless loops; forks the positions of
	// calls that start processes without waiting.
	loops   *[][2]int
	forks   *[]int
	lineInd int
	iter    *val    // what the next lambda's first parameter iterates over
	ternary int     // ? seen in the current expression (so : is an operator)
	repeats []int   // Lua repeat ... until: where each open repeat starts
	doBody  [2]int  // the last do { ... } block, for a while after it
	inAlt   bool    // applying a call once per alternative
	ends    []int32 // Ruby, Lua: for each token, the end of its innermost block
}

func (a *analysis) generic(lang Lang, code string, depth int) {
	toks := lex(lang, code)
	e := &ev{a: a, lang: lang, depth: depth, toks: toks, match: matchBrackets(toks), end: len(toks),
		syms: map[string]val{}, star: new([]string), loops: new([][2]int), forks: new([]int)}
	e.stmts(len(toks))
	for _, f := range *e.forks {
		for _, l := range *e.loops {
			if f >= l[0] && f <= l[1] {
				a.add(Finding{Kind: ForkBomb, Text: "starts processes in an endless loop"})
				return
			}
		}
	}
}

// sub returns a walk over another code string in the same scope (an
// interpolated expression).
func (e *ev) sub(code string) *ev {
	e.a.budget -= len(code)
	if e.a.budget < 0 {
		return nil
	}
	toks := lex(e.lang, code)
	return &ev{a: e.a, lang: e.lang, depth: e.depth, toks: toks, match: matchBrackets(toks), end: len(toks),
		nest: e.nest + 1, syms: e.syms, star: e.star, loops: new([][2]int), forks: e.forks}
}

// matchBrackets pairs the brackets of the tokens: for each, the index of
// its partner, or -1.
func matchBrackets(toks []token) []int32 {
	return pairBrackets(len(toks), func(i int) int {
		if toks[i].k == tOp {
			switch toks[i].s {
			case "(", "[", "{", "?.(":
				return 1
			case ")", "]", "}":
				return -1
			}
		}
		return 0
	})
}

// pairBrackets pairs the brackets of n tokens, side(i) saying whether
// token i opens a bracket (1), closes one (-1) or neither (0): for each
// token, the index of its partner, or -1.
func pairBrackets(n int, side func(i int) int) []int32 {
	m := make([]int32, n)
	var stack []int
	for i := range n {
		m[i] = -1
		switch side(i) {
		case 1:
			stack = append(stack, i)
		case -1:
			if k := len(stack); k > 0 {
				o := stack[k-1]
				stack = stack[:k-1]
				m[o], m[i] = int32(i), int32(o)
			}
		}
	}
	return m
}

func (e *ev) tok() token {
	if e.i < e.end {
		return e.toks[e.i]
	}
	return token{}
}

func (e *ev) at(k int) token {
	if e.i+k < e.end && e.i+k >= 0 {
		return e.toks[e.i+k]
	}
	return token{}
}

func (e *ev) isOp(s string) bool {
	t := e.tok()
	return t.k == tOp && t.s == s
}

func (e *ev) isWord(s string) bool {
	t := e.tok()
	return t.k == tIdent && t.s == s
}

// closeOf returns the index of the bracket closing the one at i, or the
// walk's end when it is unclosed.
func (e *ev) closeOf(i int) int {
	if i < len(e.match) {
		if m := int(e.match[i]); m > i && m < e.end {
			return m
		}
	}
	return e.end
}

// stmts walks statements up to token index end.
func (e *ev) stmts(end int) {
	saved := e.end
	e.end = min(end, saved)
	for e.i < e.end {
		s := e.i
		e.statement()
		if e.i == s {
			e.i++
		}
	}
	e.end = saved
}

func (e *ev) statement() {
	t := e.tok()
	switch t.k {
	case tNL:
		e.lineInd = int(t.ind)
		e.i++
		return
	case tOp:
		switch t.s {
		case ";", "}", ")", "]", ",", "{":
			e.i++
			return
		}
	case tIdent:
		if e.keyword() {
			return
		}
	}
	start := e.i
	forks := len(*e.forks)
	if names, keys, ok := e.assignTarget(); ok {
		v := e.expr()
		e.bind(names, keys, v)
		e.modifier(start, forks)
		return
	}
	v := e.expr()
	if e.i == start {
		return
	}
	// x.y = v, x[k] = v: evaluate the right side; x += v, x .= v: the
	// new value of x.
	if t := e.tok(); t.k == tOp && isAssignOp(t.s) {
		e.i++
		w := e.expr()
		if e.i-start >= 2 && e.toks[start].k == tIdent && start+1 < len(e.toks) && e.toks[start+1].k == tOp && e.toks[start+1].s == t.s {
			n := e.toks[start].s
			if t.s == "+=" || t.s == ".=" || t.s == "<<" {
				e.bindName(n, concat(e.data(v), e.data(w)))
			} else {
				e.bindName(n, dyn(e.data(v).taint()|e.data(w).taint()))
			}
		}
	}
	// R: value -> name.
	if t := e.tok(); t.k == tOp && (t.s == "->" || t.s == "->>") && e.lang == R && e.at(1).k == tIdent {
		e.bindName(e.at(1).s, v)
		e.i += 2
	}
	// Python: with X as f, except E as e.
	if e.isWord("as") && e.at(1).k == tIdent {
		e.bindName(e.at(1).s, v)
		e.i += 2
	}
	e.modifier(start, forks)
}

func isAssignOp(s string) bool {
	switch s {
	case "=", ":=", "<-", "<<-", "+=", "-=", ".=", "||=", "&&=", "//=", "??=", "|=", "*=":
		return true
	}
	return false
}

// assignTarget reads the target of an assignment at e.i (name =, a, b =,
// ($a, $b) =, {a, b: c} =, [a, b] =) and moves past the operator; names
// and, for object destructuring, the keys they take.
func (e *ev) assignTarget() (names, keys []string, ok bool) {
	t := e.tok()
	switch {
	case t.k == tIdent && !isKeyword(e.lang, t.s):
		j := e.i
		for {
			if j >= e.end || e.toks[j].k != tIdent {
				return nil, nil, false
			}
			names = append(names, e.toks[j].s)
			j++
			if j < e.end && e.toks[j].k == tOp && (e.toks[j].s == "," && e.lang != JavaScript && e.lang != PHP && e.lang != R) && len(names) < 16 {
				j++
				continue
			}
			break
		}
		if j < e.end && e.toks[j].k == tOp && isAssignOp(e.toks[j].s) && e.toks[j].s != "->" {
			e.i = j + 1
			return names, nil, true
		}
	case t.k == tOp && (t.s == "(" || t.s == "[" || t.s == "{"):
		c := e.closeOf(e.i)
		if c+1 >= e.end || e.toks[c+1].k != tOp || e.toks[c+1].s != "=" {
			return nil, nil, false
		}
		if t.s == "(" && e.lang != Perl && e.lang != Python {
			return nil, nil, false
		}
		for j := e.i + 1; j < c; j++ {
			x := e.toks[j]
			if x.k != tIdent {
				if x.k == tOp && (x.s == "{" || x.s == "[") {
					j = max(j, int(e.match[j]))
				}
				continue
			}
			// key: name, or a shorthand name (skip default values).
			if j+1 < c && e.toks[j+1].k == tOp && e.toks[j+1].s == ":" && j+2 < c && e.toks[j+2].k == tIdent {
				keys = append(keys, x.s)
				names = append(names, e.toks[j+2].s)
				j += 2
			} else if j > e.i+1 && e.toks[j-1].k == tOp && e.toks[j-1].s == "=" {
				continue
			} else {
				keys = append(keys, x.s)
				names = append(names, x.s)
			}
			if len(names) >= 16 {
				break
			}
		}
		if t.s != "{" {
			keys = nil
		}
		e.i = c + 2
		return names, keys, true
	}
	return nil, nil, false
}

func (e *ev) bind(names, keys []string, v val) {
	switch {
	case len(names) == 1 && keys == nil:
		e.bindName(names[0], v)
	case keys != nil:
		for i, n := range names {
			e.bindName(n, e.member(v, keys[i]))
		}
	default:
		for i, n := range names {
			if v.k == vList && !v.alt && i < len(v.el) {
				e.bindName(n, v.el[i])
			} else {
				e.bindName(n, dyn(v.taint()))
			}
		}
	}
}

func (e *ev) bindName(n string, v val) {
	if len(e.syms) >= maxSyms {
		if _, ok := e.syms[n]; !ok {
			return
		}
	}
	e.syms[n] = v
}

// modifier reads Perl's and Ruby's statement modifiers: STMT while COND
// is an endless loop when COND is true or forks (fork while fork).
func (e *ev) modifier(start, forks int) {
	if e.lang != Perl && e.lang != Ruby {
		return
	}
	t := e.tok()
	if t.k != tIdent {
		return
	}
	switch t.s {
	case "while", "until":
		e.i++
		c := e.expr()
		if t.s == "while" && c.truthy() || t.s == "until" && c.k == vNum && !c.b || len(*e.forks) > forks {
			e.addLoop(start, e.i)
		}
	case "if", "unless", "for", "foreach", "or", "and":
		e.i++
		e.expr()
	}
}

func (e *ev) addLoop(from, to int) {
	if len(*e.loops) < 64 {
		*e.loops = append(*e.loops, [2]int{from, to})
	}
}

// expr parses an expression and returns what is known of its value.
func (e *ev) expr() val {
	if e.nest >= maxExprNest {
		e.a.unknown("", "code nested too deeply to read")
		e.skipExpr()
		return dyn(0)
	}
	e.nest++
	defer func() { e.nest-- }()
	saveT := e.ternary
	e.ternary = 0
	defer func() { e.ternary = saveT }()
	v, ok := e.unary()
	if !ok {
		return dyn(0)
	}
	for steps := 0; steps < 1<<16; steps++ {
		op, n := e.binop()
		if n == 0 {
			return v
		}
		save := e.i
		e.i += n
		w, ok := e.unary()
		if !ok {
			e.i = save
			return v
		}
		v = e.binary(op, v, w)
	}
	return v
}

// skipExpr skips to the end of the current expression at this bracket
// level, over whole bracketed groups.
func (e *ev) skipExpr() {
	for e.i < e.end {
		t := e.tok()
		if t.k == tNL {
			return
		}
		if t.k == tOp {
			switch t.s {
			case ",", ";", ")", "]", "}":
				return
			case "(", "[", "{", "?.(":
				e.i = e.closeOf(e.i) + 1
				continue
			}
		}
		e.i++
	}
}

// binop returns the binary operator at e.i and how many tokens it takes.
func (e *ev) binop() (string, int) {
	t := e.tok()
	switch t.k {
	case tOp:
		switch t.s {
		case "+", "-", "*", "/", "%", "**", "==", "!=", "===", "!==", "<", ">", "<=", ">=", "&&", "||", "??",
			"&", "|", "^", "<<", ">>", "=~", "!~", "<=>", "|>", "~", "~=":
			if t.s == "|" && e.lang == Ruby {
				return "", 0
			}
			return t.s, 1
		case "//":
			return t.s, 1
		case ".":
			if e.lang == Perl || e.lang == PHP {
				return t.s, 1
			}
		case "..":
			if e.lang == Lua || e.lang == Perl || e.lang == Ruby {
				return t.s, 1
			}
		case "?":
			if e.lang != Python && e.lang != R && e.lang != Lua {
				e.ternary++
				return t.s, 1
			}
		case ":":
			if e.ternary > 0 {
				e.ternary--
				return t.s, 1
			}
		default:
			if e.lang == R && len(t.s) > 1 && t.s[0] == '%' {
				return t.s, 1
			}
		}
	case tIdent:
		switch t.s {
		case "and", "or":
			if e.lang == Python || e.lang == Perl || e.lang == Lua || e.lang == PHP {
				return t.s, 1
			}
		case "in", "is":
			if e.lang == Python || e.lang == JavaScript && t.s == "in" {
				if e.lang == Python && t.s == "is" && e.at(1).k == tIdent && e.at(1).s == "not" {
					return t.s, 2
				}
				return t.s, 1
			}
		case "not":
			if e.lang == Python && e.at(1).k == tIdent && e.at(1).s == "in" {
				return "not in", 2
			}
		case "if", "else":
			if e.lang == Python && e.nest > 1 {
				return t.s, 1
			}
		case "instanceof", "xor":
			return t.s, 1
		case "eq", "ne", "lt", "gt", "le", "ge", "cmp", "x":
			if e.lang == Perl {
				return t.s, 1
			}
		}
	}
	return "", 0
}

func (e *ev) binary(op string, a, b val) val {
	a, b = e.data(a), e.data(b)
	switch {
	case op == "+" && (e.lang == Python || e.lang == JavaScript || e.lang == Ruby) && (a.k == vStr || b.k == vStr):
		return concat(a, b)
	case op == "." && (e.lang == Perl || e.lang == PHP), op == ".." && e.lang == Lua, op == "<<" && e.lang == Ruby && a.k == vStr:
		return concat(a, b)
	case op == "/" && e.lang == Python && a.f&fPath != 0:
		return joinPath([]val{a, b})
	case op == "%" && e.lang == Python && a.k == vStr:
		return pyPercent(a, b)
	case op == "+" && e.lang == Python && a.k == vList && b.k == vList:
		return list(append(append([]val(nil), a.el...), b.el...))
	case op == "||" || op == "or" || op == "??" || op == "//":
		if a.k == vStr && a.s != "" || a.truthy() {
			a.f |= b.taint()
			return a
		}
		b.f |= a.taint()
		return b
	}
	return dyn(a.taint() | b.taint())
}

// pyPercent applies Python's % formatting of literal %s fields.
func pyPercent(a, b val) val {
	args := []val{b}
	if b.k == vList {
		args = b.el
	}
	var out strings.Builder
	s := a.s
	k := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '%' || i+1 >= len(s) {
			out.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case '%':
			out.WriteByte('%')
		case 's', 'r', 'd', 'i':
			if k < len(args) {
				out.WriteString(args[k].text())
			} else {
				out.WriteString(Mark)
			}
			k++
		default:
			out.WriteString(Mark)
		}
	}
	v := str(out.String())
	v.f = a.taint() | b.taint()
	return v
}

func (e *ev) unary() (val, bool) {
	t := e.tok()
	switch t.k {
	case tOp:
		switch t.s {
		case "-", "+", "!", "~", "\\", "*", "**", "...", "&", "@", "not":
			e.i++
			v, ok := e.unary()
			if !ok {
				return dyn(0), true
			}
			if t.s == "!" || t.s == "-" || t.s == "~" {
				if v.k == vNum {
					return boolean(!v.b), true
				}
				return dyn(v.taint()), true
			}
			return v, true
		}
	case tIdent:
		switch t.s {
		case "not", "await", "new", "typeof", "void", "yield", "defined", "my", "our", "local", "state", "ref",
			"scalar", "clone", "lc", "uc", "chomp", "print", "puts", "p", "echo", "return", "raise", "throw", "die":
			if t.s == "new" && e.lang == Python || t.s == "p" && e.lang != Ruby || t.s == "print" && e.lang == Python && e.at(1).k == tOp && e.at(1).s == "(" {
				break
			}
			e.i++
			if t.s == "not" || t.s == "typeof" || t.s == "defined" {
				v, _ := e.unary()
				return dyn(v.taint()), true
			}
			v, ok := e.unary()
			if !ok {
				return dyn(0), true
			}
			return v, true
		}
	}
	v, ok := e.primary()
	if !ok {
		return v, false
	}
	return e.postfix(v), true
}

func (e *ev) primary() (val, bool) {
	t := e.tok()
	switch t.k {
	case tStr:
		e.i++
		return e.strVal(t), true
	case tNum:
		e.i++
		return number(t.s), true
	case tDyn:
		e.i++
		return str(Mark), true
	case tIdent:
		return e.identVal(), true
	case tOp:
		switch t.s {
		case "(":
			return e.paren(), true
		case "[":
			return e.listLit(), true
		case "{":
			if e.lang == R {
				c := e.closeOf(e.i)
				e.i++
				e.stmts(c)
				e.i = c + 1
				return dyn(0), true
			}
			return e.objLit(), true
		case "->":
			if e.lang == Ruby {
				e.i++
				if e.isOp("(") {
					e.i = e.closeOf(e.i) + 1
				}
				return e.blockBody(), true
			}
		case "\\":
			if e.lang == R && e.at(1).k == tOp && e.at(1).s == "(" {
				e.i++
				e.i = e.closeOf(e.i) + 1
				e.expr()
				return val{f: fFunc}, true
			}
		case "<":
			// Perl <STDIN>, <$fh>.
			if e.lang == Perl && e.at(2).k == tOp && e.at(2).s == ">" {
				e.i += 3
				return dyn(0), true
			}
		}
	}
	return dyn(0), false
}

func number(s string) val {
	v := val{k: vNum, s: s, b: true}
	z := strings.TrimLeft(s, "0.")
	if z == "" || z == "x" || z == "e" {
		v.b = false
	}
	return v
}

// strVal evaluates a string token: interpolated parts are evaluated in the
// current scope; backticks run a shell.
func (e *ev) strVal(t token) val {
	switch {
	case t.f&sRegex != 0:
		if t.f&sCode != 0 {
			// Perl s///e: the replacement is Perl code.
			if t.s == Mark {
				e.a.unknown("s///ee", "evaluates a computed replacement")
				e.a.facts.runsDyn = true
			} else if sub := e.sub(t.s); sub != nil {
				sub.stmts(len(sub.toks))
			}
		}
		return dyn(0)
	case t.f&sWords != 0:
		var el []val
		for _, w := range strings.Fields(t.s) {
			if len(el) >= maxList {
				break
			}
			el = append(el, str(w))
		}
		return list(el)
	case t.f&sSym != 0:
		return str(t.s)
	}
	v := str(t.s)
	if t.parts != nil {
		v = str("")
		for _, p := range t.parts {
			if !p.expr {
				v = concat(v, str(p.s))
				continue
			}
			v = concat(v, e.interp(p.s))
		}
	}
	if t.f&sCmd != 0 {
		return e.runShell(v, "`...`")
	}
	return v
}

// interp evaluates an interpolated expression's source.
func (e *ev) interp(src string) val {
	if e.nest >= maxExprNest {
		return dyn(0)
	}
	sub := e.sub(src)
	if sub == nil {
		e.a.unknown("", "code too large to read")
		return dyn(0)
	}
	v := sub.data(sub.expr())
	// Whatever else the expression does (calls inside ${...}).
	sub.stmts(len(sub.toks))
	return v
}

func (e *ev) identVal() val {
	t := e.tok()
	e.i++
	switch t.s {
	case "True", "true", "TRUE", "T", "$true":
		if t.s == "T" && e.lang != R {
			break
		}
		return boolean(true)
	case "False", "false", "FALSE", "F", "None", "nil", "null", "NULL", "undef", "undefined", "$false", "NA":
		if t.s == "F" && e.lang != R || t.s == "NA" && e.lang != R {
			break
		}
		return boolean(false)
	case "lambda":
		if e.lang == Python {
			return e.pyLambda()
		}
	case "function", "sub", "fn", "proc":
		if t.s == "proc" && e.lang != Ruby || t.s == "fn" && e.lang != PHP || t.s == "sub" && e.lang != Perl {
			break
		}
		return e.funcLit()
	case "eval", "do":
		if e.lang == Perl && e.isOp("{") {
			return dyn(0) // a block, not code in a string
		}
	}
	if e.lang == JavaScript && e.isOp("=>") {
		return e.arrowBody([]string{t.s})
	}
	if v, ok := e.syms[t.s]; ok {
		return v
	}
	switch e.lang {
	case Perl:
		switch t.s {
		case "$ENV", "%ENV":
			return name("ENV")
		}
		if strings.HasPrefix(t.s, "$") || strings.HasPrefix(t.s, "@") || strings.HasPrefix(t.s, "%") {
			return dyn(0)
		}
	case PHP:
		switch t.s {
		case "$_ENV", "$_SERVER":
			return name(t.s[1:])
		}
		if strings.HasPrefix(t.s, "$") {
			return dyn(0)
		}
	case Ruby:
		if strings.HasPrefix(t.s, "$") || strings.HasPrefix(t.s, "@") {
			return dyn(0)
		}
	}
	return name(t.s)
}

// funcLit reads a function literal (function (...) {...}, sub {...},
// Lua's function ... end, PHP's fn() => ...) and walks its body.
func (e *ev) funcLit() val {
	if e.tok().k == tIdent && e.lang != Perl {
		e.i++ // its name
	}
	var params []string
	if e.isOp("(") {
		c := e.closeOf(e.i)
		params = identsIn(e.toks[e.i+1 : c])
		e.i = c + 1
	}
	e.bindParams(params)
	switch {
	case e.isOp("=>"):
		e.i++
		e.expr()
	case e.lang == Lua || e.lang == R && !e.isOp("{"):
		if e.lang == Lua {
			end := e.blockEnd(e.i)
			e.stmts(end)
			e.i = min(end+1, e.end)
		} else {
			e.expr()
		}
	case e.isOp("{"):
		c := e.closeOf(e.i)
		e.i++
		e.stmts(c)
		e.i = c + 1
	}
	return val{f: fFunc}
}

func identsIn(ts []token) []string {
	var out []string
	depth := 0
	for k, t := range ts {
		switch {
		case t.k == tOp && (t.s == "(" || t.s == "[" || t.s == "{"):
			depth++
		case t.k == tOp && (t.s == ")" || t.s == "]" || t.s == "}"):
			depth--
		case t.k == tIdent && depth == 0 && (k == 0 || ts[k-1].k == tOp && ts[k-1].s == ","):
			out = append(out, t.s)
		}
		if len(out) >= 8 {
			break
		}
	}
	return out
}

// bindParams binds a lambda's first parameter to what the call it is
// given to iterates over.
func (e *ev) bindParams(params []string) {
	for k, p := range params {
		if k == 0 && e.iter != nil {
			e.bindName(p, *e.iter)
			e.iter = nil
			continue
		}
		e.bindName(p, dyn(0))
	}
	e.iter = nil
}

func (e *ev) pyLambda() val {
	start := e.i
	for e.i < e.end && !e.isOp(":") {
		e.i++
	}
	e.bindParams(identsIn(e.toks[start:e.i]))
	e.i++
	e.expr()
	return val{f: fFunc}
}

func (e *ev) arrowBody(params []string) val {
	e.i++ // =>
	e.bindParams(params)
	if e.isOp("{") {
		c := e.closeOf(e.i)
		e.i++
		e.stmts(c)
		e.i = c + 1
	} else {
		e.statement() // an expression, or an assignment (d += c)
	}
	return val{f: fFunc}
}

// blockBody reads a Ruby block ({ |x| ... } or do |x| ... end) and binds
// its first parameter to what the call iterates over.
func (e *ev) blockBody() val {
	var end int
	switch {
	case e.isOp("{"):
		end = e.closeOf(e.i)
	case e.isWord("do"):
		end = e.blockEnd(e.i + 1)
	default:
		return val{f: fFunc}
	}
	e.i++
	var params []string
	if e.isOp("|") {
		j := e.i + 1
		for j < end && !(e.toks[j].k == tOp && e.toks[j].s == "|") {
			if e.toks[j].k == tIdent {
				params = append(params, e.toks[j].s)
			}
			j++
		}
		e.i = j + 1
	}
	e.bindParams(params)
	e.stmts(end)
	e.i = min(end+1, max(e.end, e.i))
	return val{f: fFunc}
}

// blockEnd returns the index of the end keyword closing a Ruby or Lua
// block whose body starts at i: the end of the innermost block open at i
// (computed for every token at once, in two passes).
func (e *ev) blockEnd(i int) int {
	if e.ends == nil {
		e.blockEnds()
	}
	if i < len(e.ends) {
		if m := int(e.ends[i]); m >= i && m < e.end {
			return m
		}
	}
	return e.end
}

// blockEnds computes, for every token, the end keyword closing the
// innermost do/def/class/module/begin/case/function/if/while block open
// there (-1: none).
func (e *ev) blockEnds() {
	n := len(e.toks)
	closing := make([]int32, n) // for an opener, its end
	var stack []int
	opens := func(j int) bool {
		t := e.toks[j]
		if t.k != tIdent {
			return false
		}
		switch t.s {
		case "def", "class", "module", "begin", "case", "function":
			return true
		case "do":
			return !e.loopHeader(j)
		case "if", "unless", "while", "until", "for":
			return e.stmtStart(j)
		}
		return false
	}
	for j := range n {
		closing[j] = -1
		if opens(j) {
			stack = append(stack, j)
		} else if t := e.toks[j]; t.k == tIdent && t.s == "end" && len(stack) > 0 {
			closing[stack[len(stack)-1]] = int32(j)
			stack = stack[:len(stack)-1]
		}
	}
	e.ends = make([]int32, n)
	stack = stack[:0]
	for j := range n {
		e.ends[j] = -1
		if k := len(stack); k > 0 {
			e.ends[j] = closing[stack[k-1]]
		}
		if opens(j) {
			stack = append(stack, j)
		} else if t := e.toks[j]; t.k == tIdent && t.s == "end" && len(stack) > 0 {
			stack = stack[:len(stack)-1]
		}
	}
}

// loopHeader reports a do that belongs to a while, until or for header on
// the same statement.
func (e *ev) loopHeader(j int) bool {
	for k := j - 1; k >= 0 && j-k < 256; k-- {
		t := e.toks[k]
		if t.k == tNL || t.k == tOp && t.s == ";" {
			return false
		}
		if t.k == tIdent {
			switch t.s {
			case "while", "until", "for":
				return true
			case "do", "then", "end":
				return false
			}
		}
	}
	return false
}

func (e *ev) stmtStart(j int) bool {
	if j == 0 {
		return true
	}
	p := e.toks[j-1]
	return p.k == tNL || p.k == tOp && (p.s == ";" || p.s == "=" || p.s == "(" || p.s == "{") || p.k == tIdent && (p.s == "do" || p.s == "then" || p.s == "else")
}

// paren reads (...): a group, a tuple or list, arrow parameters, a
// generator.
func (e *ev) paren() val {
	c := e.closeOf(e.i)
	if e.lang == JavaScript && c+1 < e.end && e.toks[c+1].k == tOp && e.toks[c+1].s == "=>" {
		params := identsIn(e.toks[e.i+1 : c])
		e.i = c + 1
		return e.arrowBody(params)
	}
	return e.seq(c, false)
}

func (e *ev) listLit() val {
	return e.seq(e.closeOf(e.i), true)
}

// seq reads comma-separated expressions from the bracket at e.i to its
// partner c: a list, or (isList false and one element) the element.
func (e *ev) seq(c int, isList bool) val {
	open := e.i
	e.i++
	if e.lang == Python {
		if f := e.compFor(open, c); f > 0 {
			return list([]val{e.comprehension(open, f, c)})
		}
	}
	var el []val
	commas := false
	saved := e.end
	e.end = c
	for e.i < c {
		t := e.tok()
		if isSep(t) {
			commas = commas || t.s == ","
			e.i++
			continue
		}
		s := e.i
		v := e.expr()
		if stuck(&e.i, s) {
			continue
		}
		// key => value pairs (Perl lists, PHP arrays): keep the value.
		if e.isOp("=>") {
			e.i++
			v = e.expr()
		}
		if len(el) < maxList {
			el = append(el, e.data(v))
		}
	}
	e.end = saved
	e.i = c + 1
	if !isList && !commas && len(el) == 1 {
		return el[0]
	}
	if !isList && len(el) == 0 {
		return dyn(0)
	}
	return list(el)
}

// compFor returns the index of a Python comprehension's for between open
// and c, or 0.
func (e *ev) compFor(open, c int) int {
	for j := open + 1; j < c; j++ {
		if k, ok := e.pastNested(j); ok {
			j = k
			continue
		}
		t := e.toks[j]
		if t.k == tIdent && t.s == "for" {
			return j
		}
	}
	return 0
}

// comprehension reads a comprehension's for clauses (f to c) first,
// binding their variables, then the element before them (open+1 to f),
// and returns the element's value with e.i past c.
func (e *ev) comprehension(open, f, c int) val {
	saved := e.end
	e.end = c
	e.i = f
	for e.i < c {
		switch {
		case e.isWord("for"):
			e.i++
			start := e.i
			for e.i < c && !e.isWord("in") {
				e.i++
			}
			names := identsIn(e.toks[start:e.i])
			e.i++
			it := e.expr()
			e.bindIter(names, it)
			if it.f&fEndless != 0 {
				e.addLoop(open, c)
			}
		case e.isWord("if"), e.isWord("async"):
			e.i++
			e.expr()
		default:
			e.i++
		}
	}
	e.end = f
	e.i = open + 1
	el := e.expr()
	e.stmts(f)
	e.end = saved
	e.i = c + 1
	return el
}

// bindIter binds loop variables to the values a loop goes over.
func (e *ev) bindIter(names []string, it val) {
	if len(names) == 0 {
		return
	}
	it = e.data(it)
	if it.k == vList && len(it.el) > 0 && len(it.el) <= maxAlts {
		e.bindName(names[0], val{k: vList, alt: true, el: it.el})
	} else {
		v := dyn(it.taint())
		if it.k == vDyn && it.f&fPath != 0 {
			v.f |= fPath // for p in Path('.').rglob('*.pyc')
		}
		e.bindName(names[0], v)
	}
	for _, n := range names[1:] {
		e.bindName(n, dyn(it.taint()))
	}
}

// objLit reads {...} in an expression: an object, dict, hash or table;
// anything else in it is walked as statements (a block).
func (e *ev) objLit() val {
	c := e.closeOf(e.i)
	e.i++
	if e.lang == Python {
		if f := e.compFor(e.i-1, c); f > 0 {
			e.comprehension(e.i-1, f, c)
			return dyn(0)
		}
	}
	obj := val{k: vObj}
	saved := e.end
	e.end = c
	for e.nextItem(c) {
		t := e.tok()
		key, keyed := "", false
		if n := e.at(1); (t.k == tIdent || t.k == tStr || t.k == tNum) && n.k == tOp && (n.s == ":" || n.s == "=>" || n.s == "=" && (e.lang == Lua || e.lang == R)) {
			key, keyed = t.s, true
			e.i += 2
		} else if t.k == tOp && t.s == "[" && (e.lang == JavaScript || e.lang == Lua) {
			k := e.closeOf(e.i)
			if k+1 < c && e.toks[k+1].k == tOp && (e.toks[k+1].s == ":" || e.toks[k+1].s == "=") {
				e.i++
				kv := e.data(e.expr())
				key, keyed = kv.text(), true
				e.i = k + 2
			}
		}
		s := e.i
		v := e.expr()
		if e.i == s {
			e.stmts(c)
			break
		}
		if !keyed && t.k == tIdent && e.i == s+1 {
			key = t.s // shorthand {a}
		}
		if !keyed && (e.isOp(":") || e.isOp("=>")) {
			key = e.data(v).text()
			e.i++
			v = e.expr()
		}
		if len(obj.keys) < maxList {
			obj.keys = append(obj.keys, key)
			obj.el = append(obj.el, v)
		}
		if n := e.tok(); !(n.k == tNL || n.k == tOp && (n.s == "," || n.s == ";")) && e.i < c {
			e.stmts(c)
			break
		}
	}
	e.end = saved
	e.i = c + 1
	return obj
}

// postfix applies member access, calls, indexing and blocks to v.
func (e *ev) postfix(v val) val {
	for steps := 0; steps < 4096; steps++ {
		t := e.tok()
		if t.k == tOp {
			switch t.s {
			case ".", "?.", "::", "->", "$", "@":
				if (t.s == "$" || t.s == "@") && e.lang != R || t.s == "." && (e.lang == Perl || e.lang == PHP) {
					break
				}
				n := e.at(1)
				if n.k == tIdent {
					e.i += 2
					v = e.member(v, n.s)
					continue
				}
				if t.s == "->" && n.k == tOp && (n.s == "{" || n.s == "[" || n.s == "(") {
					e.i++
					continue
				}
			case ":":
				if e.lang == Lua && e.at(1).k == tIdent {
					e.i += 2
					v = e.member(v, e.at(-1).s)
					continue
				}
			case "(", "?.(":
				if v.k == vStr || v.k == vNum {
					break
				}
				if e.lang == Ruby && t.sp && v.k != vName && v.k != vMeth {
					break
				}
				v = e.call(v, e.callArgs(v))
				continue
			case "[":
				if (e.lang == Perl || e.lang == Ruby) && t.sp && e.isSink(v) {
					break // a parenless call with a list argument
				}
				v = e.index(v)
				continue
			case "{":
				if e.lang == Perl && !t.sp {
					v = e.index(v)
					continue
				}
				if e.lang == Ruby && (v.k == vName || v.k == vMeth || v.f&fProc != 0 || v.k == vDyn) {
					if v.k == vName && (v.s == "loop" || v.s == "Kernel.loop") {
						e.addLoop(e.i, e.closeOf(e.i))
					}
					iter := e.iterOf(v)
					if v.k == vName || v.k == vMeth {
						v = e.call(v, nil)
					}
					e.iter = iter
					e.blockBody()
					continue
				}
				if e.lang == Lua && (v.k == vName || v.k == vMeth) {
					v = e.call(v, []arg{{v: e.objLit()}})
					continue
				}
			}
		}
		if t.k == tStr && !t.sp && e.lang == JavaScript && (v.k == vName || v.k == vMeth) {
			e.i++
			v = e.tagged(v, t)
			continue
		}
		if t.k == tStr && e.lang == Lua && (v.k == vName || v.k == vMeth) {
			e.i++
			v = e.call(v, []arg{{v: e.strVal(t)}})
			continue
		}
		if e.lang == Ruby && t.k == tIdent && t.s == "do" && (v.k == vName || v.k == vMeth) {
			if v.k == vName && (v.s == "loop" || v.s == "Kernel.loop") {
				e.addLoop(e.i, e.blockEnd(e.i+1))
			}
			iter := e.iterOf(v)
			v = e.call(v, nil)
			e.iter = iter
			e.blockBody()
			continue
		}
		if e.lang == Perl && v.k == vName && (v.s == "system" || v.s == "exec") && t.k == tOp && t.s == "{" {
			// system { PROGRAM } ARGV0, ARGS...
			c := e.closeOf(e.i)
			e.i++
			saved := e.end
			e.end = c
			prog := e.data(e.expr())
			e.end = saved
			e.i = c + 1
			words := []Word{prog.word()}
			for k, a := range e.bareArgs() {
				if k > 0 {
					words = append(words, e.data(a.v).words()...)
				}
			}
			e.runArgv(words, v.s)
			v = dyn(fProc)
			continue
		}
		if (e.lang == Perl || e.lang == Ruby) && (v.k == vName || v.k == vMeth) && e.isSink(v) {
			var args []arg
			if e.startsArg(t) {
				args = e.bareArgs()
			}
			v = e.call(v, args)
			continue
		}
		break
	}
	return v
}

// iterOf returns what a method iterates over (each, map, forEach, then).
func (e *ev) iterOf(v val) *val {
	if v.k != vMeth {
		return nil
	}
	switch v.s {
	case "each", "map", "forEach", "flat_map", "each_with_index", "filter", "select", "then", "for_each":
		r := e.data(v.el[0])
		return &r
	case "on", "once", "addListener", "pipe":
		// A download's events carry remote content.
		if r := e.data(v.el[0]); r.f&fNet != 0 {
			d := dyn(fNet)
			return &d
		}
	}
	return nil
}

// startsArg reports a token that starts an argument of a call written
// without parentheses (Perl, Ruby).
func (e *ev) startsArg(t token) bool {
	switch t.k {
	case tStr, tNum, tDyn:
		return true
	case tIdent:
		switch t.s {
		case "if", "unless", "while", "until", "and", "or", "do", "then", "end", "for", "foreach", "rescue", "else", "elsif", "x", "eq", "ne", "in":
			return false
		}
		return true
	case tOp:
		switch t.s {
		case "(", "[", "*", "\\", "::":
			return t.sp || t.s != "("
		case "<":
			return e.lang == Perl
		}
	}
	return false
}

// bareArgs reads the arguments of a call without parentheses, up to the
// end of the statement or a modifier.
func (e *ev) bareArgs() []arg {
	var args []arg
	for e.i < e.end && len(args) < maxList {
		t := e.tok()
		if t.k == tNL || t.k == tOp && (t.s == ";" || t.s == ")" || t.s == "]" || t.s == "}") || t.k == tIdent && !e.startsArg(t) {
			break
		}
		if t.k == tOp && t.s == "," {
			e.i++
			continue
		}
		a := arg{}
		if n := e.at(1); (t.k == tIdent || t.k == tStr) && n.k == tOp && (n.s == "=>" || n.s == ":" && e.lang == Ruby) {
			a.name = t.s
			e.i += 2
		}
		s := e.i
		a.v = e.expr()
		if e.i == s {
			break
		}
		args = append(args, a)
		if !(e.isOp(",") || e.isOp("=>")) {
			break
		}
	}
	return args
}

// arg is one argument of a call: positional, or named (Python and R
// keywords, Ruby and PHP name: value, Perl and Ruby key => value).
type arg struct {
	name  string
	v     val
	splat bool
}

// callArgs reads a parenthesised argument list.
func (e *ev) callArgs(callee val) []arg {
	open := e.i
	c := e.closeOf(e.i)
	e.i++
	var args []arg
	if e.lang == Python {
		if f := e.compFor(open, c); f > 0 {
			return []arg{{v: list([]val{e.comprehension(open, f, c)})}}
		}
	}
	iter := e.iterOf(callee)
	if iter == nil && callee.k == vName && e.lookup(callee.s).op == opFetch {
		// https.get(url, res => ...): the callback gets the response.
		d := dyn(fNet)
		iter = &d
	}
	saved := e.end
	e.end = c
	for e.nextItem(c) {
		t := e.tok()
		a := arg{}
		if n := e.at(1); (t.k == tIdent || t.k == tStr) && n.k == tOp && (n.s == "=" && (e.lang == Python || e.lang == R) ||
			n.s == ":" && (e.lang == Ruby || e.lang == PHP) || n.s == "=>" && (e.lang == Perl || e.lang == Ruby || e.lang == PHP)) {
			a.name = t.s
			e.i += 2
		} else if t.k == tOp && (t.s == "*" || t.s == "**" || t.s == "..." || t.s == "&") {
			a.splat = true
			e.i++
		}
		if iter != nil {
			e.iter = iter
		}
		s := e.i
		a.v = e.expr()
		e.iter = nil
		if stuck(&e.i, s) {
			continue
		}
		if len(args) < maxList {
			args = append(args, a)
		}
	}
	e.end = saved
	e.i = c + 1
	return args
}

// index applies [key] (or Perl's {key}) to v.
func (e *ev) index(v val) val {
	c := e.closeOf(e.i)
	inner := e.toks[min(e.i+1, c):c]
	e.i++
	// Python s[::-1] reverses a string.
	if e.lang == Python && (len(inner) == 4 && inner[0].s == ":" && inner[1].s == ":" && inner[2].s == "-" && inner[3].s == "1" ||
		len(inner) == 3 && inner[0].s == "::" && inner[1].s == "-" && inner[2].s == "1") {
		e.i = c + 1
		d := e.data(v)
		if d.k == vStr {
			r := []rune(d.s)
			for a, b := 0, len(r)-1; a < b; a, b = a+1, b-1 {
				r[a], r[b] = r[b], r[a]
			}
			out := str(string(r))
			out.f = d.taint() | fDecoded
			return out
		}
		return dyn(d.taint())
	}
	var key val
	if len(inner) == 1 && inner[0].k == tIdent && e.lang == Perl {
		key = str(inner[0].s) // $ENV{HOME}
		e.i = c
	} else {
		saved := e.end
		e.end = c
		key = e.data(e.expr())
		e.stmts(c)
		e.end = saved
	}
	e.i = c + 1
	switch v.k {
	case vName:
		if key.known() {
			return name(v.s + "." + key.text())
		}
		if v.s == "ENV" || v.s == "os.environ" || v.s == "process.env" || v.s == "_ENV" || v.s == "_SERVER" {
			return dyn(0)
		}
		return dyn(0)
	case vList:
		if key.k == vNum {
			n := 0
			for _, c := range key.s {
				if c < '0' || c > '9' {
					n = -1
					break
				}
				n = n*10 + int(c-'0')
				if n > maxList {
					break
				}
			}
			if n >= 0 && n < len(v.el) {
				return v.el[n]
			}
		}
	case vObj:
		if m, ok := v.get(key.text()); ok {
			return m
		}
	}
	d := e.data(v)
	out := dyn(d.taint())
	out.why = d.why
	return out
}

// member returns v.m: a longer name for a module or name, a method of a
// value otherwise.
func (e *ev) member(v val, m string) val {
	switch v.k {
	case vName:
		return name(v.s + "." + m)
	case vObj:
		if x, ok := v.get(m); ok {
			return x
		}
	}
	return method(v, m)
}

// data returns what a value is as data: the constant a name stands for
// (process.env.HOME, os.sep), the property of a value, the value itself.
func (e *ev) data(v val) val {
	switch v.k {
	case vName:
		return e.resolve(v.s)
	case vMeth:
		return e.property(v)
	}
	return v
}

// tagged applies a JavaScript tagged template: Bun's $`...` and zx's run
// a shell command.
func (e *ev) tagged(tag val, t token) val {
	n := tag.s
	if tag.k == vMeth {
		n = "." + n
	}
	switch n {
	case "$", "Bun.$", "$.sync", "execa", "execaSync", "$$", ".$", "execaCommand":
		return e.runShell(e.strVal(t), n+"`...`")
	}
	return e.strVal(t)
}

// runShell records a shell command line the code runs and returns its
// output.
func (e *ev) runShell(cmd val, call string) val {
	cmd = e.data(cmd)
	for _, c := range cmd.alts() {
		txt := c.text()
		f := Finding{Kind: Shell, Text: txt, Call: call, Dynamic: strings.Contains(txt, Mark)}
		e.a.add(f)
		e.a.facts.runs = true
		if f.Dynamic {
			e.a.facts.runsDyn = true
		}
		if w, _, _ := strings.Cut(strings.TrimSpace(txt), " "); isShellProgram(w) || strings.Contains(txt, " -i") {
			e.a.facts.shell = true
		}
	}
	if isDownloader(cmd.text()) {
		e.a.facts.fetch = true
		return dyn(fNet)
	}
	return dyn(cmd.taint() | fProc)
}

// runArgv records a program the code runs with an argument list.
func (e *ev) runArgv(words []Word, call string) {
	if len(words) == 0 {
		return
	}
	e.a.addRun(Finding{Kind: Exec, Argv: words, Call: call, Dynamic: words[0].Dynamic})
	if isShellProgram(words[0].Text) {
		for _, w := range words[1:] {
			if w.Text == "-c" || w.Text == "/c" {
				return
			}
		}
	}
}

// nextItem moves past separators and reports whether an item starts
// before c.
func (e *ev) nextItem(c int) bool {
	for e.i < c && isSep(e.tok()) {
		e.i++
	}
	return e.i < c
}

// isSep reports a separator between the items of a list, an object or a
// call's arguments: a comma, a semicolon or a newline.
func isSep(t token) bool {
	return t.k == tNL || t.k == tOp && (t.s == "," || t.s == ";")
}

// pastNested returns, for a bracket that opens at j, the index of the one
// that closes it (j when none does), and false for any other token.
func (e *ev) pastNested(j int) (int, bool) {
	t := e.toks[j]
	if t.k == tOp && (t.s == "(" || t.s == "[" || t.s == "{") {
		if m := int(e.match[j]); m > j {
			return m, true
		}
		return j, true
	}
	return j, false
}

// stuck reports that a parsing step made no progress from s, and then
// moves past one token so that the loop around it advances.
func stuck(i *int, s int) bool {
	if *i == s {
		*i++
		return true
	}
	return false
}
