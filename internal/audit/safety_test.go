package audit

import (
	"bytes"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within fails the test when f does not return within d (a hang), rather
// than blocking the test binary.
func within(t *testing.T, d time.Duration, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("did not return within %s", d)
		return nil
	}
}

var rec = Record{Cwd: "/w", Command: "ls -la", Verdict: "allow"}

// TestAppendRefusesWhatIsNotARegularFile is issue 11 item 3: a FIFO at
// the log's path (or its lock's) hung decide and the hook forever.
func TestAppendRefusesWhatIsNotARegularFile(t *testing.T) {
	for _, tc := range []struct{ name, fifo string }{
		{"log", "audit.jsonl"},
		{"lock", ".audit.jsonl.shellguard-lock"},
	} {
		t.Run(tc.name+" is a FIFO", func(t *testing.T) {
			dir := t.TempDir()
			if err := syscall.Mkfifo(filepath.Join(dir, tc.fifo), 0o600); err != nil {
				t.Skip("mkfifo:", err)
			}
			err := within(t, 10*time.Second, func() error { return Append(filepath.Join(dir, "audit.jsonl"), rec) })
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Fatalf("Append = %v, want a not-a-regular-file error", err)
			}
			if err := Check(filepath.Join(dir, "audit.jsonl")); tc.name == "log" && err == nil {
				t.Errorf("Check accepts a FIFO")
			}
		})
	}
	t.Run("log is a folder", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "audit.jsonl"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := Append(filepath.Join(dir, "audit.jsonl"), rec); err == nil {
			t.Fatal("Append wrote into a folder")
		}
	})
}

// TestAppendTrust is issue 11 item 12: the log and its lock obey the
// approval store's trust rules, so another user cannot make shellguard
// append to a file of their choosing.
func TestAppendTrust(t *testing.T) {
	setups := []struct {
		name  string
		root  bool
		setup func(t *testing.T, dir, victimDir string) (log, victim string)
	}{
		{"log in a world-writable folder", false, func(t *testing.T, dir, victimDir string) (string, string) {
			shared := filepath.Join(dir, "shared")
			mkdir(t, shared, 0o777)
			return filepath.Join(shared, "audit.jsonl"), ""
		}},
		{"log in a sticky world-writable folder", false, func(t *testing.T, dir, victimDir string) (string, string) {
			shared := filepath.Join(dir, "tmp")
			mkdir(t, shared, 0o777|os.ModeSticky)
			return filepath.Join(shared, "audit.jsonl"), ""
		}},
		{"link planted in a shared folder", false, func(t *testing.T, dir, victimDir string) (string, string) {
			shared := filepath.Join(dir, "shared")
			mkdir(t, shared, 0o777)
			return filepath.Join(shared, "audit.jsonl"), planted(t, filepath.Join(victimDir, "notes.txt"), filepath.Join(shared, "audit.jsonl"))
		}},
		{"link to a file in a shared folder", false, func(t *testing.T, dir, victimDir string) (string, string) {
			shared := filepath.Join(victimDir, "shared")
			mkdir(t, shared, 0o777)
			return filepath.Join(dir, "audit.jsonl"), planted(t, filepath.Join(shared, "notes.txt"), filepath.Join(dir, "audit.jsonl"))
		}},
		{"world-writable log", false, func(t *testing.T, dir, victimDir string) (string, string) {
			victim := filepath.Join(dir, "audit.jsonl")
			writeFileMode(t, victim, "", 0o666)
			return victim, victim
		}},
		{"dangling link", false, func(t *testing.T, dir, victimDir string) (string, string) {
			symlink(t, filepath.Join(victimDir, "created-by-shellguard"), filepath.Join(dir, "audit.jsonl"))
			return filepath.Join(dir, "audit.jsonl"), ""
		}},
		{"link to another user's file", true, func(t *testing.T, dir, victimDir string) (string, string) {
			victim := foreign(t, filepath.Join(victimDir, "theirs.log"), "keep me\n", 0o644)
			symlink(t, victim, filepath.Join(dir, "audit.jsonl"))
			return filepath.Join(dir, "audit.jsonl"), victim
		}},
		{"log owned by another user", true, func(t *testing.T, dir, victimDir string) (string, string) {
			victim := foreign(t, filepath.Join(dir, "audit.jsonl"), "", 0o644)
			return victim, victim
		}},
		{"lock is a link to another file", false, func(t *testing.T, dir, victimDir string) (string, string) {
			return filepath.Join(dir, "audit.jsonl"), planted(t, filepath.Join(victimDir, "notes.txt"), filepath.Join(dir, ".audit.jsonl.shellguard-lock"))
		}},
		{"lock owned by another user", true, func(t *testing.T, dir, victimDir string) (string, string) {
			foreign(t, filepath.Join(dir, ".audit.jsonl.shellguard-lock"), "", 0o600)
			return filepath.Join(dir, "audit.jsonl"), ""
		}},
	}
	for _, tc := range setups {
		t.Run(tc.name, func(t *testing.T) {
			if tc.root && os.Geteuid() != 0 {
				t.Skip("changing an owner needs root")
			}
			dir, victimDir := t.TempDir(), t.TempDir()
			log, victim := tc.setup(t, dir, victimDir)
			var before []byte
			if victim != "" {
				before, _ = os.ReadFile(victim)
			}
			if err := Append(log, rec); err == nil {
				t.Fatal("Append accepted it")
			}
			if err := Check(log); err == nil {
				t.Error("Check accepted it")
			}
			if victim != "" {
				if after, _ := os.ReadFile(victim); !bytes.Equal(before, after) {
					t.Errorf("%s changed: %q -> %q", victim, before, after)
				}
			}
			if _, err := os.Lstat(filepath.Join(victimDir, "created-by-shellguard")); err == nil {
				t.Error("a file was created through a dangling link")
			}
		})
	}

	// A link to the user's own log (a dotfile manager's) is followed.
	dir, other := t.TempDir(), t.TempDir()
	real := filepath.Join(other, "audit.jsonl")
	writeFileMode(t, real, "", 0o600)
	symlink(t, real, filepath.Join(dir, "audit.jsonl"))
	if err := Append(filepath.Join(dir, "audit.jsonl"), rec); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(real); !bytes.Contains(b, []byte(`"ls -la"`)) {
		t.Errorf("target: %q", b)
	}
	if _, err := os.Stat(filepath.Join(other, ".audit.jsonl.shellguard-lock")); err != nil {
		t.Errorf("lock beside the target: %v", err)
	}
}

