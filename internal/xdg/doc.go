// Package xdg says where shellguard keeps its files in the user's home, by
// the XDG Base Directory specification: configuration and approvals under
// $XDG_CONFIG_HOME/shellguard (by default ~/.config/shellguard), the audit
// log and the shell history under $XDG_STATE_HOME/shellguard (by default
// ~/.local/state/shellguard). Every reader and writer of those files, and
// the commands that report them (doctor, config show), resolve them here,
// so that they cannot disagree.
//
// As the specification requires, a relative $XDG_CONFIG_HOME or
// $XDG_STATE_HOME is ignored; a relative $HOME is not used either (the
// path would depend on the working directory).
package xdg
