package shellparse

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// stdinText returns what an invocation reads on standard input when it
// is known statically: a heredoc, a here-string, or the output of
// echo/printf piped into it. present reports input other than the
// terminal or a named file (a file redirected with < is like a script
// named on the command line: not part of the line); static, whether its
// text is known.
//
// It is the one place the code readers learn about standard input.
func (w *walker) stdinText(rawRedirs []*syntax.Redirect, c ctx) (text string, present, static bool) {
	for _, r := range rawRedirs {
		if r == nil || r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.RdrIn:
			if r.Word != nil {
				if v := w.word(r.Word); len(v) == 1 && !v[0].Dynamic && isStdinPath(v[0].Value) {
					continue
				}
			}
			return "", false, false
		case syntax.WordHdoc:
			if r.Word == nil {
				return "", false, false
			}
			v := w.word(r.Word)
			if len(v) != 1 {
				return "", true, false
			}
			if v[0].Dynamic {
				return approxValue(v[0].Raw) + "\n", true, false
			}
			return v[0].Value + "\n", true, true
		case syntax.Hdoc, syntax.DashHdoc:
			jobs := w.stdinJob("", []*syntax.Redirect{r}, c)
			if len(jobs) == 0 {
				return "", false, false
			}
			return jobs[0].text, true, !jobs[0].dynamic
		}
	}
	if c.stdin == nil {
		return "", false, false
	}
	if c.stdin.end-c.stdin.first == 1 {
		src := &w.res.Invocations[c.stdin.first]
		if len(src.Wrappers) == 0 && len(src.Redirs) == 0 && (src.Name == "echo" || src.Name == "printf") {
			args := src.Args[1:]
			dyn := src.Dynamic()
			if dyn {
				// The output with the expansions as written: text
				// built at run time.
				args = make([]Arg, len(src.Args)-1)
				for i, a := range src.Args[1:] {
					args[i] = a
					if a.Dynamic {
						args[i].Value = approxValue(a.Raw)
					}
				}
			}
			if out, ok := echoOutput(src.Name, args); ok {
				return out, true, !dyn
			}
		}
	}
	return "", true, false
}

