package approval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func newTestRefusals(t *testing.T) (*Refusals, string) {
	t.Helper()
	dir := t.TempDir()
	work := mkdir(t, filepath.Join(dir, "work"))
	return NewRefusals(RefusalsPath(filepath.Join(dir, "cfg", "approvals.json"))), work
}

func record(t *testing.T, r *Refusals, line, cwd string, now time.Time) RecordResult {
	t.Helper()
	res, err := r.Record(context.Background(), Refusal{Command: line, Cwd: cwd, Verdict: "ask", Reason: "test"}, now, 0)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// replaceDir moves the folder dir aside and makes a new one of the same
// name.
func replaceDir(t *testing.T, dir string) {
	t.Helper()
	if err := os.Rename(dir, dir+".old"); err != nil {
		t.Fatal(err)
	}
	mkdir(t, dir)
}

// approve approves code at time at, or fails the test.
func approve(t *testing.T, r *Refusals, code string, at time.Time) {
	t.Helper()
	if _, err := r.Approve(context.Background(), code, at, 0); err != nil {
		t.Fatal(err)
	}
}

// refused returns why approving code at time at approves nothing ("" when
// it approves), and the error that says so.
func refused(r *Refusals, code string, at time.Time) (CodeProblem, error) {
	_, err := r.Approve(context.Background(), code, at, 0)
	return codeProblem(err), err
}

func codeProblem(err error) CodeProblem {
	if ce, ok := errors.AsType[*CodeError](err); ok {
		return ce.Problem
	}
	return ""
}

func TestRefusalsPathIsBesideTheStore(t *testing.T) {
	if got := RefusalsPath("/home/me/.config/shellguard/approvals.json"); got != "/home/me/.config/shellguard/refusals.jsonl" {
		t.Errorf("RefusalsPath = %q", got)
	}
}

// TestCodeLifecycle is the loop of issue 16: a refusal carries a code; a
// person approves it; the next refusal of that exact line in that folder
// is let through once and uses it up; the one after is refused again with
// a new code.
func TestCodeLifecycle(t *testing.T) {
	r, work := newTestRefusals(t)
	now := time.Now()
	first := record(t, r, "git push --force", work, now)
	if first.Once {
		t.Fatal("a fresh refusal was let through")
	}
	code := first.Refusal.Code
	if len(code) != codeLength || strings.Trim(code, codeAlphabet) != "" {
		t.Fatalf("code %q is not %d characters of %s", code, codeLength, codeAlphabet)
	}
	if !first.Refusal.Expires.Equal(now.UTC().Round(0).Add(defaultCodeLifetime)) {
		t.Errorf("expires %v, want %v", first.Refusal.Expires, now.Add(defaultCodeLifetime))
	}
	// The same refusal again, before approval: the same code.
	again := record(t, r, "  git push --force  ", work, now.Add(time.Minute))
	if again.Refusal.Code != code || again.Refusal.Count != 2 {
		t.Fatalf("repeat: code %q count %d, want %q 2", again.Refusal.Code, again.Refusal.Count, code)
	}
	// Lower case and dashes are read.
	lower := strings.ToLower(code[:4]) + "-" + code[4:]
	approve(t, r, lower, now.Add(2*time.Minute))
	// Approving twice before the run is fine.
	if _, err := r.Approve(context.Background(), code, now.Add(2*time.Minute), 0); err != nil {
		t.Fatalf("second approval of an unused code: %v", err)
	}
	// Another line, or the same line elsewhere, is not let through.
	other := mkdir(t, filepath.Join(filepath.Dir(work), "other"))
	if res := record(t, r, "git push --force origin", work, now.Add(3*time.Minute)); res.Once {
		t.Fatal("another line used the approval")
	}
	if res := record(t, r, "git push --force", other, now.Add(3*time.Minute)); res.Once {
		t.Fatal("the same line in another folder used the approval")
	}
	once := record(t, r, "git push --force", work, now.Add(4*time.Minute))
	if !once.Once || once.Refusal.Code != code || once.Refusal.Used.IsZero() {
		t.Fatalf("the retry was not let through once: %+v", once)
	}
	next := record(t, r, "git push --force", work, now.Add(5*time.Minute))
	if next.Once || next.Refusal.Code == code || next.Refusal.Code == "" {
		t.Fatalf("the run after was let through or kept the code: %+v", next)
	}
	if got, err := refused(r, code, now.Add(5*time.Minute)); got != CodeUsed {
		t.Errorf("approving a used code: %v, want used", err)
	}
}

func TestCodeRefusals(t *testing.T) {
	r, work := newTestRefusals(t)
	now := time.Now()
	code := record(t, r, "make deploy", work, now).Refusal.Code

	cases := []struct {
		name string
		code string
		at   time.Time
		want CodeProblem
	}{
		{"malformed: too short", "ABC", now, CodeMalformed},
		{"malformed: letters codes never use", "OIL01UVX", now, CodeMalformed},
		{"malformed: non-ASCII", "ÄBCDEFGH", now, CodeMalformed},
		{"unknown (forged)", strings.Repeat("2", codeLength), now, CodeUnknown},
		{"expired", code, now.Add(defaultCodeLifetime + time.Second), CodeExpired},
	}
	if code == strings.Repeat("2", codeLength) {
		t.Skip("drew the forged code")
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.Approve(context.Background(), tc.code, tc.at, 0)
			if got := codeProblem(err); got != tc.want {
				t.Fatalf("Approve(%q) = %v, want %s", tc.code, err, tc.want)
			}
			if !strings.Contains(err.Error(), string(tc.want)) || !strings.Contains(err.Error(), "approves nothing") {
				t.Errorf("message %q does not say which", err)
			}
		})
	}

	t.Run("approval lapses unused", func(t *testing.T) {
		c := record(t, r, "make lapse", work, now).Refusal.Code
		approve(t, r, c, now.Add(time.Minute))
		late := now.Add(time.Minute + defaultCodeLifetime + time.Second)
		if res := record(t, r, "make lapse", work, late); res.Once {
			t.Fatal("a lapsed approval let the line through")
		}
		if got, err := refused(r, c, late); got != CodeExpired {
			t.Errorf("re-approving a lapsed code: %v", err)
		}
	})

	t.Run("moved", func(t *testing.T) {
		dir := mkdir(t, filepath.Join(filepath.Dir(work), "moving"))
		c := record(t, r, "make moved", dir, now).Refusal.Code
		// The folder is replaced by another of the same name.
		replaceDir(t, dir)
		if got, err := refused(r, c, now); got != CodeMoved {
			t.Fatalf("Approve in a replaced folder: %v, want moved", err)
		}
		if err := os.Remove(dir); err != nil {
			t.Fatal(err)
		}
		if got, err := refused(r, c, now); got != CodeMoved {
			t.Fatalf("Approve for a folder that is gone: %v, want moved", err)
		}
	})

	t.Run("approved, then the folder replaced", func(t *testing.T) {
		dir := mkdir(t, filepath.Join(filepath.Dir(work), "swap"))
		c := record(t, r, "make swap", dir, now).Refusal.Code
		approve(t, r, c, now)
		replaceDir(t, dir)
		if res := record(t, r, "make swap", dir, now); res.Once {
			t.Fatal("the approval was used in another folder of the same name")
		}
	})
}

