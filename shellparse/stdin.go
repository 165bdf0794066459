package shellparse

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Standard input. Many programs read what they run from standard input
// (shells, interpreters, SQL clients, at, crontab -, make -f -, xargs),
// so every invocation carries the text its standard input is known to
// hold when that text is static (Invocation.Stdin): a heredoc, a
// here-string, or the output of echo, printf or cat with static words in
// the previous pipeline stage. A shell reading standard input has that
// text re-parsed from here (FrameShellStdin).

// StdinSource says where an invocation's standard input comes from
// (Invocation.StdinFrom).
type StdinSource uint8

// The sources of standard input.
const (
	// StdinLine: the line's own standard input (a terminal, the agent).
	StdinLine StdinSource = iota
	// StdinHeredoc: a heredoc (<< or <<-) on the invocation or on a
	// compound command around it.
	StdinHeredoc
	// StdinHereString: a here-string (<<<).
	StdinHereString
	// StdinPipe: the previous stage of a pipeline.
	StdinPipe
	// StdinFile: a file (<), or a descriptor duplicated (<&N) or opened
	// read-write (<>) as standard input.
	StdinFile
	// StdinXargs: xargs reads the standard input for the arguments it
	// adds; the command it runs does not read it.
	StdinXargs
)

// String returns the operator of the source ("<<", "<<<", "|", "<"),
// "xargs", or "" for the line's own input.
func (s StdinSource) String() string {
	switch s {
	case StdinHeredoc:
		return "<<"
	case StdinHereString:
		return "<<<"
	case StdinPipe:
		return "|"
	case StdinFile:
		return "<"
	case StdinXargs:
		return "xargs"
	}
	return ""
}

// input is what a statement's standard input is known to hold.
type input struct {
	from  StdinSource
	known bool
	text  string
	// alt is the text under another reading of the feeding command, when
	// it differs: echo without -e or -E interprets backslash escapes in
	// sh and zsh (and in bash with xpg_echo), not in bash.
	alt string
	// by names what feeds a pipe ("echo", "printf", "cat"), "" for
	// another program.
	by string
	// sketch, when the text is not known, is what can be read of it: a
	// heredoc body, a here-string or the output of echo or printf with
	// their expansions left as written. A shell reading it has it
	// re-parsed (the literal commands are still seen) and is still marked
	// as reading unknown input; the code readers read it as code built at
	// run time.
	sketch string
	// used: a command that may read standard input has read it: the
	// commands after it (in a compound fed this input) get what it left,
	// which is not known. read leaves the rest of the text.
	used bool
	// loop is how many loops were around when the input was set up: a
	// command in a loop inside that reads it runs several times, each
	// reading what the one before left.
	loop int
}

// consumed records that a command read the input.
func (in *input) consumed() { in.used = true }

// effective returns the input as the next command to read it sees: the
// same while nothing read it and no loop repeats the reading, else an
// unknown input from the same source.
func (w *walker) effective(in *input) *input {
	if in == nil || !in.known || !in.used && in.loop == w.loops {
		return in
	}
	return &input{from: in.from, loop: w.loops}
}

