package shellparse

import (
	"strings"

	"github.com/shellguard/shellguard/internal/shquote"
	"github.com/shellguard/shellguard/internal/textlex"
)

// Arg is one word of an invocation's argv after quote removal.
type Arg struct {
	// Value is the word as the program would receive it: quotes and
	// backslashes removed, $'...' decoded. For a dynamic word it is the
	// source text (for example "$HOME" or "$(printf rm)").
	Value string
	// Raw is the word as written in the source.
	Raw string
	// Dynamic reports that the value cannot be known without running
	// something: parameter expansion, command or process substitution,
	// arithmetic, or a brace expansion too large to expand.
	Dynamic bool
	// Glob reports an unquoted glob character (*, ? or [) in the word.
	Glob bool
	// Resolved reports a word that holds expansions ($x, $(echo x),
	// "$@", ${IFS}, a loop variable, input xargs adds) whose value the
	// parser resolved statically, as bash would expand it: Value is that
	// value (one word of it, when it splits into several) and Raw the word
	// as written. The line still expands it when it runs, so a resolved
	// word is never approvable as if it had been written out: approvals
	// treat it as they treat a dynamic word, while the danger rules read
	// its value.
	Resolved bool
}

// Assign is a VAR=value environment assignment that applies to an
// invocation (written before it, or given to env).
type Assign struct {
	Name    string
	Value   string
	Dynamic bool
	// Resolved reports a value with expansions the parser resolved (see
	// Arg.Resolved).
	Resolved bool
	// Via names the wrapper that set it ("env"), or "" for an assignment
	// written before the command.
	Via string
}

// Wrapper is a program that runs another program: sudo, env, nice,
// timeout, xargs, ... It was peeled off to find the real program.
type Wrapper struct {
	// Name is the wrapper's program name (basename).
	Name string
	// Args are the wrapper's own options and operands, as resolved
	// values ("-u", "bob"), without the wrapped command.
	Args []string
}

// Redirect is one redirection that applies to an invocation.
type Redirect struct {
	// Op is the operator as written: ">", ">>", "<", "<>", "<&", ">&",
	// "&>", "&>>", ">|", "<<", "<<-", "<<<".
	Op string
	// Fd is the explicit descriptor before the operator ("2" in 2>), or "".
	Fd string
	// Target is the resolved word after the operator (for heredocs, the
	// delimiter).
	Target string
	// Dynamic reports that Target cannot be known statically.
	Dynamic bool
	// Resolved reports a target with expansions the parser resolved (see
	// Arg.Resolved).
	Resolved bool
	// Inherited reports a redirection written on an enclosing compound
	// command ({ ...; } > file) rather than on the invocation itself.
	Inherited bool
}

// Writes reports whether the redirection writes to its target.
func (r Redirect) Writes() bool {
	switch r.Op {
	case ">", ">>", "<>", "&>", "&>>", ">|", "&>|", "&>>|":
		return true
	case ">&":
		// 2>&1 duplicates a descriptor; >&file writes a file.
		return !isDigits(r.Target) && r.Target != "-"
	}
	return false
}

// DuplicatesFd reports a descriptor duplication or close (2>&1, <&0, >&-).
func (r Redirect) DuplicatesFd() bool {
	return (r.Op == ">&" || r.Op == "<&") && (isDigits(r.Target) || r.Target == "-")
}

// Rebinds reports whether the redirection points descriptor fd ("0",
// "1", "2", ...) somewhere else: the descriptor written before the
// operator or, without one, the operator's own (0 for <, <<, <<-, <<<,
// <> and <&; 1 for the others; 1 and 2 for &>, &>> and >& to a file).
// n>&n and n<&n leave it where it is.
func (r Redirect) Rebinds(fd string) bool {
	own := r.Fd
	switch {
	case own != "":
	case strings.HasPrefix(r.Op, "&>") || r.Op == ">&" && !r.DuplicatesFd():
		return fd == "1" || fd == "2"
	case strings.HasPrefix(r.Op, "<"):
		own = "0"
	default:
		own = "1"
	}
	return own == fd && !((r.Op == ">&" || r.Op == "<&") && r.Target == fd)
}

// isDigits reports a non-empty string of ASCII digits.
func isDigits(s string) bool {
	return textlex.IsDigits(s)
}

// FrameKind says what kind of construct encloses an invocation.
type FrameKind uint8

