package approval

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/shellguard/shellguard/shellparse"
)

// bigStore returns the bytes of a version 2 file with n distinct
// approvals (and, every tenth, a duplicate of an earlier one).
func bigStore(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"version":2,"approvals":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		j := i
		if i%10 == 9 {
			j = i - 1 // a duplicate of the one before
		}
		if j%3 == 0 {
			fmt.Fprintf(&b, `{"kind":"exact","pattern":"make target-%d","scope":"always","granted_via":"cli"}`, j)
		} else {
			fmt.Fprintf(&b, `{"kind":"prefix","pattern":"tool%d run","granted_via":"cli"}`, j)
		}
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// TestLoadLargeStore is issue 11 item 9: 200,000 approvals (13 MB, under
// the 16 MiB cap) load in linear time. Before
// the fix a duplicate check read every earlier entry for each new one, so
// 200,000 entries took minutes. The bound is generous (the machine may be
// loaded); the figure is BenchmarkLoad's.
func TestLoadLargeStore(t *testing.T) {
	const n = 200_000
	data := bigStore(n)
	if len(data) > maxFileSize {
		t.Fatalf("test file is %d bytes, over the cap", len(data))
	}
	path := filepath.Join(t.TempDir(), "approvals.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan Snapshot, 1)
	go func() { done <- NewStore(path).Load() }()
	select {
	case sn := <-done:
		if sn.Problem != nil {
			t.Fatal(sn.Problem)
		}
		if want := n - n/10; len(sn.Entries) != want {
			t.Errorf("%d entries, want %d (duplicates dropped)", len(sn.Entries), want)
		}
	case <-time.After(90 * time.Second):
		// A hang bound, not a speed test (BenchmarkLoadLarge measures it):
		// the quadratic load this guards against took many minutes.
		t.Fatal("loading 200,000 approvals took more than 90 s")
	}
	// Adding to it is linear too.
	added := make(chan error, 1)
	go func() {
		_, err := NewStore(path).Add(Entry{Kind: Prefix, Pattern: "tool5 run"}, Entry{Kind: Prefix, Pattern: "brand new"})
		added <- err
	}()
	select {
	case err := <-added:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(90 * time.Second):
		t.Fatal("adding to 200,000 approvals took more than 90 s")
	}
}

func BenchmarkLoadLarge(b *testing.B) {
	for _, n := range []int{1000, 20_000, 200_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "approvals.json")
			if err := os.WriteFile(path, bigStore(n), 0o600); err != nil {
				b.Fatal(err)
			}
			s := NewStore(path)
			for b.Loop() {
				if sn := s.Load(); sn.Problem != nil {
					b.Fatal(sn.Problem)
				}
			}
		})
	}
}

// scanMatch is Match as a scan of entries in order, without an Index:
// the reference MatchIndexes is checked against.
func scanMatch(c Classification, entries []Entry) MatchResult {
	res := MatchResult{By: make([]*Entry, len(c.Invocations))}
	now := time.Now()
	if line := strings.TrimSpace(c.Command); c.Parsed && line != "" {
		for _, e := range entries {
			if e.Kind == Exact && !e.Expired(now) && strings.TrimSpace(e.Pattern) == line {
				for i := range res.By {
					res.By[i] = &e
				}
				res.Approved = len(c.Invocations) > 0
				return res
			}
		}
	}
	all := len(c.Invocations) > 0
	for i, ic := range c.Invocations {
		for _, e := range entries {
			if ic.covered() && e.Kind == Prefix && !e.Expired(now) && strings.TrimSpace(e.Pattern) == ic.Prefix {
				res.By[i] = &e
				break
			}
		}
		all = all && res.By[i] != nil
	}
	res.Approved = all && c.Approvable
	return res
}

// MatchIndexes answers exactly what a scan of the same entries in the
// same order answers, expired entries included.
func TestMatchIndexesAgreesWithScan(t *testing.T) {
	past, future := time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	session := []Entry{
		{Kind: Prefix, Pattern: "git checkout", Scope: Session},
		{Kind: Exact, Pattern: "make deploy && echo ok", Scope: Session},
		{Kind: Prefix, Pattern: "npm test", Scope: Session, Expires: past},
		{Kind: Prefix, Pattern: "npm test", Scope: Session, Expires: future, Command: "npm test -- a"},
	}
	store := []Entry{
		{Kind: Prefix, Pattern: "npm test", Scope: Always},
		{Kind: Prefix, Pattern: "git status", Scope: Always, Expires: past},
		{Kind: Exact, Pattern: "make deploy && echo ok", Scope: Always},
		{Kind: Exact, Pattern: "  ls -la  ", Scope: Always},
		{Kind: Prefix, Pattern: "sudo apt-get install", Scope: Always},
		{Kind: Prefix, Pattern: "docker run", Scope: Always},
		{Kind: Prefix, Pattern: "wc", Scope: Always, Expires: past},
		{Kind: Prefix, Pattern: "wc", Scope: Always},
	}
	lines := []string{"git checkout main", "git checkout main && npm test", "make deploy && echo ok", " make deploy && echo ok ",
		"ls -la", "ls -la | wc", "git status; git checkout x", "sudo apt-get install vim", "docker run --rm -v /:/h alpine ls",
		"git checkout $(whoami)", "npm test > out", "rm -rf /", "", "echo 'open", "git -c x=y checkout main"}
	p := shellparse.New(shellparse.Limits{})
	all := append(append([]Entry(nil), session...), store...)
	for _, l := range lines {
		c := ClassifyCommand(p, l)
		want := scanMatch(c, all)
		got := MatchIndexes(c, NewIndex(session), NewIndex(store))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: MatchIndexes %s, scan %s", l, fmtMatch(got), fmtMatch(want))
		}
		if one := Match(c, all); !reflect.DeepEqual(one, want) {
			t.Errorf("%q: Match %s, scan %s", l, fmtMatch(one), fmtMatch(want))
		}
		if l == "git checkout main && npm test" && (got.By[0] == nil || got.By[0].Scope != Session || got.By[1] == nil || got.By[1].Command != "npm test -- a") {
			t.Errorf("%q: the session's live entries should win: %s", l, fmtMatch(got))
		}
	}
}

// fmtMatch shows m's entries.
func fmtMatch(m MatchResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "approved=%v", m.Approved)
	for _, e := range m.By {
		if e == nil {
			b.WriteString(" -")
			continue
		}
		fmt.Fprintf(&b, " %+v", *e)
	}
	return b.String()
}
