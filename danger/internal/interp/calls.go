package interp

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// call applies a call to its callee: a sink records findings, a known
// function computes its value, anything else returns an unknown value
// carrying what its arguments carry.
func (e *ev) call(callee val, args []arg) val {
	var x act
	var recv val
	q := callee.s
	switch callee.k {
	case vName:
		x = e.lookup(q)
	case vMeth:
		recv = callee.el[0]
		x = e.methodAct(recv, q)
	}
	for _, a := range args {
		if a.v.k == vName {
			if y := e.lookup(a.v.s); y.op == opEval {
				e.a.facts.evalRef = true
			}
		}
	}
	if x.op == opNone {
		if callee.k == vMeth {
			if v, ok := e.valueMethod(e.data(recv), q, args); ok {
				return v
			}
		}
		t := callee.f & (fNet | fSecret | fFile)
		why := ""
		if callee.k == vMeth {
			r := e.data(recv)
			t |= r.taint() &^ fSock
			why = r.why
		}
		for _, a := range args {
			d := e.data(a.v)
			t |= d.taint() &^ fSock
			if why == "" {
				why = d.secret()
			}
		}
		v := dyn(t)
		v.why = why
		if callee.k == vMeth && e.data(recv).f&fPath != 0 && e.lang == Python {
			// Path('.').rglob('*'), p.parent: paths still.
			v.f |= fPath
		}
		return v
	}
	return e.do(x, q, recv, args)
}

// isSink reports a callee that does something when called: Perl and Ruby
// call it even without parentheses.
func (e *ev) isSink(v val) bool {
	switch v.k {
	case vName:
		return e.lookup(v.s).op != opNone
	case vMeth:
		return e.methodAct(v.el[0], v.s).op != opNone
	}
	return false
}

// pos returns positional argument i as data.
func (e *ev) pos(args []arg, i int) (val, bool) {
	k := 0
	for _, a := range args {
		if a.name != "" {
			continue
		}
		if k == i {
			return e.data(a.v), true
		}
		k++
	}
	return val{}, false
}

// positional returns the positional arguments from i on, as data.
func (e *ev) positional(args []arg, i int) []val {
	var out []val
	k := 0
	for _, a := range args {
		if a.name != "" {
			continue
		}
		if k >= i {
			out = append(out, e.data(a.v))
		}
		k++
	}
	return out
}

// kw returns a named argument or an option of an options object.
func (e *ev) kw(args []arg, names ...string) (val, bool) {
	for _, a := range args {
		for _, n := range names {
			if a.name == n {
				return e.data(a.v), true
			}
		}
	}
	for _, a := range args {
		if a.v.k == vObj {
			for _, n := range names {
				if x, ok := a.v.get(n); ok {
					return e.data(x), true
				}
			}
		}
	}
	return val{}, false
}

// do applies a known act; an argument that is a loop variable's
// alternatives applies it once per alternative.
func (e *ev) do(x act, q string, recv val, args []arg) val {
	if !e.inAlt {
		for k, ar := range args {
			if ar.v.k == vList && ar.v.alt {
				e.inAlt = true
				var out val
				for _, alt := range ar.v.el {
					c := append([]arg(nil), args...)
					c[k].v = alt
					out = e.do1(x, q, recv, c)
				}
				e.inAlt = false
				return out
			}
		}
	}
	return e.do1(x, q, recv, args)
}

