package danger

import "encoding/json"

// Warning is produced by a Detector for each pattern a command matches.
type Warning struct {
	// Command is the whole command line that was checked.
	Command string
	// Pattern is the pattern that matched.
	Pattern Pattern
	// Level is the pattern's level (a convenience alias).
	Level Level
	// Message is "[Level] Dangerous command detected: <description>".
	Message string
	// Invocation is the part of the line that matched, as shellguard
	// understood it (wrappers and argv with quotes resolved).
	Invocation string
}

// NewWarning builds the warning for command matching p.
func NewWarning(command string, p Pattern, invocation string) Warning {
	return Warning{
		Command:    command,
		Pattern:    p,
		Level:      p.Level,
		Message:    "[" + p.Level.String() + "] Dangerous command detected: " + p.Description,
		Invocation: invocation,
	}
}

// MarshalJSON encodes the warning as
// {"name","level","description","message","invocation"}.
func (w Warning) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Name        string `json:"name"`
		Level       Level  `json:"level"`
		Description string `json:"description"`
		Message     string `json:"message"`
		Invocation  string `json:"invocation"`
	}{w.Pattern.Name, w.Level, w.Pattern.Description, w.Message, w.Invocation})
}
