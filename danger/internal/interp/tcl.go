package interp

import (
	"strings"
)

// Tcl is a language of commands and words, like the shell: a script is
// commands separated by newlines and semicolons; a word is {literal},
// "substituted" or bare; $var, ${var}, $arr(key) and [command]
// substitute. The analyser reads exec (an argv, or a shell pipeline when
// it has redirections), file delete, open "|cmd", eval/uplevel of code,
// socket, http::geturl, and walks the script arguments of control
// commands (if, while, proc, foreach, catch, ...).

type tclWord struct {
	v      val
	raw    string // the word's text without its braces or quotes
	braced bool
}

type tclParser struct {
	a     *analysis
	depth int
	nest  int
	syms  map[string]val
}

func (a *analysis) tcl(code string, depth int) {
	p := &tclParser{a: a, depth: depth, syms: map[string]val{}}
	p.script(code)
}

// script runs the commands of a Tcl script.
func (p *tclParser) script(src string) {
	if p.nest >= maxExprNest {
		p.a.unknown("", "code nested too deeply to read")
		return
	}
	p.nest++
	defer func() { p.nest-- }()
	i := 0
	for steps := 0; i < len(src) && steps < 1<<16; steps++ {
		// Skip separators and leading blanks; # starts a comment only at
		// a command's start.
		for i < len(src) && strings.IndexByte(" \t\r\n;", src[i]) >= 0 {
			i++
		}
		if i >= len(src) {
			return
		}
		if src[i] == '#' {
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			continue
		}
		var words []tclWord
		i, words = p.command(src, i, false)
		p.run(words)
	}
}

