package approval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shellguard/shellguard/internal/testbin"
)

// newTestStore returns a store in a fresh private folder.
func newTestStore(t *testing.T) *Store {
	t.Helper()
	return NewStore(filepath.Join(t.TempDir(), "approvals.json"))
}

func writeFile(t *testing.T, path, content string, mode fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // umask
		t.Fatal(err)
	}
}

// mkdir makes the folder path, private to its owner, and returns it; it
// fails the test on an error.
func mkdir(t *testing.T, path string) string {
	t.Helper()
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

func problemKind(err error) ProblemKind {
	if fe, ok := errors.AsType[*FileError](err); ok {
		return fe.Kind
	}
	return ""
}

func TestLoadMissingIsEmptyAndTrusted(t *testing.T) {
	s := NewStore(filepath.Join(t.TempDir(), "nope", "approvals.json"))
	sn := s.Load()
	if !sn.Missing || !sn.Trusted || sn.Problem != nil || len(sn.Entries) != 0 {
		t.Fatalf("missing file: got %+v", sn)
	}
	if sn.Path != s.Path() {
		t.Errorf("Path = %q, want %q", sn.Path, s.Path())
	}
}

func TestRoundTrip(t *testing.T) {
	s := newTestStore(t)
	at := time.Date(2026, 12, 2, 10, 15, 0, 0, time.FixedZone("CET", 3600))
	res, err := s.Add(
		Entry{Kind: Prefix, Pattern: "git checkout", GrantedAt: at, GrantedVia: "tui", Command: "git checkout main"},
		Entry{Kind: Exact, Pattern: "  make deploy-staging && echo '<ok>'  ", GrantedVia: "cli", Command: "make deploy-staging && echo '<ok>'"},
		Entry{Kind: Prefix, Pattern: "npm test *", Scope: Always, GrantedVia: "mcp"},
	)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Added) != 3 || len(res.AlreadyPresent) != 0 || res.MovedAside != "" || res.Converted {
		t.Fatalf("AddResult = %+v", res)
	}
	sn := s.Load()
	if sn.Problem != nil || !sn.Trusted || sn.Missing || sn.Version != fileVersion {
		t.Fatalf("Load after Add: %+v", sn)
	}
	want := []struct {
		kind    Kind
		pattern string
		via     string
	}{
		{Prefix, "git checkout", "tui"},
		{Exact, "make deploy-staging && echo '<ok>'", "cli"},
		{Prefix, "npm test", "mcp"},
	}
	if len(sn.Active()) != len(want) {
		t.Fatalf("got %d active entries, want %d: %+v", len(sn.Active()), len(want), sn.Entries)
	}
	for i, w := range want {
		e := sn.Entries[i]
		if e.Kind != w.kind || e.Pattern != w.pattern || e.GrantedVia != w.via || e.Scope != Always {
			t.Errorf("entry %d = %+v, want %v %q via %s, scope always", i, e, w.kind, w.pattern, w.via)
		}
		if e.GrantedAt.IsZero() || e.GrantedAt.Location() != time.UTC {
			t.Errorf("entry %d: GrantedAt = %v, want a UTC time", i, e.GrantedAt)
		}
	}
	if !sn.Entries[0].GrantedAt.Equal(at) {
		t.Errorf("GrantedAt = %v, want %v", sn.Entries[0].GrantedAt, at)
	}
	if sn.Entries[0].Command != "git checkout main" {
		t.Errorf("Command = %q", sn.Entries[0].Command)
	}

	// The file is private, versioned and readable by people.
	fi, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", fi.Mode().Perm())
	}
	raw := testbin.ReadFile(t, s.Path())
	var doc struct {
		Version   int               `json:"version"`
		Approvals []json.RawMessage `json:"approvals"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || doc.Version != 2 || len(doc.Approvals) != 3 {
		t.Fatalf("file is not the documented format (%v): %s", err, raw)
	}
	if !bytes.Contains(raw, []byte(`&& echo '<ok>'`)) {
		t.Errorf("command text is escaped in the file:\n%s", raw)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(s.Path()), ".approvals.json.shellguard-lock")); err != nil {
		t.Errorf("lock file: %v", err)
	}
	if _, err := os.Stat(s.Path() + ".lock"); err == nil {
		t.Errorf("a lock file %s.lock was created", s.Path())
	}

	// Adding the same approvals again changes nothing.
	res, err = s.Add(Entry{Kind: Prefix, Pattern: "git checkout *"}, Entry{Kind: Exact, Pattern: "make deploy-staging && echo '<ok>'"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Added) != 0 || len(res.AlreadyPresent) != 2 {
		t.Fatalf("duplicate Add: %+v", res)
	}
	if got := testbin.ReadFile(t, s.Path()); !bytes.Equal(got, raw) {
		t.Errorf("duplicate Add rewrote the file:\n%s", got)
	}
	// Same pattern, other kind: a different approval.
	res, err = s.Add(Entry{Kind: Exact, Pattern: "git checkout"})
	if err != nil || len(res.Added) != 1 {
		t.Fatalf("Add exact with a prefix's pattern: %+v, %v", res, err)
	}
	if n := len(s.Load().Entries); n != 4 {
		t.Errorf("got %d entries, want 4", n)
	}
}

func TestAddCreatesPrivateFolders(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "config", "shellguard")
	s := NewStore(filepath.Join(dir, "approvals.json"))
	if _, err := s.Add(Entry{Kind: Prefix, Pattern: "go test"}); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, filepath.Dir(dir)} {
		fi, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: mode %v, want 0700", d, fi.Mode().Perm())
		}
	}
	if sn := s.Load(); !sn.Trusted || len(sn.Active()) != 1 {
		t.Errorf("after Add: %+v", sn)
	}
}

func TestAddRejectsInvalidEntries(t *testing.T) {
	tests := []struct {
		name string
		e    Entry
	}{
		{"no kind", Entry{Pattern: "ls"}},
		{"unknown kind", Entry{Kind: "glob", Pattern: "ls"}},
		{"empty pattern", Entry{Kind: Exact, Pattern: "  "}},
		{"bare star prefix", Entry{Kind: Prefix, Pattern: "*"}},
		{"once", Entry{Kind: Exact, Pattern: "ls", Scope: Once}},
		{"session", Entry{Kind: Prefix, Pattern: "ls", Scope: Session}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			if _, err := s.Add(Entry{Kind: Prefix, Pattern: "ok"}, tt.e); err == nil {
				t.Fatal("Add accepted an invalid entry")
			}
			if sn := s.Load(); !sn.Missing {
				t.Errorf("a failed Add wrote the file: %+v", sn)
			}
		})
	}
}

func TestRemove(t *testing.T) {
	s := newTestStore(t)
	if ok, err := s.Remove(Prefix, "git checkout"); ok || err != nil {
		t.Fatalf("Remove from a missing file: %v, %v", ok, err)
	}
	if _, err := s.Add(
		Entry{Kind: Prefix, Pattern: "git checkout"},
		Entry{Kind: Exact, Pattern: "git checkout"},
		Entry{Kind: Prefix, Pattern: "go test"},
	); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		kind    Kind
		pattern string
		want    bool
		left    int
	}{
		{Prefix, "git checkout *", true, 2},
		{Prefix, "git checkout", false, 2},
		{Exact, "go test", false, 2},
		{Exact, " git checkout ", true, 1},
		{Prefix, "go test", true, 0},
	}
	for _, tt := range tests {
		ok, err := s.Remove(tt.kind, tt.pattern)
		if err != nil || ok != tt.want {
			t.Errorf("Remove(%s, %q) = %v, %v; want %v", tt.kind, tt.pattern, ok, err, tt.want)
		}
		sn := s.Load()
		if sn.Problem != nil || len(sn.Entries) != tt.left {
			t.Errorf("after Remove(%s, %q): %d entries (%v), want %d", tt.kind, tt.pattern, len(sn.Entries), sn.Problem, tt.left)
		}
	}
}

func TestSeedFormat(t *testing.T) {
	s := newTestStore(t)
	seed := `{
  "version": 1,
  "prefixes": [
    "git checkout",
    "npm run",
    "git checkout"
  ]
}
`
	writeFile(t, s.Path(), seed, 0o600)
	sn := s.Load()
	if sn.Problem != nil || !sn.Trusted || sn.Version != 1 {
		t.Fatalf("seed file: %+v", sn)
	}
	want := []string{"git checkout", "npm run"}
	if len(sn.Active()) != len(want) {
		t.Fatalf("got %+v, want prefixes %v", sn.Entries, want)
	}
	for i, p := range want {
		e := sn.Entries[i]
		if e.Kind != Prefix || e.Pattern != p || e.Scope != Always || e.GrantedVia != "import" {
			t.Errorf("entry %d = %+v, want prefix %q, always, via import", i, e, p)
		}
	}

	// The first change rewrites it in the current format, keeping all.
	res, err := s.Add(Entry{Kind: Prefix, Pattern: "make"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Converted || len(res.Notices()) != 1 {
		t.Errorf("AddResult = %+v, want Converted with a notice", res)
	}
	sn = s.Load()
	if sn.Version != fileVersion || len(sn.Active()) != 3 || sn.Entries[0].GrantedVia != "import" {
		t.Errorf("after conversion: %+v", sn)
	}
}

func TestEmptyFileIsEmptyStore(t *testing.T) {
	s := newTestStore(t)
	writeFile(t, s.Path(), "\n", 0o600)
	sn := s.Load()
	if sn.Problem != nil || !sn.Trusted || sn.Missing || len(sn.Entries) != 0 {
		t.Fatalf("empty file: %+v", sn)
	}
}

// corruptCases are files that must approve nothing. The damaged ones
// (ours) are recognisably approvals files and are kept aside by the next
// Add; the others are not shellguard's, and nothing changes them.
var corruptCases = []struct {
	name, content, wantInError string
	ours                       bool
}{
	{"truncated", `{"version":2,"approvals":[{"kind":"prefix","pat`, "ends too early", true},
	{"syntax", "{\"version\":2,\n \"approvals\": [,]}", "line 2", true},
	{"array", `[]`, "want an object", false},
	{"null", `null`, "null", false},
	{"no version", `{"approvals":[]}`, `no "version"`, true},
	{"string version", `{"version":"2","approvals":[]}`, "whole number", true},
	{"version 0", `{"version":0,"approvals":[]}`, "unknown version 0", true},
	{"trailing data", `{"version":2,"approvals":[]} {"version":2}`, "after the JSON object", true},
	{"approvals object", `{"version":2,"approvals":{"kind":"prefix"}}`, "not a list", true},
	{"bad kind", `{"version":2,"approvals":[{"kind":"glob","pattern":"rm"}]}`, "approval 1: unknown kind", true},
	{"empty pattern", `{"version":2,"approvals":[{"kind":"prefix","pattern":"ls"},{"kind":"prefix","pattern":" "}]}`, "approval 2: empty pattern", true},
	{"session scope", `{"version":2,"approvals":[{"kind":"exact","pattern":"ls","scope":"session"}]}`, "scope", true},
	{"bad time", `{"version":2,"approvals":[{"kind":"exact","pattern":"ls","granted_at":"yesterday"}]}`, "approval 1", true},
	{"pattern number", `{"version":2,"approvals":[{"kind":"exact","pattern":7}]}`, `"pattern"`, true},
	{"seed without prefixes", `{"version":1}`, "prefixes", false},
	{"seed numbers", `{"version":1,"prefixes":["ls",3]}`, "prefixes", true},
	{"binary", "\x00\xff\xfe garbage", "invalid JSON", false},
	{"shell script", "export PATH=$HOME/bin:$PATH\nalias ll='ls -l'\n", "invalid JSON", false},
	{"ssh config", "Host *\n  ServerAliveInterval 60\n", "invalid JSON", false},
	{"other JSON", `{"name":"x","version":"1.0.0","dependencies":{"approvals":"2"}}`, "version", false},
}

func TestCorruptFileApprovesNothing(t *testing.T) {
	for _, tt := range corruptCases {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			writeFile(t, s.Path(), tt.content, 0o600)
			sn := s.Load()
			if sn.Problem == nil {
				t.Fatalf("corrupt file loaded without a problem: %+v", sn)
			}
			if sn.Trusted || len(sn.Entries) != 0 || len(sn.Active()) != 0 {
				t.Errorf("corrupt file approves something: %+v", sn)
			}
			wantKind, wantWord := Corrupt, "corrupt"
			if !tt.ours {
				wantKind, wantWord = NotAStore, "not a shellguard approvals file"
			}
			if k := problemKind(sn.Problem); k != wantKind {
				t.Errorf("problem kind %q, want %q: %v", k, wantKind, sn.Problem)
			}
			msg := sn.Problem.Error()
			for _, want := range []string{s.Path(), wantWord, "approves nothing", tt.wantInError} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not mention %q", msg, want)
				}
			}

			// Remove never rewrites it.
			if _, err := s.Remove(Prefix, "ls"); problemKind(err) != wantKind {
				t.Errorf("Remove on a corrupt file: %v, want the %s error", err, wantKind)
			}
			if got := testbin.ReadFile(t, s.Path()); string(got) != tt.content {
				t.Fatalf("Remove changed the corrupt file")
			}

			res, err := s.Add(Entry{Kind: Prefix, Pattern: "go test", GrantedVia: "cli"})
			if !tt.ours {
				// Not ours: refused, untouched, no lock file beside it.
				if problemKind(err) != NotAStore || res.MovedAside != "" {
					t.Fatalf("Add on another program's file: %+v, %v; want the not-a-store error", res, err)
				}
				if got := testbin.ReadFile(t, s.Path()); string(got) != tt.content {
					t.Fatalf("Add changed another program's file")
				}
				if ents, _ := os.ReadDir(filepath.Dir(s.Path())); len(ents) != 1 {
					t.Errorf("Add left files beside another program's file: %v", ents)
				}
				return
			}
			// The next Add keeps it aside under a dated name first.
			if err != nil {
				t.Fatal(err)
			}
			if res.MovedAside == "" || len(res.Notices()) == 0 || !strings.Contains(res.Notices()[0], res.MovedAside) {
				t.Fatalf("Add did not report keeping the file aside: %+v", res)
			}
			if !regexp.MustCompile(`/approvals\.json\.corrupt-\d{8}T\d{6}Z$`).MatchString(res.MovedAside) {
				t.Errorf("kept aside as %q, want approvals.json.corrupt-YYYYMMDDTHHMMSSZ", res.MovedAside)
			}
			if filepath.Dir(res.MovedAside) != filepath.Dir(s.Path()) {
				t.Errorf("kept aside in another folder: %s", res.MovedAside)
			}
			if got := testbin.ReadFile(t, res.MovedAside); string(got) != tt.content {
				t.Errorf("the kept copy holds %q, want the original bytes %q", got, tt.content)
			}
			sn = s.Load()
			if sn.Problem != nil || len(sn.Active()) != 1 || sn.Entries[0].Pattern != "go test" {
				t.Errorf("after Add: %+v", sn)
			}
		})
	}
}

func TestKeepAsideNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "approvals.json")
	at := time.Date(2026, 12, 2, 10, 15, 0, 0, time.UTC)
	var names []string
	for i := range 3 {
		// A new file at path, as the atomic write after keepAside leaves.
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		writeFile(t, path, fmt.Sprintf("corrupt %d", i), 0o600)
		name, err := keepAside(path, at)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
		if got := string(testbin.ReadFile(t, name)); got != fmt.Sprintf("corrupt %d", i) {
			t.Errorf("%s holds %q", name, got)
		}
	}
	want := []string{
		path + ".corrupt-20261202T101500Z",
		path + ".corrupt-20261202T101500Z-2",
		path + ".corrupt-20261202T101500Z-3",
	}
	for i := range want {
		if names[i] != want[i] {
			t.Errorf("copy %d named %s, want %s", i, names[i], want[i])
		}
	}
	for i := range 3 {
		if got := string(testbin.ReadFile(t, want[i])); got != fmt.Sprintf("corrupt %d", i) {
			t.Errorf("%s was overwritten: %q", want[i], got)
		}
	}
}

func TestUnsupportedVersionIsLeftAlone(t *testing.T) {
	s := newTestStore(t)
	content := `{"version":3,"approvals":[{"kind":"prefix","pattern":"ls","new":"x"}]}`
	writeFile(t, s.Path(), content, 0o600)
	sn := s.Load()
	if problemKind(sn.Problem) != UnsupportedVersion || len(sn.Active()) != 0 || sn.Trusted {
		t.Fatalf("version 3: %+v", sn)
	}
	if !strings.Contains(sn.Problem.Error(), "version 3") || !strings.Contains(sn.Problem.Error(), s.Path()) {
		t.Errorf("error %q", sn.Problem)
	}
	if _, err := s.Add(Entry{Kind: Prefix, Pattern: "go test"}); problemKind(err) != UnsupportedVersion {
		t.Errorf("Add on a newer file: %v", err)
	}
	if got := testbin.ReadFile(t, s.Path()); string(got) != content {
		t.Errorf("newer file was changed: %s", got)
	}
	if m, _ := filepath.Glob(s.Path() + ".corrupt-*"); len(m) != 0 {
		t.Errorf("newer file was kept aside as corrupt: %v", m)
	}
}

