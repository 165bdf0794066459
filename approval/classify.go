package approval

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shellguard/shellguard/internal/shquote"
	"github.com/shellguard/shellguard/shellparse"
)

// Classification is what a command line looks like to approvals: one
// InvocationClass per program it runs, and whether prefix approvals can
// cover it at all.
type Classification struct {
	// Command is the command line as given.
	Command string
	// Parsed reports that the line parsed completely (no syntax error, no
	// limit reached). Exact approvals cover only lines that parsed.
	Parsed bool
	// Invocations has one entry per invocation of the parse, in the
	// parser's order; none is skipped.
	Invocations []InvocationClass
	// Approvable reports that prefix approvals can cover the line: it
	// parsed, it runs at least one program, nothing in it is decided at
	// run time, and every invocation has a prefix and no widening option.
	Approvable bool
	// Reason is the first reason the line is not Approvable, "" if it is.
	Reason string
}

// InvocationClass is how one invocation is classified.
type InvocationClass struct {
	// Command is the invocation as a command line (wrappers and
	// assignments included).
	Command string
	// Prefix is the approval prefix: wrapper names, the program as
	// written, and its meaningful subcommands ("sudo apt-get install").
	// It is "" when the invocation cannot be classified (dynamic program,
	// no program, substitution, ...).
	Prefix string
	// Pattern is Prefix as people write it ("git checkout *"), or "".
	Pattern string
	// Reason says why a prefix approval cannot cover this invocation: why
	// it is unclassifiable, or the widening option it carries. It is ""
	// when a prefix approval of Prefix covers it.
	Reason string
	// Widening is the option or environment assignment that changes what
	// runs or where data goes ("-c", "--upload-pack", "LD_PRELOAD"), or
	// "". Prefix approvals never cover it; an exact approval of the whole
	// line still can.
	Widening string
}

// covered reports whether a prefix approval of ic.Prefix covers the
// invocation.
func (ic InvocationClass) covered() bool { return ic.Prefix != "" && ic.Reason == "" }

// ClassifyCommand parses line with p and classifies it. A nil p uses a
// parser with default limits.
func ClassifyCommand(p *shellparse.Parser, line string) Classification {
	if p == nil {
		p = shellparse.New(shellparse.Limits{})
	}
	return Classify(p.Parse(line))
}

// Classify classifies a parsed command line. It is a pure function of the
// parse (and of res.Source); it never panics. A nil res is not approvable.
func Classify(res *shellparse.Result) Classification {
	if res == nil {
		return Classification{Reason: "nothing was parsed"}
	}
	c := Classification{Command: res.Source, Parsed: res.OK()}
	c.Invocations = make([]InvocationClass, 0, len(res.Invocations))
	for i := range res.Invocations {
		c.Invocations = append(c.Invocations, classifyInvocation(&res.Invocations[i]))
	}
	hidden := hiddenCharacters(res.Source)
	switch {
	case !res.OK():
		msg := "the command line does not parse completely"
		if len(res.Problems) > 0 {
			msg += ": " + res.Problems[0].Message
		}
		c.Reason = msg
	case len(res.Invocations) == 0:
		c.Reason = "the command line runs nothing"
	case hidden != "":
		c.Reason = "the command line holds " + hidden + ", which can make it display differently from what runs"
	case len(res.Functions) > 0:
		c.Reason = "the command line defines a shell function"
	case strings.Contains(res.Source, "$("):
		// Even quoted: "$(" is refused outright rather than trusting
		// that every reading of the line agrees it is literal.
		c.Reason = "the command line holds $(...), a command substitution decided when the line runs"
	}
	if c.Reason == "" {
		for _, ic := range c.Invocations {
			if !ic.covered() {
				c.Reason = ic.Reason
				if c.Reason == "" {
					c.Reason = "an invocation has no prefix"
				}
				break
			}
		}
	}
	c.Approvable = c.Reason == ""
	return c
}

// classifyInvocation classifies one invocation on its own.
func classifyInvocation(inv *shellparse.Invocation) InvocationClass {
	ic := InvocationClass{Command: inv.String()}
	structural := structuralReason(inv)
	if structural != "" && (inv.RunsShellInput || inv.StdinUnknown) {
		// The program runs code it was given (sed 's/x/y/e', awk
		// system(), git -c core.pager=...): when a widening option says
		// which, that reason is the clearer one, and refuses as well.
		cp := *inv
		cp.RunsShellInput, cp.StdinUnknown = false, false
		if structuralReason(&cp) == "" {
			if flag, _ := widening(inv); flag != "" {
				structural = ""
			}
		}
	}
	// The prefix is only worth building for an invocation that has no
	// structural reason against it.
	if structural == "" && len(inv.Args) > 0 && !inv.NameDynamic() && inv.Program != "" {
		pattern, globReason := prefixOf(inv)
		if globReason != "" {
			structural = globReason
		} else {
			// One string holds both: "git checkout *" and its prefix.
			ic.Prefix, ic.Pattern = pattern[:len(pattern)-2], pattern
		}
	}
	if structural != "" {
		ic.Reason = structural
		return ic
	}
	if ic.Prefix == "" {
		ic.Reason = "the program cannot be known before the line runs"
		return ic
	}
	if flag, why := widening(inv); flag != "" {
		ic.Widening = flag
		ic.Reason = fmt.Sprintf("%s %s; only an exact approval of the whole line can cover it", flag, why)
	}
	return ic
}

