// Package shellinit holds the snippets that `shellguard init bash|zsh`
// prints for ~/.bashrc and ~/.zshrc. Loaded in an interactive shell, a
// snippet runs `shellguard decide --cwd $PWD -` on each command line before
// the shell runs it, and acts on the verdict as the agents' hooks do:
// allow (exit 0) runs the line; deny (11) prints the reason and refuses
// it; ask (10), and any other status (fail closed), print the decision,
// drop what was typed ahead until no key has come for 0.5 s, and ask
// "Proceed? [y/N]"; any key but y keeps the line from running.
//
// bash binds every key bound to a readline command that runs the line
// (accept-line, operate-and-get-next, edit-and-execute-command and its vi
// form, insert-comment) to a macro that runs a `bind -x` check on
// READLINE_LINE and then the command; zsh wraps the widgets that run the
// line (accept-line, accept-and-hold, accept-line-and-down-history,
// accept-and-infer-next-history) by name. shellguard_status, and a check
// before the first prompt, say when a key escapes the guard.
package shellinit