// approxValue returns the value of a word known only at run time with
// its expansions left as written ($x, ${x}, $(cmd), `cmd`): quotes
// removed and escapes resolved, the rest as the shell would pass it. Code
// read from it is code built at run time.
func approxValue(raw string) string {
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '\\' && i+1 < len(raw):
			i++
			if raw[i] != '\n' {
				b.WriteByte(raw[i])
			}
		case c == '\'':
			j := strings.IndexByte(raw[i+1:], '\'')
			if j < 0 {
				b.WriteString(raw[i+1:])
				return b.String()
			}
			b.WriteString(raw[i+1 : i+1+j])
			i += j + 1
		case c == '$' && i+1 < len(raw) && raw[i+1] == '\'':
			j := i + 2
			for j < len(raw) && raw[j] != '\'' {
				if raw[j] == '\\' {
					j++
				}
				j++
			}
			ansiC(&b, raw[i+2:min(j, len(raw))])
			i = j
		case c == '"':
			j := i + 1
			for j < len(raw) && raw[j] != '"' {
				switch {
				case raw[j] == '\\' && j+1 < len(raw):
					if strings.IndexByte("$`\"\\\n", raw[j+1]) >= 0 {
						j++
					}
					b.WriteByte(raw[j])
					j++
				case raw[j] == '$' || raw[j] == '`':
					end := expansionEnd(raw, j)
					b.WriteString(raw[j:end])
					j = end
				default:
					b.WriteByte(raw[j])
					j++
				}
			}
			i = j
		case c == '$' || c == '`':
			end := expansionEnd(raw, i)
			b.WriteString(raw[i:end])
			i = end - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// expansionEnd returns the index after the expansion at raw[i]: $(...),
// $((...)), ${...}, `...`, $name or a lone $.
func expansionEnd(raw string, i int) int {
	if raw[i] == '`' {
		for j := i + 1; j < len(raw); j++ {
			if raw[j] == '\\' {
				j++
				continue
			}
			if raw[j] == '`' {
				return j + 1
			}
		}
		return len(raw)
	}
	if i+1 >= len(raw) {
		return i + 1
	}
	switch n := raw[i+1]; {
	case n == '(' || n == '{':
		closeBy := byte(')')
		if n == '{' {
			closeBy = '}'
		}
		depth := 0
		for j := i + 1; j < len(raw); j++ {
			switch raw[j] {
			case '\\':
				j++
			case n:
				depth++
			case closeBy:
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(raw)
	case identByte(n):
		j := i + 1
		for j < len(raw) && identByte(raw[j]) {
			j++
		}
		return j
	case strings.IndexByte("@*#?$!-0123456789", n) >= 0:
		return i + 2
	}
	return i + 1
}

// isStdinPath reports the names of standard input.
func isStdinPath(p string) bool {
	switch p {
	case "-", "/dev/stdin", "/proc/self/fd/0", "/dev/fd/0":
		return true
	}
	return false
}

// fileText returns the code in the file a word names, when the line holds
// it: standard input ("-", /dev/stdin) or a process substitution (<(echo
// ...)). exists is false for a named file, whose content is not part of
// the line; known, whether the text is known statically.
func (w *walker) fileText(a Arg, rawRedirs []*syntax.Redirect, c ctx) (text string, known, exists bool) {
	if !a.Dynamic {
		if !isStdinPath(a.Value) {
			return "", false, false
		}
		text, present, static := w.stdinText(rawRedirs, c)
		return text, static, present
	}
	if !strings.HasPrefix(a.Raw, "<(") {
		return "", false, false
	}
	for _, p := range w.procs {
		if p.raw == a.Raw {
			return p.text, p.static, true
		}
	}
	return "", false, true
}

// procScript is what a process substitution <(...) in the words of the
// command being read outputs: its text when it is echo or printf of
// literal words.
type procScript struct {
	raw    string
	text   string
	static bool
}

// procScripts reads the process substitutions among words (none in most
// lines: nothing is allocated then).
func (w *walker) procScripts(words []*syntax.Word) []procScript {
	var out []procScript
	for _, word := range words {
		if word == nil || len(word.Parts) != 1 {
			continue
		}
		ps, ok := word.Parts[0].(*syntax.ProcSubst)
		if !ok || ps.Op != syntax.CmdIn {
			continue
		}
		p := procScript{raw: w.raw(word)}
		p.text, p.static = w.substOutput(ps.Stmts)
		out = append(out, p)
	}
	return out
}

// substOutput returns the output of the statements of a substitution when
// they are one echo or printf of literal words.
func (w *walker) substOutput(stmts []*syntax.Stmt) (string, bool) {
	if len(stmts) != 1 || stmts[0] == nil {
		return "", false
	}
	st := stmts[0]
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 || len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return "", false
	}
	var args []Arg
	for _, word := range ce.Args {
		if word == nil || !plainWord(word) {
			return "", false
		}
		args = w.appendWord(args, word)
	}
	for _, a := range args {
		if a.Dynamic {
			return "", false
		}
	}
	name := args[0].Value
	if name != "echo" && name != "printf" {
		return "", false
	}
	return echoOutput(name, args[1:])
}

// maxEchoOutput bounds the text echoOutput renders.
const maxEchoOutput = 1 << 16

// echoOutput returns what echo or printf (bash's builtins) print for
// args: echo's -n, -e and -E; printf's format applied again while
// arguments remain, with %s, %b, %q, %c, %d and the escapes of both.
// ok is false for an argument it cannot render.
func echoOutput(name string, args []Arg) (string, bool) {
	var b strings.Builder
	if name == "echo" {
		newline, escapes := true, false
		for len(args) > 0 && len(args[0].Value) > 1 && args[0].Value[0] == '-' && strings.Trim(args[0].Value[1:], "neE") == "" {
			for _, c := range args[0].Value[1:] {
				switch c {
				case 'n':
					newline = false
				case 'e':
					escapes = true
				case 'E':
					escapes = false
				}
			}
			args = args[1:]
		}
		for i, a := range args {
			if i > 0 {
				b.WriteByte(' ')
			}
			if escapes {
				if stop := printfEscapes(&b, a.Value, true); stop {
					return b.String(), true
				}
			} else {
				b.WriteString(a.Value)
			}
		}
		if newline {
			b.WriteByte('\n')
		}
		return b.String(), true
	}
	if len(args) > 0 && args[0].Value == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return "", false
	}
	if strings.HasPrefix(args[0].Value, "-v") {
		return "", false // printf -v VAR assigns, prints nothing
	}
	format, rest := args[0].Value, args[1:]
	for round := 0; round <= len(rest); round++ {
		used, stop := printfOnce(&b, format, rest)
		if stop || b.Len() > maxEchoOutput {
			break
		}
		rest = rest[min(used, len(rest)):]
		if used == 0 || len(rest) == 0 {
			break
		}
	}
	return b.String(), b.Len() <= maxEchoOutput
}

// printfOnce applies format to args once and returns how many arguments
// it used; stop reports \c.
func printfOnce(b *strings.Builder, format string, args []Arg) (used int, stop bool) {
	next := func() string {
		if used < len(args) {
			used++
			return args[used-1].Value
		}
		return ""
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case c == '\\':
			end := printfEscapeEnd(format, i)
			if printfEscapes(b, format[i:end], false) {
				return used, true
			}
			i = end - 1
		case c == '%' && i+1 < len(format):
			j := i + 1
			for j < len(format) && strings.IndexByte("-+ #0123456789.*", format[j]) >= 0 {
				j++
			}
			if j >= len(format) {
				b.WriteString(format[i:])
				return used, false
			}
			switch format[j] {
			case '%':
				b.WriteByte('%')
			case 's', 'q', 'd', 'i', 'u', 'x', 'X', 'o', 'f', 'g', 'e', 'G', 'E', 'F', 'a', 'A':
				b.WriteString(next())
			case 'b':
				if printfEscapes(b, next(), true) {
					return used, true
				}
			case 'c':
				if v := next(); v != "" {
					b.WriteByte(v[0])
				}
			default:
				b.WriteString(format[i : j+1])
			}
			i = j
		default:
			b.WriteByte(c)
		}
	}
	return used, false
}