// A partial line left by an older writer does not swallow the next
// record: it starts on a line of its own.
func TestAppendStartsOnAFreshLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	writeFileMode(t, path, `{"time":"2026-12-02T10:15:00Z","cwd":"/w","comm`, 0o600)
	if err := Append(path, rec); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], `{"time"`) {
		t.Fatalf("log:\n%s", b)
	}
	if _, err := Read(strings.NewReader(lines[1])); err != nil {
		t.Error(err)
	}
}

const (
	fsizeEnvPath  = "SHELLGUARD_AUDIT_FSIZE_PATH"
	fsizeEnvLimit = "SHELLGUARD_AUDIT_FSIZE_LIMIT"
)

// TestHelperFileSizeLimit is not a real test: TestAppendFullDisk runs the
// test binary again with it selected, under a file size limit.
func TestHelperFileSizeLimit(t *testing.T) {
	path := os.Getenv(fsizeEnvPath)
	if path == "" {
		t.Skip("helper process for TestAppendFullDisk")
	}
	limit, err := strconv.ParseUint(os.Getenv(fsizeEnvLimit), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	// A write past RLIMIT_FSIZE raises SIGXFSZ, which would kill the
	// process; ignored, the write stops short and then fails with EFBIG,
	// as it does on a full disk with ENOSPC.
	signal.Ignore(syscall.SIGXFSZ)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		t.Fatal(err)
	}
	big := Record{Cwd: "/w", Command: "echo " + strings.Repeat("x", 400), Verdict: "ask"}
	for range 3 {
		if err := Append(path, big); err == nil {
			t.Fatal("Append past the file size limit succeeded")
		} else {
			os.Stdout.WriteString("append error: " + err.Error() + "\n")
		}
	}
}

// TestAppendFullDisk is issue 11 item 11: a write that stops short (here
// at a file size limit, RLIMIT_FSIZE, as on a full disk) left a partial
// line, and the next record was glued to it. Now the partial record is cut
// back, the failure is recorded for Check, and a later write clears it.
func TestAppendFullDisk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := Append(path, rec); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	limit := fi.Size() + 100 // room for a part of the next record only
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperFileSizeLimit$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), fsizeEnvPath+"="+path, fsizeEnvLimit+"="+strconv.FormatInt(limit, 10))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "partial record was removed") {
		t.Errorf("the error does not say the partial record was removed:\n%s", out)
	}
	if err := Check(path); err == nil || !strings.Contains(err.Error(), "last write") {
		t.Errorf("Check after a failed write = %v", err)
	}
	if err := Append(path, Record{Cwd: "/w", Command: "git status", Verdict: "allow"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the log is torn: %v\n%s", err, b)
	}
	if len(recs) != 2 || recs[0].Command != "ls -la" || recs[1].Command != "git status" {
		t.Errorf("records %+v\n%s", recs, b)
	}
	if err := Check(path); err != nil {
		t.Errorf("Check after a good write = %v", err)
	}
}

func mkdir(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func writeFileMode(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// planted writes a file worth keeping at victim, links to it from link,
// and returns victim.
func planted(t *testing.T, victim, link string) string {
	t.Helper()
	writeFileMode(t, victim, "keep me\n", 0o600)
	symlink(t, victim, link)
	return victim
}

// foreign writes path with mode, gives it to another user (nobody,
// 65534), and returns path.
func foreign(t *testing.T, path, content string, mode os.FileMode) string {
	t.Helper()
	writeFileMode(t, path, content, mode)
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	return path
}

func symlink(t *testing.T, oldname, newname string) {
	t.Helper()
	if err := os.Symlink(oldname, newname); err != nil {
		t.Fatal(err)
	}
}
