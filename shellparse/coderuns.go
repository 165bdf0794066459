package shellparse

import (
	"strings"
	"sync"
)

// Programs that run code they are given: an option, an operand, an
// environment variable or their standard input holds a shell command (tar
// --to-command, git -c core.pager, LESSOPEN), an argv (gdb --args, screen
// CMD), or a program of another language whose few calls that run commands
// can be read (awk system(), sed e, vim :!, emacs shell-command, gdb shell,
// make recipes, expect spawn). What such code runs is re-parsed like the
// string of bash -c, so that every stage after the parser sees it; code that
// is built at run time, or that cannot be read, marks the invocation
// StdinUnknown: it runs something that cannot be verified.
//
// The facts are data: codeRows says where each program takes code and how
// it is read, codeSyntax how each program reads its options, gitConfigKeys
// which git configuration keys hold commands. The readers (awk, sed, vim,
// emacs, gdb, lldb, make, expect, git configuration, terminal keys) are code
// of their own, in the coderun_*.go files, each bounded in time and output.

// place says where a program takes code.
type place uint8

const (
	// atOption: the value of an option named in names.
	atOption place = iota + 1
	// atOperand: the operand at index n.
	atOperand
	// atOperands: the operands from index n on.
	atOperands
	// atEnv: an environment assignment named in names.
	atEnv
	// atStdin: standard input.
	atStdin
)

// reader says how the code found at a place is read.
type reader uint8

const (
	// readShell: a shell command line, run through sh -c.
	readShell reader = iota + 1
	// readArgv: a program and its arguments (the operands from n on).
	readArgv
	// readWords: one word is a shell command line, several are an argv
	// (git submodule foreach, git bisect run, screen -X exec).
	readWords
	// readJoined: the words joined by spaces are a shell command line
	// (hyperfine 'cmd', watchexec -- cmd).
	readJoined
	// readSplit: a command line the program splits into words itself,
	// without a shell (rsync -e): a variable in it is only an argument.
	readSplit
	// readRemote: a shell command line run on another machine.
	readRemote
	// readUnknown: code shellguard cannot read; it runs, but what is
	// unknown.
	readUnknown
	// readAwk: an awk program (system(), print | "cmd", "cmd" | getline).
	readAwk
	// readSed: a sed script (e command, s///e).
	readSed
	// readVim: vim or ex commands (:!cmd, :r !cmd, :w !cmd, system()).
	readVim
	// readVimKeys: keys typed into vim (:!cmd<CR>).
	readVimKeys
	// readElisp: Emacs Lisp (shell-command, call-process, ...).
	readElisp
	// readGdb: gdb commands (shell, !, pipe, system()).
	readGdb
	// readLldb: lldb commands (platform shell, script, expr system()).
	readLldb
	// readMake: a makefile (recipes, $(shell ...), VAR != cmd).
	readMake
	// readTcl: an expect (Tcl) script (spawn, send to a shell, exec).
	readTcl
	// readGitConfig: key=value of git -c (core.pager, alias.X, ...).
	readGitConfig
	// readGitConfigEnv: key=ENVVAR of git --config-env: the value comes
	// from the environment.
	readGitConfigEnv
	// readGitURL: a git URL; ext::CMD runs CMD.
	readGitURL
	// readLessOpen: LESSOPEN/LESSCLOSE ("|cmd %s").
	readLessOpen
	// readCheckpoint: tar --checkpoint-action (exec=CMD).
	readCheckpoint
	// readSSHOption: an ssh -o option (ProxyCommand=..., LocalCommand=...).
	readSSHOption
	// readAptOption: an apt -o option (DPkg::Pre-Invoke::=cmd).
	readAptOption
	// readTmuxKeys: keys typed by tmux send-keys into a pane (a shell).
	readTmuxKeys
	// readScreen: screen's argv: a command to run, or -X commands
	// (stuff TEXT types into a shell).
	readScreen
	// readBind: bind -x 'KEYSEQ: cmd'.
	readBind
	// readSQLShell: a SQL client's meta commands (.shell, \!, system).
	readSQLShell
	// readParallel: GNU parallel's command and inputs.
	readParallel
)

