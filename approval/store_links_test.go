package approval

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/shellguard/shellguard/internal/testbin"
)

// snapshotDir returns the names and contents of the files in dir.
func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			out[e.Name()] = "-> " + l
		case fi.Mode().IsRegular():
			out[e.Name()] = string(testbin.ReadFile(t, p))
		default:
			out[e.Name()] = fi.Mode().String()
		}
	}
	return out
}

func sameDir(t *testing.T, dir string, before map[string]string) {
	t.Helper()
	after := snapshotDir(t, dir)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s/%s changed: %q -> %q", dir, k, v, after[k])
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("%s/%s was created", dir, k)
		}
	}
}

// TestWritersRefuseWhatIsNotAStore covers issue 11 item 1: Add and Remove
// follow a symbolic link only to a valid, trusted approvals file, and
// never change, move aside or create a lock beside anything else.
func TestWritersRefuseWhatIsNotAStore(t *testing.T) {
	valid := `{"version":2,"approvals":[{"kind":"prefix","pattern":"ls"}]}`
	cases := []struct {
		name string
		// setup prepares store (the path given to the Store) and
		// target (a folder of its own), and returns the folders that
		// must not change.
		setup func(t *testing.T, store, target string)
		kind  ProblemKind
	}{
		{"link to a shell rc file", func(t *testing.T, store, target string) {
			writeFile(t, filepath.Join(target, "bashrc"), "export FOO=1\n", 0o644)
			mustSymlink(t, filepath.Join(target, "bashrc"), store)
		}, NotAStore},
		{"relative link to a shell rc file", func(t *testing.T, store, target string) {
			writeFile(t, filepath.Join(target, "bashrc"), "export FOO=1\n", 0o644)
			rel, err := filepath.Rel(filepath.Dir(store), filepath.Join(target, "bashrc"))
			if err != nil {
				t.Fatal(err)
			}
			mustSymlink(t, rel, store)
		}, NotAStore},
		{"link to a damaged store", func(t *testing.T, store, target string) {
			writeFile(t, filepath.Join(target, "approvals.json"), `{"version":2,"approvals":[{"kind":"prefix","pat`, 0o600)
			mustSymlink(t, filepath.Join(target, "approvals.json"), store)
		}, NotAStore},
		{"link to an empty file", func(t *testing.T, store, target string) {
			writeFile(t, filepath.Join(target, "nologin"), "", 0o644)
			mustSymlink(t, filepath.Join(target, "nologin"), store)
		}, NotAStore},
		{"dangling link", func(t *testing.T, store, target string) {
			mustSymlink(t, filepath.Join(target, "missing.json"), store)
		}, NotAStore},
		{"link to a link to a shell rc file", func(t *testing.T, store, target string) {
			writeFile(t, filepath.Join(target, "bashrc"), "export FOO=1\n", 0o644)
			mustSymlink(t, filepath.Join(target, "bashrc"), filepath.Join(target, "rc"))
			mustSymlink(t, filepath.Join(target, "rc"), store)
		}, NotAStore},
		{"link to a folder", func(t *testing.T, store, target string) {
			mustSymlink(t, target, store)
		}, NotAStore},
		{"link to a valid store through a shared folder", func(t *testing.T, store, target string) {
			shared := filepath.Join(target, "shared")
			if err := os.Mkdir(shared, 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(shared, 0o777); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(target, "approvals.json"), valid, 0o600)
			mustSymlink(t, filepath.Join(target, "approvals.json"), filepath.Join(shared, "link"))
			mustSymlink(t, filepath.Join(shared, "link"), store)
		}, Untrusted},
		{"mistyped path: an ssh config", func(t *testing.T, store, target string) {
			writeFile(t, store, "Host *\n  ServerAliveInterval 60\n", 0o600)
		}, NotAStore},
		{"an empty file", func(t *testing.T, store, target string) {
			writeFile(t, store, "", 0o600)
		}, NotAStore},
		{"a FIFO", func(t *testing.T, store, target string) {
			if err := syscall.Mkfifo(store, 0o600); err != nil {
				t.Skip("mkfifo:", err)
			}
		}, Unreadable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			storeDir, target := t.TempDir(), t.TempDir()
			store := filepath.Join(storeDir, "approvals.json")
			tc.setup(t, store, target)
			before, beforeTarget := snapshotDir(t, storeDir), snapshotDir(t, target)
			s := NewStore(store)
			res, err := s.Add(Entry{Kind: Prefix, Pattern: "tool"})
			if err == nil || problemKind(err) != tc.kind {
				t.Fatalf("Add = %+v, %v; want a %s error", res, err, tc.kind)
			}
			if res.MovedAside != "" || len(res.Added) != 0 {
				t.Errorf("Add reports changes: %+v", res)
			}
			if _, err := s.Remove(Prefix, "ls"); err == nil {
				t.Errorf("Remove accepted it")
			}
			sameDir(t, storeDir, before)
			sameDir(t, target, beforeTarget)
			if sn := s.Load(); len(sn.Active()) != 0 {
				t.Errorf("it approves: %+v", sn)
			}
		})
	}
}

