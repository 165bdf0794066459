package shellparse

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shellguard/shellguard/internal/programs"
)

// Limits bound the work the parser does on one command line. A limit that
// is reached is reported as a Problem of kind ProblemLimit; the parser
// never fails in any other way.
type Limits struct {
	// MaxBytes is the longest command line parsed (default 64 KiB). A
	// longer line is reported as over the limit at once, unread: no
	// command an agent or a person types is that long, and a limit
	// reached is never safe.
	MaxBytes int
	// MaxNesting is the deepest nesting of ( { $( ... accepted (default 256).
	MaxNesting int
	// MaxReparse is how many shell strings may be nested inside each
	// other (bash -c "bash -c '...'"; default 16).
	MaxReparse int
	// MaxInvocations is the most invocations reported (default 1000);
	// it also bounds the pipe and list operators of a line, which the
	// parser nests.
	MaxInvocations int
	// MaxBraceFields is the most words one brace expansion may produce
	// before the word is treated as dynamic (default 256).
	MaxBraceFields int

	// The limits below bound the work on the whole line, across every
	// shell string re-parsed inside it: per-word and per-level bounds
	// alone multiply (sixteen nested evals of a line of brace
	// expansions once took a minute and 11 GB).

	// MaxFields is the most words (argv words, assignments and
	// redirections, after brace expansion and resolution) of all the
	// invocations of a line together, at every depth (default 32,768:
	// a line at MaxBytes has at most that many plain words). An argv
	// runner's inner command (docker exec, find -exec) counts again.
	MaxFields int
	// MaxReparseBytes is the most text re-parsed as shell code (bash -c
	// strings, eval, stdin fed to a shell, ...) for one line, summed over
	// every level (default 64 KiB).
	MaxReparseBytes int
	// MaxExpandBytes is the most bytes the parser may build for one line
	// by expanding words (brace expansion, variables and other values it
	// resolves) (default 256 KiB).
	MaxExpandBytes int
}