func (e *ev) do1(x act, q string, recv val, args []arg) val {
	a := int(x.a)
	first := func() val {
		v, _ := e.pos(args, a)
		return v
	}
	switch x.op {
	case opShell:
		v := first()
		if e.lang == PHP && q == "proc_open" && len(args) > 1 {
			for _, d := range e.positional(args, 1) {
				if deepFlag(d, fSock) {
					e.a.facts.dup = true
				}
			}
		}
		if v.k == vList {
			e.runArgv(v.words(), q)
			return dyn(fProc)
		}
		if len(args) == 0 && !(e.lang == Perl || e.lang == Ruby) {
			return dyn(0)
		}
		return e.runShell(v, q)
	case opSystem:
		return e.system(x, q, args)
	case opPopen:
		return e.popen(q, args)
	case opExecv:
		prog, _ := e.pos(args, a)
		lst, _ := e.pos(args, a+1)
		words := []Word{prog.word()}
		if lst.k == vList {
			w := lst.words()
			if len(w) > 0 {
				w = w[1:]
			}
			words = append(words, w...)
		} else {
			words = append(words, Word{Text: Mark, Dynamic: true})
		}
		if e.lang == PHP {
			words = append([]Word{prog.word()}, lst.words()...)
		}
		e.runArgv(words, q)
		return dyn(fProc)
	case opExecl:
		var words []Word
		if x.a < 0 {
			for _, v := range e.positional(args, 0) {
				words = append(words, v.words()...)
			}
		} else {
			prog, _ := e.pos(args, a)
			words = []Word{prog.word()}
			for _, v := range e.positional(args, a+2) {
				if v.k == vObj {
					continue
				}
				words = append(words, v.words()...)
			}
		}
		e.runArgv(words, q)
		return dyn(fProc)
	case opSpawn:
		return e.spawn(q, args)
	case opCmdList:
		v := first()
		if v.k == vObj {
			v, _ = v.get("cmd")
			v = e.data(v)
		}
		if v.k == vList {
			e.runArgv(v.words(), q)
		} else {
			e.runArgv([]Word{{Text: Mark, Dynamic: true}}, q)
		}
		if o, ok := e.kw(args, "stdin", "stdout", "stdio"); ok && deepFlag(o, fSock) {
			e.a.facts.dup = true
		}
		return dyn(fProc)
	case opDenoCmd:
		prog := first()
		words := []Word{prog.word()}
		if l, ok := e.kw(args, "args"); ok {
			words = append(words, l.words()...)
		}
		e.runArgv(words, q)
		return val{k: vDyn, f: fProc}
	case opPty:
		v := first()
		if v.k == vList {
			e.runArgv(v.words(), q)
		} else {
			e.runArgv([]Word{v.word()}, q)
		}
		e.a.facts.shell = true
		return dyn(0)
	case opDelete, opRmdir:
		e.deletes(x, q, recv, args)
		return dyn(0)
	case opOpen:
		return e.open(q, recv, args)
	case opWriteFile:
		p := first()
		if recv.f&fPath != 0 {
			p = recv
		}
		app := x.app
		if e.lang == PHP && len(args) > 2 && args[2].v.k == vName && strings.Contains(args[2].v.s, "FILE_APPEND") {
			app = true
		}
		if fl, ok := e.kw(args, "flag", "mode"); ok && strings.HasPrefix(fl.text(), "a") {
			app = true
		}
		e.write(p, app, q)
		return dyn(0)
	case opRead:
		p := first()
		if recv.f&fPath != 0 {
			p = recv
		}
		return e.read(p)
	case opHome:
		return val{k: vStr, s: "~", f: fPath}
	case opCwd:
		return val{k: vStr, s: "$PWD", f: fPath}
	case opTmp:
		return val{k: vStr, s: "/tmp", f: fPath}
	case opExpand:
		v := first()
		if recv.f&fPath != 0 {
			v = recv
		}
		if v.k == vStr {
			v.s = normPathText(v.s)
		}
		v.f |= fPath
		return v
	case opJoin:
		parts := e.positional(args, 0)
		if recv.f&fPath != 0 {
			parts = append([]val{recv}, parts...)
		}
		if len(parts) == 0 {
			return dyn(0)
		}
		return joinPath(parts)
	case opPath:
		parts := e.positional(args, 0)
		if len(parts) == 0 {
			return val{k: vStr, s: ".", f: fPath}
		}
		v := joinPath(parts)
		return v
	case opSame:
		v := first()
		if recv.k != vDyn && len(args) == 0 {
			v = e.data(recv)
		}
		return v
	case opEnv:
		v, ok := e.pos(args, 0)
		if !ok {
			return envAll()
		}
		if v.known() {
			return envVar(v.text())
		}
		return dyn(0)
	case opEnvAll:
		return envAll()
	case opFetch:
		return e.fetch(q, recv, args)
	case opClient:
		t := fClient
		for _, v := range e.positional(args, 0) {
			if v.known() && strings.Contains(v.text(), "://") {
				t |= fNet
			}
		}
		return val{k: vDyn, f: t}
	case opEval:
		return e.eval(q, args, a)
	case opImport:
		v := first()
		if v.known() {
			m := jsModule(v.text())
			if q == "__import__" || q == "builtins.__import__" {
				// __import__('a.b') returns the package a.
				m, _, _ = strings.Cut(m, ".")
			}
			return name(m)
		}
		if v.f&fNet != 0 {
			e.a.add(Finding{Kind: RemoteCode, Call: q, Text: "imports downloaded code"})
			return dyn(0)
		}
		e.a.unknown(q, "imports a module whose name is computed")
		e.a.facts.runsDyn = true
		return dyn(0)
	case opGetattr:
		if len(args) < 2 {
			return dyn(0)
		}
		nm := e.data(args[1].v)
		if nm.known() {
			return e.member(args[0].v, nm.text())
		}
		if args[0].v.k == vName {
			e.a.unknown(q, "calls a function whose name is computed")
			e.a.facts.runsDyn = true
		}
		return dyn(0)
	case opSend:
		nm := first()
		target := recv
		if target.k == vDyn && recv.s == "" {
			target = name("Kernel")
		}
		if nm.known() {
			return e.call(e.member(target, nm.text()), args[1:])
		}
		e.a.unknown(q, "calls a method whose name is computed")
		e.a.facts.runsDyn = true
		return dyn(0)
	case opLoad:
		v := first()
		if u := v.text(); v.f&fNet != 0 || strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "ftp://") {
			e.a.facts.fetch = true
			e.a.add(Finding{Kind: RemoteCode, Call: q, Text: "runs code from the network"})
		} else if !v.known() {
			e.a.unknown(q, "runs a file whose name is computed")
		}
		return dyn(0)
	case opLibrary:
		if len(args) > 0 {
			n := args[0].v
			if n.k == vName || n.known() {
				if len(*e.star) < 16 {
					*e.star = append(*e.star, n.s)
				}
			}
		}
		return dyn(0)
	case opDecode64, opDecodeHex, opRot13, opReverse:
		v := first()
		if recv.k == vStr && len(args) == 0 {
			v = recv
		}
		if x.a == 99 || !v.known() {
			return dyn(v.taint() | fDecoded)
		}
		if x.op == opRot13 && e.lang == Python {
			// codecs.decode(s, 'rot13'), codecs.decode(s, 'hex'), ...
			enc, _ := e.pos(args, 1)
			switch strings.ToLower(strings.ReplaceAll(enc.text(), "_", "")) {
			case "rot13", "rot-13":
			case "hex", "hexcodec":
				return decoded(decodeHex(v.s), v)
			case "base64", "base64codec":
				return decoded(decodeB64(v.s), v)
			default:
				return v
			}
		}
		switch x.op {
		case opDecode64:
			return decoded(decodeB64(v.s), v)
		case opDecodeHex:
			return decoded(decodeHex(v.s), v)
		case opRot13:
			return decoded(rot13(v.s), v)
		default:
			return decoded(reverse(v.s), v)
		}
	case opBuffer:
		v := first()
		enc, _ := e.pos(args, 1)
		if !v.known() {
			return dyn(v.taint())
		}
		switch strings.ToLower(enc.text()) {
		case "base64", "base64url":
			return decoded(decodeB64(v.s), v)
		case "hex":
			return decoded(decodeHex(v.s), v)
		}
		return v
	case opChr:
		var b strings.Builder
		vals := e.positional(args, 0)
		if x.a >= 0 && len(vals) > 1 {
			vals = vals[:1]
		}
		for _, v := range vals {
			if v.k != vNum {
				return dyn(fDecoded)
			}
			n := parseInt(v.s)
			if n < 0 || n > utf8.MaxRune {
				return dyn(fDecoded)
			}
			b.WriteRune(rune(n))
		}
		out := str(b.String())
		out.f = fDecoded
		return out
	case opSocket:
		if x.conn {
			e.a.facts.connect = true
			if e.a.facts.connNote == "" {
				e.a.facts.connNote = q
			}
		}
		return val{k: vDyn, f: fSock}
	case opConnect:
		e.a.facts.connect = true
		if e.a.facts.connNote == "" {
			e.a.facts.connNote = q
		}
		return dyn(0)
	case opDup:
		e.a.facts.dup = true
		return dyn(0)
	case opFork:
		if len(*e.forks) < 256 {
			*e.forks = append(*e.forks, e.i)
		}
		if e.lang == JavaScript {
			e.a.facts.runs = true
		}
		return val{k: vDyn, f: fProc}
	case opSplit:
		v := first()
		if v.k != vStr {
			return dyn(v.taint())
		}
		l := list(shellWords(v.s))
		return l
	case opEndless:
		if q == "iter" && len(args) < 2 {
			return first()
		}
		return val{k: vDyn, f: fEndless}
	case opList:
		var el []val
		for _, a := range args {
			d := e.data(a.v)
			if d.k == vList && e.lang == R {
				el = append(el, d.el...)
			} else {
				el = append(el, d)
			}
			if len(el) >= maxList {
				break
			}
		}
		return list(el)
	case opPaste:
		sep := " "
		if q == "paste0" || q == "stringr.str_c" || q == "str_c" {
			sep = ""
		}
		if s, ok := e.kw(args, "sep"); ok {
			sep = s.text()
		}
		out := str("")
		for k, v := range e.positional(args, 0) {
			if k > 0 {
				out = concat(out, str(sep))
			}
			if v.k == vList {
				v = joinVals(v.el, " ")
			}
			out = concat(out, v)
		}
		return out
	case opSprintf:
		f := first()
		if f.k != vStr {
			return dyn(f.taint())
		}
		return pyPercent(f, list(e.positional(args, a+1)))
	case opEvalParse:
		if t, ok := e.kw(args, "text"); ok {
			return t
		}
		return first()
	}
	return dyn(0)
}

