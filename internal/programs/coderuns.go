package programs

import "strings"

// CodeRun is one place where a program takes code it runs: an option, an
// operand, an environment variable or its standard input holds a shell
// command (tar --to-command, git -c core.pager, LESSOPEN), an argv (gdb
// --args), or a program of another language whose calls that run commands
// shellparse can read (awk system(), sed e, vim :!). The facts are data
// ([[program.code_run]] in internal/programs/data/coderuns.toml); the
// readers are shellparse's code. A program's runs are tried in order, and
// every one that applies contributes.
type CodeRun struct {
	// Sub is the subcommand path the run applies to ("rebase",
	// "submodule foreach"; alternatives separated by |: "fetch|pull"),
	// "" for the program's own options.
	Sub string
	// At says where the code is; Read how it is read.
	At   Place
	Read Reader
	// Names lists the options (AtOption, as the scanner names them: "-c",
	// "--command", "+" for vim's +CMD; a single-dash program's options
	// with two dashes) or the variables (AtEnv).
	Names List
	// N is the operand index (AtOperand, AtOperands).
	N int
	// Min is the fewest operands for the run to apply.
	Min int
	// File: the value names a file holding the code. Only standard input
	// ("-", /dev/stdin) and a process substitution are read; a named file
	// is like a script: its content is not part of the line.
	File bool
	// Quiet: standard input is mostly data for this program (SQL, edits):
	// it is read when static, and input known only at run time is not
	// flagged.
	Quiet bool
	// When lists options one of which must be given; Unless, options none
	// of which may be given ("--" counts when written).
	When, Unless List
	// Label replaces the default description (the program, and the option
	// or variable); "-" is the program alone.
	Label string
}

// Place says where a program takes code.
type Place uint8

// The places of CodeRun.At (their names in the data in brackets).
const (
	// AtOption [option]: the value of an option named in Names.
	AtOption Place = iota + 1
	// AtOperand [operand]: the operand at index N.
	AtOperand
	// AtOperands [operands]: the operands from index N on.
	AtOperands
	// AtEnv [env]: an environment assignment named in Names.
	AtEnv
	// AtStdin [stdin]: standard input.
	AtStdin
)

// Reader says how the code found at a place is read. The readers are
// shellparse's code; the data names them (in brackets).
type Reader uint8