// printfEscapeEnd returns the index after the escape at format[i].
func printfEscapeEnd(format string, i int) int {
	if i+1 >= len(format) {
		return i + 1
	}
	switch e := format[i+1]; {
	case e >= '0' && e <= '7':
		j := i + 2
		for j < len(format) && j < i+4 && format[j] >= '0' && format[j] <= '7' {
			j++
		}
		return j
	case e == 'x':
		j := i + 2
		for j < len(format) && j < i+4 && isHex(format[j]) {
			j++
		}
		return j
	}
	return i + 2
}

// printfEscapes writes s with its backslash escapes resolved (echo -e,
// printf's format and %b); stop reports \c, which ends the output.
func printfEscapes(b *strings.Builder, s string, echo bool) (stop bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'v':
			b.WriteByte(11)
		case 'e', 'E':
			b.WriteByte(27)
		case '\\':
			b.WriteByte('\\')
		case 'c':
			return true
		case 'x':
			n, k := 0, 0
			for k < 2 && i+1 < len(s) && isHex(s[i+1]) {
				i++
				n = n*16 + hexVal(s[i])
				k++
			}
			if k == 0 {
				b.WriteString(`\x`)
			} else {
				b.WriteByte(byte(n))
			}
		default:
			if e >= '0' && e <= '7' {
				// \0NNN for echo -e and %b, \NNN for printf's format.
				limit := 3
				if echo && e == '0' {
					limit = 4
				}
				n, k := 0, 0
				for k < limit && i < len(s) && s[i] >= '0' && s[i] <= '7' {
					n = n*8 + int(s[i]-'0')
					i++
					k++
				}
				i--
				b.WriteByte(byte(n))
				continue
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return false
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return 0
}

// maxInputRuns bounds the commands built from the items of static input
// (xargs -I, parallel).
const maxInputRuns = 16

// xargsCode builds what xargs runs when its input is static: the command
// after xargs (and the wrappers after it) with the items appended, or, with
// -I, put in place of the replacement string (one command per item).
func (w *walker) xargsCode(inv *Invocation, k int, rawRedirs []*syntax.Redirect, c ctx, jobs []codeJob) []codeJob {
	wr := inv.Wrappers[k]
	x := xargsOptions(wr.Args)
	if x.argFile {
		return jobs
	}
	text, present, static := w.stdinText(rawRedirs, c)
	if !present || !static && text == "" {
		return jobs
	}
	items := xargsItems(text, x)
	if len(items) == 0 {
		return jobs
	}
	var cmd []Arg
	for _, ow := range inv.Wrappers[k+1:] {
		cmd = append(cmd, Arg{Value: ow.Name, Raw: ow.Name})
		for _, a := range ow.Args {
			cmd = append(cmd, Arg{Value: a, Raw: quote(a)})
		}
	}
	cmd = append(cmd, inv.Args...)
	if len(cmd) == 0 {
		cmd = []Arg{{Value: "echo", Raw: "echo"}}
	}
	if x.replace == "" {
		if len(items) > 4*maxInputRuns {
			items = items[:4*maxInputRuns]
		}
		argv := append([]Arg(nil), cmd...)
		for _, it := range items {
			a := Arg{Value: it, Raw: quote(it)}
			if !static && strings.ContainsAny(it, "$`") {
				a = Arg{Value: it, Raw: it, Dynamic: true}
			}
			argv = append(argv, a)
		}
		return append(jobs, codeJob{label: "xargs", argv: argv})
	}
	for n, it := range items {
		if n >= maxInputRuns {
			break
		}
		argv := make([]Arg, len(cmd))
		for i, a := range cmd {
			argv[i] = a
			if !a.Dynamic && strings.Contains(a.Value, x.replace) {
				if len(a.Value)+strings.Count(a.Value, x.replace)*len(it) > maxCodeText {
					return jobs
				}
				v := strings.ReplaceAll(a.Value, x.replace, it)
				argv[i] = Arg{Value: v, Raw: quote(v)}
			}
		}
		jobs = append(jobs, codeJob{label: "xargs -I", argv: argv})
	}
	return jobs
}

// xargsOpts are the options of xargs that decide how it reads its input.
type xargsOpts struct {
	null    bool
	delim   string
	replace string
	eof     string
	argFile bool
}

func xargsOptions(args []string) xargsOpts {
	var x xargsOpts
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch {
		case a == "--":
			return x
		case a == "--null":
			x.null = true
		case a == "--replace":
			x.replace = "{}"
		case strings.HasPrefix(a, "--replace="):
			x.replace = a[len("--replace="):]
			if x.replace == "" {
				x.replace = "{}"
			}
		case strings.HasPrefix(a, "--delimiter="):
			x.delim = a[len("--delimiter="):]
		case a == "--delimiter":
			x.delim = next()
		case strings.HasPrefix(a, "--eof="):
			x.eof = a[len("--eof="):]
		case a == "--arg-file" || strings.HasPrefix(a, "--arg-file="):
			x.argFile = true
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case '0':
					x.null = true
					continue
				case 'i':
					x.replace = "{}"
					if j+1 < len(a) {
						x.replace = a[j+1:]
					}
				case 'I':
					x.replace = a[j+1:]
					if x.replace == "" {
						x.replace = next()
					}
					if x.replace == "" {
						x.replace = "{}"
					}
				case 'd':
					x.delim = a[j+1:]
					if x.delim == "" {
						x.delim = next()
					}
				case 'E':
					x.eof = a[j+1:]
					if x.eof == "" {
						x.eof = next()
					}
				case 'e':
					x.eof = a[j+1:]
				case 'a':
					x.argFile = true
				case 'L', 'n', 's', 'P':
					if j+1 == len(a) {
						next()
					}
				case 'l':
				default:
					continue
				}
				break
			}
		}
	}
	return x
}