// DefaultLimits returns the limits used when none are given.
func DefaultLimits() Limits {
	return Limits{
		MaxBytes:       64 << 10,
		MaxNesting:     256,
		MaxReparse:     16,
		MaxInvocations: 1000,
		MaxBraceFields: 256,

		MaxFields:       1 << 15,
		MaxReparseBytes: 64 << 10,
		MaxExpandBytes:  256 << 10,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	for _, f := range [...]struct{ v, d *int }{
		{&l.MaxBytes, &d.MaxBytes}, {&l.MaxNesting, &d.MaxNesting}, {&l.MaxReparse, &d.MaxReparse},
		{&l.MaxInvocations, &d.MaxInvocations}, {&l.MaxBraceFields, &d.MaxBraceFields}, {&l.MaxFields, &d.MaxFields},
		{&l.MaxReparseBytes, &d.MaxReparseBytes}, {&l.MaxExpandBytes, &d.MaxExpandBytes},
	} {
		if *f.v <= 0 {
			*f.v = *f.d
		}
	}
	return l
}

// Parser turns command lines into Results. It is safe for concurrent use;
// it keeps a pool of mvdan.cc/sh parsers so that repeated calls do not
// allocate new ones.
type Parser struct {
	limits Limits
	pool   sync.Pool
}

// parsers is the scratch one Parse call uses, pooled.
type parsers struct {
	// strict streams the statements of the line.
	strict *syntax.Parser
	// inner parses the strings re-parsed while strict streams (bash -c,
	// eval, heredocs fed to a shell): strict cannot, since parsing resets
	// it and would end the line's stream early, dropping every statement
	// after the re-parsed one. Created when first needed.
	inner *syntax.Parser
	rd    strings.Reader
	w     walker
}

func newSyntaxParser() *syntax.Parser { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }

// innerParser returns the parser for re-parsed strings. Re-parses nest
// (bash -c "bash -c '...'"), which is safe: each one parses its whole
// string before walking it.
func (ps *parsers) innerParser() *syntax.Parser {
	if ps.inner == nil {
		ps.inner = newSyntaxParser()
	}
	return ps.inner
}

// New returns a Parser with the given limits (zero fields take defaults).
func New(l Limits) *Parser {
	p := &Parser{limits: l.withDefaults()}
	p.pool.New = func() any {
		return &parsers{strict: newSyntaxParser()}
	}
	return p
}

// resultAlloc holds a Result and room for its first invocations, so that
// a short line costs one allocation for both.
type resultAlloc struct {
	res  Result
	invs [4]Invocation
}

// Parse parses one command line (which may hold several lines) with the
// default limits. Callers that parse many lines should keep a Parser.
func Parse(line string) *Result { return New(Limits{}).Parse(line) }

// Parse returns every invocation line would run. It never panics: an
// internal failure is reported as a Problem.
func (p *Parser) Parse(line string) *Result { return p.parse(line, true) }

// parse is Parse; fast allows the simple-command fast path (tests turn it
// off to compare both).
func (p *Parser) parse(line string, fast bool) (res *Result) {
	ra := &resultAlloc{}
	res = &ra.res
	res.Source, res.Invocations = line, ra.invs[:0]
	defer func() {
		if r := recover(); r != nil {
			res.Problems = append(res.Problems, Problem{Kind: ProblemLimit, Message: fmt.Sprintf("internal error while parsing: %v", r)})
		}
	}()
	if len(line) > p.limits.MaxBytes {
		res.Problems = append(res.Problems, Problem{Kind: ProblemLimit,
			Message: fmt.Sprintf("command is %d bytes, over the %d-byte limit", len(line), p.limits.MaxBytes)})
		return res
	}
	if n := nesting(line); n > p.limits.MaxNesting {
		res.Problems = append(res.Problems, Problem{Kind: ProblemLimit,
			Message: fmt.Sprintf("command nests %d levels deep, over the limit of %d", n, p.limits.MaxNesting)})
		return res
	}
	if n := operators(line); n > p.limits.MaxInvocations {
		res.Problems = append(res.Problems, Problem{Kind: ProblemLimit,
			Message: fmt.Sprintf("command has %d pipe and list operators, over the limit of %d", n, p.limits.MaxInvocations)})
		return res
	}
	ps := p.pool.Get().(*parsers)
	defer func() {
		// Nothing of this line stays reachable from the pool.
		ps.w = walker{}
		ps.rd.Reset("")
		p.pool.Put(ps)
	}()
	ps.w = walker{ps: ps, lim: p.limits, res: res, src: line}
	w := &ps.w
	w.env = &w.envv
	top := ctx{parent: -1, encloser: -1}
	if fast {
		var bb [8]int
		if args, bounds, ok := simplePipeline(line, bb[:0]); ok {
			w.simple(args, bounds, top)
			return res
		}
	}
	ps.rd.Reset(line)
	// Statements are parsed and walked one at a time, so that a line with
	// a huge number of them stops being parsed as soon as a limit is
	// reached. The loop's state lives in the walker: variables the loop
	// body assigns would each be allocated.
	for st, err := range ps.strict.StmtsSeq(&ps.rd) {
		if err != nil {
			w.perr = err
			break
		}
		w.n++
		switch w.n {
		case 1:
			w.first = st
			continue
		case 2:
			w.stmt(w.first, top.with(FrameList, separator(w.first, nil)))
		}
		w.stmt(st, top.with(FrameList, separator(st, w.prev)))
		w.prev = st
		if w.stopped {
			break
		}
	}
	if w.n == 1 {
		w.stmt(w.first, top)
	}
	perr := w.perr
	if perr != nil {
		// The statements before the error stay reported. mvdan.cc/sh's
		// error-recovering mode is not used: it can loop forever on some
		// invalid input (see testdata/fuzz/FuzzParse), and a Result with
		// a syntax problem is never safe anyway.
		res.Problems = append(res.Problems, Problem{Kind: ProblemSyntax, Message: syntaxMessage(perr)})
		res.Incomplete = syntax.IsIncomplete(perr)
	}
	if strings.Contains(line, "\\\r") {
		// A backslash before CR LF is a line continuation to the parser,
		// but bash escapes the CR and ends the command at the LF: what
		// runs would differ from what was read.
		res.Problems = append(res.Problems, Problem{Kind: ProblemSyntax,
			Message: "a backslash before a carriage return: bash and shellguard would read the line differently"})
	}
	return res
}

// simplePipeline splits a line that is one simple command, or a pipeline
// of simple commands joined by |, into each command's argv. A simple
// command here is words separated by blanks, each made of plain bytes
// (letters, digits and _./:,+@%^~*?-, plus = [ ] after the program name),
// 'single-quoted' text and "double-quoted" text without $, `, \ or !.
// ok is false for any other line, which the full parser reads: other
// quoting, escapes, expansions, other operators, redirections, comments,
// assignments, newlines, control or non-ASCII bytes, keywords and the
// builtins the parser reads specially (declare, let, time, ...). Such a
// word holds nothing the shell expands but globs: its value is its text
// without the quotes.
//
// args holds every word; bounds (appended to the given slice) says where
// each command's words start.
func simplePipeline(line string, bounds []int) (args []Arg, _ []int, ok bool) {
	// A first pass over the bytes turns most other lines away before
	// anything is allocated, and counts room for every word at once
	// (words are fewer than separators + 1).
	n := 1
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c < 0x20 || c >= 0x7f || quote == '"' && (c == '$' || c == '`' || c == '\\' || c == '!') {
				return nil, nil, false
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ' ' || c == '\t' || c == '|':
			n++
		case !plainByte(c) && c != '=' && c != '[' && c != ']':
			return nil, nil, false
		}
	}
	if quote != 0 {
		return nil, nil, false
	}
	args = make([]Arg, 0, n)
	var b strings.Builder
	newStage := true
	i := 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			break
		}
		if line[i] == '|' {
			if newStage || i+1 < len(line) && (line[i+1] == '|' || line[i+1] == '&') {
				return nil, nil, false
			}
			newStage = true
			i++
			continue
		}
		if newStage {
			bounds = append(bounds, len(args))
		}
		first := newStage
		newStage = false
		// One word: segments of plain bytes and quotes.
		start := i
		var a Arg
		pieces, quoted := 0, false
		var one string
		add := func(piece string) {
			switch pieces {
			case 0:
				one = piece
			case 1:
				b.Reset()
				b.WriteString(one)
				b.WriteString(piece)
			default:
				b.WriteString(piece)
			}
			pieces++
		}
		for i < len(line) && line[i] != ' ' && line[i] != '\t' && line[i] != '|' {
			switch c := line[i]; {
			case c == '\'' || c == '"':
				j := i + 1
				for j < len(line) && line[j] != c {
					d := line[j]
					if d < 0x20 || d >= 0x7f || c == '"' && (d == '$' || d == '`' || d == '\\' || d == '!') {
						return nil, nil, false
					}
					j++
				}
				if j == len(line) {
					return nil, nil, false // unterminated
				}
				add(line[i+1 : j])
				quoted = true
				i = j + 1
			default:
				j := i
				for j < len(line) && plainByte(line[j]) || j < len(line) && !first && (line[j] == '=' || line[j] == '[' || line[j] == ']') {
					j++
				}
				if j == i {
					return nil, nil, false
				}
				if hasGlob(line[i:j]) {
					a.Glob = true
				}
				add(line[i:j])
				i = j
			}
		}
		raw := line[start:i]
		if first && (strings.IndexByte(raw, '=') >= 0 || strings.IndexByte(raw, '[') >= 0 || !quoted && specialFirstWord(raw)) {
			return nil, nil, false
		}
		a.Raw = raw
		if pieces == 1 {
			a.Value = one
		} else {
			a.Value = b.String()
			b = strings.Builder{}
		}
		args = append(args, a)
	}
	if len(args) == 0 || newStage {
		return nil, nil, false // nothing, or a trailing |
	}
	return args, bounds, true
}

// simple records what simplePipeline found, as stmt, pipeline and call
// would from mvdan.cc/sh's syntax tree of the line.
func (w *walker) simple(all []Arg, bounds []int, c ctx) {
	stage := func(k int) []Arg {
		to := len(all)
		if k+1 < len(bounds) {
			to = bounds[k+1]
		}
		return all[bounds[k]:to:to]
	}
	if len(bounds) == 1 {
		w.invocation(Invocation{Parent: c.parent, Encloser: c.encloser, Depth: w.depth}, all, nil, c)
		return
	}
	w.res.Pipelines++
	id := w.res.Pipelines
	n := len(bounds)
	frames := make([]Frame, n)
	var st stageEnv
	for i := range n {
		args := stage(i)
		cc := c
		frames[i] = Frame{Kind: FramePipeline, Detail: "|", Pipe: id, Stage: i, Stages: n, Parent: c.f}
		cc.f = &frames[i]
		start := len(w.res.Invocations)
		m := w.env.mark()
		if !w.stopped {
			w.invocation(Invocation{Where: cc.f, Parent: cc.parent, Encloser: cc.encloser, Depth: w.depth}, args, nil, cc)
		}
		st.done(w.env, m)
		c.in = w.stageOutput(stageRange{first: start, end: len(w.res.Invocations)})
	}
	st.forget(w.env)
}

func plainByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '.' || c == '/' || c == ':' || c == ',' || c == '+' || c == '@' ||
		c == '%' || c == '^' || c == '~' || c == '*' || c == '?' || c == '-'
}

// specialFirstWord reports a program name the parser reads as something
// other than a simple command.
func specialFirstWord(w string) bool {
	switch w {
	case "{", "{}", "}", "if", "then", "elif", "else", "fi", "while", "until",
		"for", "do", "done", "case", "esac", "!", "[[", "]]", "let", "function",
		"declare", "local", "export", "readonly", "typeset", "nameref", "time",
		"coproc", "select", "@test":
		return true
	}
	return syntax.IsKeyword(w)
}

// separator names what ends st in a list: ";" or "newline" (for the last
// statement, what ended the one before it).
func separator(st, prev *syntax.Stmt) string {
	ref := st
	if !st.Semicolon.IsValid() && prev != nil {
		ref = prev
	}
	if ref.Semicolon.IsValid() && !ref.Background {
		return ";"
	}
	return "newline"
}

func syntaxMessage(err error) string {
	if pe, ok := err.(syntax.ParseError); ok {
		return fmt.Sprintf("line %d column %d: %s", pe.Pos.Line(), pe.Pos.Col(), pe.Text)
	}
	return err.Error()
}

// nesting estimates the deepest nesting in s of brackets and of the
// compound commands that open with a keyword (if, while, until, for,
// select, case), ignoring quotes: an over-estimate, which is what a bound
// needs (the parser recurses once per level).
func nesting(s string) int {
	depth, maxDepth := 0, 0
	open := func() {
		depth++
		if depth > maxDepth {
			maxDepth = depth
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '{', '[':
			open()
		case ')', '}', ']':
			if depth > 0 {
				depth--
			}
		default:
			if c < 'a' || c > 'w' || i > 0 && isWordByte(s[i-1]) {
				continue
			}
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			switch s[i:j] {
			case "if", "while", "until", "for", "select", "case":
				open()
			case "fi", "done", "esac":
				if depth > 0 {
					depth--
				}
			}
			i = j - 1
		}
	}
	return maxDepth
}