// The frame kinds.
const (
	// FramePipeline: a stage of a pipeline (Detail is "|" or "|&").
	FramePipeline FrameKind = iota + 1
	// FrameList: an operand of &&, || or a ;/newline-separated list
	// (Detail is "&&", "||", ";" or "newline").
	FrameList
	// FrameSubshell: ( ... ).
	FrameSubshell
	// FrameGroup: { ...; }.
	FrameGroup
	// FrameCmdSubst: $( ... ) or backticks (Detail "$()" or "``").
	FrameCmdSubst
	// FrameProcSubst: <( ... ) or >( ... ).
	FrameProcSubst
	// FrameFunction: the body of a function (Detail is its name).
	FrameFunction
	// FrameBackground: a command run with &.
	FrameBackground
	// FrameControl: if/while/until/for/case/select bodies and conditions
	// (Detail names the keyword).
	FrameControl
	// FrameShellString: a string a shell will run, re-parsed (Detail says
	// who runs it: "bash -c", "eval", "su -c", "watch", "ssh",
	// "find -exec sh -c", ...).
	FrameShellString
	// FrameShellStdin: text fed to a shell on standard input, re-parsed
	// (a heredoc, a here-string, or echo/printf piped into it).
	FrameShellStdin
	// FrameExec: a command run by another program's argv (find -exec,
	// xargs); Detail names it.
	FrameExec
	// FrameRemote: a command run on another machine (ssh host CMD).
	FrameRemote
	// FrameAssign: a substitution inside a variable assignment.
	FrameAssign
	// FrameRedirect: a substitution inside a redirection target or heredoc.
	FrameRedirect
)

var frameNames = [...]string{
	FramePipeline:    "pipeline",
	FrameList:        "list",
	FrameSubshell:    "subshell",
	FrameGroup:       "group",
	FrameCmdSubst:    "command substitution",
	FrameProcSubst:   "process substitution",
	FrameFunction:    "function",
	FrameBackground:  "background",
	FrameControl:     "control",
	FrameShellString: "shell string",
	FrameShellStdin:  "shell input",
	FrameExec:        "exec",
	FrameRemote:      "remote",
	FrameAssign:      "assignment",
	FrameRedirect:    "redirection",
}

func (k FrameKind) String() string {
	if int(k) < len(frameNames) && frameNames[k] != "" {
		return frameNames[k]
	}
	return "frame"
}

// Frame is one enclosing construct. Frames form a chain from the innermost
// outwards through Parent; frames are shared and never modified after the
// parse.
type Frame struct {
	Kind   FrameKind
	Detail string
	// Pipe identifies the pipeline (FramePipeline only); Stage is the
	// 0-based stage and Stages the number of stages.
	Pipe, Stage, Stages int
	Parent              *Frame
}

// Has reports whether a frame of kind k encloses the invocation.
func (f *Frame) Has(k FrameKind) bool {
	for ; f != nil; f = f.Parent {
		if f.Kind == k {
			return true
		}
	}
	return false
}

// Find returns the innermost frame of kind k, or nil.
func (f *Frame) Find(k FrameKind) *Frame {
	for ; f != nil; f = f.Parent {
		if f.Kind == k {
			return f
		}
	}
	return nil
}

