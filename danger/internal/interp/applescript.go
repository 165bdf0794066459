package interp

import (
	"strings"
)

// AppleScript: the analyser reads do shell script (with administrator
// privileges), Terminal's do script, run script, set x to ..., and what
// Finder and System Events are told to do (delete, empty the trash, shut
// down). Expressions are strings joined by &, quoted form of, POSIX path
// of, path to home folder, system attribute "HOME" and variables.

type asTok struct {
	s   string
	str bool // a string literal (s is its value)
	nl  bool // the end of a statement
}

func lexAppleScript(src string) []asTok {
	var out []asTok
	i := 0
	for i < len(src) && len(out) < MaxCode {
		c := src[i]
		switch {
		case c == '\n' || c == '\r':
			out = append(out, asTok{nl: true})
			i++
		case c == ' ' || c == '\t':
			i++
		case strings.HasPrefix(src[i:], "¬"):
			// Continuation: the statement goes on after the newline.
			i += len("¬")
			for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == '\n') {
				i++
			}
		case strings.HasPrefix(src[i:], "--") || c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "(*"):
			depth := 0
			for i < len(src) {
				if strings.HasPrefix(src[i:], "(*") {
					depth++
					i += 2
					continue
				}
				if strings.HasPrefix(src[i:], "*)") {
					depth--
					i += 2
					if depth == 0 {
						break
					}
					continue
				}
				i++
			}
		case c == '"':
			var b strings.Builder
			i++
			for i < len(src) && src[i] != '"' {
				if src[i] == '\\' && i+1 < len(src) {
					i++
					switch src[i] {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					default:
						b.WriteByte(src[i])
					}
					i++
					continue
				}
				b.WriteByte(src[i])
				i++
			}
			i++
			out = append(out, asTok{s: b.String(), str: true})
		case c == '|':
			j := strings.IndexByte(src[i+1:], '|')
			if j < 0 {
				j = len(src) - i - 1
			}
			out = append(out, asTok{s: src[i+1 : i+1+j]})
			i += j + 2
		case isIdentStart(c) && c < 0x80 || isDigit(c):
			j := i
			for j < len(src) && (isIdentByte(src[j]) && src[j] < 0x80) {
				j++
			}
			out = append(out, asTok{s: strings.ToLower(src[i:j])})
			i = j
		default:
			out = append(out, asTok{s: string(c)})
			i++
		}
	}
	return out
}

type asParser struct {
	a     *analysis
	depth int
	toks  []asTok
	i     int
	syms  map[string]val
	tell  []string // the applications being told, innermost last
}

func (a *analysis) applescript(code string, depth int) {
	p := &asParser{a: a, depth: depth, toks: lexAppleScript(code), syms: map[string]val{}}
	for p.i < len(p.toks) {
		s := p.i
		p.statement()
		if p.i == s {
			p.i++
		}
	}
}

func (p *asParser) word(k int) string {
	if p.i+k < len(p.toks) && !p.toks[p.i+k].str {
		return p.toks[p.i+k].s
	}
	return ""
}

func (p *asParser) isWords(ws ...string) bool {
	for k, w := range ws {
		if p.word(k) != w {
			return false
		}
	}
	return true
}