func decoded(s string, from val) val {
	if s == "" && from.s != "" {
		return dyn(fDecoded | from.taint())
	}
	v := str(s)
	v.f = fDecoded | from.taint()&^fBytes
	if strings.Contains(s, Mark) {
		v.f |= fBytes
	}
	return v
}

func parseInt(s string) int {
	n := 0
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		v, ok := parseHex(s[2:])
		if !ok {
			return -1
		}
		return v
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
		if n > utf8.MaxRune {
			return -1
		}
	}
	return n
}

func joinVals(el []val, sep string) val {
	out := str("")
	for k, v := range el {
		if k > 0 {
			out = concat(out, str(sep))
		}
		out = concat(out, v)
	}
	return out
}

func deepFlag(v val, f flag) bool {
	if v.f&f != 0 {
		return true
	}
	for _, x := range v.el {
		if deepFlag(x, f) {
			return true
		}
	}
	return false
}

// system reads Perl's and Ruby's system/exec/spawn and their relatives:
// one string is a shell command line, more arguments are an argv; Ruby
// may put an environment hash first, and options last.
func (e *ev) system(x act, q string, args []arg) val {
	vals := e.positional(args, 0)
	if x.a > 0 && e.lang == Perl {
		// open3($in, $out, $err, CMD...)
		if len(vals) < int(x.a) {
			return dyn(0)
		}
		vals = vals[x.a:]
	}
	if e.lang == R {
		// system2(command, args = c(...))
		cmd := str("")
		if len(vals) > 0 {
			cmd = vals[0]
		}
		if a, ok := e.kw(args, "args"); ok {
			vals = append(vals[:min(1, len(vals))], a)
		}
		for _, v := range vals[min(1, len(vals)):] {
			if v.k == vList {
				v = joinVals(v.el, " ")
			}
			cmd = concat(concat(cmd, str(" ")), v)
		}
		return e.runShell(cmd, q)
	}
	for len(vals) > 0 && vals[0].k == vObj {
		vals = vals[1:]
	}
	for len(vals) > 0 && vals[len(vals)-1].k == vObj {
		for _, v := range vals[len(vals)-1].el {
			if deepFlag(e.data(v), fSock) {
				e.a.facts.dup = true
			}
		}
		vals = vals[:len(vals)-1]
	}
	if x.a == 1 && e.lang == Ruby && len(vals) > 1 {
		vals = vals[:1] // IO.popen(cmd, mode)
	}
	switch {
	case len(vals) == 0:
		return dyn(0)
	case len(vals) == 1 && vals[0].k != vList:
		return e.runShell(vals[0], q)
	}
	var words []Word
	for _, v := range vals {
		words = append(words, v.words()...)
	}
	if len(vals) == 1 && vals[0].k == vList && len(vals[0].el) == 2 && vals[0].el[0].k == vList {
		// Ruby: system([cmd, argv0], args...)
		words = vals[0].el[0].words()
		words = words[:min(1, len(words))]
	}
	e.runArgv(words, q)
	return dyn(fProc)
}

