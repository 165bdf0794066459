package interp

import (
	"strings"

	"github.com/shellguard/shellguard/internal/shquote"
)

// Lang is a language family whose code the analyser reads.
type Lang uint8

// The language families. JavaScript covers node, deno, bun and JXA
// (osascript -l JavaScript).
const (
	NoLang Lang = iota
	Python
	JavaScript
	Perl
	Ruby
	PHP
	Lua
	R
	Tcl
	AppleScript
	PowerShell
)

var langNames = [...]string{"", "python", "javascript", "perl", "ruby", "php", "lua", "r", "tcl", "applescript", "powershell"}

func (l Lang) String() string {
	if int(l) < len(langNames) {
		return langNames[l]
	}
	return ""
}

// Kind is what a Finding reports.
type Kind uint8

// The kinds of findings.
const (
	// Shell: the code hands Text to a shell (os.system, execSync,
	// backticks, do shell script, ...).
	Shell Kind = iota + 1
	// Exec: the code runs a program with an argument list
	// (subprocess.run([...]), spawnSync, system LIST, exec, ...).
	Exec
	// Delete: the code deletes Path (Recursive: a whole tree; Dir: an
	// empty directory only).
	Delete
	// Write: the code opens Path for writing, truncating it (Append: at
	// its end).
	Write
	// ForkBomb: the code starts processes in an endless loop.
	ForkBomb
	// ReverseShell: the code connects a socket to a shell or to code it
	// runs.
	ReverseShell
	// RemoteCode: the code runs code it downloads.
	RemoteCode
	// SecretSend: the code sends a secret (a key or credentials file, the
	// environment) over the network.
	SecretSend
	// Trash: the code asks Finder to delete items (they go to the Trash).
	Trash
	// Unknown: the code does something that cannot be read statically
	// (eval of computed code, a computed import or attribute, code the
	// shell computes, code beyond the analyser's limits).
	Unknown
)

var kindNames = [...]string{"", "shell", "exec", "delete", "write", "fork-bomb", "reverse-shell", "remote-code", "secret-send", "trash", "unknown"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return ""
}

// Word is one word of an argument list or a path. Dynamic reports that
// part of it is computed at run time; Text then holds the literal parts
// with each unknown part as Mark.
type Word struct {
	Text    string
	Dynamic bool
}

// Mark stands for a part of a string the analyser cannot know.
const Mark = "\x00"

// Finding is one thing the code does that shellguard can name.
type Finding struct {
	Kind Kind
	// Text: the command line (Shell, with Mark for unknown parts) or what
	// was seen (the other kinds: "exec(urlopen(...))").
	Text string
	// Argv: Exec's program and arguments.
	Argv []Word
	// Path: Delete's and Write's target, with the home directory as "~"
	// ("~", "~/.ssh", "/", "build").
	Path Word
	// Recursive: Delete removes a whole tree.
	Recursive bool
	// Dir: Delete removes an empty directory only (rmdir).
	Dir bool
	// Append: Write appends rather than truncates.
	Append bool
	// Admin: the command runs with elevated privileges (osascript's "with
	// administrator privileges", Start-Process -Verb RunAs).
	Admin bool
	// Dynamic: the command, the argument list's program or the target
	// is computed at run time (for Exec, Shell, Delete and Write).
	Dynamic bool
	// Call names the call that made the finding (os.system,
	// shutil.rmtree, Remove-Item, ...).
	Call string
}

// Command returns the shell command line equivalent to a Shell, Exec,
// Delete or Write finding, for the detector to check as a line of its own:
// the command itself, "rm -rf -- PATH" for a recursive delete, "rm -f --
// PATH" for a file, "rmdir -- PATH", ": > PATH" for a write. A part the
// analyser cannot know becomes an unquoted parameter expansion. The other
// kinds return "".
func (f Finding) Command() string {
	var b strings.Builder
	if f.Admin {
		b.WriteString("sudo ")
	}
	switch f.Kind {
	case Shell:
		// Bytes that are not UTF-8 would make the whole line unparseable
		// (and so read as data): they become U+FFFD.
		b.WriteString(strings.ToValidUTF8(strings.ReplaceAll(f.Text, Mark, dynWord), "\uFFFD"))
	case Exec:
		if len(f.Argv) == 0 {
			return ""
		}
		for i, w := range f.Argv {
			if i > 0 {
				b.WriteByte(' ')
			}
			if i == 0 && (reserved(w.Text) || strings.Contains(w.Text, "=")) {
				// Quoted, the program is not a keyword or an assignment.
				q := shellQuote(w.Text)
				if strings.Contains(w.Text, Mark) {
					q = `"` + dynWord + `"`
				} else if q == w.Text {
					q = "'" + q + "'"
				}
				b.WriteString(q)
				continue
			}
			b.WriteString(quotePath(w.Text))
		}
	case Delete:
		switch {
		case f.Dir:
			b.WriteString("rmdir -- ")
		case f.Recursive:
			b.WriteString("rm -rf -- ")
		default:
			b.WriteString("rm -f -- ")
		}
		b.WriteString(quotePath(f.Path.Text))
	case Write:
		if f.Append {
			b.WriteString(": >> ")
		} else {
			b.WriteString(": > ")
		}
		b.WriteString(quotePath(f.Path.Text))
	default:
		return ""
	}
	return b.String()
}

// reserved reports a shell keyword, which a command line would read as
// syntax rather than as a program.
func reserved(w string) bool {
	switch w {
	case "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done", "in",
		"function", "time", "{", "}", "!", "[[", "]]", "coproc":
		return true
	}
	return false
}

