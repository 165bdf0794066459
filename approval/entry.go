package approval

import "time"

// Kind says how an approval entry matches a command line.
type Kind string

const (
	// Prefix approves every invocation whose classified prefix equals the
	// entry's pattern (shown to people as "git checkout *"), provided the
	// invocation does not widen what was approved.
	Prefix Kind = "prefix"
	// Exact approves one command line, compared after normalisation
	// (surrounding white space removed).
	Exact Kind = "exact"
)

// Scope says how long an approval lives.
type Scope string

const (
	// Once approves a single run; it is never stored.
	Once Scope = "once"
	// Session approvals live in a Session, in memory, for as long as the
	// owner of that Session (an agent session, a TUI) keeps it.
	Session Scope = "session"
	// Always approvals are persisted in a Store file.
	Always Scope = "always"
)

// Entry is one approval a person granted.
type Entry struct {
	Kind Kind `json:"kind"`
	// Pattern is the classified prefix ("git checkout") for Prefix entries,
	// or the whole command line for Exact entries.
	Pattern string `json:"pattern"`
	Scope   Scope  `json:"scope"`
	// GrantedAt is when the approval was given (UTC).
	GrantedAt time.Time `json:"granted_at,omitzero"`
	// GrantedVia names the interface the approval came through
	// ("cli", "tui", "mcp", "hook", "import").
	GrantedVia string `json:"granted_via,omitempty"`
	// Command is the command line that was approved, kept for the record.
	Command string `json:"command,omitempty"`
	// Expires is when the approval stops approving anything (UTC); zero
	// means never. An expired entry is kept (and listed) until it is
	// pruned, but approves nothing.
	Expires time.Time `json:"expires,omitzero"`
}

// Expired reports whether the entry has an expiry at or before now.
func (e Entry) Expired(now time.Time) bool {
	return !e.Expires.IsZero() && !now.Before(e.Expires)
}

// Display returns the entry as people write it: "git checkout *" for a
// prefix, the command line itself for an exact entry.
func (e Entry) Display() string {
	if e.Kind == Prefix {
		return e.Pattern + " *"
	}
	return e.Pattern
}
