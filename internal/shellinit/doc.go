// Package shellinit holds the snippets that `shellguard init bash|zsh`
// prints for ~/.bashrc and ~/.zshrc. Loaded in an interactive shell, a
// snippet runs `shellguard check -- LINE` on each command line when Enter
// is pressed, before the shell runs it: a clean line (exit 0) runs as
// usual; a flagged line (exit 1, warnings on standard output) or one that
// cannot be checked (any other exit) prints the warnings and asks
// "Proceed? [y/N]", and any key but y keeps the line from running.
//
// bash binds Enter (C-m and C-j, in the emacs and vi keymaps) to a macro
// that runs a `bind -x` function on READLINE_LINE, then accept-line; zsh
// wraps the accept-line widget. Both check the whole line as typed, once.
package shellinit
