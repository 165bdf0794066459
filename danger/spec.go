package danger

// Spec describes an invocation structurally. Every field that is set must
// hold for the same invocation; empty fields are ignored.
type Spec struct {
	// Programs lists program names (basename, after wrappers are peeled).
	Programs []string `toml:"programs" json:"programs,omitempty"`
}
