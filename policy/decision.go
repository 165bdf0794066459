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
	// InteractiveProgramNames).
	Agent string
	// Unattended reports that no person will see a prompt (the agent runs
	// headless). An ask with an opinion (a danger warning, an ask rule, a
	// problem) then becomes deny, unless the configuration says
	// unattended = "ask".
	Unattended bool
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
	// ApprovedBy says what approved it ("session: git checkout *",
	// "always: git checkout *", "rule: allow git *", "read-only: ls"), or
	// is empty.
	ApprovedBy string `json:"approved_by"`
	// Reason explains why the invocation is not approvable, when it is not.
	Reason string `json:"reason,omitempty"`
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
}