// popen reads Python's subprocess calls.
func (e *ev) popen(q string, args []arg) val {
	v, ok := e.pos(args, 0)
	if !ok {
		v, ok = e.kw(args, "args")
	}
	if !ok {
		return dyn(0)
	}
	for _, k := range []string{"stdin", "stdout", "stderr"} {
		if s, ok := e.kw(args, k); ok && s.f&fSock != 0 {
			e.a.facts.dup = true
		}
	}
	if strings.HasSuffix(q, "Popen") && len(*e.forks) < 256 {
		*e.forks = append(*e.forks, e.i)
	}
	shell, _ := e.kw(args, "shell")
	switch {
	case v.k == vList:
		if shell.truthy() && len(v.el) > 0 {
			return e.runShell(v.el[0], q)
		}
		e.runArgv(v.words(), q)
	case shell.truthy():
		return e.runShell(v, q)
	case v.k == vStr:
		e.runArgv([]Word{v.word()}, q)
	default:
		e.runArgv([]Word{{Text: Mark, Dynamic: true}}, q)
	}
	return dyn(fProc)
}

// spawn reads node's spawn/execFile(cmd, [args], {shell}) and execa.
func (e *ev) spawn(q string, args []arg) val {
	prog, _ := e.pos(args, 0)
	lst, _ := e.pos(args, 1)
	if o, ok := e.kw(args, "stdio", "stdin", "stdout"); ok && deepFlag(o, fSock) {
		e.a.facts.dup = true
	}
	if sh, ok := e.kw(args, "shell"); ok && sh.truthy() {
		cmd := prog
		if lst.k == vList {
			for _, w := range lst.el {
				cmd = concat(concat(cmd, str(" ")), w)
			}
		}
		return e.runShell(cmd, q)
	}
	if prog.k == vList && e.lang == R {
		e.runArgv(prog.words(), q)
		return dyn(fProc)
	}
	words := []Word{prog.word()}
	if lst.k == vList {
		words = append(words, lst.words()...)
	} else if lst.k != vObj && lst.k != 0 || lst.k == vDyn && len(args) > 1 && args[1].v.k != vObj {
		words = append(words, Word{Text: Mark, Dynamic: true})
	}
	if e.lang == JavaScript && (q == "child_process.spawn" || q == "spawn") && len(*e.forks) < 256 {
		*e.forks = append(*e.forks, e.i)
	}
	e.runArgv(words, q)
	return val{k: vDyn, f: fProc}
}