// redirInput returns the standard input that the redirections rs set, or
// nil when they leave it alone. The last redirection of descriptor 0
// wins, as in bash.
func (w *walker) redirInput(rs []*syntax.Redirect) (in *input) {
	defer func() {
		if in != nil {
			in.loop = w.loops
		}
	}()
	for _, r := range rs {
		if r == nil || r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			text, known := w.heredocText(r)
			in = &input{from: StdinHeredoc, known: known}
			if known {
				in.text = text
			} else {
				in.sketch = text
			}
		case syntax.WordHdoc:
			in = &input{from: StdinHereString}
			if r.Word != nil {
				// bash adds a newline to a here-string.
				if a := w.parts(r.Word.Parts); !a.Dynamic {
					in.known, in.text = true, a.Value+"\n"
				} else if v, ok := w.resolveLiteral(r.Word); ok {
					in.known, in.text = true, v+"\n"
				} else {
					in.sketch = approxValue(w.raw(r.Word)) + "\n"
				}
			}
		case syntax.RdrIn:
			if r.Word != nil && isStdinPath(r.Word.Lit()) && r.Word.Lit() != "-" {
				continue // < /dev/stdin: the input it already has
			}
			in = &input{from: StdinFile}
			if r.Word != nil && r.Word.Lit() == "/dev/null" {
				in.known = true
			}
			// < <(echo ...): the output of a process substitution the
			// parser can read is what the program reads.
			if r.Word != nil && len(r.Word.Parts) == 1 {
				if ps, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok && ps.Op == syntax.CmdIn {
					if text, static := w.substOutput(ps.Stmts); static {
						in.known, in.text = true, text
					} else {
						in.sketch = text
					}
				}
			}
		case syntax.DplIn:
			if r.Word != nil && r.Word.Lit() == "0" {
				continue
			}
			in = &input{from: StdinFile}
			if r.Word != nil && r.Word.Lit() == "-" {
				in.known = true // closed: reads nothing
			}
		case syntax.RdrInOut:
			in = &input{from: StdinFile}
		}
	}
	return in
}

// heredocText returns a heredoc's body as the program reads it: literal
// when the delimiter is quoted; with backslash escapes resolved when it
// is not and the body holds no expansion. known is false when it holds
// one; text is then the body with the expansions as written. <<- strips
// leading tabs.
func (w *walker) heredocText(r *syntax.Redirect) (text string, known bool) {
	if r.Hdoc == nil {
		return "", true
	}
	quoted := r.Word != nil && !plainLit(r.Word)
	if quoted {
		// Nothing in the body is expanded, whatever the syntax tree
		// holds (mvdan.cc/sh reads expansions in the body of E'O'F).
		text = w.literalBody(r.Hdoc)
		if r.Op == syntax.DashHdoc {
			text = stripTabs(text)
		}
		return text, true
	}
	var b strings.Builder
	known = true
	for _, p := range r.Hdoc.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			hdocUnescape(&b, x.Value)
		default:
			known = false
			b.WriteString(w.raw(p))
		}
	}
	text = b.String()
	if !known {
		if s, ok := w.resolveDocument(r.Hdoc); ok {
			text, known = s, true
		}
	}
	if r.Op == syntax.DashHdoc {
		text = stripTabs(text)
	}
	return text, known
}

// literalBody returns a heredoc body as written. mvdan.cc/sh gives the
// body of a quoted delimiter as one literal, except for some partly quoted
// ones (E'O'F), whose expansions it parses: the source text is taken
// then. (The end offset of a body's last literal may include the
// delimiter line, so the literal's own length is used.)
func (w *walker) literalBody(word *syntax.Word) string {
	parts := word.Parts
	if len(parts) == 1 {
		if lit, ok := parts[0].(*syntax.Lit); ok {
			return lit.Value
		}
	}
	if len(parts) == 0 {
		return ""
	}
	start := int(parts[0].Pos().Offset())
	end := int(parts[len(parts)-1].End().Offset())
	if lit, ok := parts[len(parts)-1].(*syntax.Lit); ok {
		end = int(lit.Pos().Offset()) + len(lit.Value)
	}
	if start < 0 || start > end || end > len(w.src) {
		return ""
	}
	return w.src[start:end]
}

// plainLit reports a word that is one unquoted literal without
// backslashes: a heredoc delimiter that leaves the body to be expanded.
func plainLit(word *syntax.Word) bool {
	if len(word.Parts) != 1 {
		return false
	}
	lit, ok := word.Parts[0].(*syntax.Lit)
	return ok && strings.IndexByte(lit.Value, '\\') < 0
}

// hdocUnescape writes s, a literal of an unquoted heredoc body, with its
// escapes resolved: a backslash quotes $, `, \ and newline only.
func hdocUnescape(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			switch n := s[i+1]; n {
			case '$', '`', '\\':
				b.WriteByte(n)
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(c)
	}
}

