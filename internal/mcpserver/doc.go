// Package mcpserver is shellguard's Model Context Protocol server: it gives
// an AI agent a shell whose every command is decided by shellguard first.
//
// [New] returns an *mcp.Server (github.com/modelcontextprotocol/go-sdk)
// with two tools:
//
//   - run_shell_command {command, cwd?, timeout_seconds?} decides the
//     command line and then
//   - on allow, runs it with the shell (bash -c when bash is on PATH,
//     otherwise /bin/sh -c) in cwd, standard input from /dev/null,
//     standard output and standard error combined, and returns
//     {"exit_code", "output", "truncated", "timed_out"} as structured
//     content;
//   - on deny, returns a tool error (IsError) carrying the reason; the
//     command is never run;
//   - on ask, asks the person through MCP elicitation (a form with one
//     field, "choice": once, session, always or deny) when the client
//     supports elicitation, and otherwise returns a tool error that says
//     how to approve the command from a terminal
//     (shellguard allow add -- COMMAND, the command quoted as one word).
//   - check_command {command, cwd?} returns the decision (policy.Decision
//     as JSON) without running anything.
//
// Approvals given as "session" live in an approval.SessionStore that
// belongs to the MCP session (one per connection), so they end with it.
// "always" approvals go to the user's approval store through
// Decider.Approve.
//
// Elicitation uses the SDK's multi round-trip pattern: the tool handler
// returns an input request and is called again with the answer. For clients
// on protocol versions before 2026-07-28 the SDK turns this into an
// elicitation/create request; newer clients answer it themselves. Either
// way the answer is only honoured together with the one-time token the
// server handed out for that very command line and directory in that very
// session, so a client cannot approve a command that was never put to the
// person.
//
// Each call is decided by the Decider of the directory it runs in
// (Options.DeciderFor; Guards loads and keeps the configuration of each
// directory), with the server's own directory as the folder read-only
// commands may read. Commands run in a minimal environment (MinimalEnv),
// not the server's.
//
// Timeouts default to 60 seconds and may be raised to 600; on timeout (or
// when the client cancels the call) the command and every process it
// started are killed with SIGKILL: on Linux, with Options.Subreaper, the
// server is a child subreaper and finds them through its process tree, the
// run's token (RunVar) and the output pipe; elsewhere the shell's process
// group is killed. Output is capped at 1 MiB: the first and last half MiB
// are kept and a marker line says how many bytes were left out.
package mcpserver
