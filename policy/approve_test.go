package policy_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/internal/audit"
	"github.com/shellguard/shellguard/policy"
)

// home is a throwaway home folder with a project in it, and a Guard
// loaded the way the binaries load it (user file, approvals file and
// audit log in the home's XDG folders).
type home struct {
	dir, proj string
	env       map[string]string
}

func newHome(t *testing.T, userTOML string) *home {
	t.Helper()
	dir := t.TempDir()
	h := &home{dir: dir, proj: filepath.Join(dir, "proj")}
	h.env = map[string]string{
		"HOME":            dir,
		"XDG_CONFIG_HOME": filepath.Join(dir, ".config"),
		"XDG_STATE_HOME":  filepath.Join(dir, ".state"),
	}
	for _, d := range []string{h.proj, filepath.Join(h.proj, ".git"), filepath.Join(dir, ".config", "shellguard")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if userTOML != "" {
		h.write(t, ".config/shellguard/config.toml", userTOML)
	}
	return h
}

func (h *home) write(t *testing.T, rel, content string) string {
	t.Helper()
	p := filepath.Join(h.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func (h *home) guard(t *testing.T, source string) *policy.Guard {
	t.Helper()
	g, err := policy.Load(policy.Options{Cwd: h.proj, Source: source, Env: func(k string) string { return h.env[k] },
		ManagedDir: filepath.Join(h.dir, "managed"), ManagedUID: os.Geteuid()})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func (h *home) refusals() *approval.Refusals {
	return approval.NewRefusals(filepath.Join(h.dir, ".config", "shellguard", approval.RefusalsFileName))
}

func (h *home) decide(t *testing.T, g *policy.Guard, line string) policy.Decision {
	t.Helper()
	return g.Decide(policy.Request{Command: line, Cwd: h.proj})
}

func approveCode(t *testing.T, h *home, code string) {
	t.Helper()
	if _, err := h.refusals().Approve(context.Background(), code, time.Now(), 0); err != nil {
		t.Fatal(err)
	}
}

// TestAllowOnceLoop is issue 16's loop through Decide: refused with a
// code, approved with the code, allowed once, then asked again.
func TestAllowOnceLoop(t *testing.T) {
	for _, line := range []string{"git push --force", "make deploy-prod", "rm -rf /"} {
		t.Run(line, func(t *testing.T) {
			h := newHome(t, "")
			g := h.guard(t, "hook:gemini")
			d := h.decide(t, g, line)
			if d.Verdict == policy.Allow || d.Code == "" || d.Cwd != h.proj {
				t.Fatalf("first decision: %s code %q cwd %q", d.Verdict, d.Code, d.Cwd)
			}
			text := policy.CodeText(d)
			if !strings.HasSuffix(d.Reason, text) || !strings.Contains(text, "shellguard allow once "+d.Code) ||
				!strings.Contains(text, "a person") || !strings.Contains(text, "refuses that command from an agent") {
				t.Errorf("reason does not name the code for a person: %q", d.Reason)
			}
			// Asked again before approval: the same code.
			if again := h.decide(t, g, line); again.Code != d.Code {
				t.Errorf("the retry got code %q, want %q", again.Code, d.Code)
			}
			// A dry run neither issues nor uses anything.
			dry := g.Decide(policy.Request{Command: line, Cwd: h.proj, DryRun: true})
			if dry.Code != "" {
				t.Errorf("a dry run issued code %q", dry.Code)
			}
			approveCode(t, h, d.Code)
			if dry := g.Decide(policy.Request{Command: line, Cwd: h.proj, DryRun: true}); dry.Verdict == policy.Allow {
				t.Error("a dry run used up the approval")
			}
			// Another folder does not get it.
			other := filepath.Join(h.dir, "other")
			if err := os.Mkdir(other, 0o700); err != nil {
				t.Fatal(err)
			}
			if o := g.Decide(policy.Request{Command: line, Cwd: other}); o.Verdict == policy.Allow {
				t.Fatal("the approval was used in another folder")
			}
			once := h.decide(t, g, line)
			if once.Verdict != policy.Allow || once.Code != "" {
				t.Fatalf("the approved retry: %s %q", once.Verdict, once.Reason)
			}
			for _, ir := range once.Invocations {
				if !ir.Approved || ir.ApprovedBy != "once: "+d.Code {
					t.Errorf("invocation %q approved by %q", ir.Command, ir.ApprovedBy)
				}
			}
			next := h.decide(t, g, line)
			if next.Verdict == policy.Allow || next.Code == "" || next.Code == d.Code {
				t.Fatalf("after the run: %s code %q (was %q)", next.Verdict, next.Code, d.Code)
			}
		})
	}
}

func TestCodesAreRecordedInTheAuditLog(t *testing.T) {
	h := newHome(t, "")
	g := h.guard(t, "hook:codex")
	d := h.decide(t, g, "git push --force origin main")
	var recs []audit.Record
	if _, err := audit.Scan(g.Config().AuditLog, audit.Filter{}, func(r audit.Record) error {
		recs = append(recs, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
	r := recs[0]
	if r.Code != d.Code || r.Source != "hook:codex" || strings.Contains(r.Reason, "allow once") ||
		strings.Join(r.Programs, ",") != "git" || strings.Join(r.Prefixes, ",") != "git push" || len(r.Warnings) == 0 {
		t.Errorf("record: %+v", r)
	}
}

func TestNoCodeWithoutAStore(t *testing.T) {
	g, err := policy.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	d := g.Decide(policy.Request{Command: "git push --force", Cwd: t.TempDir()})
	if d.Code != "" || d.CodeProblem == "" || d.Verdict != policy.Ask {
		t.Errorf("no store: %s code %q problem %q", d.Verdict, d.Code, d.CodeProblem)
	}
}

func TestShadowMode(t *testing.T) {
	h := newHome(t, `mode = "warn"`)
	g := h.guard(t, "hook:claude")
	for _, line := range []string{"rm -rf /", "git push --force", "make deploy"} {
		d := h.decide(t, g, line)
		if d.Verdict == policy.Allow || !d.Shadow || d.Enforced() != policy.Allow || d.Code != "" {
			t.Errorf("%s: verdict %s shadow %v enforced %s code %q", line, d.Verdict, d.Shadow, d.Enforced(), d.Code)
		}
	}
	if d := h.decide(t, g, "ls"); d.Shadow || d.Verdict != policy.Allow {
		t.Errorf("ls: %+v", d)
	}
	// The guard still guards itself.
	d := h.decide(t, g, "shellguard allow once ABCDEFGH")
	if d.Verdict != policy.Deny || d.Shadow || d.Enforced() != policy.Deny || !d.SelfGuard {
		t.Errorf("self-guard in shadow mode: %s shadow %v", d.Verdict, d.Shadow)
	}
	var shadow int
	if _, err := audit.Scan(g.Config().AuditLog, audit.Filter{}, func(r audit.Record) error {
		if r.Shadow {
			shadow++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if shadow != 3 {
		t.Errorf("%d shadow records, want 3", shadow)
	}

	// A project file cannot turn it on.
	h2 := newHome(t, "")
	h2.write(t, "proj/.shellguard.toml", `mode = "warn"`+"\n")
	g2 := h2.guard(t, "hook:claude")
	if d := h2.decide(t, g2, "rm -rf /"); d.Shadow || d.Enforced() != policy.Deny {
		t.Errorf("a project file turned on shadow mode")
	}
	found := false
	for _, n := range g2.Notices() {
		found = found || strings.Contains(n, ".shellguard.toml:1: ignored mode")
	}
	if !found {
		t.Errorf("no notice: %v", g2.Notices())
	}
}

func TestManagedForbidsApproving(t *testing.T) {
	h := newHome(t, `exempt = ["git_push_force"]`)
	h.write(t, "managed/config.toml", "[managed]\nforbid_approvals = [\"git_push_force\"]\n")
	if err := os.Chmod(filepath.Join(h.dir, "managed", "config.toml"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(h.dir, "managed"), 0o755); err != nil {
		t.Fatal(err)
	}
	g := h.guard(t, "cli")
	if g.Config().IsExempt("git_push_force") {
		t.Fatal("the user's exempt survived forbid_approvals")
	}
	d := h.decide(t, g, "git push --force")
	if d.Code != "" || !strings.Contains(d.CodeProblem, "managed") {
		t.Errorf("a forbidden warning got a code: %q (%s)", d.Code, d.CodeProblem)
	}
}

func TestSessionApprovals(t *testing.T) {
	h := newHome(t, "")
	g := h.guard(t, "hook:claude")
	if _, err := h.refusals().GrantSession(context.Background(), "s1", "hook:claude",
		[]approval.Entry{{Kind: approval.Prefix, Pattern: "make deploy"}}, time.Now(), time.Time{}); err != nil {
		t.Fatal(err)
	}
	req := policy.Request{Command: "make deploy staging", Cwd: h.proj, SessionID: "s1"}
	if d := g.Decide(req); d.Verdict != policy.Allow || !strings.HasPrefix(d.Invocations[0].ApprovedBy, "session: ") {
		t.Fatalf("session s1: %s %q", d.Verdict, d.Reason)
	}
	for _, r := range []policy.Request{
		{Command: "make deploy staging", Cwd: h.proj, SessionID: "s2"},
		{Command: "make deploy staging", Cwd: h.proj},
		{Command: "make deploy staging", Cwd: h.proj, SessionID: "s1", Source: "hook:gemini"},
		{Command: "make clean", Cwd: h.proj, SessionID: "s1"},
	} {
		if d := g.Decide(r); d.Verdict == policy.Allow {
			t.Errorf("%+v was allowed", r)
		}
	}
}

func ExampleDecision_Enforced() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	user := filepath.Join(dir, "config.toml")
	_ = os.WriteFile(user, []byte(`mode = "warn"`+"\n"), 0o600)
	g, _ := policy.Load(policy.Options{Cwd: dir, ConfigFile: user, Env: func(string) string { return "" }, ManagedDir: filepath.Join(dir, "managed")})
	d := g.Decide(policy.Request{Command: "rm -rf /", Cwd: dir})
	fmt.Println(d.Verdict, d.Shadow, d.Enforced())
	// Output: deny true allow
}

// forbid_approvals may name a rule pack: every rule of it is covered, an
// exempt of one of its rules is dropped, and rules of other packs are not.
func TestManagedForbidsApprovingPack(t *testing.T) {
	h := newHome(t, `exempt = ["git_push_force", "rm_recursive"]`)
	h.write(t, "managed/config.toml", "[managed]\nforbid_approvals = [\"core.git\"]\n")
	if err := os.Chmod(filepath.Join(h.dir, "managed", "config.toml"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(h.dir, "managed"), 0o755); err != nil {
		t.Fatal(err)
	}
	g := h.guard(t, "cli")
	if g.Config().IsExempt("git_push_force") {
		t.Error("the user's exempt of a rule of a forbidden pack survived")
	}
	if !g.Config().IsExempt("rm_recursive") {
		t.Error("the user's exempt of a rule of another pack was dropped")
	}
	for _, line := range []string{"git push --force", "git reset --hard HEAD~1", "git clean -fdx"} {
		if d := h.decide(t, g, line); d.Code != "" || !strings.Contains(d.CodeProblem, "managed") {
			t.Errorf("%s: a warning of a forbidden pack got a code: %q (%s)", line, d.Code, d.CodeProblem)
		}
	}
}