// Path describes the chain from the outermost frame inwards, for
// people: "pipeline stage 2/2 > command substitution".
func (f *Frame) Path() string {
	var parts []string
	for ; f != nil; f = f.Parent {
		s := f.Kind.String()
		switch {
		case f.Kind == FramePipeline:
			s = "pipeline stage " + itoa(f.Stage+1) + "/" + itoa(f.Stages)
		case f.Detail != "":
			s += " " + f.Detail
		}
		parts = append(parts, s)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	if len(parts) == 0 {
		return "top level"
	}
	return strings.Join(parts, " > ")
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// Invocation is one program the command line would run.
type Invocation struct {
	// Name is the program's name for matching: the basename of Program
	// ("rm" for /usr/bin/rm), in lower case when that names a program
	// shellguard knows (SSH runs ssh on a case-insensitive file system).
	// It is "" when the name is dynamic or a glob.
	Name string
	// Program is argv[0] as resolved ("/usr/bin/rm", "./git").
	Program string
	// Args is the whole argv, Args[0] being the program.
	Args []Arg
	// Wrappers were peeled off, outermost first (sudo, env, timeout, ...).
	Wrappers []Wrapper
	// Assigns are environment assignments for this invocation, from a
	// leading VAR=val or from env.
	Assigns []Assign
	// Redirs are the redirections that apply to the invocation.
	Redirs []Redirect
	// Where is the innermost enclosing frame, nil at top level.
	Where *Frame
	// Parent is the index (in Result.Invocations) of the invocation whose
	// argument or input this one was re-parsed from (bash -c, eval, ...),
	// or -1.
	Parent int
	// Encloser is the index of the invocation whose argv contains this
	// one: a $(...) or <(...) in its words, or find's -exec. It is -1
	// otherwise.
	Encloser int
	// Depth counts how many shell-string re-parses lie between the line
	// and this invocation.
	Depth int
	// Stdin is the text the program's standard input holds, when
	// StdinKnown: a heredoc body (with a quoted delimiter as written;
	// with an unquoted one, known only when it holds no expansion the
	// parser cannot resolve), a here-string with the newline bash adds,
	// or what the previous pipeline stage prints when it is echo, printf
	// or cat of such a text (echo a | X, printf '%s\n' a | X,
	// cat <<EOF | X, cat <<< a | X). The commands of a compound command
	// fed that way ({ a; b; } <<< x, echo x | (a; b)) are each given the
	// text, although only what the first leaves is read by the next; a
	// string run by eval, a shell's -c, ssh or an argv runner is given
	// the standard input of the program that runs it. Programs that read
	// code from standard input (shells, interpreters, SQL clients, at,
	// crontab -, make -f -) read it here.
	Stdin string
	// StdinKnown reports that Stdin is what standard input holds. It is
	// false for a pipe from any other program, a file (except
	// /dev/null, which holds ""), a heredoc with expansions, and the
	// line's own standard input.
	StdinKnown bool
	// StdinFrom says where standard input comes from: StdinLine (the
	// line's own: a terminal or the agent), StdinHeredoc,
	// StdinHereString, StdinPipe, StdinFile, or StdinXargs (xargs reads
	// it for the arguments it adds).
	StdinFrom StdinSource
	// StdinUnknown reports a shell (or eval) that reads commands from
	// input that cannot be known statically: a pipe from another program,
	// a dynamic -c string, a dynamic heredoc; and any program that runs
	// code built at run time (awk system() of a field, sed s///e, a pipe
	// into at, git -c core.hooksPath).
	StdinUnknown bool
	// RunsShellInput reports a shell, eval or similar whose command text
	// was re-parsed into the invocations that list it as Parent.
	RunsShellInput bool
	// ArgsFromInput reports that more arguments come from input at run
	// time (xargs).
	ArgsFromInput bool
	// NotRun reports an invocation that only looks a program up
	// (command -v, type) rather than running it.
	NotRun bool
	// Candidate reports one of the programs a glob in the program path
	// could name (/???/?m is /bin/rm): the standard program directories'
	// names the pattern matches, from a built-in list (not the machine's
	// files). The glob invocation itself comes before its candidates, its
	// program unknown; Args[0].Raw of a candidate is the glob.
	Candidate bool
}

// NameDynamic reports that the program cannot be known statically: it is
// computed at run time ($x, $(...)) or is a glob pattern (/???/r?) that
// the shell expands to whatever file matches.
func (inv *Invocation) NameDynamic() bool {
	return len(inv.Args) == 0 || inv.Args[0].Dynamic || inv.Args[0].Glob
}

// Dynamic reports whether any word of argv, an assignment or a redirection
// target is expanded when the line runs: dynamic, or resolved by the
// parser (see Arg.Resolved).
func (inv *Invocation) Dynamic() bool {
	for _, a := range inv.Args {
		if a.Dynamic || a.Resolved {
			return true
		}
	}
	for _, a := range inv.Assigns {
		if a.Dynamic || a.Resolved {
			return true
		}
	}
	for _, r := range inv.Redirs {
		if r.Dynamic || r.Resolved {
			return true
		}
	}
	return inv.Candidate
}

// Resolved returns the first word of the invocation whose value the
// parser resolved from expansions (as written), or "" when there is none:
// a candidate's program is one (see Candidate).
func (inv *Invocation) Resolved() string {
	for _, a := range inv.Args {
		if a.Resolved {
			return a.Raw
		}
	}
	for _, a := range inv.Assigns {
		if a.Resolved {
			return a.Name + "=" + a.Value
		}
	}
	for _, r := range inv.Redirs {
		if r.Resolved {
			return r.Fd + r.Op + " " + r.Target
		}
	}
	return ""
}

// Argv returns the resolved argv values.
func (inv *Invocation) Argv() []string {
	out := make([]string, len(inv.Args))
	for i, a := range inv.Args {
		out[i] = a.Value
	}
	return out
}

// HasWrapper reports whether a wrapper with that name was peeled.
func (inv *Invocation) HasWrapper(name string) bool {
	for _, w := range inv.Wrappers {
		if w.Name == name {
			return true
		}
	}
	return false
}

// String renders the invocation as a command line: assignments, wrappers,
// then argv, each word quoted for the shell where needed (dynamic words are
// shown as written).
func (inv *Invocation) String() string {
	if len(inv.Assigns) == 0 && len(inv.Wrappers) == 0 && len(inv.Args) > 0 {
		return joinArgs(inv.Args, true)
	}
	return inv.render()
}

// render is String's general case, written one word at a time: the
// reference the fast path of String is tested against.
func (inv *Invocation) render() string {
	var b strings.Builder
	sp := func() {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
	}
	for _, a := range inv.Assigns {
		if a.Via != "" {
			continue // shown with its wrapper
		}
		sp()
		b.WriteString(a.Name)
		b.WriteByte('=')
		if a.Dynamic {
			b.WriteString(a.Value)
		} else {
			b.WriteString(quote(a.Value))
		}
	}
	for _, w := range inv.Wrappers {
		sp()
		b.WriteString(w.Name)
		for _, a := range w.Args {
			b.WriteByte(' ')
			b.WriteString(quote(a))
		}
	}
	for _, a := range inv.Args {
		sp()
		if a.Dynamic {
			b.WriteString(a.Raw)
		} else {
			b.WriteString(quote(a.Value))
		}
	}
	if len(inv.Args) == 0 {
		// Assignments or redirections alone: show the redirections.
		for _, r := range inv.Redirs {
			sp()
			b.WriteString(r.Fd + r.Op + " " + quote(r.Target))
		}
	}
	return b.String()
}

// commandString renders only argv (no wrappers or assignments), quoted.
func (inv *Invocation) commandString() string { return joinArgs(inv.Args, false) }

// joinArgs renders argv words separated by spaces; with skipEmpty, no
// space is written while nothing has been (as String does).
func joinArgs(args []Arg, skipEmpty bool) string {
	if len(args) == 1 {
		return argString(args[0])
	}
	// One allocation when no word needs quoting.
	n := len(args)
	for _, a := range args {
		if a.Dynamic {
			n += len(a.Raw)
		} else {
			n += len(a.Value)
		}
	}
	var b strings.Builder
	b.Grow(n)
	for i, a := range args {
		if i > 0 && (!skipEmpty || b.Len() > 0) {
			b.WriteByte(' ')
		}
		b.WriteString(argString(a))
	}
	return b.String()
}

// argString is a word of argv as String shows it: quoted for the shell, or
// as written when dynamic.
func argString(a Arg) string {
	if a.Dynamic {
		return a.Raw
	}
	return quote(a.Value)
}

// quote returns s unchanged when the shell would read it back as the same
// single word, or when its only other characters are *?[]~{}!# (shown as
// written), and a quoted form otherwise.
var quote = shquote.With("*?[]~{}!#")

// Problem kinds reported in Result.
const (
	// ProblemSyntax: the line does not parse (or is incomplete).
	ProblemSyntax = "syntax"
	// ProblemLimit: a size, depth or count limit was reached; the
	// analysis is incomplete.
	ProblemLimit = "limit"
)

// Problem is something that stops the parser from seeing the whole line.
type Problem struct {
	Kind    string
	Message string
}

// Result is what the parser saw in one command line.
type Result struct {
	// Source is the command line as given.
	Source string
	// Invocations lists every program the line would run, in source
	// order (nested ones after the invocation that contains them).
	Invocations []Invocation
	// Problems lists syntax errors and limits reached. A Result with
	// problems is incomplete: what is missing is unknown, and unknown is
	// never safe.
	Problems []Problem
	// Incomplete reports input that ends too early (an open quote, a
	// trailing |), a subset of syntax problems.
	Incomplete bool
	// Functions names the functions the line defines.
	Functions []string
	// Pipelines is the number of pipelines seen (Frame.Pipe ids are
	// 1..Pipelines).
	Pipelines int
}

// OK reports a line parsed completely, within every limit.
func (r *Result) OK() bool { return len(r.Problems) == 0 }

// Err returns the first problem as an error, or nil.
func (r *Result) Err() error {
	if len(r.Problems) == 0 {
		return nil
	}
	return &Error{Problem: r.Problems[0]}
}

// Error is a Problem as an error value.
type Error struct{ Problem Problem }

func (e *Error) Error() string { return e.Problem.Kind + ": " + e.Problem.Message }