func TestLockedRefusalHasNoCode(t *testing.T) {
	r, work := newTestRefusals(t)
	res, err := r.Record(context.Background(), Refusal{Command: "shellguard uninstall claude", Cwd: work, Verdict: "deny", Locked: true}, time.Now(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Refusal.Code != "" || res.Once {
		t.Fatalf("a locked refusal got a code: %+v", res)
	}
	list, _, _ := r.List()
	if len(list) != 1 || !list[0].Locked {
		t.Fatalf("ring: %+v", list)
	}
}

func TestRefusalsAreBounded(t *testing.T) {
	r, work := newTestRefusals(t)
	now := time.Now()
	seen := map[string]bool{}
	for i := range maxRefusals + 20 {
		c := record(t, r, fmt.Sprintf("make step%d", i), work, now).Refusal.Code
		if seen[c] {
			t.Fatalf("code %s issued twice", c)
		}
		seen[c] = true
	}
	list, _, err := r.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != maxRefusals {
		t.Fatalf("ring holds %d, want %d", len(list), maxRefusals)
	}
	if list[0].Command != fmt.Sprintf("make step%d", maxRefusals+19) || list[len(list)-1].Command != "make step20" {
		t.Errorf("ring is not the newest, newest first: %q ... %q", list[0].Command, list[len(list)-1].Command)
	}
	long := strings.Repeat("x", maxRefusalCommand+100)
	res := record(t, r, "echo "+long, work, now)
	if !res.Refusal.Truncated || len(res.Refusal.Command) > maxRefusalCommand {
		t.Errorf("a long line was kept whole: %d bytes", len(res.Refusal.Command))
	}
	// Its code still works: it is tied to the digest of the whole line.
	approve(t, r, res.Refusal.Code, now)
	if !record(t, r, "echo "+long, work, now).Once {
		t.Error("the long line's code did not let it through")
	}
}

// TestRefusalsTrust: the file obeys the approvals file's rules, and what
// is not shellguard's is never written through.
func TestRefusalsTrust(t *testing.T) {
	now := time.Now()
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the refusals path
	}{
		{"a symbolic link", func(t *testing.T, dir string) string {
			victim := filepath.Join(dir, "victim")
			writeFile(t, victim, "precious\n", 0o600)
			p := filepath.Join(dir, RefusalsFileName)
			if err := os.Symlink(victim, p); err != nil {
				t.Fatal(err)
			}
			return p
		}},
		{"a FIFO", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, RefusalsFileName)
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Skip(err)
			}
			return p
		}},
		{"another program's file", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, RefusalsFileName)
			writeFile(t, p, "[1, 2, 3]\n", 0o600)
			return p
		}},
		{"a folder writable by others", func(t *testing.T, dir string) string {
			shared := filepath.Join(dir, "shared")
			if err := os.Mkdir(shared, 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(shared, 0o777); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(shared, RefusalsFileName)
		}},
		{"a file writable by others", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, RefusalsFileName)
			writeFile(t, p, `{"version":1,"refusals":[]}`, 0o666)
			return p
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := tc.setup(t, dir)
			before := listing(t, dir)
			r := NewRefusals(p)
			done := make(chan error, 1)
			go func() {
				_, err := r.Record(context.Background(), Refusal{Command: "ls", Cwd: dir, Verdict: "ask"}, now, 0)
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil {
					t.Fatal("Record wrote through")
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Record hung")
			}
			if _, _, err := r.List(); err == nil {
				t.Error("List read it")
			}
			if entries := r.SessionEntries("s", "hook:claude", now); len(entries) != 0 {
				t.Error("session approvals from an unusable file")
			}
			after := listing(t, dir)
			for k, v := range before {
				if after[k] != v {
					t.Errorf("%s changed: %q -> %q", k, v, after[k])
				}
			}
			for k := range after {
				if _, ok := before[k]; !ok {
					t.Errorf("%s was created", k)
				}
			}
		})
	}
}

