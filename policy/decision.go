package policy

import (
	"time"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/danger"
)

// Request is one command line to decide, with its context.
type Request struct {
	// Command is the whole command line (it may hold several lines).
	Command string
	// Cwd is the working directory the command would run in (absolute).
	// It is recorded in the audit log, relative paths in the command are
	// taken from it, and the read-only list allows only reads inside Root
	// (see docs/policy.md). Empty means the process's working directory.
	// The project configuration is chosen when the Guard is built (see
	// Load).
	Cwd string
	// Root is the folder whose tree read-only commands may read without
	// approval (besides system files that hold no secrets): the project.
	// Empty means Cwd. The MCP server sets it to its own directory, so
	// that a call naming another cwd does not widen what is read-only.
	Root string
	// MinimalEnv says that the command runs in shellguard's minimal
	// environment (the MCP server's: PATH, HOME, LANG, ... and nothing
	// secret). Only then are programs that print their environment
	// (printenv, env, set) read-only: anywhere else the environment may
	// hold the user's tokens.
	MinimalEnv bool

	// watched: Decide runs the analysis on a goroutine it stops waiting
	// for at the deadline, so the analysis may block (on the file
	// system) without a watchdog of its own.
	watched bool
	// Session holds the approvals of the caller's session; nil means none.
	Session *approval.SessionStore
	// Deadline is when Decide must have answered; zero means the Guard's
	// budget (Options.Budget, by default DefaultBudget) from the call. A
	// Decide that cannot finish the analysis by then answers ask with
	// Problem ProblemOverBudget.
	Deadline time.Time
	// Agent names the coding agent whose hook asks ("claude", "codex",
	// ...; see internal/agents), or "" for other callers. Under an agent
	// whose shell tool can keep a terminal session open (Codex), a
	// program that would read commands from the terminal is denied (see
	// internal/programs/data/terminal.toml).
	Agent string
	// Unattended reports that no person will see a prompt (the agent runs
	// headless). An ask with an opinion (a danger warning, an ask rule, a
	// problem) then becomes deny, unless the configuration says
	// unattended = "ask".
	Unattended bool
	// Source names the entry point the line comes through: "hook:claude",
	// "hook:gemini", "hook:codex" (an agent's hook), "mcp" (the MCP
	// server), "cli", "tui". Empty means the Guard's (Options.Source).
	// Lines from an agent (a hook or the MCP server) may not change
	// shellguard itself (see docs/policy.md, "The guard guards itself").
	Source string
	// SessionID is the agent's session id, when the entry point knows it
	// (a hook's session_id): approvals given for that session with
	// "shellguard allow last --session" apply to it.
	SessionID string
	// DryRun decides without leaving a trace: no allow-once code is
	// issued or used up, nothing goes into the recent refusals, and no
	// audit record is written ("shellguard allow explain", "explain").
	DryRun bool
	// Typed reports a line a person typed at their own terminal and will
	// run themselves (the shell snippet, the TUI): a line asked only
	// because nothing approved it yet (no warning, no ask rule, no
	// problem; see Decision.HasOpinion) is allowed, since the person who
	// would answer the question is the one who typed it. Everything with
	// an opinion is still asked or denied.
	Typed bool
}

// InvocationResult is what the decision found for one invocation of the line.
type InvocationResult struct {
	// Command is the invocation as shellguard understood it (wrappers and
	// argv, quotes resolved).
	Command string `json:"command"`
	// Prefix is the approval prefix ("git checkout"), or "" when the
	// invocation cannot be classified.
	Prefix string `json:"prefix"`
	// Approved reports whether an approval, an allow rule or the read-only
	// list covers the invocation.
	Approved bool `json:"approved"`
	// ApprovedBy says what approved it, or is the zero Approver. In JSON
	// it is its text ("session: git checkout *", "rule: allow git *",
	// "read-only: ls", ...), or "".
	ApprovedBy Approver `json:"approved_by"`
	// Reason explains why the invocation is not approvable, when it is not.
	Reason string `json:"reason,omitempty"`
	// Program is the program's name (basename), or "" when it is dynamic.
	Program string `json:"program,omitempty"`
}

// Decision is the verdict for a command line and everything behind it.
type Decision struct {
	Command string  `json:"command"`
	Verdict Verdict `json:"decision"`
	// Reason is one or two sentences a person understands.
	Reason string `json:"reason"`
	// Level is the highest danger level found, or nil.
	Level       *danger.Level      `json:"level"`
	Warnings    []danger.Warning   `json:"warnings"`
	Invocations []InvocationResult `json:"invocations"`
	// Rules names the configuration rules that matched ("deny: rm *").
	Rules []string `json:"rules,omitempty"`
	// AuditError reports a failure to write the audit log, if any.
	AuditError string `json:"audit_error,omitempty"`
	// Problem is set when the verdict comes from a problem shellguard had
	// rather than from the analysis: ProblemOverBudget,
	// ProblemAuditFailed or ProblemInternal. Such a verdict is ask (or
	// deny), never allow, and it is an opinion: agents' hooks ask, or
	// block where their protocol cannot ask.
	Problem string `json:"problem,omitempty"`
	// Code is the allow-once code of an ask or deny: a person who runs
	// "shellguard allow once CODE" in their own terminal before
	// CodeExpires lets this exact line run once in this folder (Cwd). The
	// Reason ends with a sentence saying so, unless the entry point asks
	// the person in place (the TUI, the shell snippet). Empty when no
	// code was issued (see CodeProblem).
	Code        string    `json:"code,omitempty"`
	CodeExpires time.Time `json:"code_expires,omitzero"`
	// Cwd is the folder the code is tied to.
	Cwd string `json:"cwd,omitempty"`
	// CodeProblem says why an ask or deny carries no code (no approvals
	// folder, an untrusted refusals file, the managed configuration
	// forbids approving it, a line about shellguard itself).
	CodeProblem string `json:"code_problem,omitempty"`
	// Shadow reports shadow mode (mode = "warn"): Verdict is what
	// enforcement would answer, but nothing may be blocked: every entry
	// point lets the command go on as if shellguard had no opinion (see
	// Enforced), after showing the reason where it can.
	Shadow bool `json:"shadow,omitempty"`
	// SelfGuard reports a deny because the line, from an agent, would
	// change shellguard itself (its configuration, approvals, codes, audit
	// log or binaries, or an agent's hook settings). No code lifts it, and
	// shadow mode does not soften it.
	SelfGuard bool `json:"self_guard,omitempty"`

	// prefixes are what approving the line by prefix records (empty when
	// it cannot be), and prefixReason why not.
	prefixes     []string
	prefixReason string
	// codeText is the sentence about Code that ends Reason, if any (see
	// codeSentence).
	codeText string
}

// HasOpinion reports whether the decision says more than "nothing
// approved this yet": a danger warning, a configuration rule or a problem
// shellguard had. An ask without an opinion is left to the agent's own
// permission flow (or, for a line a person typed, allowed).
func (d Decision) HasOpinion() bool {
	return len(d.Warnings) > 0 || d.Level != nil || len(d.Rules) > 0 || d.Problem != ""
}

// Enforced returns the verdict an entry point acts on: Verdict, except in
// shadow mode (Shadow), where nothing is blocked and it is Allow. An
// entry point that would ask or block on Verdict does nothing instead
// when Shadow is set: a hook answers nothing (the agent's own permission
// flow applies), the MCP server runs the command, the shell snippet and
// the TUI show the warning and run it.
func (d Decision) Enforced() Verdict {
	if d.Shadow {
		return Allow
	}
	return d.Verdict
}
