package policy

import (
	"fmt"
	"strings"

	"github.com/shellguard/shellguard/approval"
)

// Approver says what approved an invocation: an approval a person gave
// (for the session, for good, or once with an allow-once code), an allow
// rule of the configuration, or the read-only list. The zero Approver
// approved nothing.
//
// Its text (String, and its JSON form) is what the CLI, the audit log
// and hook reasons show: "session: git checkout *", "always: git
// checkout *", "once: CODE", "rule: allow git *", "read-only: ls", and ""
// for the zero Approver.
type Approver struct {
	Kind ApproverKind
	// Name is what approved, as people write it: the approval ("git
	// checkout *", or an exact line), the allow-once code, the allow
	// rule's pattern ("git *"), or the read-only program ("ls").
	Name string
}

// ApproverKind says what kind of thing approved an invocation. The zero
// ApproverKind is no approval.
type ApproverKind int

// The kinds of approvers.
const (
	// BySession is an approval a person gave for the session.
	BySession ApproverKind = iota + 1
	// ByAlways is an approval a person gave for good (the approval store).
	ByAlways
	// ByOnce is an allow-once code a person used for this very line.
	ByOnce
	// ByRule is an allow rule of the configuration.
	ByRule
	// ByReadOnly is the read-only list.
	ByReadOnly
)

// approverText is each kind's label in the text form.
var approverText = [...]string{BySession: "session", ByAlways: "always", ByOnce: "once", ByRule: "rule", ByReadOnly: "read-only"}

// fromPerson reports an approval a person gave (BySession, ByAlways or
// ByOnce), as opposed to the configuration's allow rules and read-only
// list, which never exempt a line from a rule the user's configuration
// exempts only for approved lines (see docs/policy.md).
func (a Approver) fromPerson() bool {
	return a.Kind == BySession || a.Kind == ByAlways || a.Kind == ByOnce
}

// String returns the text form of a (see Approver).
func (a Approver) String() string {
	switch {
	case a.Kind == ByRule:
		return "rule: allow " + a.Name
	case a.Kind > 0 && int(a.Kind) < len(approverText):
		return approverText[a.Kind] + ": " + a.Name
	case a.Kind == 0:
		return ""
	}
	return fmt.Sprintf("ApproverKind(%d): %s", int(a.Kind), a.Name)
}

// MarshalText encodes a as its text form.
func (a Approver) MarshalText() ([]byte, error) {
	if a.Kind < 0 || int(a.Kind) >= len(approverText) {
		return nil, fmt.Errorf("policy: invalid approver kind %d", int(a.Kind))
	}
	return []byte(a.String()), nil
}

// UnmarshalText decodes the text form of an Approver.
func (a *Approver) UnmarshalText(b []byte) error {
	s := string(b)
	if s == "" {
		*a = Approver{}
		return nil
	}
	label, name, found := strings.Cut(s, ": ")
	for k, t := range approverText {
		if k == 0 || t != label || !found {
			continue
		}
		if ApproverKind(k) == ByRule {
			var ok bool
			if name, ok = strings.CutPrefix(name, "allow "); !ok {
				break
			}
		}
		*a = Approver{Kind: ApproverKind(k), Name: name}
		return nil
	}
	return fmt.Errorf("policy: unknown approver %q", s)
}

// approverOf returns the Approver of an approval entry.
func approverOf(e *approval.Entry) Approver {
	k := ByAlways // the store's entries, whose scope older files leave empty
	switch e.Scope {
	case approval.Session:
		k = BySession
	case approval.Once:
		k = ByOnce
	}
	return Approver{Kind: k, Name: e.Display()}
}