// deletes records the paths a delete call removes.
func (e *ev) deletes(x act, q string, recv val, args []arg) {
	var paths []val
	rec := x.rec
	if x.kw != "" {
		if r, ok := e.kw(args, x.kw, "force"); ok && r.truthy() {
			if r2, ok2 := e.kw(args, x.kw); ok2 && r2.truthy() || x.kw == "force" {
				rec = true
			}
		}
	}
	switch {
	case recv.f&fPath != 0 && len(args) == 0:
		paths = []val{recv}
	case x.a < 0:
		for _, v := range e.positional(args, 0) {
			if v.k == vObj {
				continue
			}
			paths = append(paths, v)
		}
		// shelljs rm('-rf', path): options first.
		if e.lang == JavaScript && len(paths) > 1 && paths[0].known() && strings.HasPrefix(paths[0].s, "-") {
			rec = strings.ContainsAny(paths[0].s, "rR")
			paths = paths[1:]
		}
	default:
		v, ok := e.pos(args, int(x.a))
		if !ok {
			if p, ok2 := e.kw(args, "path", "x", "file"); ok2 {
				v, ok = p, true
			}
		}
		if !ok {
			return
		}
		paths = []val{v}
	}
	dir := x.op == opRmdir && !rec
	for _, p := range paths {
		for _, alt := range p.alts() {
			for _, w := range alt.words() {
				if w.Text == "" {
					continue
				}
				e.a.add(Finding{Kind: Delete, Path: w, Recursive: rec, Dir: dir, Dynamic: w.Dynamic, Call: q})
			}
		}
	}
}

// write records a file the code overwrites (a literal path only: where
// a computed path goes cannot be told, and writing files is what code
// does).
func (e *ev) write(p val, app bool, q string) {
	for _, alt := range p.alts() {
		w := alt.word()
		if alt.k != vStr || w.Dynamic || w.Text == "" {
			continue
		}
		e.a.add(Finding{Kind: Write, Path: w, Append: app, Call: q})
	}
}

// read returns what reading a file gives: a secret when the path holds
// one; remote content when it is a URL.
func (e *ev) read(p val) val {
	t := p.text()
	if p.f&fNet != 0 || strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "https://") || strings.HasPrefix(t, "ftp://") {
		e.a.facts.fetch = true
		return dyn(fNet)
	}
	if p.k == vStr && secretPath(t) {
		v := dyn(fSecret | fFile)
		v.why = normPathText(t)
		return v
	}
	return dyn(fFile | p.taint()&fNet)
}