// operators counts the | and & characters of s, an over-estimate of the
// pipe and list operators the parser nests (a|b|c is a|(b|c)).
func operators(s string) int {
	return strings.Count(s, "|") + strings.Count(s, "&")
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// ctx is what the walker knows about the surroundings of a statement.
type ctx struct {
	f      *Frame
	redirs []Redirect // inherited from enclosing compound commands
	parent int
	// encloser is the invocation whose words hold this statement, or -1.
	encloser int
	// in is what the statement's standard input holds, nil for the
	// line's own standard input (a terminal, the agent).
	in *input
	// argsFromInput: the commands get words from input at run time
	// (parallel fed input the parser cannot know): each is marked
	// Invocation.ArgsFromInput, as xargs's command is.
	argsFromInput bool
}

type stageRange struct{ first, end int }

func (c ctx) with(k FrameKind, detail string) ctx {
	c.f = &Frame{Kind: k, Detail: detail, Parent: c.f}
	return c
}

type walker struct {
	ps        *parsers
	lim       Limits
	res       *Result
	src       string
	depth     int // shell strings re-parsed
	argvDepth int // commands run from another command's argv
	stopped   bool
	// noFollow: report the invocation being added, but not what it runs
	// (the line's budget is spent).
	noFollow bool

	// The per-line budget (Limits.MaxFields, MaxReparseBytes,
	// MaxExpandBytes): what was spent so far, at every depth.
	fields   int
	reparsed int
	expanded int

	// env is the variables of the shell being walked (env.go); envv
	// holds the line's own, so that it costs no allocation.
	env  *env
	envv env
	// loops counts the loops around the statement being walked.
	loops int
	// forks counts the invocations made for the values of loop
	// variables, glob candidates and xargs input (maxForks per line).
	forks int
	// alternative: the invocation being walked is one of several
	// candidates for the same command (a glob program): it consumes no
	// input.
	alternative bool
	// funcs are the functions the line defines, for walking a body again
	// where it is called (with the caller's variables and arguments);
	// calling lists the ones being walked so (no recursion), funcWalked
	// the bytes of body walked so (at most MaxReparseBytes: past it,
	// calls are not followed).
	funcs      []funcDef
	calling    []string
	funcWalked int
	// scratch is the environment of the programs other programs run
	// (find -exec, docker exec): nothing of this shell, and nothing they
	// do is kept.
	scratch env
	// pipeUnknown is the input of every pipeline stage fed by something
	// the parser does not know (most pipes), shared to save allocations:
	// nothing it holds changes.
	pipeUnknown input

	// The statement loop of Parse.
	first, prev *syntax.Stmt
	n           int
	perr        error

	// procs are the process substitutions among the words of the
	// command being read, codeBytes the text of the code found in
	// programs' arguments re-parsed so far (see coderuns*.go).
	procs     []procScript
	codeBytes int
	// scripts are the files the line wrote with a known text (scripts.go).
	scripts []scriptFile
}

// freshEnv returns an empty environment for a program run by another
// program (see walker.scratch).
func (w *walker) freshEnv() *env {
	w.scratch = env{}
	return &w.scratch
}

// spendExpand counts n bytes built by expansions against
// Limits.MaxExpandBytes.
func (w *walker) spendExpand(n int) bool {
	w.expanded += n
	if w.expanded > w.lim.MaxExpandBytes {
		w.limit(fmt.Sprintf("expansions build more than %d bytes", w.lim.MaxExpandBytes))
		return false
	}
	return true
}

func (w *walker) limit(msg string) {
	if !w.stopped {
		w.res.Problems = append(w.res.Problems, Problem{Kind: ProblemLimit, Message: msg})
	}
	w.stopped = true
}

func (w *walker) stmts(list []*syntax.Stmt, c ctx) {
	if len(list) == 1 {
		w.stmt(list[0], c)
		return
	}
	for i, s := range list {
		if s == nil {
			continue
		}
		sep := "newline"
		ref := s
		if i == len(list)-1 && i > 0 {
			ref = list[i-1]
		}
		if ref != nil && ref.Semicolon.IsValid() && !ref.Background {
			sep = ";"
		}
		w.stmt(s, c.with(FrameList, sep))
	}
}

func (w *walker) stmt(s *syntax.Stmt, c ctx) {
	if s == nil || w.stopped {
		return
	}
	if s.Background || s.Disown || s.Coprocess {
		c = c.with(FrameBackground, "&")
		// A background job runs in a subshell: what it assigns is
		// unknown after it.
		m := w.env.mark()
		defer w.env.forgetSince(m)
	}
	if s.Cmd == nil {
		// A redirection alone ("> file") still opens, creates or
		// truncates files: report it as an invocation without argv.
		w.forLoopValues(nil, s.Redirs, func() {
			redirs := w.redirects(s.Redirs, c)
			if len(redirs) > 0 {
				if len(c.redirs) > 0 {
					redirs = append(append([]Redirect(nil), c.redirs...), redirs...)
				}
				w.add(Invocation{Redirs: redirs, Where: c.f, Parent: c.parent, Encloser: c.encloser, Depth: w.depth})
			}
		})
		return
	}
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok {
		w.forLoopValues(ce, s.Redirs, func() { w.callOnce(ce, s.Redirs, c) })
		return
	}
	redirs := w.redirects(s.Redirs, c)
	if in := w.redirInput(s.Redirs); in != nil {
		c.in = in
	}
	if len(redirs) > 0 {
		inh := make([]Redirect, 0, len(c.redirs)+len(redirs))
		inh = append(inh, c.redirs...)
		for _, r := range redirs {
			r.Inherited = true
			inh = append(inh, r)
		}
		c.redirs = inh
	}
	before := len(w.res.Invocations)
	w.command(s.Cmd, c)
	if len(redirs) > 0 && len(w.res.Invocations) == before {
		// A compound command that runs no program ([[ ... ]] > file,
		// (( ... )) > file) still opens its redirections.
		w.add(Invocation{Redirs: c.redirs, Where: c.f, Parent: c.parent, Encloser: c.encloser, Depth: w.depth})
	}
}

func (w *walker) command(cmd syntax.Command, c ctx) {
	e := w.env
	switch x := cmd.(type) {
	case *syntax.BinaryCmd:
		switch x.Op {
		case syntax.Pipe, syntax.PipeAll:
			w.pipeline(x, c)
		case syntax.AndStmt:
			w.stmt(x.X, c.with(FrameList, "&&"))
			m := e.mark()
			w.stmt(x.Y, c.with(FrameList, "&&"))
			e.forgetSince(m) // Y may not run
		case syntax.OrStmt:
			w.stmt(x.X, c.with(FrameList, "||"))
			m := e.mark()
			w.stmt(x.Y, c.with(FrameList, "||"))
			e.forgetSince(m)
		default:
			w.stmt(x.X, c)
			w.stmt(x.Y, c)
		}
	case *syntax.Subshell:
		m := e.mark()
		w.stmts(x.Stmts, c.with(FrameSubshell, ""))
		e.forgetSince(m)
	case *syntax.Block:
		w.stmts(x.Stmts, c.with(FrameGroup, ""))
	case *syntax.IfClause:
		cc := c.with(FrameControl, "if")
		// The first condition runs; then one branch, or none.
		var br branches
		for clause := x; clause != nil; clause = clause.Else {
			m := e.mark()
			w.stmts(clause.Cond, cc)
			if clause == x {
				m = e.mark()
			}
			w.stmts(clause.Then, cc)
			br.done(e, m)
		}
		br.forget(e)
	case *syntax.WhileClause:
		kw := "while"
		if x.Until {
			kw = "until"
		}
		cc := c.with(FrameControl, kw)
		m := w.enterLoop(x, "", nil)
		if !w.whileRead(x, cc) {
			w.stmts(x.Cond, cc)
			w.stmts(x.Do, cc)
		}
		w.leaveLoop(m, "")
	case *syntax.ForClause:
		kw := "for"
		if x.Select {
			kw = "select"
		}
		cc := c.with(FrameControl, kw)
		if cl, ok := x.Loop.(*syntax.CStyleLoop); ok {
			w.arithmetic("for ((", cl, c)
		}
		if x.Loop != nil {
			w.substs(x.Loop, cc)
		}
		// The list is expanded once, before the body runs.
		name := ""
		var values []string
		known := false
		if it, ok := x.Loop.(*syntax.WordIter); ok && it.Name != nil {
			name = it.Name.Value
			if !x.Select {
				values, known = w.loopValues(it)
			}
		}
		m := w.enterLoop(x, name, values)
		if name != "" {
			w.bindLoop(name, values, known)
		}
		w.stmts(x.Do, cc)
		w.leaveLoop(m, name)
	case *syntax.CaseClause:
		cc := c.with(FrameControl, "case")
		if x.Word != nil {
			w.substs(x.Word, cc)
		}
		var br branches
		for _, item := range x.Items {
			if item == nil {
				continue
			}
			m := e.mark()
			for _, p := range item.Patterns {
				if p != nil {
					w.substs(p, cc)
				}
			}
			w.stmts(item.Stmts, cc)
			br.done(e, m)
		}
		br.forget(e)
	case *syntax.FuncDecl:
		name := ""
		if x.Name != nil {
			name = x.Name.Value
		}
		for _, n := range x.Names {
			if n != nil && name == "" {
				name = n.Value
			}
		}
		w.res.Functions = append(w.res.Functions, name)
		w.funcs = append(w.funcs, funcDef{name: name, body: x.Body, src: w.src})
		cc := c.with(FrameFunction, name)
		cc.in = nil
		// The body runs when the function is called, with whatever the
		// variables are then: nothing is known in it but what it
		// assigns itself.
		saved := w.env
		w.env = newEnv()
		w.env.clobber()
		w.calling = append(w.calling, name) // a call to itself is not followed
		w.stmt(x.Body, cc)
		w.calling = w.calling[:len(w.calling)-1]
		w.env = saved
	case *syntax.ArithmCmd:
		w.arithmetic("((", x, c)
		if x.X != nil {
			w.forgetArithm(x.X)
			w.substs(x.X, c)
		}
	case *syntax.TestClause:
		w.arithmetic("[[", x, c)
		if x.X != nil {
			w.substs(x.X, c)
		}
	case *syntax.LetClause:
		w.arithmetic("let", x, c)
		for _, ex := range x.Exprs {
			if ex != nil {
				w.forgetArithm(ex)
				w.substs(ex, c)
			}
		}
	case *syntax.DeclClause:
		w.decl(x, c)
	case *syntax.TimeClause:
		w.stmt(x.Stmt, c)
	case *syntax.CoprocClause:
		m := e.mark()
		w.stmt(x.Stmt, c.with(FrameBackground, "coproc"))
		e.forgetSince(m)
		e.forget("COPROC")
		if x.Name != nil {
			e.forget(x.Name.Lit())
		}
	case *syntax.TestDecl:
		w.stmt(x.Body, c.with(FrameFunction, "@test"))
	case *syntax.CallExpr:
		w.forLoopValues(x, nil, func() { w.callOnce(x, nil, c) })
	}
}

func (w *walker) pipeline(x *syntax.BinaryCmd, c ctx) {
	stages := collectStages(x.X, nil)
	stages = collectStages(x.Y, stages)
	op := "|"
	if x.Op == syntax.PipeAll {
		op = "|&"
	}
	w.res.Pipelines++
	id := w.res.Pipelines
	frames := make([]Frame, len(stages))
	var st stageEnv
	for i, s := range stages {
		cc := c
		frames[i] = Frame{Kind: FramePipeline, Detail: op, Pipe: id, Stage: i, Stages: len(stages), Parent: c.f}
		cc.f = &frames[i]
		start := len(w.res.Invocations)
		m := w.env.mark()
		w.stmt(s, cc)
		st.done(w.env, m)
		c.in = w.stageOutput(stageRange{first: start, end: len(w.res.Invocations)})
	}
	st.forget(w.env)
}

// collectStages appends the stages of the pipeline s to stages: a|b|c is
// parsed a|(b|c), and a stage with redirections, & or ! of its own is
// one stage.
func collectStages(s *syntax.Stmt, stages []*syntax.Stmt) []*syntax.Stmt {
	if s == nil {
		return stages
	}
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) &&
		len(s.Redirs) == 0 && !s.Background && !s.Negated {
		stages = collectStages(b.X, stages)
		return collectStages(b.Y, stages)
	}
	return append(stages, s)
}

