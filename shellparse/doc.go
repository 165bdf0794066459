// Package shellparse reads a shell command line the way bash will and
// reports every program it would run.
//
// Parse (or a reusable Parser) turns one command line, which may hold
// several lines, into a Result: one Invocation per program, in every
// position a shell can run one — pipeline stages, && / || / ; / newline
// lists, subshells, { ...; } groups, $(...), backticks, process
// substitution, function bodies, background jobs — and inside strings a
// shell will run: bash -c / sh -c / zsh -c, eval, su -c, sudo bash -c,
// xargs sh -c, find -exec sh -c, watch, ssh host CMD, env -S, heredocs
// and here-strings fed to a shell, and echo/printf piped into a shell.
//
// Programs that run code given in an option, an operand, the environment
// or their input are read the same way (coderuns.go holds the facts, one
// row per program and place): awk's system() and pipes, sed's e, tar
// --to-command, vim -c ':!cmd', emacs --eval, gdb -ex shell, make --eval,
// LESSOPEN, git -c core.pager and its other command keys, aliases and
// ext:: URLs, git rebase --exec, flock FILE -c, at and batch fed a
// heredoc, source of standard input or <(echo ...), trap, mapfile -C,
// xargs and parallel fed static input, tmux send-keys, screen, expect,
// and programs that run their operands (nsenter, systemd-run, ...). The
// commands found are re-parsed with a frame that names who runs them
// ("awk system()", "git -c core.pager"); code built at run time (an awk
// field, sed's s///e, a pipe into at) marks the invocation StdinUnknown.
//
// Each Invocation has its argv resolved (quotes, backslashes and $'...'
// removed; brace expansion applied within a bound), with the words that
// cannot be known statically ($x, $(...), ${...}) marked Dynamic. Wrappers
// (sudo, doas, env, nice, nohup, timeout, time, command, builtin, exec,
// stdbuf, ionice, chroot, xargs, strace, setsid, flock, busybox, ...) are
// peeled off and remembered, so "sudo -u bob env X=1 /usr/bin/rm -rf /"
// is an invocation of rm (Name "rm", Program "/usr/bin/rm") with two
// wrappers and one assignment.
//
// What bash resolves statically within the line, the parser resolves too
// (see resolve.go and env.go): variables assigned constants, loop
// variables over literal lists, positional parameters of bash -c,
// read and mapfile from a known input, $(echo ...), $(which X), $IFS,
// HOME as ~, the words xargs reads from a known input, function bodies at
// their call; a glob used as a program path is matched against a built-in
// list of the standard program directories (Invocation.Candidate). Such
// words carry their value, marked Arg.Resolved, and count as dynamic for
// approvals. A variable anything may change is unknown from there on,
// never an earlier constant. Each invocation also says what its standard
// input is known to hold (Invocation.Stdin): a heredoc, a here-string,
// echo, printf or cat of static text piped into it. That text is what a
// shell, xargs and the code readers above (at, awk -f -, make -f -, ...)
// read from standard input; echo and printf are emulated once, as bash's
// builtins print.
//
// Parsing never fails and never panics. Input that does not parse, or
// that reaches a limit (size, nesting, number of invocations, brace
// expansion, and the per-line budget of words, re-parsed shell text and
// expanded bytes, summed over every level), yields a Result with Problems; whatever could be recovered
// is still reported, and callers must treat an incomplete Result as
// unknown — never as safe.
package shellparse
