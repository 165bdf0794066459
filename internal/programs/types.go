package programs

import (
	"iter"
	"strings"
)

// Program is what shellguard knows about one program: how it reads its
// options, its subcommands, how approvals name it, what makes it run code
// or widen what it does, whether it is a shell or an interpreter, its dry
// runs and its read-only forms. The values live in the generated table
// (see Lookup); nothing outside this package builds one.
type Program struct {
	// Name is the name the program is looked up by (a basename in lower
	// case, or a prefix ending in * such as "python*").
	Name string
	// Is holds the program's yes/no facts.
	Is Trait
	// SingleDash lists the single-dash long options of a program whose
	// other single-dash words are clusters (terraform -auto-approve).
	SingleDash List
	// Globals are options that take a value before the first
	// subcommand word only (git -C DIR).
	Globals List
	// Optional are options whose value, if any, is attached: the rest of
	// a cluster (perl -i.bak) or "=value" (--color=auto).
	Optional List
	// Numeric are one-letter options followed by optional digits in the
	// same cluster (perl -l0, -0777).
	Numeric List
	// TwoValues are long options that take the next two words (bwrap
	// --bind SRC DEST).
	TwoValues List
	// Ends lists the options after which every word is an operand (gdb
	// --args, screen -X, xterm -e; "-" for a shell's "-").
	Ends List
	// Whole lists long options that are complete options of their own,
	// never abbreviations of longer ones (tar --checkpoint is not
	// --checkpoint-action).
	Whole List
	// Aliases map flag spellings to one canonical spelling ("--recursive"
	// and "-R" are "-r" for rm).
	Aliases Aliases
	// Words map subcommand word spellings to one canonical spelling
	// (kubectl's "ns" and "namespaces" are "namespace").
	Words Aliases
	// Lang names the language of the code an interpreter runs ("python",
	// "node", "perl", "ruby", "php", "sh", ...), "" for other programs.
	Lang string
	// Code lists the options whose value is code in Lang (python -c).
	Code List
	// Load lists options that load code or make an interpreter change
	// files (node -r, perl -M, perl -i).
	Load List
	// Script lists options that name the program an interpreter runs
	// instead of a script operand (python -m MODULE, php -f FILE).
	Script List
	// Extract names the code that reads what the data cannot describe:
	// "git", "sed", "awk", "docker", "tar", "trap", "env_assign" for
	// widening, "find" for canonical argv, "date" and "git" for
	// read-only forms.
	Extract string
	// Decodes lists the flags that make the program decode hidden text
	// (base64 -d); "*" means it always does (rev, uudecode).
	Decodes List
	// ActsAs is the command line the program is the same as (rimraf is
	// "rm -rf"): danger reads it as that command.
	ActsAs List
	// Files says which of its words name files it reads, for a program
	// with a read-only form (see ReadFiles), or nil.
	Files *Files
	// Terminal says how it takes commands, keys or arguments from the
	// terminal (see ReadsTerminal), entries for a subcommand first.
	Terminal []Terminal
	// Writes says which of the program's words name files it writes:
	// "last" (the last of two or more operands: cp, mv, install, ln),
	// "operands" (every operand: tee, truncate), "in_place" (the operands
	// when -i is given, after the script unless -e, -E, -f or --file names
	// it: sed -i, perl -pi -e), "KEY=" (an operand KEY=FILE: dd of=), or an
	// option whose value is a file it writes (curl -o, cp -t).
	Writes List
	// Wrapper says how the program reads its own arguments when it is a
	// wrapper that runs the command after them (sudo, env, timeout,
	// nice, xargs), or nil.
	Wrapper *Wrapper
	// CodeRuns says where the program takes code it runs (an option, an
	// operand, a variable, standard input) and how shellparse reads it.
	CodeRuns []CodeRun
	// ConfigCode lists the configuration keys whose value is a command
	// (git -c core.pager=CMD), packed as "KEY\x01KIND" entries with KIND
	// a ConfigKind digit; see ConfigKey.
	ConfigCode Aliases
	// Launcher says how the program runs a command given on its command
	// line somewhere else (docker exec, kubectl exec, tmux new, salt
	// cmd.run), or nil.
	Launcher *Launcher
	// Root holds the facts of the program itself; Subs those of its
	// subcommands, by path.
	Root Node
	Subs []Node
}

// Node holds the facts of a program or of one of its subcommands.
type Node struct {
	// Path is the subcommand words after the program, joined by single
	// spaces ("compose", "s3 rm"); "" for the program itself.
	Path string
	// Posix: options end at the first operand after this node's words
	// (git submodule foreach CMD ARGS, tmux send-keys KEYS).
	Posix bool
	// Arity is how many words (the program and its subcommands) make up
	// an approval prefix when the command starts with this node's words:
	// 2 for "git" (git checkout), 3 for "docker compose" (docker compose
	// up). 0 means the node does not set it.
	Arity int
	// Values are options that take a value (the rest of a cluster or the
	// next word; "=value" or the next word for long options) at this node
	// and below it.
	Values List
	// DryRun lists the flags that make the command a dry run at this
	// node and below ("-n", "--dry-run", "--dry-run=client").
	DryRun List
	// Widen lists what makes the command run other code or widen what it
	// does.
	Widen []Widen
	// Run says the node runs another program given on its command line
	// (npx PROGRAM, pnpm dlx PROGRAM), or nil.
	Run *Run
	// ReadOnly describes the node's read-only form, or nil when it has
	// none.
	ReadOnly *ReadOnly
}