func (w *walker) decl(x *syntax.DeclClause, c ctx) {
	inv := Invocation{Parent: c.parent, Encloser: c.encloser, Depth: w.depth, Where: c.f, Redirs: c.redirs}
	variant := "declare"
	if x.Variant != nil {
		variant = x.Variant.Value
	}
	inv.Name, inv.Program = variant, variant
	inv.Args = append(inv.Args, Arg{Value: variant, Raw: variant})
	var values []declValue
	for _, a := range x.Args {
		if a == nil {
			continue
		}
		raw := w.raw(a)
		arg := Arg{Value: raw, Raw: raw}
		dv := declValue{a: a, known: true}
		if a.Name != nil {
			dv.name = a.Name.Value
		}
		if a.Value != nil {
			v, dyn, res := w.assignValue(a.Value)
			if !dyn && a.Name != nil {
				arg.Value, arg.Resolved = a.Name.Value+"="+v, res
			} else {
				arg.Dynamic = true
			}
			dv.value, dv.known = v, !dyn
			w.substs(a.Value, c.with(FrameAssign, ""))
		}
		if a.Array != nil {
			arg.Dynamic = true
			w.substs(a.Array, c.with(FrameAssign, ""))
		}
		if a.Name != nil {
			values = append(values, dv)
		}
		inv.Args = append(inv.Args, arg)
	}
	w.add(inv)
	w.declEffects(x, values)
}

func (w *walker) add(inv Invocation) int {
	if len(w.res.Invocations) >= w.lim.MaxInvocations {
		w.limit(fmt.Sprintf("more than %d invocations", w.lim.MaxInvocations))
		return -1
	}
	if n := len(inv.Args) + len(inv.Assigns) + len(inv.Redirs); w.fields+n > w.lim.MaxFields {
		// Over the line's budget of words: the invocation is kept with
		// the words that fit (so that rm -rf / followed by a flood of
		// words is still seen), and the walk stops.
		keep := w.lim.MaxFields - w.fields - len(inv.Assigns) - len(inv.Redirs)
		w.fields = w.lim.MaxFields
		w.limit(fmt.Sprintf("more than %d words in the invocations of the command, brace expansions and shell strings included", w.lim.MaxFields))
		if keep < 1 || keep >= len(inv.Args) {
			return -1
		}
		inv.Args = inv.Args[:keep:keep]
	} else {
		w.fields += n
	}
	w.res.Invocations = append(w.res.Invocations, inv)
	return len(w.res.Invocations) - 1
}

// raw returns the source text of a node.
func (w *walker) raw(n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(w.src) || start > end {
		return ""
	}
	return w.src[start:end]
}

// substs walks the command and process substitutions inside node.
func (w *walker) substs(n syntax.Node, c ctx) {
	if n == nil || w.stopped {
		return
	}
	if word, ok := n.(*syntax.Word); ok && plainWord(word) {
		return // nothing inside can run a command
	}
	c.in = nil
	syntax.Walk(n, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			d := "$()"
			if x.Backquotes {
				d = "``"
			}
			m := w.env.mark()
			w.stmts(x.Stmts, c.with(FrameCmdSubst, d))
			w.env.forgetSince(m) // a subshell
			return false
		case *syntax.ProcSubst:
			d := "<()"
			if x.Op == syntax.CmdOut {
				d = ">()"
			}
			m := w.env.mark()
			w.stmts(x.Stmts, c.with(FrameProcSubst, d))
			w.env.forgetSince(m)
			return false
		case *syntax.ParamExp:
			if x.Param != nil && x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) {
				w.env.forget(x.Param.Value)
			}
		case *syntax.ArithmExp:
			w.forgetArithm(x.X)
		case *syntax.BinaryArithm, *syntax.UnaryArithm, *syntax.BinaryTest, *syntax.UnaryTest:
			w.operatorChain(x, c)
			return false
		}
		return true
	})
}

// operatorChain finds the substitutions in an arithmetic or [[ ]]
// expression without recursing once per operator: `$((1+1+…+1))` is a
// left-deep tree as deep as it has operators (about 20,000 in a line at
// the size limit), and syntax.Walk's recursion that deep spent most of
// its time growing the goroutine stack. Operands are walked in source
// order; the operands that are not operators themselves go back to
// substs, whose nesting the parser's bracket limit bounds.
func (w *walker) operatorChain(root syntax.Node, c ctx) {
	stack := []syntax.Node{root}
	for len(stack) > 0 && !w.stopped {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := n.(type) {
		case *syntax.BinaryArithm:
			stack = append(stack, x.Y, x.X)
		case *syntax.UnaryArithm:
			stack = append(stack, x.X)
		case *syntax.BinaryTest:
			stack = append(stack, x.Y, x.X)
		case *syntax.UnaryTest:
			stack = append(stack, x.X)
		default:
			if n != nil && !isNilNode(n) {
				w.substs(n, c)
			}
		}
	}
}