// open reads open-like calls: the mode tells a write from a read; Perl's
// and Ruby's pipes run commands.
func (e *ev) open(q string, recv val, args []arg) val {
	vals := e.positional(args, 0)
	path, mode := val{}, ""
	switch {
	case recv.f&fPath != 0:
		path = recv
		if len(vals) > 0 {
			mode = vals[0].text()
		}
	case e.lang == Perl:
		// open(FH, MODE, PATH, ...) or open(FH, EXPR).
		switch {
		case len(vals) >= 3:
			mode = vals[1].text()
			path = vals[2]
			switch strings.TrimSpace(mode) {
			case "-|", "|-":
				if len(vals) > 3 {
					var words []Word
					for _, v := range vals[2:] {
						words = append(words, v.words()...)
					}
					e.runArgv(words, q)
					return dyn(fProc)
				}
				return e.runShell(path, q)
			}
			if strings.Contains(mode, "&") {
				e.a.facts.dup = true
				return dyn(0)
			}
		case len(vals) == 2:
			s := strings.TrimSpace(vals[1].text())
			switch {
			case strings.HasPrefix(s, ">&") || strings.HasPrefix(s, "<&") || strings.HasPrefix(s, "+<&"):
				e.a.facts.dup = true
				return dyn(0)
			case strings.HasPrefix(s, "|"):
				return e.runShell(str(strings.TrimSpace(s[1:])), q)
			case strings.HasSuffix(s, "|"):
				return e.runShell(str(strings.TrimSpace(s[:len(s)-1])), q)
			case strings.HasPrefix(s, ">>"):
				mode, path = ">>", str(strings.TrimSpace(s[2:]))
			case strings.HasPrefix(s, ">"):
				mode, path = ">", str(strings.TrimSpace(s[1:]))
			default:
				mode, path = "<", str(strings.TrimSpace(strings.TrimPrefix(s, "<")))
			}
		default:
			return dyn(0)
		}
	default:
		if len(vals) == 0 {
			if p, ok := e.kw(args, "file", "filename"); ok {
				vals = []val{p}
			} else {
				return dyn(0)
			}
		}
		path = vals[0]
		if len(vals) > 1 {
			mode = vals[1].text()
		}
		if m, ok := e.kw(args, "mode"); ok {
			mode = m.text()
		}
		if e.lang == Ruby && path.k == vStr && strings.HasPrefix(path.s, "|") {
			return e.runShell(str(strings.TrimSpace(path.s[1:])), q)
		}
	}
	switch {
	case strings.Contains(mode, "w") || strings.HasPrefix(mode, ">") && !strings.HasPrefix(mode, ">>") || strings.Contains(mode, "x") && e.lang == Python:
		e.write(path, false, q)
		return dyn(fFile)
	case strings.Contains(mode, "a") || strings.HasPrefix(mode, ">>"):
		e.write(path, true, q)
		return dyn(fFile)
	}
	return e.read(path)
}

// fetch records an HTTP request: the code downloads, and sends what its
// arguments hold (a secret sent is a finding).
func (e *ev) fetch(q string, recv val, args []arg) val {
	e.a.facts.fetch = true
	if why := e.sentSecret(args); why != "" {
		e.a.add(Finding{Kind: SecretSend, Call: q, Text: "sends " + why + " over the network"})
	}
	return dyn(fNet)
}

// sentSecret returns the secret an HTTP call's arguments carry: a secret
// file or the whole environment anywhere, a secret-named variable in the
// body (not in the headers or the query, where API tokens go).
func (e *ev) sentSecret(args []arg) string {
	for _, a := range args {
		switch strings.ToLower(a.name) {
		case "headers", "auth", "params", "cookies", "cert", "verify", "timeout":
			continue
		}
		if s := strongSecret(e.data(a.v)); s != "" {
			return s
		}
	}
	return ""
}

func strongSecret(v val) string {
	if v.f&fSecret != 0 {
		if v.why == "" {
			return "a secret"
		}
		return v.why
	}
	for i, x := range v.el {
		if v.k == vObj && i < len(v.keys) {
			switch strings.ToLower(v.keys[i]) {
			case "headers", "auth", "authorization", "params", "query", "searchparams":
				continue
			}
		}
		if s := strongSecret(x); s != "" {
			return s
		}
	}
	return ""
}

// eval reads code a call evaluates: literal code is analysed as code of
// the language; downloaded code is remote code; anything else is unknown.
func (e *ev) eval(q string, args []arg, a int) val {
	if len(args) <= a {
		if e.lang == Perl && len(args) == 0 {
			e.a.unknown(q, "evaluates computed code")
			e.a.facts.runsDyn = true
		}
		return dyn(0)
	}
	raw := args[a].v
	if raw.f&fFunc != 0 && raw.k != vStr || raw.k == vName && (q == "setTimeout" || q == "setInterval" || q == "Reflect.apply") {
		return dyn(0)
	}
	v := e.data(raw)
	if q == "setTimeout" || q == "setInterval" || q == "Reflect.apply" {
		if v.k != vStr {
			return dyn(0)
		}
	}
	if (q == "dofile" || q == "loadfile") && v.known() {
		return dyn(0) // a file of the project, by name
	}
	switch {
	case v.f&fNet != 0:
		e.a.add(Finding{Kind: RemoteCode, Call: q, Text: "evaluates downloaded code"})
		e.a.facts.runsDyn = true
	case v.known():
		e.a.run(e.lang, v.s, e.depth+1)
	default:
		e.a.unknown(q, "evaluates computed code")
		e.a.facts.runsDyn = true
	}
	return dyn(0)
}

