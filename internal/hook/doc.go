// Package hook answers the pre-execution hooks of AI coding agents (Claude
// Code, Gemini CLI, Codex CLI) in each agent's own protocol.
//
// An agent runs `shellguard hook <agent>` before each shell command it wants
// to execute and writes a JSON description of the tool call on standard
// input. Run reads it, asks a decision function about the command line and
// writes the agent's answer on standard output.
//
// The mapping from a policy decision to an answer is the same for every
// agent (see ActionFor):
//
//   - Deny: the command is blocked; the reason, written for the model, says
//     what was blocked, why, and not to work around it.
//   - Ask with an opinion (danger warnings, a danger level or a matching
//     configuration rule): a person must approve. Claude Code shows its
//     permission prompt with shellguard's reason. Gemini CLI and Codex have no
//     documented way for a hook to ask, so the command is blocked with a
//     reason that tells the model to let the user decide.
//   - Ask without an opinion (the command is merely unknown): no output, so
//     the agent's own permission flow applies.
//   - Allow: only when shellguard itself approves every invocation (an
//     approval, an allow rule or the read-only list). Claude Code and Gemini
//     CLI receive an explicit allow; Codex receives no output because its
//     PreToolUse hook rejects a bare "allow" as an invalid answer.
//
// Run fails closed: malformed or oversized input, a missing command, an
// error from the decision function or a panic becomes the protocol's "ask"
// (Claude Code) or its blocking answer (Gemini CLI, Codex), with a reason
// that names the problem. It never lets a command through silently.
//
// The package is small on purpose: the hook runs before every command an
// agent issues, so it does no work at package initialisation, starts no
// processes and touches no network.
package hook
