package interp

import (
	"strings"
	"unicode/utf16"
)

// PowerShell: statements of pipelines of commands and expressions. The
// analyser reads Remove-Item and its aliases (with what Get-ChildItem
// feeds them), Invoke-Expression (iex) of literals, downloads and piped
// input, Invoke-WebRequest/Invoke-RestMethod, New-Object Net.WebClient and
// Net.Sockets.TcpClient, Start-Process, the & and . operators, file
// writes, .NET static calls ([IO.File]::Delete, [IO.Directory]::Delete,
// [Convert]::FromBase64String, [Text.Encoding]::Unicode.GetString,
// [ScriptBlock]::Create), and runs native commands as argvs.

type pkind uint8

const (
	pEOF pkind = iota
	pWord
	pVar
	pStr
	pNum
	pOp
	pNL
	pType
)

type ptok struct {
	k     pkind
	sp    bool
	s     string
	parts []part // an expandable string's parts
}

func lexPwsh(src string) []ptok {
	var out []ptok
	sp := false
	emit := func(t ptok) {
		t.sp = sp
		sp = false
		out = append(out, t)
	}
	i := 0
	for i < len(src) {
		c := src[i]
		start := i
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
			sp = true
		case c == '`' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r'):
			i += 2
			sp = true
		case c == '\n' || c == ';':
			i++
			if n := len(out); n == 0 || out[n-1].k != pNL {
				emit(ptok{k: pNL})
			}
			sp = true
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "<#"):
			j := strings.Index(src[i+2:], "#>")
			if j < 0 {
				i = len(src)
			} else {
				i += j + 4
			}
			sp = true
		case c == '\'' || strings.HasPrefix(src[i:], "‘") || strings.HasPrefix(src[i:], "’"):
			i++
			if c != '\'' {
				i += 2
			}
			var b strings.Builder
			for i < len(src) {
				if src[i] == '\'' {
					if i+1 < len(src) && src[i+1] == '\'' {
						b.WriteByte('\'')
						i += 2
						continue
					}
					i++
					break
				}
				b.WriteByte(src[i])
				i++
			}
			emit(ptok{k: pStr, s: b.String()})
		case c == '"' || strings.HasPrefix(src[i:], "“") || strings.HasPrefix(src[i:], "”"):
			if c != '"' {
				i += 2
			}
			i++
			j := i
			for j < len(src) && src[j] != '"' {
				if src[j] == '`' {
					j++
				} else if src[j] == '$' && j+1 < len(src) && src[j+1] == '(' {
					j = parenEnd(src, j+1) - 1
				}
				j++
			}
			raw := src[i:min(j, len(src))]
			i = min(j+1, len(src))
			emit(pwshExpandable(raw))
		case c == '@' && (strings.HasPrefix(src[i:], "@'\n") || strings.HasPrefix(src[i:], "@'\r\n") || strings.HasPrefix(src[i:], "@\"\n") || strings.HasPrefix(src[i:], "@\"\r\n")):
			q := src[i+1]
			body := i + strings.IndexByte(src[i:], '\n') + 1
			end := strings.Index(src[body:], "\n"+string(q)+"@")
			var raw string
			if end < 0 {
				raw = src[body:]
				i = len(src)
			} else {
				raw = src[body : body+end]
				i = body + end + 3
			}
			if q == '\'' {
				emit(ptok{k: pStr, s: strings.TrimSuffix(raw, "\r")})
			} else {
				emit(pwshExpandable(raw))
			}
		case c == '$':
			switch {
			case i+1 < len(src) && src[i+1] == '(':
				i += 2
				emit(ptok{k: pOp, s: "$("})
			case i+1 < len(src) && src[i+1] == '{':
				j := strings.IndexByte(src[i:], '}')
				if j < 0 {
					j = len(src) - i
				}
				emit(ptok{k: pVar, s: strings.ToLower(src[i+2 : i+j])})
				i += j + 1
			default:
				j := i + 1
				for j < len(src) && (isIdentByte(src[j]) && src[j] < 0x80 || src[j] == ':' && j+1 < len(src) && isIdentStart(src[j+1])) {
					j++
				}
				if j == i+1 && j < len(src) && strings.IndexByte("_$?^", src[j]) >= 0 {
					j++
				}
				emit(ptok{k: pVar, s: strings.ToLower(src[i+1 : j])})
				i = j
			}
		case c == '@' && i+1 < len(src) && (src[i+1] == '(' || src[i+1] == '{'):
			emit(ptok{k: pOp, s: src[i : i+2]})
			i += 2
		case c == '[' && !(len(out) > 0 && !sp && (out[len(out)-1].k == pVar || out[len(out)-1].k == pOp && (out[len(out)-1].s == ")" || out[len(out)-1].s == "]"))):
			j := i + 1
			depth := 1
			for j < len(src) && depth > 0 {
				switch src[j] {
				case '[':
					depth++
				case ']':
					depth--
				}
				if depth > 0 && !(isIdentByte(src[j]) || strings.IndexByte(".`,[] ", src[j]) >= 0) {
					break
				}
				j++
			}
			if depth == 0 && j > i+2 {
				emit(ptok{k: pType, s: strings.TrimPrefix(strings.ToLower(strings.TrimSpace(src[i+1:j-1])), "system.")})
				i = j
			} else {
				emit(ptok{k: pOp, s: "["})
				i++
			}
		case strings.IndexByte("/*%+!=", c) >= 0 && i+1 < len(src) && (isIdentByte(src[i+1]) && !isDigit(src[i+1]) || strings.IndexByte("./\\~-", src[i+1]) >= 0) && !(c == '=' && src[i+1] == '='):
			// A bare word: /etc/passwd, *.log, +x.
			j := i
			for j < len(src) && strings.IndexByte(" \t\r\n;(){}|,'\"&", src[j]) < 0 && !(src[j] == '$' && j > i) && !(src[j] == '>' && j > i) {
				j++
			}
			emit(ptok{k: pWord, s: src[i:j]})
			i = j
		case strings.IndexByte("(){}[],|=+*/%!", c) >= 0:
			s := src[i : i+1]
			if i+1 < len(src) && (c == '|' && src[i+1] == '|' || c == '+' && src[i+1] == '=') {
				s = src[i : i+2]
			}
			emit(ptok{k: pOp, s: s})
			i += len(s)
		case c == '&':
			s := "&"
			if strings.HasPrefix(src[i:], "&&") {
				s = "&&"
			}
			emit(ptok{k: pOp, s: s})
			i += len(s)
		case c == ':' && strings.HasPrefix(src[i:], "::"):
			emit(ptok{k: pOp, s: "::"})
			i += 2
		case c == '.' && (strings.HasPrefix(src[i:], "..") && !strings.HasPrefix(src[i:], "../") && !strings.HasPrefix(src[i:], `..\`)):
			emit(ptok{k: pOp, s: ".."})
			i += 2
		case c == '.' && i+1 < len(src) && isIdentStart(src[i+1]) && !sp && len(out) > 0 && (out[len(out)-1].k == pVar || out[len(out)-1].k == pType || out[len(out)-1].k == pStr || out[len(out)-1].k == pOp && (out[len(out)-1].s == ")" || out[len(out)-1].s == "]")):
			emit(ptok{k: pOp, s: "."})
			i++
		case c == '.' && i+1 < len(src) && (src[i+1] == ' ' || src[i+1] == '\t') && (len(out) == 0 || out[len(out)-1].k == pNL || out[len(out)-1].k == pOp && (out[len(out)-1].s == "{" || out[len(out)-1].s == "|")):
			emit(ptok{k: pOp, s: ". "})
			i++
		case c == '>' || c == '2' && i+1 < len(src) && src[i+1] == '>' || c == '*' && i+1 < len(src) && src[i+1] == '>':
			j := i
			for j < len(src) && strings.IndexByte("0123456789*>&", src[j]) >= 0 {
				j++
			}
			emit(ptok{k: pOp, s: src[i:j]})
			i = j
		case c == '-' && i+1 < len(src) && isDigit(src[i+1]) || isDigit(c):
			j := i + 1
			for j < len(src) && (isIdentByte(src[j]) || src[j] == '.' && j+1 < len(src) && isDigit(src[j+1])) {
				j++
			}
			if j < len(src) && strings.IndexByte(" \t\r\n;)}|,", src[j]) < 0 && src[j] != ']' && !strings.HasPrefix(src[j:], "..") {
				// 7z, 2to3, ./x: a word.
				for j < len(src) && strings.IndexByte(" \t\r\n;(){}|,'\"$", src[j]) < 0 {
					j++
				}
				emit(ptok{k: pWord, s: src[i:j]})
			} else {
				emit(ptok{k: pNum, s: src[i:j]})
			}
			i = j
		default:
			j := i
			for j < len(src) && strings.IndexByte(" \t\r\n;(){}|,'\"&", src[j]) < 0 && !(src[j] == '$' && j > i) && !(src[j] == '>' && j > i) {
				if src[j] == '`' && j+1 < len(src) {
					j++
				}
				if src[j] == '[' && j > i && strings.HasPrefix(src[i:], "-") {
					break
				}
				j++
			}
			if j == i {
				j = i + 1
			}
			emit(ptok{k: pWord, s: src[i:j]})
			i = j
		}
		if i == start {
			i++
		}
		if len(out) > MaxCode {
			break
		}
	}
	return out
}

