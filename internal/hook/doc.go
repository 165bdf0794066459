// Package hook answers the pre-execution hooks of AI coding agents (the
// fifteen agents of internal/agents, from Claude Code, Gemini CLI and
// Codex to the plugins shellguard installs for OpenCode, Kilo Code, Pi and
// Amp) in each agent's own protocol: the input is read where the agent's
// Spec says its facts sit, the answer written by the adapter of its
// Output shape.
//
// An agent runs `shellguard hook <agent>` (or shellguard-hook) before each
// shell command it wants to execute and writes a JSON description of the
// tool call on standard input. Run reads it, asks a decision function
// about the command line and writes the agent's answer on standard output.
//
// The mapping from a policy decision to an answer is the same for every
// agent (see ActionFor):
//
//   - Deny: the command is blocked; the reason, written for the model, says
//     what was blocked, why, and not to work around it.
//   - Ask with an opinion (danger warnings, a danger level or a matching
//     configuration rule): a person must approve. Where a person will see
//     the agent's prompt (Claude Code in an interactive session; Gemini CLI
//     when the hook can tell its session is interactive) the agent's own
//     prompt shows shellguard's reason. Where no one will see it (a
//     headless run: see Attended) the policy turns it into deny (the
//     unattended setting). Where the protocol has no ask (Codex, OpenCode,
//     Cline, Windsurf, ...: agents.AskNever) it is blocked with a reason
//     that tells the model to let the user decide.
//   - Ask without an opinion (the command is merely unknown): no output, so
//     the agent's own permission flow applies.
//   - Allow: only when shellguard itself approves every invocation (an
//     approval, an allow rule or the read-only list). Claude Code and Gemini
//     CLI receive an explicit allow; Codex's PreToolUse receives no output
//     (it rejects a bare allow), and its PermissionRequest, raised when
//     Codex is about to ask a person, receives allow.
//
// Claude Code's and Copilot CLI's PowerShell tools are answered through
// the same policy, the command read as POSIX shell: a deny or an ask still
// counts, an allow never does.
//
// Run fails closed: malformed or oversized input, a missing command, an
// error from the decision function or a panic becomes the protocol's ask
// where a person will see it and its blocking answer elsewhere, with a
// reason that names the problem. It never lets a command through silently.
//
// The package is small on purpose: the hook runs before every command an
// agent issues, so it does no work at package initialisation, starts no
// processes and touches no network; to tell whether a person is there it
// reads its environment, /dev/tty and (for Gemini CLI) its ancestor
// processes' command lines.
package hook
