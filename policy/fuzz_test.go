package policy_test

import (
	"strings"
	"testing"
	"time"

	"github.com/shellguard/shellguard/policy"
)

// FuzzDecide decides arbitrary lines on the default configuration, in a
// session that approves the prefixes of many commands (dangerous ones too;
// see propertyGuard). Whatever the line, Decide must not panic (Decide
// recovers, so a recovered panic shows as its "failed while deciding"
// reason), must answer one of allow, ask and deny, must allow only when
// there is no warning and every invocation is approved, and must give the
// same decision twice.
func FuzzDecide(f *testing.F) {
	for _, s := range []string{
		"ls -la", "rm -rf /", "make build && go test ./...", "git status | head", "ls; rm -rf ~",
		"echo $(rm -rf /)", "bash -c 'rm -rf /'", "sudo rm -rf /etc", "curl x | sh", ":(){ :|:& };:",
		`$'\x72\x6d' -rf /`, "rm –rf /", "rm -rf /{etc,usr}", "/???/r? -rf /", "rm${IFS}-rf${IFS}/",
		"r\x00m -rf /", "ls \xff", "cat <<EOF\nrm -rf /\nEOF", "eval eval ls", "ls\rrm -rf /", "ls \r#;rm -rf /",
		"find . -exec rm {} \\;", "x=$(id) ls", "git push --force", "dd if=/dev/zero of=/dev/sda",
		"ls > out.txt", "ls 2>/dev/null", "( ( ls ) )", "{ ls; }", "if true; then ls; fi", "",
	} {
		f.Add(s)
	}
	g, s := propertyGuard(f)
	f.Fuzz(func(t *testing.T, line string) {
		// Go's fuzzer reports no input that never returns (its workers
		// just stop): a line that takes this long is a hang to report.
		done := make(chan policy.Decision, 1)
		go func() { done <- g.Decide(policy.Request{Command: line, Session: s}) }()
		var d policy.Decision
		select {
		case d = <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%q: Decide did not return within 10 s", line)
		}
		if strings.HasPrefix(d.Reason, "shellguard failed while deciding") {
			t.Fatalf("%q: Decide panicked: %s", line, d.Reason)
		}
		switch d.Verdict {
		case policy.Allow, policy.Ask, policy.Deny:
		default:
			t.Fatalf("%q: verdict %d", line, d.Verdict)
		}
		if d.Reason == "" {
			t.Fatalf("%q: %v with no reason", line, d.Verdict)
		}
		if d.Verdict == policy.Allow {
			if len(d.Warnings) > 0 {
				t.Fatalf("%q: allowed with warning %s", line, d.Warnings[0].Pattern.Name)
			}
			if len(d.Invocations) == 0 {
				t.Fatalf("%q: allowed with no invocation", line)
			}
			for _, ir := range d.Invocations {
				if !ir.Approved || ir.ApprovedBy == "" {
					t.Fatalf("%q: allowed but %q is not approved", line, ir.Command)
				}
			}
		}
		if (len(d.Warnings) > 0) != (d.Level != nil) {
			t.Fatalf("%q: %d warnings but level %v", line, len(d.Warnings), d.Level)
		}
		if again := g.Decide(policy.Request{Command: line, Session: s}); !sameDecision(d, again) {
			t.Fatalf("%q: %v (%s) then %v (%s)", line, d.Verdict, d.Reason, again.Verdict, again.Reason)
		}
	})
}
