package danger

import (
	"fmt"
	"strings"
)

// Level is how much damage a command can do. Levels are ordered:
// Low < Medium < High < Critical, so comparisons such as l >= High work.
// The zero Level is not a valid level; it means "no level".
type Level int

// The danger levels, in increasing order of severity.
const (
	Low Level = iota + 1
	Medium
	High
	Critical
)

// Levels lists every valid level in increasing order.
func Levels() []Level { return []Level{Low, Medium, High, Critical} }

// String returns "Low", "Medium", "High" or "Critical".
func (l Level) String() string {
	if l.Valid() {
		return [...]string{Low: "Low", Medium: "Medium", High: "High", Critical: "Critical"}[l]
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// Valid reports whether l is one of the four defined levels.
func (l Level) Valid() bool { return l >= Low && l <= Critical }

// MarshalText encodes the level in lower case ("low" ... "critical"), the
// form used in JSON output and configuration files.
func (l Level) MarshalText() ([]byte, error) {
	if !l.Valid() {
		return nil, fmt.Errorf("danger: invalid level %d", int(l))
	}
	return []byte(strings.ToLower(l.String())), nil
}

// UnmarshalText accepts a level name in any case.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// ParseLevel parses "low", "medium", "high" or "critical" (any case).
func ParseLevel(s string) (Level, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for _, l := range Levels() {
		if name == strings.ToLower(l.String()) {
			return l, nil
		}
	}
	return 0, fmt.Errorf("unknown danger level %q (want low, medium, high or critical)", s)
}