// Trait is a set of yes/no facts about a program.
type Trait uint32

// The traits of a program.
const (
	// NoCluster: every single-dash word is one option (find -delete,
	// java -jar), never a cluster of one-letter options.
	NoCluster Trait = 1 << iota
	// FoldCase: long option names are compared in lower case (git).
	FoldCase
	// Abbrev: unambiguous abbreviations of long options work
	// (--upload-p for --upload-pack, as GNU getopt_long, git and npm
	// accept).
	Abbrev
	// OldStyle: a first word without a dash is a cluster of options
	// (tar xzf).
	OldStyle
	// Posix: options end at the first operand (python SCRIPT ARGS).
	Posix
	// Subcommands: the program's leading operands are subcommand words
	// (git push, kubectl delete namespace).
	Subcommands
	// ResourceWords: an operand may name a type and a resource at once
	// (kubectl delete namespace/foo) or several types (pods,services).
	ResourceWords
	// DashSubcommands: PROGRAM-SUB runs PROGRAM SUB (git-reset).
	DashSubcommands
	// Shell: a shell that runs its -c string or its standard input.
	Shell
	// CommandShell: a command interpreter that is not read as a POSIX
	// shell (cmd, powershell, pwsh, busybox with its shell applets):
	// code that starts one starts a shell, as starting a Shell does.
	CommandShell
	// StdinProgram: an interpreter that reads its program from standard
	// input when given no script.
	StdinProgram
	// DataArgs: the program's operands are data, never a command it runs
	// (echo, grep, git, apt-get).
	DataArgs
	// Runs: a node of the program runs another program (see Node.Run);
	// set by the generator.
	Runs
	// Widens: the program has widening facts (widen rules, code or load
	// options, a program read from standard input, a widening extractor);
	// set by the generator.
	Widens
	// DryRuns: a node of the program names dry-run flags; set by the
	// generator.
	DryRuns
	// PlusOptions: a word starting with + is an option with its value
	// attached (vim +CMD, less +G).
	PlusOptions
)

// List is a list of words packed into one string, each word followed by
// a NUL byte: the generated programs hold their lists in constant
// strings, so that building a program allocates almost nothing.
type List string

// Has reports whether w is one of the list's words.
func (l List) Has(w string) bool {
	if w == "" {
		return false
	}
	for s, at := string(l), 0; ; {
		i := strings.Index(s[at:], w)
		if i < 0 {
			return false
		}
		i += at
		end := i + len(w)
		if (i == 0 || s[i-1] == 0) && (end == len(s) || s[end] == 0) {
			return true
		}
		at = i + 1
	}
}

