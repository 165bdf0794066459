package shellparse

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// stdinText returns what inv reads on standard input, for the code
// readers: the invocation's static standard input (Invocation.Stdin, set
// from in, the input as inv reads it: see stdin.go). present reports input
// the line holds (a heredoc, a here-string, a pipe), not the terminal, a
// named file (like a script named on the command line, its content is not
// part of the line) or the input xargs keeps for itself; static, whether
// its text is known. When it is not, text is what can be read of it (the
// expansions of a heredoc, a here-string or an echo left as written), for
// code built at run time. alt is the text under another reading of an
// echo that fed it (see input.alt).
//
// It is the one place the code readers learn about standard input.
func stdinText(inv *Invocation, in *input) (text, alt string, present, static bool) {
	switch inv.StdinFrom {
	case StdinHeredoc, StdinHereString, StdinPipe:
	default:
		return "", "", false, false
	}
	if inv.StdinKnown {
		if in != nil {
			alt = in.alt
		}
		return inv.Stdin, alt, true, true
	}
	if in != nil {
		text = in.sketch
	}
	return text, "", true, false
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
		return bracketEnd(raw, i+1, true)
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

// bracketEnd returns the index after the bracket that closes the one at
// s[i] ('(', '{' or '['), counting the pairs nested in it, or len(s) when
// it is not closed. With escapes a backslash hides the byte after it.
func bracketEnd(s string, i int, escapes bool) int {
	open := s[i]
	closeBy := byte(')')
	switch open {
	case '{':
		closeBy = '}'
	case '[':
		closeBy = ']'
	}
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			if escapes {
				j++
			}
		case open:
			depth++
		case closeBy:
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(s)
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
func (w *walker) fileText(a Arg, inv *Invocation, in *input) (text, alt string, known, exists bool) {
	if !a.Dynamic {
		if !isStdinPath(a.Value) {
			// A file the line wrote (echo ... > x.sh; sh x.sh).
			text, ok := w.scriptText(a.Value)
			return text, "", ok, ok
		}
		text, alt, present, static := stdinText(inv, in)
		return text, alt, static, present
	}
	if !strings.HasPrefix(a.Raw, "<(") {
		return "", "", false, false
	}
	for _, p := range w.procs {
		if p.raw == a.Raw {
			return p.text, "", p.static, true
		}
	}
	return "", "", false, true
}

// procScript is what a process substitution <(...) in the words of the
// command being read outputs: its text when the parser can know it (see
// walker.substOutput: echo or printf of static words, cat of a heredoc,
// ...).
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

// maxInputRuns bounds the commands parallel builds from its inputs.
const maxInputRuns = 16

// parallelCode reads GNU parallel's argv: the command (the words before
// :::, run through a shell) with each input put in place of {} (or
// appended); without a command, each input is a command. Inputs come
// after ::: or, without one, from static standard input.
func parallelCode(base string, words []Arg, inv *Invocation, in *input, jobs []codeJob) []codeJob {
	type input struct {
		value   string
		dynamic bool
	}
	var cmd []Arg
	var inputs []input
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
			v := a.Value
			if a.Dynamic {
				v = approxValue(a.Raw)
			}
			inputs = append(inputs, input{v, a.Dynamic})
		}
	}
	cmdText, dyn := joinWords(cmd)
	unknownInput := false
	if sep == "" || fromFile {
		text, _, present, static := stdinText(inv, in)
		unknownInput = present && !static && text == ""
		switch {
		case present && text != "":
			for l := range strings.SplitSeq(text, "\n") {
				if l != "" {
					inputs = append(inputs, input{l, !static})
				}
			}
		case len(cmd) == 0 && present:
			return append(jobs, codeJob{label: base, dynamic: true})
		}
	}
	if len(inputs) == 0 {
		if cmdText != "" {
			jobs = append(jobs, codeJob{label: base, text: cmdText, dynamic: dyn, argsFromInput: unknownInput})
		}
		return jobs
	}
	for n, arg := range inputs {
		if n >= maxInputRuns {
			break
		}
		if len(cmd) == 0 {
			jobs = append(jobs, codeJob{label: base, text: arg.value, dynamic: dyn || arg.dynamic})
			continue
		}
		jobs = append(jobs, codeJob{label: base, text: parallelReplace(cmdText, arg.value), dynamic: dyn})
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