// xargsItems splits xargs's input into items as xargs reads it.
func xargsItems(text string, x xargsOpts) []string {
	var items []string
	switch {
	case x.null:
		items = strings.Split(text, "\x00")
	case x.delim != "":
		d := x.delim
		switch d {
		case `\n`:
			d = "\n"
		case `\t`:
			d = "\t"
		case `\0`:
			d = "\x00"
		}
		items = strings.Split(text, d[:1])
	case x.replace != "":
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimLeft(l, " \t"); l != "" {
				items = append(items, l)
			}
		}
		return items
	default:
		items = splitQuoted(text)
		if x.eof != "" {
			for i, it := range items {
				if it == x.eof {
					return items[:i]
				}
			}
		}
		return items
	}
	out := items[:0]
	for _, it := range items {
		if it != "" {
			out = append(out, it)
		}
	}
	return out
}

// parallelCode reads GNU parallel's argv: the command (the words before
// :::, run through a shell) with each input put in place of {} (or
// appended); without a command, each input is a command. Inputs come
// after ::: or, without one, from static standard input.
func (w *walker) parallelCode(base string, words []Arg, rawRedirs []*syntax.Redirect, c ctx, jobs []codeJob) []codeJob {
	var cmd []Arg
	var inputs []Arg
	sep := ""
	fromFile := false
	for _, a := range words {
		switch a.Value {
		case ":::", ":::+":
			sep = a.Value
			continue
		case "::::", "::::+":
			sep = a.Value
			fromFile = true
			continue
		}
		switch {
		case sep == "":
			cmd = append(cmd, a)
		case sep == ":::" || sep == ":::+":
			inputs = append(inputs, a)
		}
	}
	cmdText, dyn := joinWords(cmd)
	if sep == "" || fromFile {
		text, present, static := w.stdinText(rawRedirs, c)
		switch {
		case present && text != "":
			for _, l := range strings.Split(text, "\n") {
				if l != "" {
					inputs = append(inputs, Arg{Value: l, Raw: l, Dynamic: !static})
				}
			}
		case len(cmd) == 0 && present:
			return append(jobs, codeJob{label: base, dynamic: true})
		}
	}
	if len(inputs) == 0 {
		if cmdText != "" {
			jobs = append(jobs, codeJob{label: base, text: cmdText, dynamic: dyn})
		}
		return jobs
	}
	for n, in := range inputs {
		if n >= maxInputRuns {
			break
		}
		v := in.Value
		if in.Dynamic {
			v = approxValue(in.Raw)
		}
		if len(cmd) == 0 {
			jobs = append(jobs, codeJob{label: base, text: v, dynamic: dyn || in.Dynamic})
			continue
		}
		jobs = append(jobs, codeJob{label: base, text: parallelReplace(cmdText, v), dynamic: dyn})
	}
	return jobs
}

// parallelReplace puts the input (quoted) in place of parallel's
// replacement strings ({}, {.}, {/}, {//}, {/.}, {1}), or appends it.
func parallelReplace(cmd, input string) string {
	q := quote(input)
	if len(cmd)+strings.Count(cmd, "{")*len(q) > maxCodeText {
		return dynPlaceholder
	}
	var b strings.Builder
	found := false
	for i := 0; i < len(cmd); i++ {
		if cmd[i] == '{' {
			if k := strings.IndexByte(cmd[i:], '}'); k >= 0 && k <= 4 && strings.Trim(cmd[i+1:i+k], "./0123456789") == "" {
				b.WriteString(q)
				i += k
				found = true
				continue
			}
		}
		b.WriteByte(cmd[i])
	}
	if !found {
		b.WriteByte(' ')
		b.WriteString(q)
	}
	return b.String()
}
