package policy

import "fmt"

// Verdict is the answer shellguard gives for a command line.
type Verdict int

// The verdicts, from most to least permissive. The zero value is not a
// verdict: code that forgets to set one never produces Allow by accident.
const (
	Allow Verdict = iota + 1
	Ask
	Deny
)

// String returns "allow", "ask" or "deny".
func (v Verdict) String() string {
	if v >= Allow && v <= Deny {
		return [...]string{Allow: "allow", Ask: "ask", Deny: "deny"}[v]
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// MarshalText encodes the verdict as "allow", "ask" or "deny".
func (v Verdict) MarshalText() ([]byte, error) {
	switch v {
	case Allow, Ask, Deny:
		return []byte(v.String()), nil
	}
	return nil, fmt.Errorf("policy: invalid verdict %d", int(v))
}

// UnmarshalText decodes "allow", "ask" or "deny".
func (v *Verdict) UnmarshalText(b []byte) error {
	for x := Allow; x <= Deny; x++ {
		if x.String() == string(b) {
			*v = x
			return nil
		}
	}
	return fmt.Errorf("policy: unknown verdict %q", b)
}