// Each calls f with each word in order until f returns true, and reports
// whether it did.
func (l List) Each(f func(string) bool) bool {
	for s := string(l); s != ""; {
		w := s
		if i := strings.IndexByte(s, 0); i >= 0 {
			w, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if f(w) {
			return true
		}
	}
	return false
}

// All yields the list's words in order.
func (l List) All() iter.Seq[string] {
	return func(yield func(string) bool) {
		l.Each(func(w string) bool { return !yield(w) })
	}
}

// Words returns the list's words.
func (l List) Words() []string {
	var out []string
	l.Each(func(w string) bool { out = append(out, w); return false })
	return out
}

// Aliases maps spellings to canonical ones, packed as a List of
// "FROM\x01TO" entries.
type Aliases string

// Lookup returns the canonical spelling of from, if the aliases have one.
func (a Aliases) Lookup(from string) (to string, ok bool) {
	List(a).Each(func(e string) bool {
		f, t, _ := strings.Cut(e, "\x01")
		if f == from {
			to, ok = t, true
			return true
		}
		return false
	})
	return to, ok
}

// Widen is one thing that makes a command run other code, write
// elsewhere or widen what it does, so that an approval of its prefix does
// not cover it.
type Widen struct {
	// Opts are the options that widen ("-o", "--output", or a whole
	// single-dash word such as "-exec"); long options match their
	// abbreviations when the program has the Abbrev trait.
	Opts List
	// Exact: long options match only as written, even for an Abbrev
	// program.
	Exact bool
	// Unless lists option values that make the option harmless; "@stdout"
	// stands for "-", "/dev/null" and "/dev/stdout".
	Unless List
	// UnlessPrefix: a value starting with it makes the option harmless
	// (pytest -p no:cacheprovider).
	UnlessPrefix string
	// HasValue: the option widens only when it has a value.
	HasValue bool
	// ValuePrefix: the option widens only when its value starts with it
	// (curl -d @file).
	ValuePrefix string
	// ValueContains: the option widens only when its value holds one of
	// these (curl -F name=@file).
	ValueContains List
	// UnlessFlags: any of these options makes the rule not apply (at -l
	// lists jobs).
	UnlessFlags List
	// Operand: an operand equal to it widens; "*" any operand, "="
	// an operand of the form NAME=value.
	Operand string
	// Remote: the option widens only when its value names a file on
	// another host (HOST:PATH).
	Remote bool
	// Before: only an option before the subcommand (git -c, -C, -p).
	Before bool
	// Always: the node widens whatever its arguments.
	Always bool
	// Prefix: a word starting with one of these widens (gcc -B, vim +).
	Prefix List
	// Words: a word equal to one of these widens (tmux run-shell).
	Words List
	// Contains: a word holding one of these widens (alias a=b).
	Contains List
	// Label is how the widening is shown: "{opt}" (default) is the
	// option, "{value}" its value, "{name}" the program, "{word}" the
	// word or operand, "{var}" the name of a NAME=value operand.
	Label string
	// Why says what the widening does, after the label ("makes wget
	// write elsewhere"); "{name}" is the program.
	Why string
}

// Wrapper describes how a wrapper reads its own options and operands
// before the command it runs (sudo -u USER CMD, timeout 5 CMD).
type Wrapper struct {
	// Values are the options that take a value: a short one the rest of
	// its cluster or the next word, a long one "=value" or the next word.
	Values List
	// Optional are short options whose value, if any, is attached
	// (xargs -i[R], -e[EOF], -l[N]).
	Optional List
	// Operands is how many operands the wrapper itself takes after its
	// options (timeout's DURATION, chroot's NEWROOT).
	Operands int
	// Assigns: leading NAME=value operands are environment assignments
	// (env, sudo).
	Assigns bool
	// Numeric: -N is a flag (nice -10).
	Numeric bool
	// Shell lists the options whose value is a shell command line the
	// wrapper runs (flock -c, env -S); they are among Values.
	Shell List
	// NoRun lists short flags that mean the wrapper runs no command
	// (command -v, sudo -l).
	NoRun List
	// Join lists flags that make the wrapper run its command through a
	// shell's -c as one line: the words joined by spaces, every byte but
	// a letter, a digit, '_', '-' and '$' escaped with a backslash (sudo
	// -s, sudo -i). Only a '$' in a word changes what runs: the shell
	// expands it ($IFS splits the word).
	Join List
}

// Launcher describes a program whose arguments are a command it runs
// somewhere else: in a container, a pod, an environment, a terminal
// multiplexer, or on many hosts. shellparse reads the command line.
type Launcher struct {
	// Kind names the parser's code that finds the command ("container",
	// "pod", "package", "terminal", "env_tool", "salt", "fanout", ...).
	Kind string
	// Globals are the options before the subcommand that take a value.
	Globals List
	// Subs are the subcommands that run a command (salt: the functions).
	Subs List
	// Values are the options of those subcommands that take a value.
	Values List
	// RunValues are those of the subcommands that create what runs the
	// command (docker run, docker create), when they differ.
	RunValues List
	// Kwargs are NAME=value words that are the launcher's own arguments,
	// not part of the command (salt's runas=, cwd=).
	Kwargs List
}

// Run describes a node that runs another program given on its command
// line.
type Run struct {
	// Skip is how many operands of the runner come before the program
	// (direnv exec DIR PROGRAM).
	Skip int
	// Versioned: only an operand that names a version (go run
	// example.com/tool@v1.2.0) is a program to run.
	Versioned bool
	// DashDash: the words after "--" are the arguments of a program the
	// runner builds (cargo run -- ARGS); the program itself is unknown.
	DashDash bool
	// Prefix: only an operand starting with it names a program to run,
	// without it (deno run npm:rimraf).
	Prefix string
	// Shell lists the options whose value is a shell command line the
	// runner runs (npx -c 'CMD').
	Shell List
}

// ReadOnly describes the read-only form of a program or subcommand: the
// form shellguard allows without an approval when the read_only setting
// is on.
type ReadOnly struct {
	// Deny lists options that disqualify (written as in Widen.Opts;
	// long options match every abbreviation and "=value", short ones
	// inside clusters).
	Deny List
	// Only lists the only options allowed ("--sort" allows "--sort=x");
	// nil allows any option not denied.
	Only List
	// Globals lists the options allowed before the subcommand (git
	// --no-pager); a program with read-only subcommands accepts no other.
	Globals List
	// MaxOperands bounds the operands (uniq reads one file and writes
	// the second); -1 means no bound.
	MaxOperands int
	// NoArgs: only the program alone (env prints the environment; env
	// CMD runs CMD).
	NoArgs bool
	// NoGlob: an unquoted pattern among the arguments disqualifies (a
	// file named "--output=x" could be one of its expansions).
	NoGlob bool
	// Extract names code for forms the data cannot describe ("date").
	Extract string
}

// Has reports whether p has every trait in t.
func (p *Program) Has(t Trait) bool { return p != nil && p.Is&t == t }