// listing maps each path under root to its content (or link target).
func listing(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	_ = filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			out[p] = "-> " + l
		case fi.Mode().IsRegular():
			b, _ := os.ReadFile(p)
			out[p] = string(b)
		default:
			out[p] = fi.Mode().String()
		}
		return nil
	})
	return out
}

func TestEmptyRefusalsFileIsAnEmptyRing(t *testing.T) {
	r, work := newTestRefusals(t)
	if err := os.MkdirAll(filepath.Dir(r.Path()), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, r.Path(), "", 0o600)
	if res := record(t, r, "ls -la", work, time.Now()); res.Refusal.Code == "" {
		t.Fatal("no code after an empty file")
	}
	fi, err := os.Stat(r.Path())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v, %v", fi.Mode(), err)
	}
}

func TestRefusalsConcurrent(t *testing.T) {
	r, work := newTestRefusals(t)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := r.Record(context.Background(), Refusal{Command: fmt.Sprintf("make c%d", i), Cwd: work, Verdict: "ask"}, time.Now(), 0)
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	list, _, _ := r.List()
	if len(list) != 40 {
		t.Fatalf("%d refusals kept of 40 written at once", len(list))
	}
}

func TestSessionGrants(t *testing.T) {
	r, _ := newTestRefusals(t)
	now := time.Now()
	e := Entry{Kind: Prefix, Pattern: "npm run build *"}
	if _, err := r.GrantSession(context.Background(), "", "hook:claude", []Entry{e}, now, time.Time{}); err == nil {
		t.Fatal("a session approval without a session")
	}
	gs, err := r.GrantSession(context.Background(), "s1", "hook:claude", []Entry{e}, now, now.Add(48*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 1 || gs[0].Pattern != "npm run build" || !gs[0].Expires.Equal(now.UTC().Round(0).Add(maxSessionLifetime)) {
		t.Fatalf("grant: %+v", gs)
	}
	if got := r.SessionEntries("s1", "hook:claude", now); len(got) != 1 || got[0].Scope != Session {
		t.Fatalf("entries: %+v", got)
	}
	for _, other := range [][2]string{{"s2", "hook:claude"}, {"s1", "hook:gemini"}, {"", "hook:claude"}} {
		if got := r.SessionEntries(other[0], other[1], now); len(got) != 0 {
			t.Errorf("session %q of %q got %+v", other[0], other[1], got)
		}
	}
	if got := r.SessionEntries("s1", "hook:claude", now.Add(maxSessionLifetime)); len(got) != 0 {
		t.Errorf("an expired session approval still applies")
	}
}

func TestEntryExpiry(t *testing.T) {
	s := newTestStore(t)
	now := time.Now()
	past, future := now.Add(-time.Minute), now.Add(time.Hour)
	if _, err := s.Add(Entry{Kind: Prefix, Pattern: "make old", Expires: past}, Entry{Kind: Prefix, Pattern: "make new", Expires: future}, Entry{Kind: Exact, Pattern: "make x y", Expires: past}); err != nil {
		t.Fatal(err)
	}
	sn := s.Load()
	ix := NewIndex(sn.Active())
	cls := func(line string) Classification { return ClassifyCommand(nil, line) }
	if MatchIndexes(cls("make old"), ix).Approved || Match(cls("make old"), sn.Active()).Approved {
		t.Error("an expired prefix approval approves")
	}
	if MatchIndexes(cls("make x y"), ix).Approved || Match(cls("make x y"), sn.Active()).Approved {
		t.Error("an expired exact approval approves")
	}
	if !MatchIndexes(cls("make new"), ix).Approved || !Match(cls("make new"), sn.Active()).Approved {
		t.Error("an approval that has not expired does not approve")
	}
	// Granted again without a limit: renewed, and approving.
	res, err := s.Add(Entry{Kind: Prefix, Pattern: "make old"})
	if err != nil || len(res.Renewed) != 1 || !res.Renewed[0].Expires.IsZero() {
		t.Fatalf("renew: %+v %v", res, err)
	}
	if !MatchIndexes(cls("make old"), NewIndex(s.Load().Active())).Approved {
		t.Error("a renewed approval does not approve")
	}
	gone, err := s.Prune(now)
	if err != nil || len(gone) != 1 || gone[0].Pattern != "make x y" {
		t.Fatalf("prune: %+v %v", gone, err)
	}
	if n := len(s.Load().Entries); n != 2 {
		t.Errorf("%d entries left, want 2", n)
	}
}

// TestRefusalsCompaction: the file is compacted past its bounds, keeping
// the state (an approval given before survives), and a partial line left
// by a crash is skipped.
func TestRefusalsCompaction(t *testing.T) {
	r, work := newTestRefusals(t)
	now := time.Now()
	code := record(t, r, "make keep", work, now).Refusal.Code
	approve(t, r, code, now)
	for i := range maxRefusalsLines {
		record(t, r, fmt.Sprintf("make n%d", i%20), work, now)
		if i == 10 {
			f, err := os.OpenFile(r.Path(), os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(`{"event":"refused","code":"TORN`)
			f.Close()
		}
	}
	data, err := os.ReadFile(r.Path())
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > maxRefusalsLines+1 {
		t.Errorf("%d lines after compaction", n)
	}
	if !strings.HasPrefix(string(data), refusalsHeader+"\n") {
		t.Errorf("header lost: %.80s", data)
	}
	list, _, err := r.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 21 {
		t.Errorf("%d refusals, want 21", len(list))
	}
	for _, x := range list {
		if x.Command == "make n3" && x.Count < 2 {
			t.Errorf("repeats not counted: %+v", x)
		}
	}
	if !record(t, r, "make keep", work, now).Once {
		t.Error("the approval did not survive compaction")
	}
}

func TestOldRefusalsArePruned(t *testing.T) {
	r, work := newTestRefusals(t)
	old := time.Now().Add(-maxRefusalAge - time.Hour)
	record(t, r, "make ancient", work, old)
	record(t, r, "make recent", work, time.Now())
	list, _, err := r.List()
	if err != nil || len(list) != 1 || list[0].Command != "make recent" {
		t.Fatalf("list: %+v %v", list, err)
	}
}

// TestDocumentedLimits: the figures the exported documentation states
// (Refusal, Refusals, Record, Approve, GrantSession, the file format) are
// the constants the code uses.
func TestDocumentedLimits(t *testing.T) {
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"code length", codeLength, 8},
		{"code alphabet", codeAlphabet, "23456789ABCDEFGHJKMNPQRSTWXYZ"},
		{"command kept", maxRefusalCommand, 16 << 10},
		{"refusals kept", maxRefusals, 64},
		{"lines before compaction", maxRefusalsLines, 128},
		{"bytes before compaction", maxRefusalsBytes, 1 << 20},
		{"refusal age", maxRefusalAge, 7 * 24 * time.Hour},
		{"code lifetime", defaultCodeLifetime, 10 * time.Minute},
		{"session lifetime", maxSessionLifetime, 24 * time.Hour},
		{"approvals file version", fileVersion, 2},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, documented as %v", c.what, c.got, c.want)
		}
	}
}