func TestNotARegularFile(t *testing.T) {
	t.Run("folder", func(t *testing.T) {
		s := newTestStore(t)
		mkdir(t, s.Path())
		sn := s.Load()
		if problemKind(sn.Problem) != Unreadable || len(sn.Active()) != 0 {
			t.Fatalf("folder: %+v", sn)
		}
		if _, err := s.Add(Entry{Kind: Prefix, Pattern: "ls"}); err == nil {
			t.Error("Add replaced a folder")
		}
	})
	t.Run("fifo", func(t *testing.T) {
		s := newTestStore(t)
		if err := syscall.Mkfifo(s.Path(), 0o600); err != nil {
			t.Skip("mkfifo:", err)
		}
		// Load must not block waiting for a writer.
		sn := s.Load()
		if problemKind(sn.Problem) != Unreadable || !strings.Contains(sn.Problem.Error(), "not a regular file") {
			t.Fatalf("fifo: %+v", sn)
		}
	})
}

func TestUnreadableFileIsLeftAlone(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	s := newTestStore(t)
	writeFile(t, s.Path(), `{"version":2,"approvals":[]}`, 0o000)
	sn := s.Load()
	if problemKind(sn.Problem) != Unreadable || len(sn.Active()) != 0 {
		t.Fatalf("unreadable: %+v", sn)
	}
	// shellguard cannot tell a file it cannot read is its own.
	if res, err := s.Add(Entry{Kind: Prefix, Pattern: "ls"}); problemKind(err) != Unreadable || res.MovedAside != "" {
		t.Fatalf("Add: %+v, %v", res, err)
	}
}

