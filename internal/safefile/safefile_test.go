package safefile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.Mkdir(a, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(b, 0o700); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(b, "f")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	// a/l1 -> ../b/l2 -> f
	if err := os.Symlink("f", filepath.Join(b, "l2")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../b/l2", filepath.Join(a, "l1")); err != nil {
		t.Fatal(err)
	}
	realDir, _ := filepath.EvalSymlinks(dir)
	tg, err := Resolve(filepath.Join(a, "l1"))
	if err != nil {
		t.Fatal(err)
	}
	if tg.Real != filepath.Join(realDir, "b", "f") || len(tg.Links) != 2 || tg.Info == nil || tg.Dangling() {
		t.Fatalf("%+v", tg)
	}
	if d := tg.Dirs(); len(d) != 2 || d[0] != filepath.Join(realDir, "a") || d[1] != filepath.Join(realDir, "b") {
		t.Errorf("Dirs = %v", d)
	}
	if err := tg.Trust("file", "", os.Geteuid()); err != nil {
		t.Errorf("Trust = %v", err)
	}
	if err := os.Chmod(a, 0o777); err != nil {
		t.Fatal(err)
	}
	var te *TrustError
	if err := tg.Trust("file", "", os.Geteuid()); !errors.As(err, &te) || te.Path != filepath.Join(realDir, "a") {
		t.Errorf("Trust with the link's folder shared = %v", err)
	}

	// A link to nothing.
	if err := os.Symlink("missing", filepath.Join(b, "dangling")); err != nil {
		t.Fatal(err)
	}
	tg, err = Resolve(filepath.Join(b, "dangling"))
	if err != nil || !tg.Dangling() || tg.Real != filepath.Join(realDir, "b", "missing") {
		t.Errorf("dangling: %+v, %v", tg, err)
	}
	// A loop.
	if err := os.Symlink("loop", filepath.Join(b, "loop")); err != nil {
		t.Fatal(err)
	}
	if _, err := Resolve(filepath.Join(b, "loop")); err == nil {
		t.Error("a link loop resolved")
	}
}

func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, link, dir} {
		done := make(chan error, 1)
		go func() {
			f, _, err := Open(p, os.O_WRONLY|os.O_APPEND, 0)
			if f != nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			var nr *NotRegularError
			if !errors.As(err, &nr) && !errors.Is(err, syscall.EISDIR) {
				t.Errorf("Open(%s) = %v", p, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Open(%s) blocked", p)
		}
	}
}

func TestLock(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "store.json")
	if LockPath(real) != filepath.Join(dir, ".store.json.shellguard-lock") {
		t.Fatal(LockPath(real))
	}
	unlock, err := Lock(context.Background(), time.Minute, "file", real, real, os.Geteuid())
	if err != nil {
		t.Fatal(err)
	}
	// A second holder waits, then gives up: after wait, or with the
	// context.
	if _, err := Lock(context.Background(), 50*time.Millisecond, "file", real, real, os.Geteuid()); err == nil || !strings.Contains(err.Error(), "held the lock") {
		t.Errorf("second Lock = %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Lock(ctx, time.Minute, "file", real, real, os.Geteuid()); err == nil || !strings.Contains(err.Error(), "held the lock") {
		t.Errorf("second Lock = %v", err)
	}
	unlock()
	unlock2, err := Lock(context.Background(), time.Minute, "file", real, real, os.Geteuid())
	if err != nil {
		t.Fatal(err)
	}
	unlock2()
	if err := CheckLock("file", real, real, os.Geteuid()); err != nil {
		t.Error(err)
	}
}