// isNilNode reports an interface holding a nil pointer (an operand the
// parser left out), which syntax.Walk must not be given.
func isNilNode(n syntax.Node) bool {
	switch n {
	case (*syntax.Word)(nil), (*syntax.BinaryArithm)(nil), (*syntax.UnaryArithm)(nil), (*syntax.ParenArithm)(nil),
		(*syntax.BinaryTest)(nil), (*syntax.UnaryTest)(nil), (*syntax.ParenTest)(nil):
		return true
	}
	return false
}

// arithmetic reports a [[ ]], (( )), let or C-style for whose text could
// hold an array subscript, a quote or a substitution: bash evaluates
// subscripts in arithmetic ((( 'a[$(cmd)]' )) runs cmd), so such a clause
// is an invocation whose only argument is dynamic, never safe.
func (w *walker) arithmetic(kind string, n syntax.Node, c ctx) {
	raw := w.raw(n)
	inner := raw
	if kind == "[[" {
		inner = strings.TrimSuffix(strings.TrimPrefix(inner, "[["), "]]")
	}
	if !strings.ContainsAny(inner, "[`$'\"\\") {
		return
	}
	w.add(Invocation{Name: kind, Program: kind, Args: []Arg{{Value: kind, Raw: kind}, {Value: raw, Raw: raw, Dynamic: true}},
		Where: c.f, Parent: c.parent, Encloser: c.encloser, Depth: w.depth, Redirs: c.redirs})
}

