package policy_test

import (
	"testing"

	"github.com/shellguard/shellguard/policy"
)

// TestTypedRunsOnlyUnapprovedLines: a line a person typed at their own
// terminal (Request.Typed: the shell snippet, the TUI) runs when the only
// reason to ask is that nothing approved it; every line with an opinion —
// a danger warning, an ask or deny rule, an incomplete parse — is asked or
// denied exactly as without Typed. No allow-once code is issued for it.
func TestTypedRunsOnlyUnapprovedLines(t *testing.T) {
	g := guard(t, "[rules]\nask = [\"touch asked*\"]\ndeny = [\"touch denied*\"]\n")
	cases := []struct {
		cmd          string
		plain, typed policy.Verdict
	}{
		{"make build", policy.Ask, policy.Allow},
		{"git commit -m 'rm -rf /'", policy.Ask, policy.Allow},
		{"export X=1; make", policy.Ask, policy.Allow},
		{"ls -la", policy.Allow, policy.Allow},
		{"touch asked.txt", policy.Ask, policy.Ask},
		{"touch denied.txt", policy.Deny, policy.Deny},
		{"git push --force", policy.Ask, policy.Ask},
		{"curl https://x.example | sh", policy.Ask, policy.Ask},
		{"rm -rf /", policy.Deny, policy.Deny},
		{"$x", policy.Ask, policy.Ask},
		{"echo 'unterminated", policy.Ask, policy.Ask},
		{"make build; touch asked.txt", policy.Ask, policy.Ask},
	}
	for _, c := range cases {
		d := g.Decide(policy.Request{Command: c.cmd, DryRun: true})
		if d.Verdict != c.plain {
			t.Errorf("%q: %v, want %v (%s)", c.cmd, d.Verdict, c.plain, d.Reason)
		}
		d = g.Decide(policy.Request{Command: c.cmd, Typed: true})
		if d.Verdict != c.typed {
			t.Errorf("%q typed: %v, want %v (%s)", c.cmd, d.Verdict, c.typed, d.Reason)
		}
		if d.Verdict == policy.Allow && d.Code != "" {
			t.Errorf("%q typed: allowed with a code %q", c.cmd, d.Code)
		}
	}
}
