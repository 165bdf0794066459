package approval

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to Load as the contents of an approvals
// file. Load must never panic; a file it cannot use must report a Problem
// and approve nothing; entries it accepts must be valid and survive a
// write and a re-read unchanged.
func FuzzLoad(f *testing.F) {
	for _, c := range corruptCases {
		f.Add([]byte(c.content))
	}
	f.Add([]byte(`{"version":2,"approvals":[{"kind":"prefix","pattern":"git checkout","scope":"always","granted_at":"2026-12-02T10:15:00Z","granted_via":"tui","command":"git checkout main"}]}`))
	f.Add([]byte(`{"version":2,"approvals":[{"kind":"exact","pattern":" ls -la *  "},{"kind":"exact","pattern":"ls -la *"}]}`))
	f.Add([]byte(`{"version":1,"prefixes":["git checkout","npm run"]}`))
	f.Add([]byte(`{"version":3}`))
	f.Add([]byte(`{"version":2,"approvals":null,"extra":{"a":[1,2,3]}}`))
	f.Add([]byte(""))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "approvals.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		sn := NewStore(path).Load()
		if sn.Problem != nil {
			if sn.Trusted || len(sn.Active()) != 0 {
				t.Fatalf("a file with a problem approves: %+v", sn)
			}
			if problemKind(sn.Problem) == "" {
				t.Fatalf("problem %v is not a *FileError", sn.Problem)
			}
			if sn.Problem.Error() == "" {
				t.Fatal("empty problem message")
			}
			return
		}
		if !sn.Trusted || sn.Missing {
			t.Fatalf("sound private file: %+v", sn)
		}
		seen := map[string]bool{}
		for _, e := range sn.Entries {
			if e.Kind != Prefix && e.Kind != Exact {
				t.Fatalf("entry with kind %q", e.Kind)
			}
			if e.Pattern == "" || normalizePattern(e.Kind, e.Pattern) != e.Pattern {
				t.Fatalf("entry with pattern %q", e.Pattern)
			}
			if e.Scope != Always {
				t.Fatalf("entry with scope %q", e.Scope)
			}
			k := string(e.Kind) + "\x00" + e.Pattern
			if seen[k] {
				t.Fatalf("duplicate entry %+v", e)
			}
			seen[k] = true
		}
		// What was accepted round-trips through the current format.
		data, err := encodeEntries(sn.Entries)
		if err != nil {
			t.Fatal(err)
		}
		again, _, err := parseStore(data)
		if err != nil || len(again) != len(sn.Entries) {
			t.Fatalf("round trip: %v, %d entries, want %d", err, len(again), len(sn.Entries))
		}
		for i := range sn.Entries {
			a, b := sn.Entries[i], again[i]
			if a.Kind != b.Kind || a.Pattern != b.Pattern || a.GrantedVia != b.GrantedVia || a.Command != b.Command || !a.GrantedAt.Equal(b.GrantedAt) {
				t.Fatalf("round trip changed entry %d: %+v -> %+v", i, a, b)
			}
		}
	})
}
