// Package tui is the terminal interface of `shellguard shell`: a prompt
// where every command line is decided by shellguard before it runs.
//
// A line that starts with `!` is run with the user's shell ($SHELL -c
// line) in the model's working directory, once decided: a line with
// danger warnings (or a deny verdict) first shows a bordered overlay,
// "Dangerous command detected", listing every warning, the command and
// the verdict, with [c] Cancel and [p] Proceed anyway. Output streams
// into a scrollable view followed by the exit status. Programs that need
// the terminal (see InteractivePrograms), and any line typed with `!!`,
// get the terminal through tea.Exec and the interface comes back when
// they end. `!cd DIR` changes the model's directory, which later
// commands run in and which is passed to the decision as Request.Cwd.
//
// A line without `!` is not run: the decision behind it is shown
// (verdict, reason, invocations with their approval prefixes, warnings,
// matching rules).
//
// The Model is built with New from a Config holding its dependencies (the
// decide function, a Runner, the history file, the screen size), so that
// tests drive it with messages and read its View without a terminal.
package tui