// dynWord is how an unknown part reads in a command line: a parameter
// expansion, which the detector treats as dynamic.
const dynWord = "$__interp_unknown"

// quoteWord quotes s for a shell, each Mark becoming an expansion.
func quoteWord(s string) string {
	if s == "" {
		return "''"
	}
	var b strings.Builder
	for i, part := range strings.Split(s, Mark) {
		if i > 0 {
			b.WriteString(`"` + dynWord + `"`)
		}
		if part != "" {
			b.WriteString(shellQuote(part))
		}
	}
	return b.String()
}

// quotePath quotes a path, leaving a leading ~ unquoted so that the shell
// reads it as the home directory.
func quotePath(p string) string {
	switch {
	case p == "~":
		return "~"
	case strings.HasPrefix(p, "~/"):
		if p == "~/" {
			return "~/"
		}
		return "~/" + quoteWord(p[2:])
	}
	return quoteWord(p)
}

// shellQuote quotes s as one shell word (internal/shquote: shellguard's
// one quoting function).
func shellQuote(s string) string { return shquote.Quote(s) }

// Limits of one analysis. Code beyond MaxCode bytes is not read (an
// Unknown finding says so); decoded or evaluated code is followed at most
// maxDepth levels deep; at most maxFindings findings are returned.
const (
	MaxCode     = 64 << 10
	maxDepth    = 3
	maxFindings = 64
	maxExprNest = 48
	maxStr      = 4 << 10
	maxList     = 64
	maxSyms     = 256
	maxAlts     = 8
)

// Analyze reads code written in lang and returns what it does that
// shellguard can name, in the order found. It never fails: what it cannot
// read is an Unknown finding. Time and memory are linear in len(code).
func Analyze(lang Lang, code string) (out []Finding) {
	defer func() {
		// A bug must not make code read as harmless: fail closed.
		if r := recover(); r != nil {
			out = []Finding{{Kind: Unknown, Text: failedText}}
		}
	}()
	a := &analysis{budget: 8*min(len(code), MaxCode) + 4096}
	a.run(lang, code, 0)
	a.finish()
	return a.out
}

// failedText is the Unknown finding's text when the analyser fails.
const failedText = "code the analyser failed to read"

// analysis is one Analyze call: the findings and facts gathered over the
// code and what it decodes or evaluates.
type analysis struct {
	out    []Finding
	budget int // bytes the lexers may still read, over every level
	facts  facts
	full   bool
}

// facts are what the code does that only counts together (a socket and a
// shell make a reverse shell).
type facts struct {
	connect  bool   // opens a network socket
	dup      bool   // redirects its standard streams (dup2, open(STDIN, ">&S"))
	shell    bool   // runs a shell or an interactive interpreter
	runs     bool   // runs a program or shell command at all
	runsDyn  bool   // runs a computed command or evaluates computed code
	fetch    bool   // downloads something
	evalRef  bool   // passes eval (or alike) as a value: fetch().then(eval)
	connNote string // what opened the socket
}

// addRun records f, a program the code runs, and what it tells of the
// code: that it runs programs, a computed one, a shell.
func (a *analysis) addRun(f Finding) {
	a.add(f)
	a.facts.runs = true
	if f.Dynamic {
		a.facts.runsDyn = true
	}
	if isShellProgram(f.Argv[0].Text) {
		a.facts.shell = true
	}
}

func (a *analysis) add(f Finding) {
	if len(a.out) >= maxFindings {
		a.full = true
		return
	}
	for _, g := range a.out {
		if sameFinding(f, g) {
			return
		}
	}
	a.out = append(a.out, f)
}

func sameFinding(f, g Finding) bool {
	if f.Kind != g.Kind || f.Text != g.Text || f.Path != g.Path || f.Recursive != g.Recursive || f.Dir != g.Dir ||
		f.Append != g.Append || f.Admin != g.Admin || f.Dynamic != g.Dynamic || len(f.Argv) != len(g.Argv) {
		return false
	}
	for i := range f.Argv {
		if f.Argv[i] != g.Argv[i] {
			return false
		}
	}
	return true
}

func (a *analysis) unknown(call, text string) {
	a.add(Finding{Kind: Unknown, Call: call, Text: text})
}

// run analyses code at a depth of decoding or evaluation.
func (a *analysis) run(lang Lang, code string, depth int) {
	if depth > maxDepth {
		a.unknown("", "code nested too deeply to read")
		return
	}
	if len(code) > MaxCode {
		a.unknown("", "code too large to read")
		code = code[:MaxCode]
	}
	if a.budget -= len(code); a.budget < 0 {
		a.unknown("", "code too large to read")
		return
	}
	switch lang {
	case Tcl:
		a.tcl(code, depth)
	case PowerShell:
		a.pwsh(code, depth)
	case AppleScript:
		a.applescript(code, depth)
	case Python, JavaScript, Perl, Ruby, PHP, Lua, R:
		a.generic(lang, code, depth)
	}
}

// finish turns the facts into findings.
func (a *analysis) finish() {
	f := &a.facts
	if f.connect && (f.dup || f.shell || f.runsDyn) {
		a.add(Finding{Kind: ReverseShell, Call: f.connNote, Text: "connects a socket to a shell or to code it runs"})
	}
	if f.fetch && f.evalRef {
		a.add(Finding{Kind: RemoteCode, Text: "passes eval a download"})
	} else if f.evalRef {
		a.unknown("eval", "passes eval as a value")
	}
	if a.full {
		a.out[len(a.out)-1] = Finding{Kind: Unknown, Text: "too many findings to list"}
	}
}
