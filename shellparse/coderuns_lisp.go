package shellparse

import "strings"

// Emacs Lisp runs commands through a few functions: shell-command and its
// kin take a shell command line, call-process, process-file,
// start-process, process-lines and make-process a program and its
// arguments. elispCode reads the expressions (a small reader: lists,
// strings, symbols, quotes) and records each call whose command is made of
// string literals; any other argument is known only at run time.
// delete-directory and delete-file are recorded as the rm they amount to.

// sexp is one Emacs Lisp expression: a list (kids), a string (str) or
// another atom (sym: a symbol, a number, ...).
type sexp struct {
	list  bool
	str   bool
	val   string
	kids  []sexp
	quote bool // written 'x or `x or #'x
}

// maxSexpNodes bounds the nodes read from one text.
const maxSexpNodes = 1 << 14

type sexpReader struct {
	s     string
	i     int
	nodes int
}

// read reads the expressions of s, up to the bound on nodes and depth.
func (r *sexpReader) readAll() []sexp {
	var out []sexp
	for guard := 0; guard <= len(r.s); guard++ {
		x, ok := r.read(0)
		if !ok {
			break
		}
		out = append(out, x)
	}
	return out
}

func (r *sexpReader) skip() {
	for r.i < len(r.s) {
		c := r.s[r.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			r.i++
		case c == ';':
			for r.i < len(r.s) && r.s[r.i] != '\n' {
				r.i++
			}
		default:
			return
		}
	}
}

func (r *sexpReader) read(depth int) (sexp, bool) {
	r.skip()
	if r.i >= len(r.s) || r.nodes >= maxSexpNodes || depth > 64 {
		return sexp{}, false
	}
	r.nodes++
	c := r.s[r.i]
	switch {
	case c == '(' || c == '[':
		closeBy := byte(')')
		if c == '[' {
			closeBy = ']'
		}
		r.i++
		x := sexp{list: true}
		for {
			r.skip()
			if r.i >= len(r.s) {
				return x, true
			}
			if r.s[r.i] == closeBy {
				r.i++
				return x, true
			}
			if r.s[r.i] == ')' || r.s[r.i] == ']' {
				r.i++ // a stray closer of the other kind
				return x, true
			}
			k, ok := r.read(depth + 1)
			if !ok {
				return x, true
			}
			x.kids = append(x.kids, k)
		}
	case c == ')' || c == ']':
		r.i++
		return sexp{val: string(c)}, true
	case c == '\'' || c == '`' || c == ',':
		r.i++
		if r.i < len(r.s) && r.s[r.i] == '@' {
			r.i++
		}
		x, ok := r.read(depth + 1)
		x.quote = true
		return x, ok
	case c == '#' && r.i+1 < len(r.s) && r.s[r.i+1] == '\'':
		r.i += 2
		x, ok := r.read(depth + 1)
		x.quote = true
		return x, ok
	case c == '"':
		var b strings.Builder
		j := r.i + 1
		for j < len(r.s) && r.s[j] != '"' {
			if r.s[j] == '\\' && j+1 < len(r.s) {
				j++
				switch r.s[j] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case '\n':
				default:
					b.WriteByte(r.s[j])
				}
				j++
				continue
			}
			b.WriteByte(r.s[j])
			j++
		}
		r.i = min(j+1, len(r.s))
		return sexp{str: true, val: b.String()}, true
	case c == '?':
		// A character: ?a, ?\n.
		r.i++
		if r.i < len(r.s) && r.s[r.i] == '\\' {
			r.i++
		}
		if r.i < len(r.s) {
			r.i++
		}
		return sexp{val: "?"}, true
	default:
		j := r.i
		for j < len(r.s) && !strings.ContainsRune(" \t\n\r\f()[]\";'`", rune(r.s[j])) {
			if r.s[j] == '\\' {
				j++
			}
			j++
		}
		j = min(j, len(r.s))
		x := sexp{val: r.s[r.i:j]}
		if j == r.i {
			j++
		}
		r.i = j
		return x, true
	}
}

// elispCode records the commands an Emacs Lisp text runs.
func elispCode(text string, f *foundCode) {
	r := sexpReader{s: text}
	for _, x := range r.readAll() {
		elispWalk(x, f, 0)
	}
}

