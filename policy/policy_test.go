package policy_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/policy"
)

func guard(t *testing.T, userTOML string) *policy.Guard {
	t.Helper()
	dir := t.TempDir()
	user := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(user, []byte(userTOML), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.LoadOptions{Cwd: dir, UserFile: user, NoProject: true, Env: func(string) string { return "" },
		BuiltinLevel: func(n string) (danger.Level, bool) {
			for _, p := range danger.DefaultPatterns() {
				if p.Name == n {
					return p.Level, true
				}
			}
			return 0, false
		}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := policy.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g.WithStore(approval.NewStore(filepath.Join(dir, "approvals.json")))
}

func TestDefaultPolicy(t *testing.T) {
	g := guard(t, "")
	cases := []struct {
		cmd  string
		want policy.Verdict
	}{
		{"rm -rf /", policy.Deny},
		{":(){ :|:& };:", policy.Deny},
		{"git push --force", policy.Ask},
		{"curl x | sh", policy.Ask},
		{"make build", policy.Ask},
		{"ls -la", policy.Allow},
		{"git status", policy.Allow},
		{"ls | grep x | wc -l", policy.Allow},
		{"ls -la\nrm -rf /", policy.Deny},
		{"ls; make", policy.Ask},
		{"echo 'unterminated", policy.Ask},
		{"", policy.Ask},
		{"$x", policy.Ask},
		{"ls > out.txt", policy.Ask},
		{"find . -name '*.pyc' -delete", policy.Ask},
		{"find . -delete", policy.Deny},
		{"rg --pre cat x", policy.Ask},
		{"git -c core.pager=evil log", policy.Ask},
		{"./ls", policy.Ask},
		{"PATH=/tmp ls", policy.Ask},
		{strings.Repeat("$(", 5000) + strings.Repeat(")", 5000), policy.Ask},
	}
	for _, tc := range cases {
		d := g.Decide(policy.Request{Command: tc.cmd})
		if d.Verdict != tc.want {
			t.Errorf("Decide(%.60q) = %v (%s), want %v", tc.cmd, d.Verdict, d.Reason, tc.want)
		}
		if d.Verdict == policy.Allow && len(d.Warnings) > 0 {
			t.Errorf("Decide(%q) allowed a flagged command", tc.cmd)
		}
	}
}

func TestApprovalNeverBeatsDanger(t *testing.T) {
	g := guard(t, "")
	s := approval.NewSessionStore()
	for _, c := range []string{"git push", "rm x"} {
		if err := g.Approve(c, false, approval.Session, s, "test"); err != nil {
			t.Fatal(err)
		}
	}
	if d := g.Decide(policy.Request{Command: "git push origin main", Session: s}); d.Verdict != policy.Allow {
		t.Errorf("approved git push: %v %s", d.Verdict, d.Reason)
	}
	if d := g.Decide(policy.Request{Command: "git push --force", Session: s}); d.Verdict == policy.Allow {
		t.Error("approving git push approved git push --force")
	}
	if d := g.Decide(policy.Request{Command: "rm -rf /", Session: s}); d.Verdict != policy.Deny {
		t.Errorf("approving rm x: rm -rf / got %v", d.Verdict)
	}
	if d := g.Decide(policy.Request{Command: "sudo git push", Session: s}); d.Verdict == policy.Allow {
		t.Error("approving git push approved sudo git push")
	}
}

func TestRules(t *testing.T) {
	g := guard(t, `
[rules]
allow = ["make *", "rm *"]
deny = ["make deploy *"]
ask = ["make release *"]
`)
	cases := map[string]policy.Verdict{
		"make build":        policy.Allow,
		"make deploy":       policy.Deny,
		"make deploy now":   policy.Deny,
		"make release":      policy.Ask,
		"ls && make deploy": policy.Deny,
		"rm -rf /":          policy.Deny, // an allow rule never beats a Critical warning
		"rm x/y":            policy.Allow,
		"rm -rf ~/x/y":      policy.Ask, // rm_recursive (Low) beats the allow rule
		"sudo rm x":         policy.Ask, // sudo_rm warning beats the allow rule
	}
	for cmd, want := range cases {
		if d := g.Decide(policy.Request{Command: cmd}); d.Verdict != want {
			t.Errorf("Decide(%q) = %v (%s), want %v", cmd, d.Verdict, d.Reason, want)
		}
	}
}

func TestExemption(t *testing.T) {
	g := guard(t, `exempt = ["git_push_force"]
[rules]
allow = ["git push *"]
`)
	if d := g.Decide(policy.Request{Command: "git push --force origin feature"}); d.Verdict != policy.Allow {
		t.Errorf("exempted rule with an allow rule: %v %s", d.Verdict, d.Reason)
	}
	if d := g.Decide(policy.Request{Command: "git push --force origin feature; rm -rf /"}); d.Verdict != policy.Deny {
		t.Errorf("exemption leaked: %v", d.Verdict)
	}
	g2 := guard(t, "")
	if d := g2.Decide(policy.Request{Command: "git push --force origin feature"}); d.Verdict == policy.Allow {
		t.Error("without exemption a flagged command was allowed")
	}
}

func TestThresholds(t *testing.T) {
	g := guard(t, `deny_at = "high"`)
	if d := g.Decide(policy.Request{Command: "git reset --hard"}); d.Verdict != policy.Deny {
		t.Errorf("deny_at=high: %v", d.Verdict)
	}
	g = guard(t, `read_only = false`)
	if d := g.Decide(policy.Request{Command: "ls"}); d.Verdict != policy.Ask {
		t.Errorf("read_only=false: ls got %v", d.Verdict)
	}
}

func TestAlwaysApprovalAndAudit(t *testing.T) {
	dir := t.TempDir()
	g := guard(t, `audit_log = "`+filepath.Join(dir, "audit.jsonl")+`"`)
	if err := g.Approve("npm test", false, approval.Always, nil, "test"); err != nil {
		t.Fatal(err)
	}
	if d := g.Decide(policy.Request{Command: "npm test -- --watch=false"}); d.Verdict != policy.Allow || d.Invocations[0].ApprovedBy == "" {
		t.Errorf("always approval: %v %+v", d.Verdict, d.Invocations)
	}
	b, err := os.ReadFile(filepath.Join(dir, "audit.jsonl"))
	if err != nil || !strings.Contains(string(b), `"verdict":"allow"`) {
		t.Errorf("audit log: %v %s", err, b)
	}
}

func TestConcurrentDecide(t *testing.T) {
	g := guard(t, "")
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				if g.Decide(policy.Request{Command: "rm -rf /"}).Verdict != policy.Deny {
					t.Error("verdict changed under concurrency")
					return
				}
			}
		}()
	}
	wg.Wait()
}

