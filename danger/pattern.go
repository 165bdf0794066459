package danger

// Pattern is one entry of the danger registry.
//
// A pattern matches either through Regex, a regular expression (RE2 syntax)
// tried against the text of each invocation the parser found, or through
// Match, a structured description of argv (built-in rules use it), or both
// (both must then match the same invocation).
type Pattern struct {
	// Name identifies the pattern ("rm_rf_root"); names are unique in a
	// Detector.
	Name string `toml:"name" json:"name"`
	// Regex is matched against each invocation's text. It may be empty
	// when Match is set.
	Regex string `toml:"regex" json:"regex,omitempty"`
	Level Level  `toml:"level" json:"level"`
	// Description says what would happen if the command ran.
	Description string `toml:"description" json:"description"`
	// CaseSensitive compiles Regex without case folding.
	CaseSensitive bool `toml:"case_sensitive" json:"case_sensitive,omitempty"`
	// Match is the structured matcher; nil for regex-only patterns.
	Match *Spec `toml:"match" json:"match,omitempty"`
	// Hit and Miss are example command lines: the pattern matches each
	// line of Hit and none of Miss. Every built-in pattern has both, and
	// generation fails when one does not hold.
	Hit  []string `toml:"hit" json:"hit,omitempty"`
	Miss []string `toml:"miss" json:"miss,omitempty"`
}