// A link to a valid, trusted store is followed, also through a chain of
// links; the replacement and the lock are at the final target.
func TestWriteThroughLinkChain(t *testing.T) {
	storeDir, target := t.TempDir(), t.TempDir()
	real := filepath.Join(target, "approvals.json")
	writeFile(t, real, `{"version":2,"approvals":[{"kind":"prefix","pattern":"ls"}]}`, 0o600)
	mid := filepath.Join(target, "mid.json")
	mustSymlink(t, "approvals.json", mid)
	link := filepath.Join(storeDir, "approvals.json")
	mustSymlink(t, mid, link)
	res, err := NewStore(link).Add(Entry{Kind: Prefix, Pattern: "tool"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Path != real {
		t.Errorf("wrote %s, want %s", res.Path, real)
	}
	for _, l := range []string{link, mid} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v", l, err)
		}
	}
	if _, err := os.Stat(filepath.Join(target, ".approvals.json.shellguard-lock")); err != nil {
		t.Errorf("no lock beside the target: %v", err)
	}
	if ents, _ := os.ReadDir(storeDir); len(ents) != 1 {
		t.Errorf("files created beside the link: %v", ents)
	}
	if n := len(NewStore(real).Load().Active()); n != 2 {
		t.Errorf("target holds %d approvals, want 2", n)
	}
}

// The lock file is shellguard's own: a symbolic link, a FIFO or a folder
// planted at its name is refused, and what a planted link points to is not
// touched.
func TestLockFileIsNeverFollowed(t *testing.T) {
	for _, kind := range []string{"symlink", "fifo", "folder"} {
		t.Run(kind, func(t *testing.T) {
			dir, other := t.TempDir(), t.TempDir()
			store := filepath.Join(dir, "approvals.json")
			lock := filepath.Join(dir, ".approvals.json.shellguard-lock")
			victim := filepath.Join(other, "passwd")
			writeFile(t, victim, "root:x:0:0::/root:/bin/sh\n", 0o644)
			switch kind {
			case "symlink":
				mustSymlink(t, victim, lock)
			case "fifo":
				if err := syscall.Mkfifo(lock, 0o600); err != nil {
					t.Skip("mkfifo:", err)
				}
			case "folder":
				mkdir(t, lock)
			}
			before := snapshotDir(t, other)
			_, err := NewStore(store).Add(Entry{Kind: Prefix, Pattern: "tool"})
			if err == nil || !strings.Contains(err.Error(), "lock") {
				t.Fatalf("Add = %v, want a lock file error", err)
			}
			sameDir(t, other, before)
			if _, err := os.Lstat(store); err == nil {
				t.Errorf("the store was written without a lock")
			}
		})
	}
}

func TestLockFileOfAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("changing a file's owner needs root")
	}
	dir := t.TempDir()
	lock := filepath.Join(dir, ".approvals.json.shellguard-lock")
	writeFile(t, lock, "", 0o600)
	if err := os.Chown(lock, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if _, err := NewStore(filepath.Join(dir, "approvals.json")).Add(Entry{Kind: Prefix, Pattern: "tool"}); problemKind(err) != Untrusted {
		t.Fatalf("Add = %v, want untrusted", err)
	}
}

func TestRemoveOnMissingCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(filepath.Join(dir, "sub", "approvals.json"))
	if found, err := s.Remove(Prefix, "ls"); found || err != nil {
		t.Fatalf("Remove = %v, %v", found, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("Remove created %v", ents)
	}
}

func mustSymlink(t *testing.T, oldname, newname string) {
	t.Helper()
	if err := os.Symlink(oldname, newname); err != nil {
		t.Fatal(err)
	}
}