func TestSymlinkedFile(t *testing.T) {
	real := newTestStore(t)
	if _, err := real.Add(Entry{Kind: Prefix, Pattern: "go test"}); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "approvals.json")
	if err := os.Symlink(real.Path(), link); err != nil {
		t.Fatal(err)
	}
	s := NewStore(link)
	if sn := s.Load(); sn.Problem != nil || len(sn.Active()) != 1 {
		t.Fatalf("through a link: %+v", sn)
	}
	res, err := s.Add(Entry{Kind: Prefix, Pattern: "go vet"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Path != real.Path() {
		t.Errorf("wrote %s, want the link's target %s", res.Path, real.Path())
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if n := len(real.Load().Active()); n != 2 {
		t.Errorf("target holds %d entries, want 2", n)
	}

	// A link into a folder other users can write is not trusted.
	shared := t.TempDir()
	if err := os.Chmod(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(shared, "approvals.json")
	writeFile(t, target, `{"version":2,"approvals":[{"kind":"prefix","pattern":"rm"}]}`, 0o600)
	link2 := filepath.Join(t.TempDir(), "approvals.json")
	if err := os.Symlink(target, link2); err != nil {
		t.Fatal(err)
	}
	sn := NewStore(link2).Load()
	if problemKind(sn.Problem) != Untrusted || len(sn.Active()) != 0 || len(sn.Entries) != 1 {
		t.Errorf("link into a shared folder: %+v", sn)
	}
}

// TestUntrusted covers files another user could have written: Load
// returns their entries, marked untrusted, and Add refuses to touch them.
func TestUntrusted(t *testing.T) {
	const content = `{"version":2,"approvals":[{"kind":"prefix","pattern":"rm"}]}`
	tests := []struct {
		name     string
		fileMode fs.FileMode
		dirMode  fs.FileMode
		chown    string // "file" or "dir": give it to uid 65534
		want     string
	}{
		{name: "world-writable file", fileMode: 0o666, dirMode: 0o700, want: "writable by its group and by other users"},
		{name: "group-writable file", fileMode: 0o620, dirMode: 0o700, want: "writable by its group"},
		{name: "world-writable folder", fileMode: 0o600, dirMode: 0o777, want: "writable by its group and by other users"},
		{name: "other-writable sticky folder", fileMode: 0o600, dirMode: 0o1703, want: "writable by other users"},
		{name: "group-writable folder", fileMode: 0o600, dirMode: 0o770, want: "writable by its group"},
		{name: "foreign-owned file", fileMode: 0o644, dirMode: 0o755, chown: "file", want: "owned by another user (uid 65534"},
		{name: "foreign-owned folder", fileMode: 0o644, dirMode: 0o755, chown: "dir", want: "owned by another user (uid 65534"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := mkdir(t, filepath.Join(t.TempDir(), "d"))
			path := filepath.Join(dir, "approvals.json")
			writeFile(t, path, content, tt.fileMode)
			if tt.chown != "" {
				if os.Geteuid() != 0 {
					t.Skip("changing a file's owner needs root")
				}
				target := path
				if tt.chown == "dir" {
					target = dir
				}
				if err := os.Chown(target, 65534, 65534); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Chmod(dir, tt.dirMode); err != nil {
				t.Fatal(err)
			}
			s := NewStore(path)
			sn := s.Load()
			if sn.Trusted || len(sn.Active()) != 0 {
				t.Fatalf("untrusted file approves: %+v", sn)
			}
			if len(sn.Entries) != 1 || sn.Entries[0].Pattern != "rm" {
				t.Errorf("untrusted file's entries are not shown: %+v", sn.Entries)
			}
			if problemKind(sn.Problem) != Untrusted {
				t.Fatalf("problem %v, want untrusted", sn.Problem)
			}
			var te *TrustError
			if !errors.As(sn.Problem, &te) {
				t.Fatalf("problem %T is not a *TrustError", sn.Problem)
			}
			msg := sn.Problem.Error()
			for _, want := range []string{path, "not trusted", tt.want, "fix:"} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not mention %q", msg, want)
				}
			}
			if err := checkTrust(path); err == nil {
				t.Error("checkTrust accepted it")
			}

			_, err := s.Add(Entry{Kind: Prefix, Pattern: "go test"})
			if problemKind(err) != Untrusted || !strings.Contains(err.Error(), "refusing") {
				t.Errorf("Add on an untrusted file: %v", err)
			}
			if _, err := s.Remove(Prefix, "rm"); problemKind(err) != Untrusted {
				t.Errorf("Remove on an untrusted file: %v", err)
			}
			if got := testbin.ReadFile(t, path); string(got) != content {
				t.Errorf("untrusted file was changed: %s", got)
			}
		})
	}
}

func TestDefaultPath(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	testbin.XDGPaths(t, "XDG_CONFIG_HOME", DefaultPath, map[string]string{
		"/xdg/config":  "/xdg/config/shellguard/approvals.json",
		"":             filepath.Join(home, ".config", "shellguard", "approvals.json"),
		"relative/dir": filepath.Join(home, ".config", "shellguard", "approvals.json"),
	})
}

func TestConcurrentGoroutines(t *testing.T) {
	s := newTestStore(t)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Go(func() {
			// Each goroutine uses its own Store value on the same file.
			if _, err := NewStore(s.Path()).Add(Entry{Kind: Exact, Pattern: fmt.Sprintf("echo %d", i)}); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := len(s.Load().Active()); n != 40 {
		t.Errorf("got %d entries, want 40", n)
	}
}

// TestHelperProcess is not a real test: TestManyProcessesAdd runs the test
// binary again with it selected, one process per approval.
func TestHelperProcess(t *testing.T) {
	path, id := testbin.Proc(t)
	res, err := NewStore(path).Add(
		Entry{Kind: Prefix, Pattern: fmt.Sprintf("tool%d run", id), GrantedVia: "test"},
		Entry{Kind: Exact, Pattern: fmt.Sprintf("make target-%d", id), GrantedVia: "test"},
		Entry{Kind: Prefix, Pattern: "git status", GrantedVia: "test"}, // every process adds this one
	)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Added)+len(res.AlreadyPresent) != 3 {
		t.Fatalf("AddResult = %+v", res)
	}
}

// TestManyProcessesAdd has many processes add approvals to one file at the
// same time; none may be lost and none duplicated.
func TestManyProcessesAdd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	const procs = 60
	s := NewStore(filepath.Join(t.TempDir(), "shellguard", "approvals.json"))
	testbin.Procs(t, "TestHelperProcess", procs, s.Path())
	sn := s.Load()
	if sn.Problem != nil || !sn.Trusted {
		t.Fatalf("after concurrent adds: %v", sn.Problem)
	}
	seen := map[string]int{}
	for _, e := range sn.Entries {
		seen[string(e.Kind)+" "+e.Pattern]++
	}
	for i := range procs {
		for _, k := range []string{fmt.Sprintf("prefix tool%d run", i), fmt.Sprintf("exact make target-%d", i)} {
			if seen[k] != 1 {
				t.Errorf("%q present %d times, want 1", k, seen[k])
			}
		}
	}
	if seen["prefix git status"] != 1 {
		t.Errorf("shared approval present %d times, want 1", seen["prefix git status"])
	}
	if want := 2*procs + 1; len(sn.Entries) != want {
		t.Errorf("got %d entries, want %d", len(sn.Entries), want)
	}
	// No temporary files are left behind.
	des, err := os.ReadDir(filepath.Dir(s.Path()))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	if len(names) != 2 {
		t.Errorf("folder holds %v, want the file and its lock", names)
	}
}

func BenchmarkAdd(b *testing.B) {
	s := NewStore(filepath.Join(b.TempDir(), "approvals.json"))
	for i := range b.N {
		if _, err := s.Add(Entry{Kind: Exact, Pattern: fmt.Sprintf("echo %d", i%200)}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoad(b *testing.B) {
	s := NewStore(filepath.Join(b.TempDir(), "approvals.json"))
	for i := range 200 {
		if _, err := s.Add(Entry{Kind: Prefix, Pattern: fmt.Sprintf("tool%d run", i)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		if sn := s.Load(); len(sn.Active()) != 200 {
			b.Fatal(sn.Problem)
		}
	}
}

func ExampleStore() {
	dir, err := os.MkdirTemp("", "shellguard-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)

	s := NewStore(filepath.Join(dir, "approvals.json"))
	if _, err := s.Add(Entry{Kind: Prefix, Pattern: "git checkout", GrantedVia: "cli", Command: "git checkout main"}); err != nil {
		fmt.Println(err)
		return
	}
	sn := s.Load()
	if sn.Problem != nil {
		fmt.Println(sn.Problem) // approve nothing from this file
	}
	for _, e := range sn.Active() {
		fmt.Println(e.Kind, e.Display(), e.GrantedVia)
	}
	// Output: prefix git checkout * cli
}