// statement reads one statement (up to the end of the line).
func (p *asParser) statement() {
	if p.i < len(p.toks) && p.toks[p.i].nl {
		p.i++
		return
	}
	switch {
	case p.isWords("tell", "application") || p.isWords("tell", "app"):
		p.i += 2
		app := ""
		if p.i < len(p.toks) && p.toks[p.i].str {
			app = strings.ToLower(p.toks[p.i].s)
			p.i++
		}
		if p.word(0) == "to" {
			// tell application "X" to STATEMENT
			p.i++
			p.tell = append(p.tell, app)
			p.statement()
			p.tell = p.tell[:len(p.tell)-1]
			return
		}
		if len(p.tell) < 16 {
			p.tell = append(p.tell, app)
		}
		return
	case p.isWords("end", "tell"):
		if len(p.tell) > 0 {
			p.tell = p.tell[:len(p.tell)-1]
		}
		p.i += 2
		return
	case p.isWords("set"):
		p.i++
		n := p.word(0)
		if n != "" && p.word(1) == "to" {
			p.i += 2
			v := p.expr()
			if len(p.syms) < maxSyms {
				p.syms[n] = v
			}
		}
		return
	}
	// Anything else: look for the commands in the statement's words.
	for p.i < len(p.toks) && !p.toks[p.i].nl {
		switch {
		case p.isWords("do", "shell", "script"):
			p.i += 3
			v := p.expr()
			admin := false
			for p.i < len(p.toks) && !p.toks[p.i].nl {
				if p.isWords("with", "administrator", "privileges") || p.isWords("administrator", "privileges", "true") {
					admin = true
				}
				p.i++
			}
			p.shell(v, "do shell script", admin)
			return
		case p.isWords("do", "script") && p.telling("terminal", "iterm", "iterm2"):
			p.i += 2
			p.shell(p.expr(), "do script", false)
		case p.isWords("run", "script"):
			p.i += 2
			v := p.expr()
			switch {
			case v.known():
				p.a.run(AppleScript, v.s, p.depth+1)
			default:
				p.a.unknown("run script", "runs computed AppleScript")
				p.a.facts.runsDyn = true
			}
		case p.word(0) == "delete" && p.telling("finder"):
			p.i++
			v := p.expr()
			p.a.add(Finding{Kind: Trash, Call: "Finder delete", Text: "moves " + describe(v) + " to the Trash"})
		case p.isWords("empty") && p.telling("finder"):
			p.i++
			p.a.add(Finding{Kind: Trash, Call: "Finder empty trash", Text: "empties the Trash"})
		case p.isWords("move") && p.telling("finder"):
			start := p.i
			for p.i < len(p.toks) && !p.toks[p.i].nl && p.word(0) != "trash" {
				p.i++
			}
			if p.word(0) == "trash" {
				p.a.add(Finding{Kind: Trash, Call: "Finder move", Text: "moves items to the Trash"})
			}
			if p.i == start {
				p.i++
			}
		case (p.isWords("shut", "down") || p.isWords("restart")) && p.telling("system events", "finder"):
			prog := []Word{{Text: "shutdown"}, {Text: "-h"}, {Text: "now"}}
			if p.word(0) == "restart" {
				prog = []Word{{Text: "reboot"}}
			}
			p.a.add(Finding{Kind: Exec, Argv: prog, Call: "System Events"})
			p.i++
		default:
			p.i++
		}
	}
}

func describe(v val) string {
	if v.known() {
		return v.s
	}
	return "items"
}

func (p *asParser) telling(apps ...string) bool {
	for _, t := range p.tell {
		for _, a := range apps {
			if t == a {
				return true
			}
		}
	}
	return false
}

func (p *asParser) shell(v val, call string, admin bool) {
	txt := v.text()
	f := Finding{Kind: Shell, Text: txt, Call: call, Admin: admin, Dynamic: strings.Contains(txt, Mark)}
	p.a.add(f)
	p.a.facts.runs = true
	if f.Dynamic {
		p.a.facts.runsDyn = true
	}
}

// expr reads terms joined by &.
func (p *asParser) expr() val {
	v := p.term(0)
	for p.i < len(p.toks) && p.word(0) == "&" {
		p.i++
		v = concat(v, p.term(0))
	}
	return v
}

func (p *asParser) term(depth int) val {
	if p.i >= len(p.toks) || p.toks[p.i].nl || depth > maxExprNest {
		return dyn(0)
	}
	t := p.toks[p.i]
	if t.str {
		p.i++
		return str(t.s)
	}
	switch {
	case p.isWords("quoted", "form", "of"):
		p.i += 3
		v := p.term(depth + 1)
		if v.k != vStr {
			return v
		}
		q := v.s
		if strings.HasPrefix(q, "~") {
			return str(quotePath(q))
		}
		return str(shellQuote(q))
	case p.isWords("posix", "path", "of"):
		p.i += 3
		return p.term(depth + 1)
	case p.isWords("path", "to"):
		p.i += 2
		if p.word(0) == "(" {
			p.i++
		}
		where := p.word(0)
		for p.i < len(p.toks) && !p.toks[p.i].nl && p.word(0) != ")" && p.word(0) != "&" && p.word(0) != "as" {
			p.i++
		}
		if p.word(0) == ")" {
			p.i++
		}
		switch where {
		case "home":
			return str("~/")
		case "desktop":
			return str("~/Desktop/")
		case "documents":
			return str("~/Documents/")
		case "library":
			return str("~/Library/")
		case "startup", "system":
			return str("/")
		}
		return dyn(0)
	case p.isWords("system", "attribute"):
		p.i += 2
		v := p.term(depth + 1)
		if v.known() {
			return envVar(v.s)
		}
		return dyn(0)
	case p.isWords("posix", "file"):
		p.i += 2
		return p.term(depth + 1)
	case t.s == "(":
		p.i++
		v := p.expr()
		if p.word(0) == ")" {
			p.i++
		}
		return v
	case t.s == "home":
		p.i++
		return str("~")
	case t.s == "every", t.s == "items", t.s == "item", t.s == "files", t.s == "folders", t.s == "the":
		p.i++
		if p.word(0) == "of" || p.word(0) == "in" {
			p.i++
		}
		return p.term(depth + 1)
	}
	if v, ok := p.syms[t.s]; ok {
		p.i++
		return v
	}
	if t.s != "" && isIdentStart(t.s[0]) && t.s != "with" && t.s != "without" && t.s != "as" && t.s != "to" {
		p.i++
		return dyn(0)
	}
	return dyn(0)
}
