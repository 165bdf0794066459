package policy

import "github.com/shellguard/shellguard/approval"

// Options selects the configuration a Guard is built from.
type Options struct {
	// Cwd selects the project configuration (.shellguard.toml, found by
	// walking up from it). Empty means the process's working directory.
	Cwd string
	// ConfigFile is an extra configuration file (--config or
	// SHELLGUARD_CONFIG), applied last.
	ConfigFile string
	// ApprovalsFile overrides the user's approval store (--approvals or
	// SHELLGUARD_APPROVALS).
	ApprovalsFile string
}

// Guard decides command lines. It is safe for concurrent use.
type Guard struct {
	notices []string
}

// Load builds a Guard from the built-in defaults and the configuration
// files that opts selects.
func Load(opts Options) (*Guard, error) {
	return &Guard{}, nil
}

// Notices returns what loading found worth telling the user (ignored
// project keys, untrusted approval files, ...).
func (g *Guard) Notices() []string { return append([]string(nil), g.notices...) }

// Decide returns the verdict for req. It never fails: a problem becomes an
// Ask or Deny verdict whose Reason names it.
func (g *Guard) Decide(req Request) Decision {
	return Decision{Command: req.Command, Verdict: Ask, Reason: "not implemented yet"}
}

// Approve records a person's approval of command. exact approves this
// command line only; otherwise each invocation's prefix is approved.
// Scope Once records nothing; Session adds to session (which must not be
// nil); Always writes the approval store. via names the interface ("tui",
// "mcp", "cli").
func (g *Guard) Approve(command string, exact bool, scope approval.Scope, session *approval.SessionStore, via string) error {
	return nil
}