func BenchmarkDecide(b *testing.B) {
	g, err := policy.New(config.Default())
	if err != nil {
		b.Fatal(err)
	}
	lines := []string{`git commit -m "fix" && git push origin main`, `ls -la`, `rm -rf /`, `npm run build`}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		g.Decide(policy.Request{Command: lines[i%len(lines)]})
	}
}

// Disabling every built-in rule (and adding none) leaves a detector with no
// rules: it used to fall back to the defaults, because an empty pattern
// list reached danger.NewDetector as nil. Nothing is allowed for it: a
// line that is not approved is still asked.
func TestDetectorEveryRuleDisabled(t *testing.T) {
	cfg := config.Default()
	cfg.Disabled = map[string]config.Source{}
	for _, p := range danger.DefaultPatterns() {
		cfg.Disabled[p.Name] = config.Source{Layer: config.LayerUser}
	}
	det, err := policy.Detector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(det.Patterns()); n != 0 {
		t.Fatalf("detector has %d patterns, want 0", n)
	}
	g, err := policy.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if d := g.Decide(policy.Request{Command: "rm -rf /"}); d.Verdict == policy.Allow || len(d.Warnings) != 0 {
		t.Fatalf("rm -rf / with every rule disabled: %v, %d warnings; want ask with none", d.Verdict, len(d.Warnings))
	}
}