// parenEnd returns the index after the ) closing the ( at open.
//
// Its own loop, not closeEnd's: nested $( ) in strings make this scan the
// hot path of PowerShell's analysis, where a switch on constants is a
// quarter faster; and not inlined, where its loop measured a fifth slower.
//
//go:noinline
func parenEnd(src string, open int) int {
	depth := 0
	for j := open; j < len(src); j++ {
		switch src[j] {
		case '`':
			j++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j + 1
			}
		case '\'', '"':
			q := src[j]
			for j++; j < len(src) && src[j] != q; j++ {
			}
		}
	}
	return len(src)
}

// pwshExpandable splits a double-quoted string into literal parts and
// $var, ${var}, $(...) expressions.
func pwshExpandable(raw string) ptok {
	var parts []part
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, part{s: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '`' && i+1 < len(raw):
			i++
			lit.WriteByte(escapeLetter(raw[i], "ntr0"))
		case c == '"' && i+1 < len(raw) && raw[i+1] == '"':
			lit.WriteByte('"')
			i++
		case c == '$' && i+1 < len(raw) && raw[i+1] == '(':
			end := parenEnd(raw, i+1)
			flush()
			parts = append(parts, part{s: raw[i:end], expr: true})
			i = end - 1
		case c == '$' && i+1 < len(raw) && raw[i+1] == '{':
			end := strings.IndexByte(raw[i:], '}')
			if end < 0 {
				lit.WriteByte(c)
				continue
			}
			flush()
			parts = append(parts, part{s: raw[i : i+end+1], expr: true})
			i += end
		case c == '$' && i+1 < len(raw) && (isIdentStart(raw[i+1]) || raw[i+1] == '_'):
			j := i + 1
			for j < len(raw) && (isIdentByte(raw[j]) && raw[j] < 0x80 || raw[j] == ':' && j+1 < len(raw) && isIdentStart(raw[j+1])) {
				j++
			}
			flush()
			parts = append(parts, part{s: raw[i:j], expr: true})
			i = j - 1
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	if len(parts) == 1 && !parts[0].expr {
		return ptok{k: pStr, s: parts[0].s}
	}
	if len(parts) == 0 {
		return ptok{k: pStr}
	}
	return ptok{k: pStr, parts: parts}
}

type pwParser struct {
	a     *analysis
	depth int
	toks  []ptok
	match []int32
	i     int
	end   int
	nest  int
	syms  map[string]val
	loops *[][2]int
	forks *[]int
}

func (a *analysis) pwsh(code string, depth int) {
	p := newPw(a, depth, code, map[string]val{}, new([][2]int), new([]int))
	if p == nil {
		return
	}
	p.statements(len(p.toks))
	for _, f := range *p.forks {
		for _, l := range *p.loops {
			if f >= l[0] && f <= l[1] {
				a.add(Finding{Kind: ForkBomb, Text: "starts processes in an endless loop"})
				return
			}
		}
	}
}

func newPw(a *analysis, depth int, code string, syms map[string]val, loops *[][2]int, forks *[]int) *pwParser {
	toks := lexPwsh(code)
	m := pairBrackets(len(toks), func(i int) int {
		if toks[i].k == pOp {
			switch toks[i].s {
			case "(", "{", "[", "$(", "@(", "@{":
				return 1
			case ")", "}", "]":
				return -1
			}
		}
		return 0
	})
	return &pwParser{a: a, depth: depth, toks: toks, match: m, end: len(toks), syms: syms, loops: loops, forks: forks}
}

func (p *pwParser) tok() ptok {
	if p.i < p.end {
		return p.toks[p.i]
	}
	return ptok{}
}

func (p *pwParser) at(k int) ptok {
	if p.i+k < p.end {
		return p.toks[p.i+k]
	}
	return ptok{}
}

func (p *pwParser) isOp(s string) bool { t := p.tok(); return t.k == pOp && t.s == s }

func (p *pwParser) closeOf(i int) int {
	if m := int(p.match[i]); m > i && m < p.end {
		return m
	}
	return p.end
}

func (p *pwParser) statements(end int) val {
	saved := p.end
	p.end = min(end, saved)
	var last val
	for p.i < p.end {
		s := p.i
		if t := p.tok(); t.k == pNL || t.k == pOp && (t.s == "}" || t.s == ")" || t.s == "&&" || t.s == "||") {
			p.i++
			continue
		}
		last = p.statement()
		if p.i == s {
			p.i++
		}
	}
	p.end = saved
	return last
}

// block walks a { ... } block at p.i and moves past it.
func (p *pwParser) block() {
	if !p.isOp("{") {
		return
	}
	c := p.closeOf(p.i)
	p.i++
	p.statements(c)
	p.i = c + 1
}

// parenCond reads ( ... ) and returns its value.
func (p *pwParser) parenCond() val {
	if !p.isOp("(") {
		return dyn(0)
	}
	c := p.closeOf(p.i)
	p.i++
	v := p.statements(c)
	p.i = c + 1
	return v
}

func (p *pwParser) statement() val {
	if p.nest >= maxExprNest {
		p.a.unknown("", "code nested too deeply to read")
		p.i = p.end
		return dyn(0)
	}
	p.nest++
	defer func() { p.nest-- }()
	t := p.tok()
	if t.k == pWord {
		switch strings.ToLower(t.s) {
		case "function", "filter", "workflow":
			p.i++
			if p.tok().k == pWord {
				p.i++
			}
			if p.isOp("(") {
				p.i = p.closeOf(p.i) + 1
			}
			p.block()
			return dyn(0)
		case "param":
			p.i++
			if p.isOp("(") {
				p.i = p.closeOf(p.i) + 1
			}
			return dyn(0)
		case "if", "elseif", "switch":
			p.i++
			for p.tok().k == pWord && strings.HasPrefix(p.tok().s, "-") {
				p.i++
			}
			p.parenCond()
			p.block()
			return dyn(0)
		case "else", "try", "finally", "begin", "process", "end", "dynamicparam", "trap":
			p.i++
			for p.tok().k == pType {
				p.i++
			}
			p.block()
			return dyn(0)
		case "catch":
			p.i++
			for p.tok().k == pType || p.isOp(",") {
				p.i++
			}
			p.block()
			return dyn(0)
		case "while":
			start := p.i
			p.i++
			forks := len(*p.forks)
			c := p.parenCond()
			endless := c.truthy() || len(*p.forks) > forks
			if endless && p.isOp("{") {
				p.addLoop(start, p.closeOf(p.i))
			}
			p.block()
			return dyn(0)
		case "for":
			start := p.i
			p.i++
			endless := false
			if p.isOp("(") {
				c := p.closeOf(p.i)
				semis := 0
				empty := false
				for j := p.i + 1; j < c; j++ {
					if p.toks[j].k == pNL {
						semis++
						if semis == 2 && p.toks[j-1].k == pNL {
							empty = true
						}
					}
				}
				endless = semis == 2 && empty || semis == 0 && c == p.i+1
				p.i++
				p.statements(c)
				p.i = c + 1
			}
			if endless && p.isOp("{") {
				p.addLoop(start, p.closeOf(p.i))
			}
			p.block()
			return dyn(0)
		case "foreach":
			if n := p.at(1); n.k == pOp && n.s == "(" {
				p.i++
				c := p.closeOf(p.i)
				p.i++
				var v string
				if p.tok().k == pVar {
					v = p.tok().s
					p.i++
				}
				if p.tok().k == pWord && strings.EqualFold(p.tok().s, "in") {
					p.i++
				}
				it := p.inside(c, p.pipeline)
				p.bindIter(v, it)
				p.block()
				return dyn(0)
			}
		case "do":
			start := p.i
			p.i++
			bodyEnd := p.i
			if p.isOp("{") {
				bodyEnd = p.closeOf(p.i)
			}
			forks := len(*p.forks)
			p.block()
			if w := p.tok(); w.k == pWord && (strings.EqualFold(w.s, "while") || strings.EqualFold(w.s, "until")) {
				until := strings.EqualFold(w.s, "until")
				p.i++
				c := p.parenCond()
				if !until && c.truthy() || until && c.k == vNum && !c.b || len(*p.forks) > forks {
					p.addLoop(start, max(bodyEnd, p.i))
				}
			}
			return dyn(0)
		case "return", "throw", "exit", "break", "continue":
			p.i++
			return p.pipeline()
		}
	}
	if t.k == pOp && t.s == "{" {
		p.block()
		return dyn(0)
	}
	// $x = pipeline, [type]$x = ..., $x += ...
	if t.k == pType && p.at(1).k == pVar && p.at(2).k == pOp && p.at(2).s == "=" {
		p.i++
		t = p.tok()
	}
	if t.k == pVar {
		if n := p.at(1); n.k == pOp && (n.s == "=" || n.s == "+=") {
			p.i += 2
			v := p.pipeline()
			if n.s == "=" && len(p.syms) < maxSyms {
				p.syms[t.s] = v
			}
			return v
		}
	}
	return p.pipeline()
}

func (p *pwParser) addLoop(from, to int) {
	if len(*p.loops) < 64 {
		*p.loops = append(*p.loops, [2]int{from, to})
	}
}

func (p *pwParser) bindIter(name string, it val) {
	if name == "" || len(p.syms) >= maxSyms {
		return
	}
	if it.k == vList && len(it.el) > 0 && len(it.el) <= maxAlts {
		p.syms[name] = val{k: vList, alt: true, el: it.el}
	} else {
		p.syms[name] = dyn(it.taint())
	}
}

// pcmd is a command's arguments as written: parameters (-Name, with the
// value attached by -Name:value) and values, in order.
type pitem struct {
	param    string // lower case, without the dash; "" for a value
	raw      string // the text as written (for native commands)
	v        val
	attached bool
}

type pcmd struct {
	name  string
	items []pitem
	input val
	piped bool
}

// pipeline reads commands and expressions joined by |.
func (p *pwParser) pipeline() val {
	var in val
	piped := false
	var prev *pcmd
	for steps := 0; steps < 1024; steps++ {
		out, cmd := p.element(in, piped, prev)
		if !p.isOp("|") {
			return out
		}
		p.i++
		for p.tok().k == pNL {
			p.i++
		}
		in, piped, prev = out, true, cmd
	}
	return in
}

func (p *pwParser) atEnd() bool {
	t := p.tok()
	return t.k == pEOF || t.k == pNL || t.k == pOp && (t.s == "|" || t.s == ")" || t.s == "}" || t.s == "&&" || t.s == "||" || t.s == "]")
}

// element reads one pipeline element: a command or an expression.
func (p *pwParser) element(in val, piped bool, prev *pcmd) (val, *pcmd) {
	t := p.tok()
	switch {
	case t.k == pWord && !(strings.HasPrefix(t.s, "-") && len(t.s) > 1):
		p.i++
		return p.command(t.s, in, piped, prev)
	case t.k == pOp && (t.s == "%" || t.s == "?") && p.at(1).k == pOp && p.at(1).s == "{":
		p.i++
		return p.command(t.s, in, piped, prev)
	case t.k == pOp && (t.s == "&" || t.s == ". "):
		p.i++
		target := p.argValue()
		if target.f&fFunc != 0 {
			p.evalCode(target, "&")
			p.args()
			return dyn(0), nil
		}
		if target.known() {
			return p.command(target.s, in, piped, prev)
		}
		p.args()
		p.a.unknown("&", "runs a command whose name is computed")
		p.a.facts.runsDyn = true
		return dyn(0), nil
	}
	v := p.exprList()
	p.redirects()
	return v, nil
}

// inside reads one item that ends at the bracket at c, and moves past it.
func (p *pwParser) inside(c int, item func() val) val {
	saved := p.end
	p.end = c
	v := item()
	p.end = saved
	p.i = c + 1
	return v
}

// commaList reads an item, or an array of them separated by commas.
func (p *pwParser) commaList(item func() val) val {
	v := item()
	if !p.isOp(",") {
		return v
	}
	el := []val{v}
	for p.isOp(",") && len(el) < maxList {
		p.i++
		el = append(el, item())
	}
	return list(el)
}

// exprList reads an expression or an array of them ('a', 'b').
func (p *pwParser) exprList() val { return p.commaList(p.expr) }

// redirects reads > PATH and >> PATH after an element.
func (p *pwParser) redirects() {
	for t := p.tok(); t.k == pOp && strings.Contains(t.s, ">"); t = p.tok() {
		p.i++
		if strings.Contains(t.s, "&") {
			continue
		}
		target := p.argValue()
		w := target.word()
		if target.k == vStr && !w.Dynamic && w.Text != "" && w.Text != "$null" {
			p.a.add(Finding{Kind: Write, Path: w, Append: strings.Contains(t.s, ">>"), Call: "redirection"})
		}
	}
}

// args reads a command's arguments.
func (p *pwParser) args() []pitem {
	var items []pitem
	for !p.atEnd() && len(items) < maxList {
		t := p.tok()
		if t.k == pOp && strings.Contains(t.s, ">") {
			p.redirects()
			continue
		}
		if t.k == pWord && len(t.s) > 1 && t.s[0] == '-' && (isIdentStart(t.s[1]) || t.s[1] == '-') {
			p.i++
			name := strings.ToLower(strings.TrimLeft(t.s, "-"))
			it := pitem{param: name, raw: t.s}
			if strings.HasSuffix(name, ":") {
				it.param = strings.TrimSuffix(name, ":")
				it.attached = true
				it.v = p.argValue()
			}
			if strings.HasPrefix(t.s, "--") {
				it = pitem{raw: t.s, v: str(t.s)}
			}
			items = append(items, it)
			continue
		}
		s := p.i
		v := p.argValue()
		if stuck(&p.i, s) {
			continue
		}
		raw := ""
		if t.k == pWord {
			raw = t.s
		}
		items = append(items, pitem{raw: raw, v: v})
	}
	return items
}

// argValue reads one argument value (with a comma list).
func (p *pwParser) argValue() val { return p.commaList(p.argPrimary) }

func (p *pwParser) argPrimary() val {
	t := p.tok()
	if t.k == pOp && (t.s == "/" || t.s == "*") {
		p.i++
		return str(t.s)
	}
	if t.k == pWord && !(strings.HasPrefix(t.s, "-") && len(t.s) > 1 && isIdentStart(t.s[1])) {
		p.i++
		v := str(strings.ReplaceAll(t.s, "`", ""))
		if t.s == "~" || strings.HasPrefix(t.s, "~/") || strings.HasPrefix(t.s, `~\`) {
			v.f |= fPath
		}
		return v
	}
	if t.k == pEOF || t.k == pNL {
		return dyn(0)
	}
	return p.postfix(p.primary())
}

// expr reads an expression: operands joined by operators.
func (p *pwParser) expr() val {
	v := p.unary()
	for steps := 0; steps < 4096; steps++ {
		t := p.tok()
		op := ""
		switch {
		case t.k == pOp && (t.s == "+" || t.s == "*" || t.s == "/" || t.s == "%" || t.s == ".."):
			op = t.s
		case t.k == pWord && len(t.s) > 1 && t.s[0] == '-' && isIdentStart(t.s[1]):
			op = strings.ToLower(t.s)
		case t.k == pNum && strings.HasPrefix(t.s, "-"):
			op = "-"
			p.toks[p.i].s = t.s[1:]
			p.i--
		default:
			return v
		}
		p.i++
		if op == "-not" {
			return v
		}
		w := p.unary()
		switch op {
		case "+":
			if v.k == vStr || w.k == vStr {
				v = concat(v, w)
			} else {
				v = dyn(v.taint() | w.taint())
			}
		case "-f":
			args := []val{w}
			if w.k == vList {
				args = w.el
			}
			if v.k == vStr {
				v = pyFormat(v, args)
			} else {
				v = dyn(v.taint() | w.taint())
			}
		case "-join":
			if v.k == vList {
				v = joinVals(v.el, w.text())
			} else {
				v = dyn(v.taint() | w.taint())
			}
		case "-replace", "-creplace", "-ireplace":
			if v.known() && w.k == vList && len(w.el) == 2 && w.el[0].known() && w.el[1].known() && w.el[0].s != "" {
				v = str(strings.ReplaceAll(v.s, w.el[0].s, w.el[1].s))
			} else {
				v = dyn(v.taint() | w.taint())
			}
		default:
			v = dyn(v.taint() | w.taint())
		}
	}
	return v
}

func (p *pwParser) unary() val {
	t := p.tok()
	switch {
	case t.k == pOp && (t.s == "!" || t.s == ","):
		p.i++
		return dyn(p.unary().taint())
	case t.k == pWord && (strings.EqualFold(t.s, "-not") || strings.EqualFold(t.s, "-bnot")):
		p.i++
		return dyn(p.unary().taint())
	case t.k == pType && !(p.at(1).k == pOp && p.at(1).s == "::"):
		// A cast: [string]$x, [scriptblock]::..., [char]114
		p.i++
		v := p.unary()
		if t.s == "char" && v.k == vNum {
			if n := parseInt(v.s); n >= 0 && n < 0x110000 {
				return val{k: vStr, s: string(rune(n)), f: fDecoded}
			}
		}
		return v
	}
	return p.postfix(p.primary())
}

func (p *pwParser) primary() val {
	t := p.tok()
	switch t.k {
	case pStr:
		p.i++
		if t.parts == nil {
			return str(t.s)
		}
		v := str("")
		for _, pt := range t.parts {
			if !pt.expr {
				v = concat(v, str(pt.s))
				continue
			}
			v = concat(v, p.sub(pt.s))
		}
		return v
	case pVar:
		p.i++
		return p.variable(t.s)
	case pNum:
		p.i++
		return number(strings.TrimPrefix(t.s, "-"))
	case pType:
		p.i++
		return name(t.s)
	case pWord:
		p.i++
		return str(t.s)
	case pOp:
		switch t.s {
		case "(", "$(", "@(":
			c := p.closeOf(p.i)
			p.i++
			v := p.statements(c)
			p.i = c + 1
			return v
		case "@{":
			c := p.closeOf(p.i)
			p.i++
			obj := val{k: vObj}
			saved := p.end
			p.end = c
			for p.i < c {
				if p.tok().k == pNL {
					p.i++
					continue
				}
				k := p.tok()
				if (k.k == pWord || k.k == pStr) && p.at(1).k == pOp && p.at(1).s == "=" {
					p.i += 2
					v := p.pipeline()
					if len(obj.keys) < maxList {
						obj.keys = append(obj.keys, strings.ToLower(k.s))
						obj.el = append(obj.el, v)
					}
					continue
				}
				s := p.i
				p.statement()
				if p.i == s {
					p.i++
				}
			}
			p.end = saved
			p.i = c + 1
			return obj
		case "{":
			c := p.closeOf(p.i)
			src := p.source(p.i+1, c)
			p.i++
			p.statements(c)
			p.i = c + 1
			v := str(src)
			v.f |= fFunc
			return v
		}
	}
	return dyn(0)
}

// source reassembles the text of tokens [from, to) (a script block's
// body, for Invoke-Command and [ScriptBlock]::Create).
func (p *pwParser) source(from, to int) string {
	var b strings.Builder
	for j := from; j < to && j < len(p.toks) && b.Len() < maxStr; j++ {
		t := p.toks[j]
		if t.sp && b.Len() > 0 {
			b.WriteByte(' ')
		}
		switch t.k {
		case pNL:
			b.WriteString("; ")
		case pVar:
			b.WriteString("$" + t.s)
		case pStr:
			if t.parts == nil {
				b.WriteString("'" + strings.ReplaceAll(t.s, "'", "''") + "'")
			} else {
				b.WriteString(Mark)
			}
		case pType:
			b.WriteString("[" + t.s + "]")
		default:
			b.WriteString(t.s)
		}
	}
	return b.String()
}

// sub evaluates an expression inside an expandable string.
func (p *pwParser) sub(src string) val {
	if p.nest >= maxExprNest {
		return dyn(0)
	}
	p.a.budget -= len(src)
	if p.a.budget < 0 {
		return dyn(0)
	}
	q := newPw(p.a, p.depth, src, p.syms, p.loops, p.forks)
	q.nest = p.nest + 1
	return q.statements(len(q.toks))
}

func (p *pwParser) variable(n string) val {
	switch n {
	case "home", "env:home", "env:userprofile", "env:homepath":
		return val{k: vStr, s: "~", f: fPath}
	case "true":
		return boolean(true)
	case "false", "null":
		return boolean(false)
	case "env:temp", "env:tmp":
		return str("/tmp")
	case "env:systemroot", "env:windir":
		return str("/windows")
	case "env:systemdrive":
		return str("/")
	}
	if v, ok := p.syms[n]; ok {
		return v
	}
	if strings.HasPrefix(n, "env:") {
		return envVar(n[4:])
	}
	return dyn(0)
}

// postfix applies .Member, .Method(...), ::Static(...) and [index].
func (p *pwParser) postfix(v val) val {
	for steps := 0; steps < 4096; steps++ {
		t := p.tok()
		if t.k != pOp {
			return v
		}
		switch t.s {
		case ".", "::":
			n := p.at(1)
			if n.k != pWord {
				return v
			}
			m := strings.ToLower(n.s)
			p.i += 2
			if p.isOp("(") && !p.tok().sp {
				c := p.closeOf(p.i)
				p.i++
				var args []val
				saved := p.end
				p.end = c
				for p.i < c {
					if p.isOp(",") || p.tok().k == pNL {
						p.i++
						continue
					}
					s := p.i
					args = append(args, p.expr())
					if p.i == s {
						p.i++
					}
				}
				p.end = saved
				p.i = c + 1
				v = p.method(v, m, args)
				continue
			}
			v = p.member(v, m)
		case "[":
			if t.sp {
				return v
			}
			c := p.closeOf(p.i)
			p.i++
			k := p.inside(c, p.expr)
			if v.k == vList && k.k == vNum {
				if n := parseInt(k.s); n >= 0 && n < len(v.el) {
					v = v.el[n]
					continue
				}
			}
			v = dyn(v.taint())
		default:
			return v
		}
	}
	return v
}

// member reads a property: of a type (a static property) or a value.
func (p *pwParser) member(v val, m string) val {
	if v.k == vName {
		switch v.s + "." + m {
		case "text.encoding.unicode", "text.encoding.utf8", "text.encoding.ascii", "text.encoding.default", "text.encoding.bigendianunicode",
			"text.encoding.utf32", "text.encoding.utf7", "text.encoding.latin1":
			return name(v.s + "." + m)
		}
		return name(v.s + "." + m)
	}
	if v.f&fNet != 0 || v.f&fSecret != 0 {
		out := dyn(v.taint())
		out.why = v.why
		return out
	}
	if v.f&fSock != 0 {
		return val{k: vDyn, f: fSock}
	}
	return dyn(0)
}

// method applies a method call: .NET statics, and methods of values.
func (p *pwParser) method(v val, m string, args []val) val {
	arg := func(i int) val {
		if i < len(args) {
			return args[i]
		}
		return dyn(0)
	}
	if v.k == vName {
		q := v.s + "." + m
		switch q {
		case "io.file.delete":
			p.del(arg(0), false, "[IO.File]::Delete")
		case "io.directory.delete":
			p.del(arg(0), arg(1).truthy(), "[IO.Directory]::Delete")
		case "io.file.writealltext", "io.file.writeallbytes", "io.file.writealllines", "io.file.create":
			p.write(arg(0), false, q)
		case "io.file.appendalltext", "io.file.appendalllines":
			p.write(arg(0), true, q)
		case "io.file.readalltext", "io.file.readallbytes", "io.file.readalllines":
			return (&ev{a: p.a}).read(arg(0))
		case "convert.frombase64string":
			a := arg(0)
			if a.known() {
				return decoded(decodeB64(a.s), a)
			}
			return dyn(a.taint() | fDecoded)
		case "text.encoding.unicode.getstring", "text.encoding.bigendianunicode.getstring":
			a := arg(0)
			if a.known() {
				return decoded(utf16le(a.s), a)
			}
			return dyn(a.taint())
		case "text.encoding.utf8.getstring", "text.encoding.ascii.getstring", "text.encoding.default.getstring", "text.encoding.latin1.getstring":
			return arg(0)
		case "environment.getfolderpath":
			if s := strings.ToLower(arg(0).text()); strings.Contains(s, "userprofile") || strings.Contains(s, "personal") || strings.Contains(s, "mydocuments") {
				return val{k: vStr, s: "~", f: fPath}
			}
			return dyn(0)
		case "environment.getenvironmentvariable":
			if a := arg(0); a.known() {
				return envVar(a.s)
			}
			return dyn(0)
		case "environment.getenvironmentvariables":
			return envAll()
		case "environment.expandenvironmentvariables":
			a := arg(0)
			if a.k == vStr {
				a.s = normPathText(a.s)
			}
			return a
		case "io.path.combine", "io.path.join":
			return joinPath(args)
		case "io.path.gettemppath":
			return str("/tmp")
		case "scriptblock.create":
			a := arg(0)
			a.f |= fFunc
			return a
		case "diagnostics.process.start":
			ws := []Word{arg(0).word()}
			if a := arg(1); a.k == vStr {
				for _, w := range shellWords(a.s) {
					ws = append(ws, w.word())
				}
			}
			(&ev{a: p.a}).runArgv(ws, q)
			return dyn(fProc)
		case "net.webclient.new":
			return val{k: vDyn, f: fClient}
		case "net.sockets.tcpclient.new", "net.sockets.tcpclient.connect":
			p.connect(q)
			return val{k: vDyn, f: fSock}
		case "net.dns.resolve", "net.dns.gethostaddresses":
			return dyn(0)
		}
		return dyn(0)
	}
	switch {
	case v.f&fClient != 0:
		switch m {
		case "downloadstring", "downloaddata", "openread", "downloadstringtaskasync", "downloaddatataskasync":
			p.a.facts.fetch = true
			return dyn(fNet)
		case "downloadfile":
			p.a.facts.fetch = true
			p.write(arg(1), false, "DownloadFile")
			return dyn(0)
		case "uploadstring", "uploaddata", "uploadvalues", "uploadfile":
			p.a.facts.fetch = true
			body := arg(len(args) - 1)
			if m == "uploadfile" {
				body = (&ev{a: p.a}).read(body)
			}
			if why := strongSecret(body); why != "" {
				p.a.add(Finding{Kind: SecretSend, Call: m, Text: "sends " + why + " over the network"})
			}
			return dyn(fNet)
		}
	case v.f&fSock != 0:
		switch m {
		case "connect", "connectasync":
			p.connect(m)
		case "read":
			return dyn(fNet)
		case "write":
			if why := strongSecret(arg(0)); why != "" {
				p.a.add(Finding{Kind: SecretSend, Call: m, Text: "sends " + why + " over the network"})
			}
		}
		return val{k: vDyn, f: fSock}
	case v.f&fFunc != 0 && (m == "invoke" || m == "invokereturnasis"):
		p.evalCode(v, "Invoke")
		return dyn(0)
	case v.k == vStr:
		switch m {
		case "replace":
			a, b := arg(0), arg(1)
			if v.known() && a.known() && b.known() && a.s != "" {
				return str(strings.ReplaceAll(v.s, a.s, b.s))
			}
		case "tolower", "toupper", "trim", "tostring":
			return v
		case "split":
			return list(shellWords(v.s))
		}
	case v.k == vList && m == "reverse":
		return dyn(0)
	}
	if v.f&fNet != 0 || v.f&fSecret != 0 {
		out := dyn(v.taint())
		out.why = v.why
		return out
	}
	return dyn(0)
}

func (p *pwParser) connect(note string) {
	p.a.facts.connect = true
	if p.a.facts.connNote == "" {
		p.a.facts.connNote = note
	}
}

func (p *pwParser) del(path val, rec bool, call string) {
	for _, alt := range path.alts() {
		for _, w := range alt.words() {
			if w.Text == "" {
				continue
			}
			p.a.add(Finding{Kind: Delete, Path: w, Recursive: rec, Dynamic: w.Dynamic, Call: call})
		}
	}
}

func (p *pwParser) write(path val, app bool, call string) {
	(&ev{a: p.a}).write(path, app, call)
}

// evalCode reads code PowerShell evaluates: literal code is analysed,
// downloaded code is remote code, anything else unknown.
func (p *pwParser) evalCode(v val, call string) {
	switch {
	case v.f&fNet != 0:
		p.a.add(Finding{Kind: RemoteCode, Call: call, Text: "evaluates downloaded code"})
		p.a.facts.runsDyn = true
	case v.known():
		if v.f&fFunc != 0 && v.f&fDecoded == 0 {
			return // a script block: walked where it was written
		}
		p.a.run(PowerShell, v.s, p.depth+1)
	default:
		p.a.unknown(call, "evaluates computed code")
		p.a.facts.runsDyn = true
	}
}

// pwshAliases maps the aliases of the cmdlets the analyser reads.
func pwshCmdlet(n string) string {
	n = strings.ToLower(n)
	n = strings.TrimSuffix(n, ".exe")
	switch n {
	case "rm", "del", "erase", "rd", "rmdir", "ri", "remove-item":
		return "remove-item"
	case "gci", "ls", "dir", "get-childitem":
		return "get-childitem"
	case "gi", "get-item":
		return "get-item"
	case "iex", "invoke-expression":
		return "invoke-expression"
	case "iwr", "invoke-webrequest":
		return "invoke-webrequest"
	case "irm", "invoke-restmethod":
		return "invoke-restmethod"
	case "saps", "start", "start-process":
		return "start-process"
	case "sc", "set-content":
		return "set-content"
	case "ac", "add-content":
		return "add-content"
	case "gc", "cat", "type", "get-content":
		return "get-content"
	case "echo", "write", "write-output", "write-host":
		return "write-output"
	case "%", "foreach", "foreach-object", "?", "where", "where-object":
		return "foreach-object"
	case "icm", "invoke-command":
		return "invoke-command"
	}
	return n
}

// command reads a command's arguments and applies what it does.
func (p *pwParser) command(rawName string, in val, piped bool, prev *pcmd) (val, *pcmd) {
	name := pwshCmdlet(rawName)
	if name == "foreach-object" && piped {
		// The script block runs for each input object, as $_.
		saved, had := p.syms["_"]
		p.bindIter("_", in)
		defer func() {
			if had {
				p.syms["_"] = saved
			} else {
				delete(p.syms, "_")
			}
		}()
	}
	items := p.args()
	c := &pcmd{name: name, items: items, input: in, piped: piped}
	param := func(names ...string) (val, bool) {
		for k, it := range items {
			if it.param == "" {
				continue
			}
			for _, n := range names {
				if it.param == n || len(it.param) >= 2 && strings.HasPrefix(n, it.param) {
					if it.attached {
						return it.v, true
					}
					if k+1 < len(items) && items[k+1].param == "" {
						return items[k+1].v, true
					}
					return boolean(true), true
				}
			}
		}
		return val{}, false
	}
	// positional values: those not taken by a valued parameter.
	positional := func(valued ...string) []val {
		var out []val
		for k := 0; k < len(items); k++ {
			it := items[k]
			if it.param != "" {
				if it.attached {
					continue
				}
				for _, n := range valued {
					if it.param == n || len(it.param) >= 2 && strings.HasPrefix(n, it.param) {
						k++
						break
					}
				}
				continue
			}
			out = append(out, it.v)
		}
		return out
	}
	has := func(n string, min int) bool {
		for _, it := range items {
			if it.param != "" && len(it.param) >= min && strings.HasPrefix(n, it.param) {
				return true
			}
		}
		return false
	}
	switch name {
	case "remove-item":
		rec := has("recurse", 1)
		for _, it := range items {
			if it.param != "" && strings.IndexFunc(it.param, func(r rune) bool { return !strings.ContainsRune("rfivd", r) }) < 0 && strings.ContainsAny(it.param, "r") {
				rec = true // rm -rf on a Unix PowerShell runs the native rm
			}
			if it.param == "-recursive" || it.param == "recursive" {
				rec = true
			}
		}
		if has("whatif", 2) {
			return dyn(0), c
		}
		paths := positional("path", "literalpath", "lp", "pspath", "filter", "include", "exclude", "credential", "stream")
		if v, ok := param("path", "literalpath", "lp", "pspath"); ok {
			paths = append(paths, v)
		}
		if len(paths) == 0 && piped {
			if prev != nil && (prev.name == "get-childitem" || prev.name == "get-item") {
				return p.pipedDelete(prev, rec), c
			}
			paths = []val{in}
		}
		for _, pth := range paths {
			p.del(pth, rec, "Remove-Item")
		}
		return dyn(0), c
	case "get-childitem", "get-item":
		for _, it := range items {
			if it.param == "" && strings.EqualFold(strings.TrimSuffix(it.v.text(), "\\"), "env:") {
				return envAll(), c
			}
		}
		return dyn(0), c
	case "invoke-expression":
		code := in
		if v, ok := param("command"); ok {
			code = v
		} else if pos := positional(); len(pos) > 0 {
			code = pos[0]
		}
		p.evalCode(code, rawName)
		return dyn(0), c
	case "invoke-webrequest", "invoke-restmethod":
		p.a.facts.fetch = true
		var sent []arg
		if b, ok := param("body"); ok {
			sent = append(sent, arg{v: b})
		}
		if f, ok := param("infile"); ok {
			sent = append(sent, arg{v: (&ev{a: p.a}).read(f)})
		}
		if piped {
			sent = append(sent, arg{v: in})
		}
		for _, a := range sent {
			if why := strongSecret(a.v); why != "" {
				p.a.add(Finding{Kind: SecretSend, Call: rawName, Text: "sends " + why + " over the network"})
				break
			}
		}
		if o, ok := param("outfile"); ok {
			p.write(o, false, rawName)
		}
		return dyn(fNet), c
	case "new-object":
		t := ""
		if v, ok := param("typename"); ok {
			t = v.text()
		} else if pos := positional("argumentlist", "property"); len(pos) > 0 {
			t = pos[0].text()
		}
		t = strings.TrimPrefix(strings.ToLower(t), "system.")
		switch t {
		case "net.webclient":
			return val{k: vDyn, f: fClient}, c
		case "net.sockets.tcpclient", "net.sockets.udpclient":
			if len(positional("argumentlist", "property")) > 1 || func() bool { _, ok := param("argumentlist"); return ok }() {
				p.connect("New-Object " + t)
			}
			return val{k: vDyn, f: fSock}, c
		case "net.sockets.socket", "net.sockets.tcplistener":
			if t == "net.sockets.tcplistener" {
				p.connect("New-Object " + t)
			}
			return val{k: vDyn, f: fSock}, c
		case "io.streamreader", "io.streamwriter":
			for _, v := range positional() {
				if deepFlag(v, fSock) {
					return val{k: vDyn, f: fSock}, c
				}
			}
		}
		return dyn(0), c
	case "start-process":
		file, ok := param("filepath")
		pos := positional("filepath", "argumentlist", "args", "verb", "workingdirectory", "credential", "windowstyle",
			"redirectstandardinput", "redirectstandardoutput", "redirectstandarderror")
		if !ok && len(pos) > 0 {
			file, pos = pos[0], pos[1:]
		}
		ws := []Word{file.word()}
		al, ok := param("argumentlist", "args")
		if !ok && len(pos) > 0 {
			al = pos[0]
		}
		if al.k == vStr {
			for _, w := range shellWords(al.s) {
				ws = append(ws, w.word())
			}
		} else if al.k == vList {
			ws = append(ws, al.words()...)
		}
		verb, _ := param("verb")
		f := Finding{Kind: Exec, Argv: ws, Call: "Start-Process", Dynamic: ws[0].Dynamic, Admin: strings.EqualFold(verb.text(), "runas")}
		p.a.addRun(f)
		if len(*p.forks) < 256 {
			*p.forks = append(*p.forks, p.i)
		}
		return dyn(fProc), c
	case "set-content", "add-content", "out-file", "tee-object", "new-item":
		path, ok := param("path", "filepath", "literalpath")
		if !ok {
			if pos := positional("value", "encoding", "itemtype", "type", "inputobject", "variable"); len(pos) > 0 {
				path = pos[0]
			}
		}
		if name == "new-item" {
			if f, ok := param("force"); !ok || !f.truthy() {
				return dyn(0), c
			}
		}
		p.write(path, name == "add-content" || has("append", 2), rawName)
		return dyn(0), c
	case "get-content":
		path, ok := param("path", "literalpath")
		if !ok {
			if pos := positional("encoding", "totalcount", "tail", "delimiter"); len(pos) > 0 {
				path = pos[0]
			}
		}
		return (&ev{a: p.a}).read(path), c
	case "write-output":
		pos := positional()
		if len(pos) == 1 {
			return pos[0], c
		}
		return list(pos), c
	case "foreach-object", "invoke-command":
		return dyn(in.taint()), c
	case "stop-computer":
		p.a.add(Finding{Kind: Exec, Argv: []Word{{Text: "shutdown"}, {Text: "-h"}, {Text: "now"}}, Call: "Stop-Computer"})
		return dyn(0), c
	case "restart-computer":
		p.a.add(Finding{Kind: Exec, Argv: []Word{{Text: "reboot"}}, Call: "Restart-Computer"})
		return dyn(0), c
	}
	if strings.HasSuffix(name, ".ps1") || strings.Contains(name, "-") && !strings.ContainsAny(name, `/\.`) || pwshBuiltin(name) {
		// A cmdlet or function shellguard does not read, or a script.
		out := dyn(in.taint())
		out.why = in.secret()
		return out, c
	}
	// A native program: its argv as written.
	ws := []Word{str(rawName).word()}
	for _, it := range items {
		if it.raw != "" && it.param != "" {
			ws = append(ws, Word{Text: it.raw})
			if it.attached {
				ws[len(ws)-1].Text += it.v.text()
			}
			continue
		}
		ws = append(ws, it.v.words()...)
	}
	(&ev{a: p.a}).runArgv(ws, rawName)
	if isDownloader(rawName) {
		p.a.facts.fetch = true
		return dyn(fNet), c
	}
	return dyn(fProc), c
}

// pipedDelete reads Get-ChildItem PATH [-Recurse] | Remove-Item: the
// items under PATH are deleted.
func (p *pwParser) pipedDelete(src *pcmd, rec bool) val {
	var path val
	filtered := false
	for k, it := range src.items {
		switch {
		case it.param == "":
			if path.k == 0 {
				path = it.v
			}
		case strings.HasPrefix("path", it.param) || strings.HasPrefix("literalpath", it.param):
			if it.attached {
				path = it.v
			} else if k+1 < len(src.items) {
				path = src.items[k+1].v
			}
		case strings.HasPrefix("filter", it.param) || strings.HasPrefix("include", it.param):
			filtered = true
		case strings.HasPrefix("recurse", it.param):
			rec = true
		}
	}
	if path.k == 0 {
		path = str(".")
	}
	if filtered {
		path = concat(path, str("/*"+Mark))
		rec = false
	} else if src.name == "get-childitem" {
		rec = true
	}
	p.del(path, rec, "Get-ChildItem | Remove-Item")
	return dyn(0)
}

// pwshBuiltin reports PowerShell's own aliases of harmless cmdlets and
// its keywords, which are not native programs.
func pwshBuiltin(n string) bool {
	switch n {
	case "cd", "chdir", "pwd", "cls", "clear", "copy", "cpi", "move", "mi", "md", "ni", "sl", "gl", "gm", "measure",
		"select", "sort", "group", "fl", "ft", "fw", "ren", "rni", "sleep", "history", "h", "gps", "gsv", "gal", "sal",
		"sv", "gv", "set", "exit", "return", "in", "ipmo", "gcm", "help", "man", "compare", "diff", "gjb", "rcjb",
		"sajb", "clc", "cli", "clp", "cvpa", "dbp", "epal", "epcsv", "fc", "gdr", "ghy", "gp", "gu", "iwmi", "ndr", "nv",
		"oh", "popd", "pushd", "rdr", "rp", "rv", "rvpa", "sasv", "sbp", "si", "sp", "spjb", "spps", "spsv", "swmi",
		"tee", "trcm", "wjb", "param", "true", "false", "null":
		return true
	}
	return false
}

// utf16le decodes UTF-16LE bytes (PowerShell's [Text.Encoding]::Unicode
// and -EncodedCommand).
func utf16le(b string) string {
	if len(b)%2 == 1 {
		b = b[:len(b)-1]
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u))
}