// stripTabs removes the leading tabs of every line, as <<- does.
func stripTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	for line := range strings.SplitAfterSeq(s, "\n") {
		b.WriteString(strings.TrimLeft(line, "\t"))
	}
	return b.String()
}

// stageOutput returns what the pipeline stage whose invocations are r
// writes to the next stage: known when the stage is a single echo, printf
// or cat whose output is static, and writes to the pipe.
func (w *walker) stageOutput(r stageRange) *input {
	unknown := &w.pipeUnknown
	unknown.from = StdinPipe
	if r.end-r.first != 1 {
		return unknown
	}
	src := &w.res.Invocations[r.first]
	if len(src.Wrappers) > 0 || src.NameDynamic() || redirectsStdout(src.Redirs) || slices.Contains(w.res.Functions, src.Name) {
		return unknown
	}
	text, alt, known := knownOutput(src)
	if !known {
		if sketch, ok := outputSketch(src); ok {
			return &input{from: StdinPipe, sketch: sketch, by: src.Name, loop: w.loops}
		}
		return unknown
	}
	return &input{from: StdinPipe, known: true, text: text, alt: alt, by: src.Name, loop: w.loops}
}

// knownOutput returns what src writes on its standard output when the
// parser knows it: echo or printf of static words, or cat (cat -, cat -u)
// copying a known input. alt is echo's other reading (see input.alt).
func knownOutput(src *Invocation) (text, alt string, known bool) {
	switch src.Name {
	case "echo":
		return echoOutput(src.Args)
	case "printf":
		text, known = printfOutput(src.Args)
		return text, "", known
	case "cat":
		for _, a := range src.Args[1:] {
			if a.Dynamic || a.Value != "-" && a.Value != "-u" {
				return "", "", false
			}
		}
		return src.Stdin, "", src.StdinKnown
	}
	return "", "", false
}

// outputSketch returns what echo or printf with words known only at run
// time print, with those words as written (see approxValue): code built at
// run time, when a program reads it as code.
func outputSketch(src *Invocation) (string, bool) {
	if src.Name != "echo" && src.Name != "printf" || !src.Dynamic() {
		return "", false
	}
	args := make([]Arg, len(src.Args))
	for i, a := range src.Args {
		args[i] = Arg{Value: a.Value, Raw: a.Raw}
		if a.Dynamic {
			args[i].Value = approxValue(a.Raw)
		}
	}
	if src.Name == "echo" {
		out, _, ok := echoOutput(args)
		return out, ok && out != ""
	}
	out, ok := printfOutput(args)
	return out, ok && out != ""
}

// redirectsStdout reports a redirection that sends standard output
// somewhere other than the pipe.
func redirectsStdout(rs []Redirect) bool {
	return slices.ContainsFunc(rs, func(r Redirect) bool { return r.Rebinds("1") })
}

// setStdin records in on inv.
func setStdin(inv *Invocation, in *input) {
	if in == nil {
		return
	}
	inv.StdinFrom, inv.Stdin, inv.StdinKnown = in.from, in.text, in.known
}

// stdinJobs returns what a shell that reads its commands from standard
// input runs: the known text re-parsed (both readings when echo's differ),
// or a dynamic job when the input is not known.
func stdinJobs(shell string, in *input) []reparseJob {
	if in == nil {
		return nil // the line's own standard input: a terminal, the agent
	}
	by := shell + " " + in.from.String()
	switch {
	case in.from == StdinHeredoc:
		by = shell + " <<"
	case in.from == StdinPipe && in.by != "":
		by = in.by + " | " + shell
	case in.from == StdinPipe:
		by = "pipe into " + shell
	}
	if !in.known && in.sketch != "" {
		return []reparseJob{{text: in.sketch, partial: true, by: by, stdin: true}}
	}
	if !in.known {
		return []reparseJob{{dynamic: true, by: by, stdin: true}}
	}
	jobs := []reparseJob{{text: in.text, by: by, stdin: true}}
	if in.alt != "" {
		jobs = append(jobs, reparseJob{text: in.alt, by: by, stdin: true})
	}
	return jobs
}