// methodAct returns what a method of a value does (a path's unlink, a
// socket's connect, a client's get), or what a method of an object the
// analyser cannot follow does when its name says.
func (e *ev) methodAct(recv val, m string) act {
	if recv.k == vName {
		return e.lookup(recv.s + "." + m)
	}
	if recv.k == vMeth {
		recv = e.data(recv)
	}
	if recv.f&fPath != 0 {
		switch m {
		case "unlink", "delete", "unlink_p":
			return act{op: opDelete}
		case "rmdir":
			return act{op: opRmdir}
		case "rmtree", "rm_rf":
			return act{op: opDelete, rec: true}
		case "write_text", "write_bytes", "write":
			return act{op: opWriteFile, a: 1}
		case "open":
			return act{op: opOpen}
		case "read_text", "read_bytes", "read", "text", "readlines", "binread":
			return act{op: opRead}
		case "expanduser", "resolve", "absolute", "expand_path", "realpath", "expand", "to_s", "to_path", "__str__":
			return act{op: opExpand}
		case "joinpath", "join", "+":
			return act{op: opJoin}
		case "home":
			return act{op: opHome}
		}
	}
	if recv.f&fSock != 0 {
		switch m {
		case "connect", "connect_ex", "bind", "listen", "accept", "open":
			return act{op: opConnect}
		}
	}
	if recv.f&fClient != 0 {
		switch m {
		case "get", "post", "put", "patch", "request", "urlopen", "open", "DownloadString", "DownloadData", "DownloadFile",
			"UploadString", "UploadData", "UploadFile", "UploadValues", "mirror", "getstore", "post_form", "send", "start", "fetch":
			return act{op: opFetch}
		}
	}
	return fallbackAct(e.lang, m)
}

// valueMethod computes the methods of values that only transform them:
// string and list methods, and what flows from sockets, downloads and
// files.
func (e *ev) valueMethod(recv val, m string, args []arg) (val, bool) {
	t := recv.taint()
	switch {
	case recv.f&fSock != 0:
		switch m {
		case "fileno", "makefile", "to_i", "getsockname":
			return val{k: vDyn, f: fSock}, true
		case "recv", "read", "gets", "recvfrom", "readline", "readlines", "on":
			return dyn(fNet), true
		case "send", "sendall", "write", "puts", "print", "sendto", "end", "syswrite":
			if why := e.sentSecret(args); why != "" {
				e.a.add(Finding{Kind: SecretSend, Call: m, Text: "sends " + why + " over the network"})
			}
			return dyn(0), true
		}
		return dyn(0), true
	case recv.f&fNet != 0:
		return dyn(fNet), true
	case recv.f&fFile != 0:
		v := dyn(recv.f & (fSecret | fNet))
		v.why = recv.why
		return v, true
	}
	if recv.k == vList {
		switch m {
		case "join":
			sep, _ := e.pos(args, 0)
			if !sep.known() {
				sep = str("")
			}
			if e.lang == Ruby && len(args) == 0 {
				sep = str("")
			}
			return joinVals(recv.el, sep.text()), true
		case "pack":
			f, _ := e.pos(args, 0)
			if len(recv.el) == 1 && recv.el[0].known() {
				switch f.text() {
				case "H*":
					return decoded(decodeHex(recv.el[0].s), recv.el[0]), true
				case "m", "m0":
					return decoded(decodeB64(recv.el[0].s), recv.el[0]), true
				}
			}
			return dyn(t | fDecoded), true
		case "reverse":
			out := make([]val, len(recv.el))
			for i, v := range recv.el {
				out[len(out)-1-i] = v
			}
			return list(out), true
		}
		return dyn(t), true
	}
	if recv.k != vStr {
		return val{}, false
	}
	s := recv.s
	switch m {
	case "split":
		sep, ok := e.pos(args, 0)
		var parts []string
		if ok && sep.known() && sep.s != "" {
			parts = strings.Split(s, sep.s)
		} else {
			parts = strings.Fields(s)
		}
		var el []val
		for _, p := range parts {
			if len(el) >= maxList {
				break
			}
			el = append(el, str(p))
		}
		l := list(el)
		return l, true
	case "strip", "rstrip", "lstrip", "trim", "trimEnd", "trimStart", "chomp", "chop", "squeeze", "lower", "upper",
		"downcase", "upcase", "toLowerCase", "toUpperCase", "encode", "to_s", "toString", "valueOf", "b", "dup", "freeze",
		"strip!", "chomp!", "normalize", "text", "decode", "__str__":
		if m == "decode" || m == "toString" {
			enc, _ := e.pos(args, 0)
			switch strings.ToLower(enc.text()) {
			case "base64", "base64_codec":
				return decoded(decodeB64(s), recv), true
			case "hex", "hex_codec":
				return decoded(decodeHex(s), recv), true
			case "rot13", "rot_13":
				return decoded(rot13(s), recv), true
			}
		}
		switch m {
		case "strip", "trim":
			recv.s = strings.TrimSpace(s)
		case "lower", "downcase", "toLowerCase":
			recv.s = strings.ToLower(s)
		case "upper", "upcase", "toUpperCase":
			recv.s = strings.ToUpper(s)
		}
		return recv, true
	case "replace", "replaceAll", "gsub", "sub", "tr", "delete":
		a, _ := e.pos(args, 0)
		b, okb := e.pos(args, 1)
		if m == "delete" {
			b, okb = str(""), true
		}
		if a.known() && okb && b.known() && a.s != "" {
			n := -1
			if m == "sub" || m == "replace" && e.lang == JavaScript {
				n = 1
			}
			if m == "tr" {
				return recv, true
			}
			out := str(strings.Replace(s, a.s, b.s, n))
			out.f = t
			return out, true
		}
		return dyn(t), true
	case "format":
		vals := e.positional(args, 0)
		return pyFormat(recv, vals), true
	case "join":
		l, _ := e.pos(args, 0)
		if l.k == vList {
			return joinVals(l.el, s), true
		}
		return dyn(l.taint()), true
	case "unpack1", "unpack":
		f, _ := e.pos(args, 0)
		switch f.text() {
		case "m", "m0":
			return decoded(decodeB64(s), recv), true
		case "H*":
			return decoded(decodeHex(s), recv), true
		}
		return dyn(t | fDecoded), true
	case "reverse", "strrev":
		return decoded(reverse(s), recv), true
	case "concat", "+":
		out := recv
		for _, v := range e.positional(args, 0) {
			out = concat(out, v)
		}
		return out, true
	case "expanduser", "expand_path":
		recv.s = normPathText(s)
		recv.f |= fPath
		return recv, true
	}
	return val{}, false
}