// plainWord reports a word made only of literals and quotes without
// expansions, which cannot hold a substitution.
func plainWord(word *syntax.Word) bool {
	for _, p := range word.Parts {
		switch x := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

func redirOp(op syntax.RedirOperator) string { return op.String() }

func (w *walker) redirects(rs []*syntax.Redirect, c ctx) []Redirect {
	if len(rs) == 0 {
		return nil
	}
	out := make([]Redirect, 0, len(rs))
	for _, r := range rs {
		if r == nil {
			continue
		}
		rd := Redirect{Op: redirOp(r.Op)}
		if r.N != nil {
			rd.Fd = r.N.Value
		}
		if r.Word != nil {
			var one [1]Arg
			vals := w.appendWord(one[:0], r.Word)
			if len(vals) == 1 {
				rd.Target, rd.Dynamic, rd.Resolved = vals[0].Value, vals[0].Dynamic, vals[0].Resolved
			} else {
				rd.Target, rd.Dynamic = w.raw(r.Word), true
			}
			w.substs(r.Word, c.with(FrameRedirect, rd.Op))
		}
		if r.Hdoc != nil && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) {
			// An unquoted heredoc body expands $(...) whatever reads it.
			w.substs(r.Hdoc, c.with(FrameRedirect, rd.Op))
		}
		out = append(out, rd)
	}
	return out
}

// forLoopValues runs walk once per value of the loop variables that the
// words of a simple command (or a redirection alone, ce nil) use, or once
// when there is none or too many (see forkLoop).
func (w *walker) forLoopValues(ce *syntax.CallExpr, rs []*syntax.Redirect, walk func()) {
	if names := w.loopVars(ce, rs); len(names) > 0 && w.forkLoop(names, walk) {
		return
	}
	walk()
}

// callOnce walks a simple command with its redirections.
func (w *walker) callOnce(ce *syntax.CallExpr, rawRedirs []*syntax.Redirect, c ctx) {
	redirs := w.redirects(rawRedirs, c)
	if len(c.redirs) > 0 {
		redirs = append(append([]Redirect(nil), c.redirs...), redirs...)
	}
	// The words are expanded before the assignments written in front of
	// them are made (x=1 echo $x prints the old x).
	args := make([]Arg, 0, len(ce.Args))
	vanished := -1
	for _, word := range ce.Args {
		if word == nil {
			continue
		}
		n := len(args)
		args = w.appendWord(args, word)
		if len(args) == n && vanished < 0 {
			// An expansion that is empty, unquoted: no word at all
			// ($x rm with x empty runs rm).
			vanished = n
		}
		if w.fields+len(args) > w.lim.MaxFields {
			break // add keeps what fits and stops the walk
		}
	}
	if vanished >= 0 && len(args) > 0 {
		// The words after it moved: the one that took its place is
		// marked, so that the line stays what it was to approvals (a
		// dynamic word already is: a word is never both).
		if k := min(vanished, len(args)-1); !args[k].Dynamic {
			args[k].Resolved = true
		}
	}
	// Assignments: each sees the ones before it; before a command they
	// hold for that command only.
	m := w.env.mark()
	var assigns []Assign
	for _, a := range ce.Assigns {
		if a == nil {
			continue
		}
		as := Assign{}
		if a.Name != nil {
			as.Name = a.Name.Value
		}
		value, known := "", a.Array == nil && a.Index == nil
		if a.Value != nil {
			var dyn bool
			value, dyn, as.Resolved = w.assignValue(a.Value)
			as.Value, as.Dynamic, known = value, dyn, known && !dyn
		}
		if a.Array != nil || a.Index != nil {
			as.Dynamic = true
		}
		assigns = append(assigns, as)
		if len(args) == 0 || len(assigns) < len(ce.Assigns) {
			// The next assignment may refer to this one.
			w.bindAssign(a, value, known)
		}
	}
	if len(args) > 0 {
		w.env.undoTo(m)
	}
	if len(args) == 0 {
		// Assignments alone change the shell's own variables; they are
		// reported as an invocation without argv so that nothing
		// downstream overlooks them.
		if len(assigns) > 0 || len(redirs) > 0 {
			w.add(Invocation{Assigns: assigns, Redirs: redirs, Where: c.f, Parent: c.parent, Encloser: c.encloser, Depth: w.depth})
		}
		for _, a := range ce.Assigns {
			if a != nil && a.Value != nil {
				w.substs(a.Value, c.with(FrameAssign, ""))
			}
			if a != nil && a.Array != nil {
				w.substs(a.Array, c.with(FrameAssign, ""))
			}
		}
		if len(ce.Args) > 0 {
			sc := c
			for _, word := range ce.Args {
				w.substs(word, sc)
			}
		}
		return
	}
	inv := Invocation{Assigns: assigns, Redirs: redirs, Where: c.f, Parent: c.parent, Encloser: c.encloser, Depth: w.depth}
	saved := w.procs
	w.procs = w.procScripts(ce.Args)
	if w.stopped {
		// The line's budget ran out while this argv was built: the
		// invocation is still reported as far as it was built (rm -rf /
		// followed by a flood of brace expansions stays visible), but
		// nothing it runs is followed.
		w.stopped, w.noFollow = false, true
		w.invocation(inv, args, rawRedirs, c)
		w.stopped, w.noFollow = true, false
		w.procs = saved
		return
	}
	idx := w.invocation(inv, args, rawRedirs, c)
	w.procs = saved
	// Substitutions run before the command; they are listed after it.
	for _, a := range ce.Assigns {
		if a != nil && a.Value != nil {
			w.substs(a.Value, c.with(FrameAssign, ""))
		}
	}
	sc := c
	sc.encloser = idx
	for _, word := range ce.Args {
		w.substs(word, sc)
	}
}

// setArgs fills the program fields of inv from args.
func setArgs(inv *Invocation, args []Arg) {
	inv.Args = args
	inv.Name, inv.Program = "", ""
	if len(args) > 0 && !args[0].Dynamic && !args[0].Glob {
		inv.Program = args[0].Value
		inv.Name = programs.Fold(path.Base(args[0].Value))
		if inv.Name == "." || inv.Name == "/" {
			inv.Name = args[0].Value
		}
	}
}

// invocation peels wrappers off args, records the invocation, and follows
// whatever it runs (shell strings, find -exec, ...).
func (w *walker) invocation(inv Invocation, args []Arg, rawRedirs []*syntax.Redirect, c ctx) int {
	if w.stopped {
		return -1
	}
	inv.ArgsFromInput = inv.ArgsFromInput || c.argsFromInput
	var reparse []reparseJob
	var execs [][]Arg
	var runs []runJob
	in := c.in
	if r := w.redirInput(rawRedirs); r != nil {
		in = r
	}
	eff := w.effective(in) // as this invocation reads it
	xargsPeeled := false
	for guard := 0; guard < 64; guard++ {
		setArgs(&inv, args)
		if inv.NameDynamic() {
			break
		}
		spec, ok := wrapperSpec(inv.Name)
		if !ok {
			break
		}
		rest, wr, extra, ok := peel(inv.Name, spec, args)
		if !ok {
			break
		}
		inv.Wrappers = append(inv.Wrappers, wr)
		inv.Assigns = append(inv.Assigns, extra.assigns...)
		if extra.shellString != nil {
			reparse = append(reparse, reparseJob{text: extra.shellString.Value, dynamic: extra.shellString.Dynamic, by: inv.Name + " " + extra.flag})
		}
		if inv.Name == "xargs" {
			inv.ArgsFromInput, xargsPeeled = true, true
		}
		if len(rest) == 0 {
			break
		}
		args = rest
	}
	if inv.Candidate && len(inv.Wrappers) > 0 && len(args) > 0 && !args[0].Resolved && !args[0].Dynamic {
		// The glob named a wrapper (busybox, sudo, ...): the program it
		// runs stands where the glob did.
		args[0].Resolved = true
	}
	var xargsMore [][]Arg
	xargsPlain := false
	if xargsPeeled && eff != nil && eff.known {
		// xargs fed a known input: its words are the command's.
		var opts []string
		for _, wr := range inv.Wrappers {
			if wr.Name == "xargs" {
				opts = wr.Args
			}
		}
		budget := w.lim.MaxExpandBytes - w.expanded
		runs, plain, ok, over := xargsRuns(opts, args, eff.text, budget)
		switch {
		case over:
			w.spendExpand(budget + 1) // the line's budget is spent
		case ok && len(runs) > 0 && w.forks+len(runs) <= maxForks:
			built := 0
			for _, run := range runs {
				for _, a := range run {
					if a.Resolved {
						built += len(a.Value)
					}
				}
			}
			w.spendExpand(built)
			w.forks += len(runs)
			args, xargsMore, xargsPlain = runs[0], runs[1:], plain
		}
	}
	setArgs(&inv, args)
	stdin := eff // as the program reads it
	if inv.ArgsFromInput {
		// xargs reads the input for the arguments it adds, and runs the
		// command with its own standard input (/dev/null, or the
		// terminal with -o).
		stdin = &input{from: StdinXargs}
	}
	setStdin(&inv, stdin)
	// What the program itself runs.
	if !inv.NameDynamic() {
		switch name := inv.Name; {
		case isShell(name):
			job, reads := w.shellCommand(inv.Args)
			var params []Arg
			if job == nil && !reads {
				// bash -s ARG...: the script is standard input and
				// the operands are its positional parameters.
				params, reads = stdinScriptParams(inv.Args)
			}
			switch {
			case job != nil:
				reparse = append(reparse, *job)
			case reads && inv.ArgsFromInput:
				reparse = append(reparse, reparseJob{dynamic: true, by: "xargs " + name, stdin: true})
			case reads:
				for _, job := range stdinJobs(name, eff) {
					job.positional, job.hasPositional = append([]Arg{inv.Args[0]}, params...), true
					reparse = append(reparse, job)
				}
			}
		case name == "eval":
			var parts []string
			dyn := false
			for _, a := range inv.Args[1:] {
				parts = append(parts, a.Value)
				dyn = dyn || a.Dynamic
			}
			reparse = append(reparse, reparseJob{text: strings.Join(parts, " "), dynamic: dyn, by: "eval"})
		case name == "su" || name == "runuser":
			if s := optionValue(inv.Args[1:], "c", "--command"); s != nil {
				reparse = append(reparse, reparseJob{text: s.Value, dynamic: s.Dynamic, by: name + " -c"})
			}
		case name == "watch":
			if job := watchCommand(inv.Args[1:]); job != nil {
				reparse = append(reparse, *job)
			}
		case name == "ssh":
			jobs, login := sshCommands(inv.Args[1:])
			reparse = append(reparse, jobs...)
			if login {
				// The remote login shell reads what ssh is fed
				// (echo 'rm -rf /' | ssh host, ssh host < script.sh).
				for _, job := range stdinJobs("ssh", eff) {
					job.remote = true
					reparse = append(reparse, job)
				}
			}
		case name == "find":
			execs = findExecs(inv.Args[1:])
		case name == "command" || name == "type" || name == "which" || name == "hash":
			inv.NotRun = true
		default:
			if job, ok := w.scriptRun(&inv); ok {
				// A script the line wrote, run by its path.
				reparse = append(reparse, job)
			}
			if label, inner, job := runnerCommand(name, inv.Args[1:]); label != "" {
				if inner != nil {
					runs = append(runs, runJob{label: label, args: inner})
				}
				if job != nil {
					reparse = append(reparse, *job)
				}
			}
		}
	}
	inv.RunsShellInput = len(reparse) > 0
	// Code the program runs from its options, operands, environment or
	// input (awk system(), git -c core.pager, ...: coderuns.go).
	code := w.codeRuns(&inv, stdin)
	markCode(&inv, code)
	idx := w.add(inv)
	if idx < 0 || w.noFollow {
		return idx
	}
	w.candidates(idx, rawRedirs, c)
	for _, more := range xargsMore {
		// xargs -I runs the command once per input line.
		sub := Invocation{Wrappers: slices.Clone(inv.Wrappers), Assigns: slices.Clone(inv.Assigns), Redirs: inv.Redirs, Where: inv.Where,
			Parent: inv.Parent, Encloser: inv.Encloser, Depth: inv.Depth, ArgsFromInput: true}
		w.invocation(sub, more, nil, c)
	}
	for _, job := range reparse {
		if job.dynamic || job.partial {
			w.res.Invocations[idx].StdinUnknown = true
		}
		if job.dynamic {
			if job.by == "eval" {
				// eval of text not known: it may assign anything.
				w.env.clobber()
			}
			continue
		}
		if job.stdin && eff != nil {
			// Commands of a script read from standard input read the
			// rest of the script.
			job.in = &input{from: eff.from, loop: w.loops}
		} else {
			// A shell string runs with the standard input of the
			// program that runs it (eval, bash -c, ssh forwards it).
			job.in = eff
		}
		job.env = w.jobEnv(&w.res.Invocations[idx], job, xargsPlain, c)
		w.reparse(job, idx, c)
	}
	w.runCode(code, idx, stdin, c)
	if len(execs)+len(runs) > 0 {
		// Commands run from argv (find -exec, docker exec, ...) nest like
		// shell strings and share their bound: each level holds the rest
		// of the line, so unbounded nesting would be quadratic.
		if w.argvDepth+1 > w.lim.MaxReparse {
			w.limit(fmt.Sprintf("commands run by other commands nested more than %d deep", w.lim.MaxReparse))
			return idx
		}
		w.argvDepth++
		defer func() { w.argvDepth-- }()
	}
	for _, e := range execs {
		cc := c.with(FrameExec, "find "+e[0].Value)
		cc.in = eff
		sub := Invocation{Where: cc.f, Parent: c.parent, Encloser: idx, Depth: w.depth}
		saved := w.env
		w.env = w.freshEnv() // a program find runs: not this shell
		w.invocation(sub, e[1:], nil, cc)
		w.env = saved
	}
	for _, r := range runs {
		// As if the runner forwarded its standard input (docker exec -i,
		// kubectl exec -i): what it could read is analysed. It runs
		// elsewhere: nothing of this shell's variables.
		cc := c.with(FrameRemote, r.label)
		cc.in = eff
		cc.redirs = nil
		sub := Invocation{Where: cc.f, Parent: idx, Encloser: idx, Depth: w.depth}
		saved := w.env
		w.env = w.freshEnv()
		w.invocation(sub, r.args, nil, cc)
		w.env = saved
	}
	if idx < len(w.res.Invocations) {
		w.callFunction(idx, c)
		done := &w.res.Invocations[idx]
		w.effects(done, eff)
		w.noteWrites(done)
		if in != nil && !w.alternative && readsStdin(done) && !(done.Name == "read" && eff == in) {
			in.consumed()
		}
	}
	return idx
}

// runJob is a command another program runs elsewhere (docker exec,
// kubectl exec, ...), given as argv.
type runJob struct {
	label string
	args  []Arg
}

type reparseJob struct {
	text    string
	dynamic bool
	// argsFromInput: words of the text come from input at run time
	// (see ctx.argsFromInput).
	argsFromInput bool
	// positional are the words after a shell's -c string ($0, $1, ...),
	// when hasPositional.
	positional    []Arg
	hasPositional bool
	// env is the variables the text runs with: nil for the same shell
	// (eval), else a new shell's.
	env *env
	// partial: text is what could be read statically (the expansions of
	// a heredoc left as written); it is re-parsed, and the input is
	// still unknown.
	partial bool
	by      string
	stdin   bool // fed on standard input rather than as an argument
	remote  bool
	in      *input // the standard input of the commands the text runs
}

func (w *walker) reparse(job reparseJob, parent int, c ctx) {
	if w.stopped {
		return
	}
	if w.depth+1 > w.lim.MaxReparse {
		w.limit(fmt.Sprintf("shell strings nested more than %d deep", w.lim.MaxReparse))
		return
	}
	if n := nesting(job.text); n > w.lim.MaxNesting {
		w.limit(fmt.Sprintf("string run by %s nests %d levels deep, over the limit of %d", job.by, n, w.lim.MaxNesting))
		return
	}
	if n := operators(job.text); n > w.lim.MaxInvocations {
		w.limit(fmt.Sprintf("string run by %s has %d pipe and list operators, over the limit of %d", job.by, n, w.lim.MaxInvocations))
		return
	}
	if w.reparsed += len(job.text); w.reparsed > w.lim.MaxReparseBytes {
		w.limit(fmt.Sprintf("more than %d bytes of shell strings to re-parse in the command", w.lim.MaxReparseBytes))
		return
	}
	kind := FrameShellString
	switch {
	case job.remote:
		kind = FrameRemote
	case job.stdin:
		kind = FrameShellStdin
	}
	cc := c.with(kind, job.by)
	cc.parent = parent
	cc.encloser = -1
	cc.in = job.in
	cc.redirs = nil
	cc.argsFromInput = c.argsFromInput || job.argsFromInput
	f, err := w.ps.innerParser().Parse(strings.NewReader(job.text), "")
	if err != nil {
		w.res.Problems = append(w.res.Problems, Problem{Kind: ProblemSyntax,
			Message: "in the string run by " + job.by + ": " + syntaxMessage(err)})
	}
	if f == nil {
		return
	}
	saved, savedEnv := w.src, w.env
	w.src = job.text
	if job.env != nil {
		w.env = job.env
	}
	w.depth++
	w.stmts(f.Stmts, cc)
	w.depth--
	w.src, w.env = saved, savedEnv
}