// codeRow is one fact: program progs (space-separated names; "git
// rebase" for a subcommand) takes code at a place, read by read.
type codeRow struct {
	progs string
	// sub is the subcommand the row applies to ("rebase", "submodule
	// foreach"; alternatives separated by |: "fetch|pull"); "" for the
	// program's own options.
	sub string
	at  place
	// names lists the options (atOption, with their dashes: "-c
	// --command"; "+" for vim's +CMD) or variables (atEnv).
	names string
	// n is the operand index (atOperand, atOperands).
	n    int
	read reader
	// file: the value names a file holding the code. Only standard input
	// ("-", /dev/stdin) and a process substitution are read; a named file
	// is like a script: its content is not part of the line.
	file bool
	// when lists options one of which must be given; unless, options none
	// of which may be given ("--" counts when written).
	when, unless string
	// min is the fewest operands for the row to apply.
	min int
	// quiet: standard input is mostly data for this program (SQL, edits):
	// it is read when static, and input known only at run time is not
	// flagged.
	quiet bool
	// label replaces the frame's default description (the program, and
	// the option or variable).
	label string
}

// Program names shared by several rows.
const (
	awkProgs   = "awk gawk mawk nawk busybox-awk"
	sedProgs   = "sed gsed"
	tarProgs   = "tar gtar"
	vimProgs   = "vim vi nvim view vimdiff gvim gview vimx evim"
	exProgs    = "ex"
	emacsProgs = "emacs emacs-nox"
	makeProgs  = "make gmake"
	shellNames = "sh bash zsh dash ksh mksh ash yash posh rbash"
)

