package approval

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
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

// MatchIndexes answers exactly what Match answers over the same entries
// in the same order.
func TestMatchIndexesAgreesWithMatch(t *testing.T) {
	session := []Entry{
		{Kind: Prefix, Pattern: "git checkout", Scope: Session},
		{Kind: Exact, Pattern: "make deploy && echo ok", Scope: Session},
		{Kind: Prefix, Pattern: "npm test", Scope: Session},
	}
	store := []Entry{
		{Kind: Prefix, Pattern: "npm test", Scope: Always},
		{Kind: Prefix, Pattern: "git status", Scope: Always},
		{Kind: Exact, Pattern: "make deploy && echo ok", Scope: Always},
		{Kind: Exact, Pattern: "  ls -la  ", Scope: Always},
		{Kind: Prefix, Pattern: "sudo apt-get install", Scope: Always},
		{Kind: Prefix, Pattern: "docker run", Scope: Always},
	}
	lines := []string{"git checkout main", "git checkout main && npm test", "make deploy && echo ok", " make deploy && echo ok ",
		"ls -la", "ls -la | wc", "git status; git checkout x", "sudo apt-get install vim", "docker run --rm -v /:/h alpine ls",
		"git checkout $(whoami)", "npm test > out", "rm -rf /", "", "echo 'open", "git -c x=y checkout main"}
	p := shellparse.New(shellparse.Limits{})
	all := append(append([]Entry(nil), session...), store...)
	for _, l := range lines {
		c := ClassifyCommand(p, l)
		want := Match(c, all)
		got := MatchIndexes(c, NewIndex(session), NewIndex(store))
		if !reflect.DeepEqual(got.MatchResult, want) {
			t.Errorf("%q: MatchIndexes %+v, Match %+v", l, got.MatchResult, want)
		}
		for i, by := range got.By {
			if by != "" && got.Entries[i].Display() != by {
				t.Errorf("%q: invocation %d approved by %q, entry %+v", l, i, by, got.Entries[i])
			}
		}
		if len(got.Entries) > 0 && got.By[0] != "" && l == "git checkout main" && got.Entries[0].Scope != Session {
			t.Errorf("%q: the session's entry should win: %+v", l, got.Entries[0])
		}
	}
}
