package testbin

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a", "b", "c.txt")
	WriteFile(t, path, "one")
	WriteFile(t, path, []byte("two")) // replaces, from bytes too
	if data, err := os.ReadFile(path); err != nil || string(data) != "two" {
		t.Fatalf("read %q, %v; want \"two\"", data, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644&^umask(t) {
		t.Errorf("mode %v, %v", fi.Mode(), err)
	}
}

// umask returns the process's umask, which masks the modes WriteFile asks
// for.
func umask(t *testing.T) os.FileMode {
	p := filepath.Join(t.TempDir(), "probe")
	if err := os.WriteFile(p, nil, 0o777); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return 0o777 &^ fi.Mode().Perm()
}

// TestWriteFileFails: a path under a regular file cannot be written, and
// the test that asked is stopped.
func TestWriteFileFails(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	WriteFile(t, file, "x")
	ft := &fatalT{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		WriteFile(ft, filepath.Join(file, "below", "x"), "y")
	}()
	<-done
	if !ft.failed {
		t.Error("WriteFile under a regular file did not fail the test")
	}
}

// fatalT records Fatal and ends the goroutine, as testing.T does.
type fatalT struct {
	testing.TB
	failed bool
}

func (f *fatalT) Helper() {}

func (f *fatalT) Fatal(args ...any) {
	f.failed = true
	runtime.Goexit()
}