// codeRows lists where programs take code. Rows of one program are tried
// in order; every row that applies contributes.
var codeRows = [...]codeRow{
	// awk: the program is the first operand unless -f or -e give it.
	{progs: awkProgs, at: atOperand, read: readAwk, unless: "-f -e -E --file --source --exec -i --include", label: "-"},
	{progs: awkProgs, at: atOption, names: "-e --source", read: readAwk},
	{progs: awkProgs, at: atOption, names: "-f -E --file --exec", read: readAwk, file: true},

	// GNU sed: the script is the first operand unless -e or -f give it.
	{progs: sedProgs, at: atOperand, read: readSed, unless: "-e -f --expression --file --sandbox", label: "-"},
	{progs: sedProgs, at: atOption, names: "-e --expression", read: readSed, unless: "--sandbox"},
	{progs: sedProgs, at: atOption, names: "-f --file", read: readSed, file: true, unless: "--sandbox"},

	// GNU tar runs these through sh -c.
	{progs: tarProgs, at: atOption, names: "--checkpoint-action", read: readCheckpoint},
	{progs: tarProgs + " bsdtar", at: atOption, names: "--to-command --use-compress-program --rsh-command --info-script --new-volume-script", read: readShell},
	{progs: tarProgs, at: atOption, names: "-I -F", read: readShell},
	{progs: tarProgs, at: atEnv, names: "TAR_OPTIONS", read: readUnknown},

	// zip -T -TT CMD tests the archive with CMD.
	{progs: "zip", at: atOption, names: "-TT --unzip-command", read: readShell},

	// rsync's remote shell, and the rsync run on the other side.
	{progs: "rsync", at: atOption, names: "-e --rsh", read: readSplit},
	{progs: "rsync", at: atEnv, names: "RSYNC_RSH", read: readSplit},
	{progs: "rsync", at: atOption, names: "--rsync-path", read: readRemote},
	{progs: "scp sftp", at: atOption, names: "-o", read: readSSHOption},
	{progs: "scp sftp", at: atOption, names: "-S", read: readShell},

	// Editors: vim's -c, --cmd, +CMD and -S FILE; ex mode reads commands
	// on standard input.
	{progs: vimProgs + " " + exProgs, at: atOption, names: "-c --cmd +", read: readVim, unless: "-Z"},
	{progs: vimProgs + " " + exProgs, at: atOption, names: "-S", read: readVim, file: true, unless: "-Z"},
	{progs: vimProgs, at: atOption, names: "--remote-send", read: readVimKeys},
	{progs: vimProgs, at: atOption, names: "--remote-expr", read: readVim, label: "call"},
	{progs: vimProgs, at: atStdin, read: readVim, when: "-e -E -es -Es", unless: "-Z", quiet: true},
	{progs: exProgs + " ed red", at: atStdin, read: readVim, quiet: true},
	{progs: emacsProgs, at: atOption, names: "--eval --execute", read: readElisp},
	{progs: emacsProgs, at: atOption, names: "--l --load --script --x", read: readElisp, file: true},
	{progs: "emacsclient", at: atOperands, read: readElisp, when: "-e --eval"},
	{progs: "emacsclient", at: atOption, names: "-a --alternate-editor", read: readShell},
	{progs: "emacsclient", at: atEnv, names: "ALTERNATE_EDITOR", read: readShell},

	// Debuggers.
	{progs: "gdb", at: atOption, names: "--ex --eval-command --iex --init-eval-command", read: readGdb},
	{progs: "gdb", at: atOption, names: "--x --command --ix --init-command", read: readGdb, file: true},
	{progs: "gdb", at: atOperands, read: readArgv, when: "--args"},
	{progs: "gdb", at: atStdin, read: readGdb, quiet: true},
	{progs: "lldb", at: atOption, names: "-o --one-line -O --one-line-before-file -k --one-line-on-crash", read: readLldb},
	{progs: "lldb", at: atOption, names: "-s --source -S --source-before-file -K --source-on-crash", read: readLldb, file: true},
	{progs: "lldb", at: atOperands, read: readArgv, when: "--"},

	// make: recipes are shell commands.
	{progs: makeProgs, at: atOption, names: "-E --eval", read: readMake},
	{progs: makeProgs, at: atOption, names: "-f --file --makefile", read: readMake, file: true},

	// Pagers and man.
	{progs: "less man", at: atEnv, names: "LESSOPEN LESSCLOSE", read: readLessOpen},
	{progs: "man", at: atEnv, names: "MANPAGER PAGER MANROFFOPT", read: readShell},
	{progs: "man", at: atOption, names: "-P --pager -H --html", read: readShell},
	{progs: "less more", at: atOption, names: "+", read: readVim, label: "+"},
	{progs: "systemctl journalctl loginctl machinectl", at: atEnv, names: "SYSTEMD_PAGER SYSTEMD_EDITOR", read: readShell},
	{progs: "psql", at: atEnv, names: "PAGER PSQL_PAGER PSQL_EDITOR EDITOR VISUAL", read: readShell},
	{progs: "gh", at: atEnv, names: "GH_PAGER PAGER GH_EDITOR EDITOR VISUAL", read: readShell},
	{progs: "aws", at: atEnv, names: "AWS_PAGER", read: readShell},
	{progs: "crontab visudo sudoedit", at: atEnv, names: "VISUAL EDITOR SUDO_EDITOR", read: readShell},
	{progs: "sudo", at: atEnv, names: "SUDO_ASKPASS SUDO_EDITOR", read: readShell},
	{progs: "kubectl oc", at: atEnv, names: "KUBE_EDITOR EDITOR", read: readShell},

	// git: configuration that names commands, the environment, and
	// subcommands that run the commands they are given.
	{progs: "git", at: atOption, names: "-c", read: readGitConfig},
	{progs: "git", at: atOption, names: "--config-env", read: readGitConfigEnv},
	{progs: "git", at: atEnv, names: "GIT_SSH_COMMAND GIT_EXTERNAL_DIFF GIT_PAGER GIT_EDITOR GIT_SEQUENCE_EDITOR PAGER EDITOR VISUAL GIT_ASKPASS SSH_ASKPASS GIT_SSH GIT_PROXY_COMMAND", read: readShell},
	{progs: "git", at: atEnv, names: "GIT_EXEC_PATH GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT GIT_CONFIG GIT_CONFIG_GLOBAL GIT_CONFIG_SYSTEM", read: readUnknown},
	{progs: "git", sub: "clone", at: atOption, names: "-c --config", read: readGitConfig},
	{progs: "git", sub: "clone", at: atOption, names: "-u --upload-pack --template", read: readShell},
	{progs: "git", sub: "fetch|pull|ls-remote", at: atOption, names: "--upload-pack", read: readShell},
	{progs: "git", sub: "push", at: atOption, names: "--receive-pack --exec", read: readShell},
	{progs: "git", sub: "archive", at: atOption, names: "--exec", read: readShell},
	{progs: "git", sub: "clone|fetch|pull|push|ls-remote|archive", at: atOperands, read: readGitURL},
	{progs: "git", sub: "submodule add", at: atOperands, read: readGitURL},
	{progs: "git", sub: "remote add", at: atOperands, read: readGitURL},
	{progs: "git", sub: "rebase", at: atOption, names: "-x --exec", read: readShell},
	{progs: "git", sub: "submodule foreach", at: atOperands, read: readWords},
	{progs: "git", sub: "bisect run", at: atOperands, read: readWords},
	{progs: "git", sub: "filter-branch", at: atOption, names: "--setup --tree-filter --index-filter --env-filter --parent-filter --msg-filter --commit-filter --tag-name-filter", read: readShell},
	{progs: "git", sub: "filter-repo", at: atOption, names: "--filename-callback --message-callback --name-callback --email-callback --refname-callback --blob-callback --commit-callback --tag-callback --reset-callback --person-callback", read: readUnknown},
	{progs: "git", sub: "difftool", at: atOption, names: "-x --extcmd", read: readShell},
	{progs: "git", sub: "grep", at: atOption, names: "-O --open-files-in-pager", read: readShell},
	{progs: "git", sub: "send-email", at: atOption, names: "--sendmail-cmd --to-cmd --cc-cmd --header-cmd", read: readShell},
	{progs: "git", sub: "instaweb", at: atOption, names: "-d --httpd -b --browser", read: readShell},
	{progs: "git", sub: "daemon", at: atOption, names: "--access-hook", read: readShell},

	// Locks, schedulers, watchers and session managers.
	{progs: "at batch", at: atStdin, read: readShell, unless: "-f -l -r -d -c -V"},
	{progs: "at batch", at: atOption, names: "-f", read: readShell, file: true},
	{progs: "entr", at: atOperand, read: readShell, when: "-s"},
	{progs: "entr", at: atOperands, read: readArgv, unless: "-s"},
	{progs: "watchexec", at: atOption, names: "-s --shell", read: readShell},
	{progs: "watchexec", at: atOperands, read: readJoined},
	{progs: "nodemon", at: atOption, names: "-x --exec", read: readShell},
	{progs: "hyperfine", at: atOperands, read: readShell},
	{progs: "hyperfine", at: atOption, names: "-p --prepare -c --cleanup -s --setup --conclude", read: readShell},
	{progs: "script", at: atOption, names: "-c --command", read: readShell},
	{progs: "tmux", at: atOption, names: "-c", read: readShell},
	{progs: "tmux", sub: "send-keys|send", at: atOperands, read: readTmuxKeys},
	{progs: "tmux", sub: "pipe-pane|pipep", at: atOperand, read: readShell},
	{progs: "tmux", sub: "if-shell|if", at: atOperand, read: readShell},
	{progs: "screen", at: atOperands, read: readScreen},
	{progs: "parallel", at: atOperands, read: readParallel},

	// Programs that run their operands as a command (the wrappers the
	// parser peels are in internal/programs/data/wrappers.toml).
	{progs: "nsenter unshare systemd-run systemd-nspawn cgexec prlimit runcon schroot dbus-run-session ssh-agent systemd-inhibit caffeinate chpst s6-setuidgid setuidgid pkexec", at: atOperands, read: readArgv},
	{progs: "bwrap", at: atOperands, read: readArgv},
	{progs: "xterm uxterm urxvt rxvt konsole alacritty tilix terminator x-terminal-emulator xfce4-terminal", at: atOperands, read: readArgv, when: "--e"},
	{progs: "gnome-terminal kitty wezterm foot", at: atOperands, read: readArgv},
	{progs: "fd fdfind", at: atOperands, read: readArgv, when: "-x --exec -X --exec-batch"},
	{progs: "rg", at: atOption, names: "--pre", read: readShell},
	{progs: "sort", at: atOption, names: "--compress-program", read: readShell},
	{progs: "npx", at: atOption, names: "-c --call", read: readShell},
	{progs: "npm", sub: "exec|x", at: atOption, names: "-c --call", read: readShell},
	{progs: "go", sub: "run|test|build|install|vet", at: atOption, names: "--exec --toolexec", read: readShell},
	{progs: "apt apt-get aptitude", at: atOption, names: "-o --option", read: readAptOption},
	{progs: "expect", at: atOption, names: "-c", read: readTcl},
	{progs: "expect", at: atOption, names: "-f", read: readTcl, file: true},
	{progs: "expect", at: atOperand, read: readTcl, file: true, unless: "-f"},
	{progs: "sqlite3", at: atOperands, n: 1, read: readSQLShell},
	{progs: "sqlite3", at: atOption, names: "--cmd", read: readSQLShell},
	{progs: "sqlite3", at: atStdin, read: readSQLShell, quiet: true},
	{progs: "psql", at: atOption, names: "-c --command", read: readSQLShell},
	{progs: "psql", at: atStdin, read: readSQLShell, quiet: true},
	{progs: "mysql mariadb", at: atOption, names: "-e --execute", read: readSQLShell},
	{progs: "mysql mariadb", at: atStdin, read: readSQLShell, quiet: true},

	// Shell builtins that run a string later (trap, a completion, a key
	// binding) or now (source of standard input, mapfile's callback).
	{progs: "trap", at: atOperand, read: readShell, min: 2},
	{progs: "mapfile readarray", at: atOption, names: "-C", read: readShell},
	{progs: "complete compgen", at: atOption, names: "-C", read: readShell},
	{progs: "bind", at: atOption, names: "-x", read: readBind},
	{progs: "fc", at: atOption, names: "-e", read: readShell},
	{progs: "fc", at: atOption, names: "-s", read: readUnknown},
	{progs: "source .", at: atOperand, read: readShell, file: true},
	// A shell's script operand (bash <(echo ...), sh /dev/stdin).
	{progs: shellNames, at: atOperand, read: readShell, file: true, unless: "-c -s"},

	// Programs that become a shell reading standard input when given no
	// command: sudo -s, sudo -i, su, doas -s, runuser -l.
	{progs: "sudo", at: atStdin, read: readShell, when: "-s -i --shell --login"},
	{progs: "doas", at: atStdin, read: readShell, when: "-s"},
	{progs: "su runuser", at: atStdin, read: readShell, unless: "-c --command -C --session-command"},
	{progs: "runuser", at: atOperands, read: readArgv, when: "--", unless: "-c --command"},
}