// command reads the words of one command starting at i; in brackets, ]
// ends it.
func (p *tclParser) command(src string, i int, inBracket bool) (int, []tclWord) {
	var words []tclWord
	for i < len(src) && len(words) < 4*maxList {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n') {
			if src[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(src) || src[i] == '\n' || src[i] == ';' || inBracket && src[i] == ']' {
			return i, words
		}
		var w tclWord
		i, w = p.word(src, i, inBracket)
		words = append(words, w)
	}
	return i, words
}

func (p *tclParser) word(src string, i int, inBracket bool) (int, tclWord) {
	if strings.HasPrefix(src[i:], "{*}") && i+3 < len(src) && src[i+3] != ' ' {
		i += 3
	}
	switch src[i] {
	case '{':
		end := tclBraceEnd(src, i)
		raw := src[i+1 : max(i+1, end-1)]
		return end, tclWord{v: str(raw), raw: raw, braced: true}
	case '"':
		j := i + 1
		for j < len(src) && src[j] != '"' {
			switch src[j] {
			case '\\':
				j++
			case '[':
				j = tclBracketEnd(src, j) - 1
			}
			j++
		}
		raw := src[i+1 : min(j, len(src))]
		return min(j+1, len(src)), tclWord{v: p.subst(raw), raw: raw}
	}
	j := i
	for j < len(src) && strings.IndexByte(" \t\r\n;", src[j]) < 0 && !(inBracket && src[j] == ']') {
		switch src[j] {
		case '\\':
			j++
		case '[':
			j = tclBracketEnd(src, j) - 1
		case '$':
			if j+1 < len(src) && src[j+1] == '{' {
				if k := strings.IndexByte(src[j:], '}'); k > 0 {
					j += k
				}
			}
		}
		j++
	}
	j = min(j, len(src))
	raw := src[i:j]
	return j, tclWord{v: p.subst(raw), raw: raw}
}

// tclBraceEnd returns the index after the } closing the { at i.
func tclBraceEnd(src string, i int) int {
	return closeEnd(src, i, "{}\\", nil)
}

// tclBracketEnd returns the index after the ] closing the [ at i.
func tclBracketEnd(src string, i int) int {
	return closeEnd(src, i, "[]\\{\"", func(src string, j int) int {
		if src[j] == '{' {
			return tclBraceEnd(src, j) - 1
		}
		for j++; j < len(src) && src[j] != '"'; j++ {
			if src[j] == '\\' {
				j++
			}
		}
		return j
	})
}

// subst performs a word's substitutions: variables, commands, escapes.
func (p *tclParser) subst(raw string) val {
	if !strings.ContainsAny(raw, "$[\\") {
		return str(raw)
	}
	out := str("")
	lit := strings.Builder{}
	flush := func() {
		if lit.Len() > 0 {
			out = concat(out, str(lit.String()))
			lit.Reset()
		}
	}
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch c {
		case '\\':
			if i+1 < len(raw) {
				i++
				lit.WriteByte(escapeLetter(raw[i], "nt"))
			}
		case '[':
			end := tclBracketEnd(raw, i)
			flush()
			out = concat(out, p.bracket(raw[i+1:max(i+1, end-1)]))
			i = end - 1
		case '$':
			j := i + 1
			var name string
			if j < len(raw) && raw[j] == '{' {
				k := strings.IndexByte(raw[j:], '}')
				if k < 0 {
					lit.WriteByte(c)
					continue
				}
				name = raw[j+1 : j+k]
				j += k + 1
			} else {
				for j < len(raw) && (isIdentByte(raw[j]) || raw[j] == ':') {
					j++
				}
				name = raw[i+1 : j]
				if j < len(raw) && raw[j] == '(' {
					k := strings.IndexByte(raw[j:], ')')
					if k > 0 {
						name += "(" + raw[j+1:j+k] + ")"
						j += k + 1
					}
				}
			}
			if name == "" {
				lit.WriteByte(c)
				continue
			}
			flush()
			out = concat(out, p.variable(name))
			i = j - 1
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	return out
}

func (p *tclParser) variable(n string) val {
	n = strings.TrimPrefix(n, "::")
	if strings.HasPrefix(n, "env(") && strings.HasSuffix(n, ")") {
		return envVar(n[4 : len(n)-1])
	}
	if v, ok := p.syms[n]; ok {
		return v
	}
	return dyn(0)
}

// bracket runs a command substitution and returns its value.
func (p *tclParser) bracket(src string) val {
	if p.nest >= maxExprNest {
		return dyn(0)
	}
	p.nest++
	defer func() { p.nest-- }()
	_, words := p.command(src, 0, true)
	return p.run(words)
}

// run applies one command and returns its value.
func (p *tclParser) run(words []tclWord) val {
	if len(words) == 0 {
		return dyn(0)
	}
	cmd := strings.TrimPrefix(words[0].v.text(), "::")
	args := words[1:]
	switch cmd {
	case "set":
		if len(args) == 2 && args[0].v.known() && len(p.syms) < maxSyms {
			p.syms[args[0].v.s] = args[1].v
		}
		if len(args) >= 1 {
			return p.variable(args[0].v.text())
		}
	case "exec":
		return p.exec(args)
	case "file":
		if len(args) > 0 && args[0].v.text() == "delete" {
			rec := false
			for _, w := range args[1:] {
				t := w.v.text()
				switch t {
				case "-force":
					rec = true
					continue
				case "--":
					continue
				}
				for _, alt := range w.v.alts() {
					wd := alt.word()
					p.a.add(Finding{Kind: Delete, Path: wd, Recursive: rec, Dynamic: wd.Dynamic, Call: "file delete"})
				}
			}
			return dyn(0)
		}
		if len(args) > 1 {
			switch args[0].v.text() {
			case "join":
				var parts []val
				for _, w := range args[1:] {
					parts = append(parts, w.v)
				}
				return joinPath(parts)
			case "normalize", "nativename":
				v := args[1].v
				v.s = normPathText(v.s)
				return v
			case "home":
				return str("~")
			}
		}
	case "open":
		if len(args) == 0 {
			return dyn(0)
		}
		t := args[0].v
		if t.k == vStr && strings.HasPrefix(t.s, "|") {
			var ws []Word
			for _, f := range strings.Fields(t.s[1:]) {
				ws = append(ws, str(f).word())
			}
			p.runArgv(ws, "open |")
			return dyn(fProc)
		}
		if len(args) > 1 {
			m := args[1].v.text()
			if strings.ContainsAny(m, "wa") || strings.Contains(m, "TRUNC") || strings.Contains(m, "CREAT") {
				wd := t.word()
				if !wd.Dynamic && wd.Text != "" {
					p.a.add(Finding{Kind: Write, Path: wd, Append: strings.Contains(m, "a") || strings.Contains(m, "APPEND"), Call: "open"})
				}
			}
		}
		return dyn(fFile)
	case "eval", "uplevel", "namespace":
		if cmd == "namespace" && (len(args) < 3 || args[0].v.text() != "eval") {
			return dyn(0)
		}
		if cmd == "namespace" {
			args = args[2:]
		}
		if cmd == "uplevel" && len(args) > 1 {
			if l := args[0].v.text(); l != "" && (l[0] == '#' || l[0] >= '0' && l[0] <= '9') {
				args = args[1:]
			}
		}
		code := str("")
		for k, w := range args {
			if k > 0 {
				code = concat(code, str(" "))
			}
			code = concat(code, w.v)
		}
		switch {
		case code.f&fNet != 0:
			p.a.add(Finding{Kind: RemoteCode, Call: cmd, Text: "evaluates downloaded code"})
			p.a.facts.runsDyn = true
		case code.known():
			p.a.run(Tcl, code.s, p.depth+1)
		default:
			p.a.unknown(cmd, "evaluates computed code")
			p.a.facts.runsDyn = true
		}
		return dyn(0)
	case "source":
		if len(args) > 0 && !args[len(args)-1].v.known() {
			p.a.unknown(cmd, "runs a file whose name is computed")
		}
	case "socket":
		server := false
		for _, w := range args {
			if w.v.text() == "-server" {
				server = true
			}
		}
		p.a.facts.connect = true
		if p.a.facts.connNote == "" {
			p.a.facts.connNote = "socket"
		}
		_ = server
		return val{k: vDyn, f: fSock}
	case "gets", "read":
		if len(args) > 0 && args[0].v.f&fSock != 0 {
			return dyn(fNet)
		}
	case "http::geturl", "::http::geturl":
		p.a.facts.fetch = true
		return dyn(fNet)
	case "http::data", "::http::data":
		if len(args) > 0 {
			return dyn(args[0].v.taint() | fNet)
		}
	case "proc":
		if len(args) == 3 {
			p.script(args[2].raw)
		}
		return dyn(0)
	case "if", "while", "for", "foreach", "catch", "try", "time", "after", "switch", "lmap", "dict", "timeout":
		// Their braced arguments are scripts (or conditions, which do
		// nothing harmful as scripts).
		for k, w := range args {
			if !w.braced {
				continue
			}
			if cmd == "after" && k == 0 {
				continue
			}
			p.script(w.raw)
		}
		return dyn(0)
	case "list":
		var el []val
		for _, w := range args {
			el = append(el, w.v)
		}
		return list(el)
	case "string":
		if len(args) > 1 && args[0].v.text() == "reverse" && args[1].v.known() {
			return decoded(reverse(args[1].v.s), args[1].v)
		}
	case "binary":
		if len(args) > 2 && args[0].v.text() == "decode" {
			switch args[1].v.text() {
			case "base64":
				if v := args[len(args)-1].v; v.known() {
					return decoded(decodeB64(v.s), v)
				}
			case "hex":
				if v := args[len(args)-1].v; v.known() {
					return decoded(decodeHex(v.s), v)
				}
			}
			return dyn(fDecoded)
		}
	case "puts":
		if len(args) >= 2 && args[0].v.f&fSock != 0 {
			var sargs []arg
			for _, w := range args[1:] {
				sargs = append(sargs, arg{v: w.v})
			}
			if why := (&ev{a: p.a}).sentSecret(sargs); why != "" {
				p.a.add(Finding{Kind: SecretSend, Call: "puts", Text: "sends " + why + " over the network"})
			}
		}
	}
	return dyn(0)
}

// exec reads Tcl's exec: an argv, or a shell-like pipeline when it has
// | < > & words.
func (p *tclParser) exec(args []tclWord) val {
	for len(args) > 0 {
		t := args[0].v.text()
		if t == "--" {
			args = args[1:]
			break
		}
		if t == "-ignorestderr" || t == "-keepnewline" {
			args = args[1:]
			continue
		}
		break
	}
	if len(args) == 0 {
		return dyn(0)
	}
	pipeline := false
	for _, w := range args {
		t := w.v.text()
		if !w.braced && (t == "|" || t == "|&" || t == "&" || strings.HasPrefix(t, "<") || strings.HasPrefix(t, ">") || strings.HasPrefix(t, "2>")) {
			pipeline = true
		}
	}
	if !pipeline {
		var ws []Word
		for _, w := range args {
			ws = append(ws, w.v.words()...)
		}
		p.runArgv(ws, "exec")
		return dyn(fProc)
	}
	var b strings.Builder
	dynamic := false
	for k, w := range args {
		if k > 0 {
			b.WriteByte(' ')
		}
		t := w.v.text()
		dynamic = dynamic || strings.Contains(t, Mark)
		if !w.braced && (t == "|" || t == "|&" || t == "&" || strings.HasPrefix(t, "<") || strings.HasPrefix(t, ">") || strings.HasPrefix(t, "2>")) {
			b.WriteString(strings.ReplaceAll(t, "@", "&"))
			continue
		}
		b.WriteString(quotePath(normPathText(t)))
	}
	cmd := b.String()
	f := Finding{Kind: Shell, Text: cmd, Call: "exec", Dynamic: dynamic}
	p.a.add(f)
	p.a.facts.runs = true
	if f.Dynamic {
		p.a.facts.runsDyn = true
	}
	return dyn(fProc)
}

func (p *tclParser) runArgv(ws []Word, call string) {
	(&ev{a: p.a}).runArgv(ws, call)
}
