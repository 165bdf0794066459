// Package tui is the terminal interface of `shellguard shell`: a prompt
// where every command line is decided by shellguard before it runs.
//
// A line that starts with `!` is decided, then acted on: allow runs it
// with the user's shell ($SHELL -c line) in the model's working
// directory, deny refuses it with the reason, and ask first shows a
// bordered overlay ("Dangerous command detected" when there are danger
// warnings) listing every warning, the command and the verdict, with [c]
// Cancel and [p] Proceed anyway. The overlay takes an answer only after
// it has been shown, untouched, for DefaultSettle, and `p` only when no
// key follows within DefaultAnswerQuiet, so type-ahead and pastes never
// answer it; it keeps the command and the choices visible at any size.
// Output streams into a scrollable view followed by the exit status;
// Ctrl+C sends SIGINT, then SIGTERM, then SIGKILL to the command's
// process group. Programs that need
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