// optSyntax says how a program reads its options, so that options,
// their values and operands can be told apart.
type optSyntax struct {
	// progs: program names, or "git rebase" for a subcommand.
	progs string
	// short lists the short options that take a value (attached, or the
	// next word).
	short string
	// optShort lists short options whose value, if any, is attached.
	optShort string
	// long lists the long options (without dashes) that take the next word
	// as their value when not written with "=".
	long string
	// two lists long options that take the next two words (bwrap --bind).
	two string
	// flags lists long options without a value that are prefixes of
	// options with one (tar --checkpoint), so that they are not read as
	// abbreviations.
	flags string
	// single: options are whole words with one or two dashes (-ex,
	// --ex), never clusters.
	single bool
	// plus: a word starting with + is an option with its value attached
	// (vim +CMD).
	plus bool
	// oldTar: a first word without a dash is a cluster of options.
	oldTar bool
	// abbrev: an unambiguous prefix of a long option in long counts
	// (GNU getopt_long).
	abbrev bool
	// posix: options end at the first operand.
	posix bool
	// ends lists options after which every word is an operand (gdb
	// --args).
	ends string
	// subs: the first operand is a subcommand (git, tmux).
	subs bool
}

// codeSyntax lists the option syntax of the programs in codeRows. A
// program without an entry has only flags, clustered, GNU-style.
var codeSyntax = [...]optSyntax{
	{progs: awkProgs, short: "FvfeEilW", optShort: "opdDLM", long: "file exec include load source field-separator assign", posix: true, abbrev: true},
	{progs: sedProgs, short: "efl", optShort: "i", long: "expression file line-length", flags: "in-place", abbrev: true},
	{progs: tarProgs + " bsdtar", short: "bCfFgHIKLNTVX", oldTar: true, abbrev: true,
		long:  "file directory to-command use-compress-program rsh-command info-script new-volume-script checkpoint-action files-from exclude exclude-from transform xform owner group mode mtime newer newer-mtime after-date format label tape-length blocking-factor record-size starting-file suffix index-file volno-file strip-components exclude-tag exclude-tag-under exclude-tag-all owner-map group-map sparse-version hole-detection",
		flags: "checkpoint"},
	{progs: "zip", short: "bnitx", long: "unzip-command temp-path suffixes from-crlf", single: false},
	{progs: "rsync", short: "eBfMT", abbrev: true,
		long: "rsh rsync-path remote-option filter exclude include exclude-from include-from files-from temp-dir compare-dest copy-dest link-dest log-file log-file-format out-format password-file partial-dir backup-dir suffix chmod chown usermap groupmap timeout contimeout port sockopts bwlimit max-size min-size max-delete modify-window block-size checksum-choice compress-choice compress-level skip-compress iconv info debug address write-batch read-batch only-write-batch protocol outbuf stop-after stop-at max-alloc"},
	{progs: "scp sftp", short: "cDFiJlopPSBbRsXl"},
	{progs: vimProgs + " " + exProgs, short: "cSuUTiwWtq", optShort: "oOpVr", long: "cmd startuptime servername remote-send remote-expr listen", plus: true},
	{progs: "ed red", short: "p"},
	{progs: emacsProgs, single: true, long: "eval execute load l funcall f script x L directory chdir t terminal d display insert file find-file visit name title T fn font bg fg bd bw ib lsp cr ms geometry g"},
	{progs: "emacsclient", short: "sfadFTw", long: "socket-name server-file alternate-editor display frame-parameters tramp timeout parent-id"},
	{progs: "gdb", single: true, ends: "--args",
		long: "ex eval-command iex init-eval-command x command ix init-command p pid c core cd d directory s symbols e exec se b l tty i interpreter data-directory D"},
	{progs: "lldb", short: "oOkKsSfcapnlwe", long: "one-line one-line-before-file one-line-on-crash source-on-crash source source-before-file file core arch attach-pid attach-name script-language"},
	{progs: makeProgs, short: "fCIoWEO", optShort: "jl", long: "file makefile directory include-dir old-file assume-old new-file what-if assume-new eval jobserver-style", abbrev: true},
	{progs: "man", short: "PHCMLmSsEWRe", long: "pager html config-file manpath locale systems sections extension encoding preprocessor"},
	{progs: "less more", short: "bhjkoOpPtTxyz#", plus: true},
	{progs: "git", posix: true, subs: true, short: "cC", long: "git-dir work-tree namespace super-prefix config-env exec-path list-cmds"},
	{progs: "git clone", short: "bcjou", long: "branch config depth jobs origin upload-pack template reference reference-if-able separate-git-dir shallow-since shallow-exclude filter server-option bundle-uri revision", abbrev: true},
	{progs: "git fetch", short: "j", long: "upload-pack depth deepen shallow-since shallow-exclude refmap server-option negotiation-tip filter jobs recurse-submodules-default submodule-prefix", abbrev: true},
	{progs: "git pull", short: "sXj", long: "upload-pack depth deepen shallow-since shallow-exclude refmap server-option strategy strategy-option jobs", abbrev: true},
	{progs: "git push", short: "o", long: "receive-pack exec repo push-option signed", abbrev: true},
	{progs: "git ls-remote", long: "upload-pack server-option sort", abbrev: true},
	{progs: "git archive", short: "o", long: "exec format prefix output remote add-file add-virtual-file", abbrev: true},
	{progs: "git rebase", short: "sxXC", long: "exec onto strategy strategy-option gpg-sign whitespace rebase-merges empty", optShort: "S", abbrev: true},
	{progs: "git submodule", posix: true, subs: true},
	{progs: "git submodule foreach", posix: true},
	{progs: "git submodule add", short: "b", long: "branch name reference depth"},
	{progs: "git remote", posix: true, subs: true},
	{progs: "git remote add", short: "tm", long: "track master mirror"},
	{progs: "git bisect", posix: true, subs: true},
	{progs: "git bisect run", posix: true},
	{progs: "git filter-branch", long: "setup tree-filter index-filter env-filter parent-filter msg-filter commit-filter tag-name-filter subdirectory-filter original state-branch prune-empty d", single: false},
	{progs: "git difftool", short: "xtgy", long: "extcmd tool", abbrev: true},
	{progs: "git grep", short: "ABCefm", optShort: "O", long: "open-files-in-pager max-depth threads context after-context before-context file", abbrev: true},
	{progs: "git send-email", long: "sendmail-cmd to-cmd cc-cmd header-cmd from to cc bcc subject in-reply-to smtp-server smtp-server-port smtp-user smtp-encryption identity", abbrev: true},
	{progs: "git instaweb", short: "dbp", long: "httpd browser port module-path"},
	{progs: "git filter-repo", long: "filename-callback message-callback name-callback email-callback refname-callback blob-callback commit-callback tag-callback reset-callback person-callback path path-glob path-regex path-rename paths-from-file subdirectory-filter to-subdirectory-filter replace-text replace-message strip-blobs-bigger-than strip-blobs-with-ids refs source target"},
	{progs: "git daemon", long: "access-hook base-path interpolated-path listen port init-timeout timeout max-connections user group pid-file"},
	{progs: "at batch", short: "qft"},
	{progs: "entr", posix: true},
	{progs: "watchexec", short: "sewWfF", long: "shell exts watch filter ignore on-busy-update signal debounce restart-signal", ends: "--"},
	{progs: "nodemon", short: "xewV", long: "exec ext watch ignore delay signal"},
	{progs: "hyperfine", short: "wrmMpcsSnNu", long: "warmup runs min-runs max-runs prepare cleanup setup conclude shell command-name export-json export-csv export-markdown export-asciidoc style time-unit parameter-scan parameter-step-size parameter-list output input sort"},
	{progs: "script", short: "cEIOBTtm", long: "command echo log-in log-out log-io log-timing timing logging-format output-limit", abbrev: true, posix: false},
	{progs: "tmux", short: "cfLST", posix: true, subs: true},
	{progs: "tmux send-keys", short: "Nct", posix: true},
	{progs: "tmux send", short: "Nct", posix: true},
	{progs: "tmux pipe-pane", short: "t"},
	{progs: "tmux pipep", short: "t"},
	{progs: "tmux if-shell", short: "t"},
	{progs: "tmux if", short: "t"},
	{progs: "screen", short: "SceEhLpsTt", long: "Logfile", posix: true, ends: "-X"},
	{progs: "parallel", short: "jSaNnLdIEs", long: "jobs sshlogin arg-file delay timeout colsep delimiter results joblog tmpdir env workdir wd max-args max-lines eof max-chars load memfree retries shebang-wrap ssh basefile bf return transfer-file tf", posix: true},
	{progs: "nsenter", short: "tSGrwmuinpUCT", posix: true, long: "target setuid setgid root wd"},
	{progs: "unshare", short: "SGRwmuinpUCT", posix: true, long: "setuid setgid root wd map-user map-group propagation setgroups kill-child"},
	{progs: "systemd-run", short: "uMpEHsr", posix: true, long: "unit machine property description slice setenv host service-type uid gid nice working-directory on-active on-boot on-startup on-unit-active on-unit-inactive on-calendar on-timezone-change on-clock-change timer-property path-property socket-property shell-path"},
	{progs: "systemd-nspawn", short: "DiMuSEbp", posix: true, long: "directory image machine user slice setenv bind bind-ro tmpfs overlay property network-veth-extra network-bridge port chdir"},
	{progs: "cgexec", short: "g", posix: true},
	{progs: "prlimit", short: "p", posix: true, long: "pid"},
	{progs: "runcon", short: "utrl", posix: true, long: "user role type range"},
	{progs: "schroot", short: "cudr", posix: true, long: "chroot user directory session-name", ends: "--"},
	{progs: "dbus-run-session", posix: true, long: "config-file dbus-daemon"},
	{progs: "ssh-agent", short: "aEPt", posix: true},
	{progs: "systemd-inhibit", posix: true, long: "what who why mode"},
	{progs: "caffeinate", short: "tw", posix: true},
	{progs: "chpst", short: "ugUeb/nlLmdofcpv", posix: true},
	{progs: "s6-setuidgid setuidgid", posix: true},
	{progs: "pkexec", posix: true, long: "user"},
	{progs: "bwrap", posix: true, long: "args userns userns2 pidns uid gid hostname chdir unsetenv lock-file sync-fd remount-ro exec-label file-label proc dev tmpfs mqueue dir seccomp add-seccomp-fd block-fd userns-block-fd info-fd json-status-fd cap-add cap-drop perms size", two: "setenv bind bind-try dev-bind dev-bind-try ro-bind ro-bind-try file bind-data ro-bind-data symlink chmod overlay-src tmp-overlay ro-overlay"},
	{progs: "xterm uxterm urxvt rxvt konsole alacritty tilix terminator x-terminal-emulator xfce4-terminal", single: true, ends: "--e --command", long: "T title class geometry display working-directory config-file n fn fg bg"},
	{progs: "gnome-terminal kitty wezterm foot", ends: "--", long: "title working-directory class config directory"},
	{progs: "fd fdfind", short: "edEtScjxX", long: "exec exec-batch extension exclude type size changed-within changed-before max-depth min-depth exact-depth threads owner base-directory path-separator batch-size color", ends: "-x --exec -X --exec-batch"},
	{progs: "rg", short: "ABCefgmMtTjE", long: "pre pre-glob type type-not glob iglob max-count context after-context before-context file regexp replace sort sortr threads encoding engine path-separator colors max-depth max-filesize field-match-separator field-context-separator context-separator"},
	{progs: "sort", short: "kotTS", long: "output compress-program key field-separator temporary-directory buffer-size parallel batch-size random-source files0-from", abbrev: true},
	{progs: "npx", short: "cp", long: "call package", posix: true},
	{progs: "npm", posix: true, subs: true, long: "prefix userconfig globalconfig cache registry workspace"},
	{progs: "npm exec", short: "cpw", long: "call package workspace", posix: true},
	{progs: "npm x", short: "cpw", long: "call package workspace", posix: true},
	{progs: "go", posix: true, subs: true},
	{progs: "go run", single: true, long: "exec toolexec o C p tags ldflags gcflags asmflags mod modfile overlay pgo pkgdir buildmode compiler gccgoflags installsuffix", posix: true},
	{progs: "go test", single: true, long: "exec toolexec o C p tags ldflags gcflags asmflags mod modfile overlay run bench count cpu timeout coverprofile covermode coverpkg parallel skip list fuzz fuzztime shuffle outputdir", posix: false},
	{progs: "go build", single: true, long: "exec toolexec o C p tags ldflags gcflags asmflags mod modfile overlay pgo pkgdir buildmode", posix: false},
	{progs: "go install", single: true, long: "exec toolexec o C p tags ldflags gcflags asmflags mod modfile overlay", posix: false},
	{progs: "go vet", single: true, long: "exec toolexec vettool C p tags", posix: false},
	{progs: "apt apt-get aptitude", short: "otcqy", long: "option target-release config-file"},
	{progs: "expect", short: "cfD", posix: true},
	{progs: "sqlite3", single: true, long: "cmd init separator nullvalue newline vfs mmap lookaside pagecache heap maxsize", posix: false},
	{progs: "psql", short: "cdfhpUvFPRTLo", long: "command dbname file host port username set variable field-separator pset record-separator table-attr log-file output"},
	{progs: "mysql mariadb", short: "eDhPuSp", optShort: "p", long: "execute database host port user socket defaults-file defaults-extra-file init-command"},
	{progs: "trap", posix: true},
	{progs: "mapfile readarray", short: "dnOsuCc"},
	{progs: "complete compgen", short: "oAGWFCXPSV"},
	{progs: "bind", short: "mqufrxf"},
	{progs: "fc", short: "e", optShort: "s"},
	{progs: "source .", posix: true},
	{progs: shellNames, short: "oO", long: "rcfile init-file", posix: true, ends: "-"},
	{progs: "sudo", short: "ugChpUrtTD", long: "user group close-from host prompt other-user role type command-timeout chdir"},
	{progs: "doas", short: "uC"},
	{progs: "su runuser", short: "cgGsuwC", long: "command group supp-group shell user whitelist-environment session-command", posix: false},
}