// The readers of CodeRun.Read.
const (
	// ReadShell [shell]: a shell command line, run through sh -c.
	ReadShell Reader = iota + 1
	// ReadArgv [argv]: a program and its arguments (the operands from N
	// on).
	ReadArgv
	// ReadWords [words]: one word is a shell command line, several are an
	// argv (git submodule foreach, git bisect run, screen -X exec).
	ReadWords
	// ReadJoined [joined]: the words joined by spaces are a shell command
	// line (hyperfine 'cmd', watchexec -- cmd).
	ReadJoined
	// ReadSplit [split]: a command line the program splits into words
	// itself, without a shell (rsync -e): a variable in it is only an
	// argument.
	ReadSplit
	// ReadRemote [remote]: a shell command line run on another machine.
	ReadRemote
	// ReadUnknown [unknown]: code shellguard cannot read; it runs, but
	// what is unknown.
	ReadUnknown
	// ReadAwk [awk]: an awk program (system(), print | "cmd", "cmd" |
	// getline).
	ReadAwk
	// ReadSed [sed]: a sed script (e command, s///e).
	ReadSed
	// ReadVim [vim]: vim or ex commands (:!cmd, :r !cmd, :w !cmd,
	// system()).
	ReadVim
	// ReadVimKeys [vim_keys]: keys typed into vim (:!cmd<CR>).
	ReadVimKeys
	// ReadElisp [elisp]: Emacs Lisp (shell-command, call-process, ...).
	ReadElisp
	// ReadGdb [gdb]: gdb commands (shell, !, pipe, system()).
	ReadGdb
	// ReadLldb [lldb]: lldb commands (platform shell, script, expr
	// system()).
	ReadLldb
	// ReadMake [make]: a makefile (recipes, $(shell ...), VAR != cmd).
	ReadMake
	// ReadTcl [tcl]: an expect (Tcl) script (spawn, send to a shell,
	// exec).
	ReadTcl
	// ReadGitConfig [git_config]: key=value of git -c (core.pager,
	// alias.X, ...; see Program.ConfigCode).
	ReadGitConfig
	// ReadGitConfigEnv [git_config_env]: key=ENVVAR of git --config-env:
	// the value comes from the environment.
	ReadGitConfigEnv
	// ReadGitURL [git_url]: a git URL; ext::CMD runs CMD.
	ReadGitURL
	// ReadLessOpen [less_open]: LESSOPEN/LESSCLOSE ("|cmd %s").
	ReadLessOpen
	// ReadCheckpoint [checkpoint]: tar --checkpoint-action (exec=CMD).
	ReadCheckpoint
	// ReadSSHOption [ssh_option]: an ssh -o option (ProxyCommand=...,
	// LocalCommand=...).
	ReadSSHOption
	// ReadAptOption [apt_option]: an apt -o option (DPkg::Pre-Invoke::=cmd).
	ReadAptOption
	// ReadTmuxKeys [tmux_keys]: keys typed by tmux send-keys into a pane
	// (a shell).
	ReadTmuxKeys
	// ReadScreen [screen]: screen's argv: a command to run, or -X
	// commands (stuff TEXT types into a shell).
	ReadScreen
	// ReadBind [bind]: bind -x 'KEYSEQ: cmd'.
	ReadBind
	// ReadSQLShell [sql_shell]: a SQL client's meta commands (.shell, \!,
	// system).
	ReadSQLShell
	// ReadParallel [parallel]: GNU parallel's command and inputs.
	ReadParallel
	// ReadAlias [alias]: alias NAME=VALUE: each VALUE is a shell command
	// line, run wherever NAME is later typed as a command.
	ReadAlias
)

// ConfigKind says what a configuration key of a program holds (see
// Program.ConfigCode). Its names in the data are in brackets.
type ConfigKind uint8

// The kinds of configuration keys that hold commands.
const (
	// ConfigShell [shell]: a shell command line.
	ConfigShell ConfigKind = iota + 1
	// ConfigBoolOrShell [bool_or_shell]: true/false, or a shell command
	// line (git's core.fsmonitor, pager.<cmd>).
	ConfigBoolOrShell
	// ConfigBang [bang]: a helper name, or "!" and a shell command line
	// (credential.helper, submodule.<name>.update).
	ConfigBang
	// ConfigAlias [alias]: "!" and a shell command line, or the program's
	// own arguments (alias.<name>).
	ConfigAlias
	// ConfigUnknown [unknown]: a file or folder whose content runs
	// (core.hooksPath, include.path, init.templateDir).
	ConfigUnknown
	// ConfigURL [url]: a URL, which may be ext::CMD.
	ConfigURL
)

// ConfigKey returns what the configuration key (as written; compared in
// lower case) holds, or 0 when it holds no command. Keys in the data are
// "section.name" or "section.*.name" (* for a subsection); "section.*"
// matches "section.NAME" (alias.NAME).
func (p *Program) ConfigKey(key string) ConfigKind {
	if p == nil || p.ConfigCode == "" {
		return 0
	}
	k := lower(key)
	section, rest, ok := strings.Cut(k, ".")
	if !ok {
		return 0
	}
	sub, name := "", rest
	if j := strings.LastIndexByte(rest, '.'); j >= 0 {
		sub, name = rest[:j], rest[j+1:]
	}
	var kind ConfigKind
	List(p.ConfigCode).Each(func(e string) bool {
		ek, ev, _ := strings.Cut(e, "\x01")
		es, erest, _ := strings.Cut(ek, ".")
		if es != section {
			return false
		}
		esub, ename := "", erest
		if j := strings.LastIndexByte(erest, '.'); j >= 0 {
			esub, ename = erest[:j], erest[j+1:]
		}
		if ename == "*" && sub == "" && esub == "" || ename == name && (esub == sub || esub == "*" && sub != "") {
			kind = ConfigKind(ev[0] - '0')
			return true
		}
		return false
	})
	return kind
}
