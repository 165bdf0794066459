package policy_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/policy"
)

// slowGuard has a custom pattern whose regex takes a long time on a long
// line (a user file may hold any pattern; only project files are bounded),
// and a short budget.
func slowGuard(t *testing.T, budget time.Duration) *policy.Guard {
	t.Helper()
	cfg := config.Default()
	cfg.Patterns = []danger.Pattern{{Name: "slow", Level: danger.Low, Regex: `(?:\w+\s*){999}\d`}}
	g, err := policy.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g.WithBudget(budget)
}

// slowLine takes the slow pattern seconds to turn down.
var slowLine = "echo " + strings.Repeat("abcdefgh ", 2000)

// decideWithin decides req on g and fails the test if Decide does not
// return within the gross bound (a hang), not if it is slow.
func decideWithin(t *testing.T, g *policy.Guard, req policy.Request) policy.Decision {
	t.Helper()
	done := make(chan policy.Decision, 1)
	go func() { done <- g.Decide(req) }()
	select {
	case d := <-done:
		return d
	case <-time.After(grossBound):
		t.Fatalf("Decide did not return within %s", grossBound)
		return policy.Decision{}
	}
}

// TestDecideBudget is issue 11 item 2's second half: an analysis that does
// not finish within the budget is answered ask with a reason, never allow,
// and Decide does not wait for it.
func TestDecideBudget(t *testing.T) {
	g := slowGuard(t, 20*time.Millisecond)
	d := decideWithin(t, g, policy.Request{Command: slowLine})
	if d.Verdict != policy.Ask || d.Problem != policy.ProblemOverBudget || !strings.Contains(d.Reason, "budget") {
		t.Fatalf("over budget: %s, problem %q, %s", d.Verdict, d.Problem, d.Reason)
	}
	// A line that is decided in time is decided as usual (a budget this
	// machine's load cannot exhaust: the test is not timed).
	if d := decideWithin(t, g.WithBudget(grossBound), policy.Request{Command: "rm -rf /"}); d.Verdict != policy.Deny || d.Problem != "" {
		t.Errorf("rm -rf /: %s (%s)", d.Verdict, d.Reason)
	}
	// The caller's deadline wins over the budget.
	if d := decideWithin(t, g.WithBudget(time.Hour), policy.Request{Command: slowLine, Deadline: time.Now().Add(10 * time.Millisecond)}); d.Problem != policy.ProblemOverBudget {
		t.Errorf("past the request's deadline: %s (%s)", d.Verdict, d.Reason)
	}
}

// Analyses abandoned at their deadline go on in the background; past a
// few of them, Decide answers at once instead of piling up more work.
func TestDecideBudgetBoundsAbandonedWork(t *testing.T) {
	g := slowGuard(t, 5*time.Millisecond)
	var last policy.Decision
	for range 8 {
		last = decideWithin(t, g, policy.Request{Command: slowLine})
		if last.Verdict != policy.Ask || last.Problem != policy.ProblemOverBudget {
			t.Fatalf("%s (%s)", last.Verdict, last.Reason)
		}
	}
	if !strings.Contains(last.Reason, "still being analysed") {
		t.Errorf("after 8 abandoned analyses: %s", last.Reason)
	}
}

func TestLoadByDeadline(t *testing.T) {
	dir := t.TempDir()
	_, err := policy.LoadBy(policy.Options{Cwd: dir, Env: func(string) string { return "" }}, time.Now().Add(-time.Second))
	if !errors.Is(err, policy.ErrOverBudget) {
		t.Fatalf("LoadBy past its deadline = %v", err)
	}
	g, err := policy.LoadBy(policy.Options{Cwd: dir, Env: func(k string) string {
		if k == "HOME" {
			return dir
		}
		return ""
	}}, time.Now().Add(time.Minute))
	if err != nil || g == nil {
		t.Fatalf("LoadBy = %v, %v", g, err)
	}
}

// TestAuditRequiredAsks: with audit_required, an allow whose record cannot
// be written becomes an ask; what is denied stays denied.
func TestAuditRequiredAsks(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "audit.jsonl")
	if err := os.Mkdir(log, 0o700); err != nil { // a folder: never writable as a log
		t.Fatal(err)
	}
	for _, required := range []bool{false, true} {
		cfg := config.Default()
		cfg.AuditLog, cfg.AuditRequired = log, required
		g, err := policy.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		d := g.Decide(policy.Request{Command: "ls -la"})
		if d.AuditError == "" {
			t.Fatalf("no audit error: %+v", d)
		}
		switch {
		case !required && d.Verdict != policy.Allow:
			t.Errorf("without audit_required: %s", d.Verdict)
		case required && (d.Verdict != policy.Ask || d.Problem != policy.ProblemAuditFailed || !strings.Contains(d.Reason, "audit_required")):
			t.Errorf("with audit_required: %s, %q, %s", d.Verdict, d.Problem, d.Reason)
		}
		if d := g.Decide(policy.Request{Command: "rm -rf /"}); d.Verdict != policy.Deny {
			t.Errorf("rm -rf /: %s", d.Verdict)
		}
	}
}