// codeIndex maps each program (or "program subcommand") to the indexes
// of its rows and its syntax. It is built once and never changed.
type codeIndexEntry struct {
	rows   []uint16
	syntax int // index in codeSyntax, or -1
}

var codeIndex = sync.OnceValue(func() map[string]*codeIndexEntry {
	m := map[string]*codeIndexEntry{}
	get := func(k string) *codeIndexEntry {
		e := m[k]
		if e == nil {
			e = &codeIndexEntry{syntax: -1}
			m[k] = e
		}
		return e
	}
	for i, r := range codeRows {
		for _, p := range strings.Fields(r.progs) {
			get(p).rows = append(get(p).rows, uint16(i))
		}
	}
	for i, s := range codeSyntax {
		// "git rebase" is one key; "awk gawk" are two.
		if isSubKey(s.progs) {
			get(s.progs).syntax = i
			continue
		}
		for _, p := range strings.Fields(s.progs) {
			get(p).syntax = i
		}
	}
	return m
})

// isSubKey reports a codeSyntax key naming a subcommand ("git rebase",
// "git submodule foreach", "tmux send-keys") rather than a list of
// programs.
func isSubKey(s string) bool {
	switch {
	case strings.HasPrefix(s, "git "), strings.HasPrefix(s, "tmux "), strings.HasPrefix(s, "npm "), strings.HasPrefix(s, "go "):
		return true
	}
	return false
}

// syntaxFor returns the option syntax of a program or "program
// subcommand", or the default (flags only).
func syntaxFor(key string) *optSyntax {
	if e := codeIndex()[key]; e != nil && e.syntax >= 0 {
		return &codeSyntax[e.syntax]
	}
	return &defaultSyntax
}

// syntaxForBytes is syntaxFor of a key held in bytes (the map lookup
// does not copy them).
func syntaxForBytes(key []byte) *optSyntax {
	if e := codeIndex()[string(key)]; e != nil && e.syntax >= 0 {
		return &codeSyntax[e.syntax]
	}
	return &defaultSyntax
}

var defaultSyntax = optSyntax{}

// hasWord reports whether list (space-separated) holds w.
func hasWord(list, w string) bool {
	for len(list) > 0 {
		var f string
		f, list, _ = strings.Cut(list, " ")
		if f == w {
			return true
		}
	}
	return false
}
