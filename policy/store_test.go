package policy_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/policy"
)

// TestGuardRechecksStoreTrust is issue 11 item 15: a Guard that keeps
// running (an MCP server, a TUI) stops using its store's approvals as soon
// as the store is no longer trusted, although the file itself did not
// change.
func TestGuardRechecksStoreTrust(t *testing.T) {
	changes := []struct {
		name   string
		change func(t *testing.T, dir, file, link string)
		root   bool
	}{
		{"folder made world-writable", func(t *testing.T, dir, file, link string) {
			chmod(t, dir, 0o777)
		}, false},
		{"folder made group-writable", func(t *testing.T, dir, file, link string) {
			chmod(t, dir, 0o770)
		}, false},
		{"file given to another user", func(t *testing.T, dir, file, link string) {
			if err := os.Chown(file, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"folder given to another user", func(t *testing.T, dir, file, link string) {
			if err := os.Chown(dir, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"folder of the link made world-writable", func(t *testing.T, dir, file, link string) {
			chmod(t, filepath.Dir(link), 0o777)
		}, false},
		{"link re-pointed to a shared copy", func(t *testing.T, dir, file, link string) {
			shared := filepath.Join(t.TempDir(), "shared")
			if err := os.Mkdir(shared, 0o700); err != nil {
				t.Fatal(err)
			}
			copyFile(t, file, filepath.Join(shared, "approvals.json"))
			chmod(t, shared, 0o777)
			if err := os.Remove(link); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(shared, "approvals.json"), link); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	for _, tc := range changes {
		t.Run(tc.name, func(t *testing.T) {
			if tc.root && os.Geteuid() != 0 {
				t.Skip("changing an owner needs root")
			}
			dir := filepath.Join(t.TempDir(), "store")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, "approvals.json")
			if _, err := approval.NewStore(file).Add(approval.Entry{Kind: approval.Prefix, Pattern: "tool"}); err != nil {
				t.Fatal(err)
			}
			linkDir := filepath.Join(t.TempDir(), "links")
			if err := os.Mkdir(linkDir, 0o700); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(linkDir, "approvals.json")
			if err := os.Symlink(file, link); err != nil {
				t.Fatal(err)
			}
			g, err := policy.New(config.Default())
			if err != nil {
				t.Fatal(err)
			}
			g.WithStore(approval.NewStore(link))
			if d := g.Decide(policy.Request{Command: "tool x"}); d.Verdict != policy.Allow {
				t.Fatalf("before the change: %s (%s)", d.Verdict, d.Reason)
			}
			tc.change(t, dir, file, link)
			if d := g.Decide(policy.Request{Command: "tool x"}); d.Verdict == policy.Allow {
				t.Fatalf("after the change, the untrusted store still approves: %s", d.Reason)
			}
			found := false
			for _, n := range g.Notices() {
				found = found || strings.Contains(n, "not trusted")
			}
			if !found {
				t.Errorf("no notice says the store is not trusted: %q", g.Notices())
			}
		})
	}
}

func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// writeStore writes an approvals file with n prefix approvals (tool0 ...)
// plus extra.
func writeStore(tb testing.TB, path string, n int, extra ...approval.Entry) {
	tb.Helper()
	type file struct {
		Version   int              `json:"version"`
		Approvals []approval.Entry `json:"approvals"`
	}
	f := file{Version: 2}
	for i := range n {
		f.Approvals = append(f.Approvals, approval.Entry{Kind: approval.Prefix, Pattern: fmt.Sprintf("tool%d sub", i), Scope: approval.Always})
		if i%4 == 0 {
			f.Approvals = append(f.Approvals, approval.Entry{Kind: approval.Exact, Pattern: fmt.Sprintf("make target%d", i), Scope: approval.Always})
		}
	}
	f.Approvals = append(f.Approvals, extra...)
	b, err := json.Marshal(f)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkDecideApprovals is issue 11 item 9: Decide with 10,000
// approvals in the store costs about what it costs with an empty store
// (the entries are looked up through an index, not read one by one).
// Sub-benchmarks alternate, so run it with -count to interleave them:
//
//	go test -run='^$' -bench=DecideApprovals -count=6 ./policy
func BenchmarkDecideApprovals(b *testing.B) {
	lines := []string{"git status", "tool17 sub x", "make target40", "ls -la | grep x", "npm test", "rm -rf build",
		"git checkout main && tool9999 sub y", "docker run --rm alpine ls"}
	for _, n := range []int{0, 10000} {
		b.Run(fmt.Sprintf("approvals=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			path := filepath.Join(dir, "approvals.json")
			writeStore(b, path, n)
			g, err := policy.New(config.Default())
			if err != nil {
				b.Fatal(err)
			}
			g.WithStore(approval.NewStore(path))
			session := approval.NewSessionStore()
			session.Add(approval.Entry{Kind: approval.Prefix, Pattern: "npm test"})
			g.Decide(policy.Request{Command: "ls"}) // load the store
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				g.Decide(policy.Request{Command: lines[i%len(lines)], Session: session})
				i++
			}
		})
	}
}