// pyFormat applies str.format's {} and {0} fields.
func pyFormat(f val, args []val) val {
	var b strings.Builder
	s := f.s
	k := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '{' && i+1 < len(s) && s[i+1] == '{' || c == '}' && i+1 < len(s) && s[i+1] == '}' {
			b.WriteByte(c)
			i++
			continue
		}
		if c != '{' {
			b.WriteByte(c)
			continue
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		field := s[i+1 : i+j]
		n := k
		if field != "" {
			n = parseInt(strings.SplitN(field, ":", 2)[0])
		} else {
			k++
		}
		if n >= 0 && n < len(args) {
			b.WriteString(args[n].text())
		} else {
			b.WriteString(Mark)
		}
		i += j
	}
	v := str(b.String())
	v.f = f.taint()
	for _, a := range args {
		v.f |= a.taint()
	}
	return v
}

// resolve returns the value a name stands for when used as data: the
// environment and its variables, constants; an unknown value otherwise.
func (e *ev) resolve(q string) val {
	for _, env := range [...]string{"os.environ", "process.env", "Bun.env", "ENV", "_ENV", "_SERVER", "import.meta.env", "Deno.env"} {
		if q == env {
			if env == "_SERVER" {
				return dyn(0)
			}
			return envAll()
		}
		if strings.HasPrefix(q, env+".") {
			return envVar(q[len(env)+1:])
		}
	}
	switch q {
	case "os.sep", "os.path.sep":
		return str("/")
	case "os.curdir":
		return str(".")
	case "__dirname", "__filename", "process.cwd":
		return dyn(0)
	}
	if e.lang == Ruby || e.lang == Perl {
		if x := e.lookup(q); x.op == opHome || x.op == opTmp || x.op == opEnvAll {
			return e.do(x, q, val{}, nil)
		}
	}
	return dyn(0)
}

// property returns an attribute of a value read without a call.
func (e *ev) property(v val) val {
	r := e.data(v.el[0])
	if e.lang == Ruby || e.lang == Perl {
		if x, ok := e.valueMethod(r, v.s, nil); ok {
			return x
		}
	}
	if r.f&fPath != 0 {
		switch v.s {
		case "home":
			return val{k: vStr, s: "~", f: fPath}
		case "parent", "name", "stem", "suffix":
			return dyn(0)
		}
	}
	out := dyn(r.taint() &^ fSock)
	out.why = r.why
	return out
}

func decodeB64(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return string(b)
		}
	}
	return ""
}

func decodeHex(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "0x")
	b, err := hex.DecodeString(s)
	if err != nil {
		return ""
	}
	return string(b)
}

func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}

func reverse(s string) string {
	r := []rune(s)
	for a, b := 0, len(r)-1; a < b; a, b = a+1, b-1 {
		r[a], r[b] = r[b], r[a]
	}
	return string(r)
}