// structuralReason says why an invocation cannot be classified at all, or
// returns "".
func structuralReason(inv *shellparse.Invocation) string {
	w := inv.Where
	switch {
	case len(inv.Args) == 0 && len(inv.Assigns) > 0:
		return "a variable assignment on its own changes the shell for the commands after it"
	case len(inv.Args) == 0:
		return "a redirection without a command writes or reads a file"
	case w.Has(shellparse.FrameCmdSubst):
		return "runs inside a command substitution ($(...) or backticks), decided when the line runs"
	case w.Has(shellparse.FrameProcSubst):
		return "runs inside a process substitution (<(...) or >(...))"
	case w.Has(shellparse.FrameShellString):
		return "runs from a string handed to a shell (" + frameDetail(w, shellparse.FrameShellString) + ")"
	case w.Has(shellparse.FrameShellStdin):
		return "runs from text fed to a shell on its input"
	case w.Has(shellparse.FrameRemote):
		return "runs elsewhere, in a container, an environment or on another machine (" + frameDetail(w, shellparse.FrameRemote) + ")"
	case w.Has(shellparse.FrameAssign), w.Has(shellparse.FrameRedirect):
		return "runs inside a substitution in an assignment or redirection"
	case w.Has(shellparse.FrameBackground):
		return "runs in the background (&)"
	case w.Has(shellparse.FrameFunction):
		return "runs inside a shell function"
	case inv.Depth > 0:
		return "runs from a string handed to a shell"
	case inv.RunsShellInput:
		return "hands a string to a shell (" + inv.Name + ")"
	case inv.StdinUnknown:
		return "reads the commands it runs from its input"
	}
	if inv.NameDynamic() {
		return "the program is expanded when the line runs: " + rawOf(inv.Args[0])
	}
	if w := inv.Resolved(); w != "" {
		// shellparse resolved it (a variable, a loop, $(echo ...)): the
		// line still expands it when it runs.
		return "a word is expanded when the line runs: " + w
	}
	for _, a := range inv.Args {
		if a.Dynamic {
			return "an argument is expanded when the line runs: " + rawOf(a)
		}
	}
	for _, a := range inv.Assigns {
		if a.Dynamic {
			return "the assignment " + a.Name + "=" + a.Value + " is expanded when the line runs"
		}
	}
	for _, r := range inv.Redirs {
		if r.Dynamic {
			return "a redirection target is expanded when the line runs: " + r.Target
		}
		if !harmlessRedirect(r) {
			return "redirection " + r.Fd + r.Op + " " + r.Target + " reads or writes a file other than /dev/null"
		}
	}
	return ""
}

func frameDetail(f *shellparse.Frame, k shellparse.FrameKind) string {
	if x := f.Find(k); x != nil && x.Detail != "" {
		return x.Detail
	}
	return k.String()
}

func rawOf(a shellparse.Arg) string {
	if a.Raw != "" {
		return a.Raw
	}
	return a.Value
}

// harmlessRedirect reports a redirection from or to /dev/null, or one that
// only duplicates or closes a descriptor (2>&1, >&-). Heredocs and
// here-strings are not harmless: they feed the program input that its
// approval never saw.
func harmlessRedirect(r shellparse.Redirect) bool {
	if r.DuplicatesFd() {
		return true
	}
	switch r.Op {
	case ">", ">>", "&>", "&>>", ">|", "<", "<>", ">&":
		return r.Target == "/dev/null"
	}
	return false
}

// prefixOf returns the approval pattern of an invocation with a static
// program (its prefix followed by " *"), or a reason when a pattern
// character sits in a prefix position.
func prefixOf(inv *shellparse.Invocation) (string, string) {
	t := prefixTokens(inv.Name, inv.Args)
	if t.n == 0 {
		return "", "the program cannot be known before the line runs"
	}
	for i, g := range t.glob[:t.n] {
		if g {
			what := "subcommand"
			if i == 0 {
				what = "program"
			}
			return "", "a pattern (*, ?, [...]) in the " + what + " is expanded when the line runs: " + t.word[i]
		}
	}
	// The words joined by single spaces: wrappers, the program as
	// written, then the subcommands; then " *".
	var b strings.Builder
	size := len(inv.Program) + t.n + 2
	for _, w := range inv.Wrappers {
		size += len(w.Name) + 1
	}
	for _, x := range t.word[1:t.n] {
		size += len(x)
	}
	b.Grow(size)
	for _, w := range inv.Wrappers {
		b.WriteString(shquote.Quote(w.Name))
		b.WriteByte(' ')
	}
	b.WriteString(shquote.Quote(inv.Program))
	for _, x := range t.word[1:t.n] {
		b.WriteByte(' ')
		b.WriteString(shquote.Quote(x))
	}
	b.WriteString(" *")
	return b.String(), ""
}

// hiddenCharacters describes the first character of src that a terminal
// does not show as itself: control characters other than tab and line feed
// (a carriage return is allowed only right before a line feed), Unicode
// format characters (bidirectional overrides, zero-width spaces), and
// invalid UTF-8. It returns "" when there is none.
func hiddenCharacters(src string) string {
	// Fast path: printable ASCII, tabs and line feeds only.
	for i := 0; i < len(src); i++ {
		if c := src[i]; (c < 0x20 || c >= 0x7f) && c != '\t' && c != '\n' {
			return hiddenCharactersSlow(src)
		}
	}
	return ""
}

func hiddenCharactersSlow(src string) string {
	if !utf8.ValidString(src) {
		return "bytes that are not valid UTF-8"
	}
	for i, r := range src {
		switch {
		case r == '\t' || r == '\n':
		case r == '\r':
			if i+1 >= len(src) || src[i+1] != '\n' {
				return "a carriage return that is not part of a line break"
			}
		case unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r):
			return fmt.Sprintf("the invisible character %U", r)
		}
	}
	return ""
}