// elispShellArg gives, for the functions that run a shell command line,
// the index of the argument that holds it.
func elispShellArg(fn string) (int, bool) {
	switch fn {
	case "shell-command", "shell-command-to-string", "async-shell-command", "call-process-shell-command",
		"process-file-shell-command", "compile", "dired-do-shell-command", "dired-do-async-shell-command",
		"projectile-run-shell-command-in-root", "eshell-command":
		return 0, true
	case "start-process-shell-command", "start-file-process-shell-command":
		return 2, true
	case "shell-command-on-region", "call-shell-region":
		return 2, true
	}
	return 0, false
}

// elispProgArg gives, for the functions that run a program, the index of
// the program and of its first argument.
func elispProgArg(fn string) (prog, args int, ok bool) {
	switch fn {
	case "call-process", "process-file":
		return 0, 4, true
	case "start-process", "start-file-process":
		return 2, 3, true
	case "process-lines", "process-lines-ignore-status", "process-lines-handling-status":
		return 0, 1, true
	case "call-process-region":
		return 2, 6, true
	}
	return 0, 0, false
}

func elispWalk(x sexp, f *foundCode, depth int) {
	if f.over || depth > 256 || !x.list || len(x.kids) == 0 {
		return
	}
	head := x.kids[0]
	if !head.list && !head.str {
		// Quoted forms too: code is quoted to be run later (eval,
		// funcall, hooks).
		elispCall(head.val, x.kids[1:], f)
	}
	for _, k := range x.kids {
		if k.quote && k.list && !(len(k.kids) > 0 && !k.kids[0].list && !k.kids[0].str) {
			continue // quoted data
		}
		elispWalk(k, f, depth+1)
	}
}

// elispCall records what the call of fn with args runs.
func elispCall(fn string, args []sexp, f *foundCode) {
	{
		what := fn
		if k, ok := elispShellArg(fn); ok {
			if k < len(args) && args[k].str {
				f.shell(what, args[k].val)
			} else {
				f.unknown(what)
			}
		} else if p, a, ok := elispProgArg(fn); ok {
			elispArgv(what, args, p, a, f)
		}
		switch fn {
		case "make-process", "make-pipe-process":
			for k := 0; k+1 < len(args); k++ {
				if !args[k].list && args[k].val == ":command" {
					elispList(what, args[k+1], f)
				}
			}
		case "delete-directory":
			if len(args) > 0 && args[0].str {
				flag := "-d"
				if len(args) > 1 && !args[1].list && args[1].val != "nil" {
					flag = "-rf"
				}
				f.argv(what, []string{"rm", flag, "--", args[0].val}, false)
			} else if len(args) > 0 {
				f.unknown(what)
			}
		case "delete-file":
			if len(args) > 0 && args[0].str {
				f.argv(what, []string{"rm", "-f", "--", args[0].val}, false)
			} else if len(args) > 0 {
				f.unknown(what)
			}
		case "eval", "funcall", "apply":
			// Code or a function chosen at run time: known when it is a
			// quoted form, which the walk below reads.
			if len(args) > 0 && !args[0].quote {
				f.unknown(what)
			}
			if len(args) > 0 && args[0].quote && !args[0].list && args[0].val != fn {
				// (funcall #'shell-command "cmd")
				elispCall(args[0].val, args[1:], f)
			}
		}
	}
}

// elispArgv records the program (args[p]) and arguments (args[a:]) of a
// process call.
func elispArgv(what string, args []sexp, p, a int, f *foundCode) {
	if p >= len(args) || !args[p].str {
		f.unknown(what)
		return
	}
	words := []string{args[p].val}
	dyn := false
	for k := a; k < len(args); k++ {
		switch {
		case args[k].str:
			words = append(words, args[k].val)
		case !args[k].list && args[k].val == "nil":
		default:
			words = append(words, dynPlaceholder)
			dyn = true
		}
	}
	f.argv(what, words, dyn)
}

// elispList records a :command list ('("rm" "-rf" "x") or (list "rm" ...)).
func elispList(what string, x sexp, f *foundCode) {
	kids := x.kids
	if !x.list {
		f.unknown(what)
		return
	}
	if len(kids) > 0 && !kids[0].list && !kids[0].str && kids[0].val == "list" {
		kids = kids[1:]
	}
	var words []string
	dyn := false
	for _, k := range kids {
		if k.str {
			words = append(words, k.val)
		} else {
			words = append(words, dynPlaceholder)
			dyn = true
		}
	}
	f.argv(what, words, dyn)
}
