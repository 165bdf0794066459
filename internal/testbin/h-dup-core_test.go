package testbin

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// fatalTB records a call of Fatal and stops the goroutine, as testing.T's
// does.
type fatalTB struct {
	testing.TB
	fatal bool
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatal(...any) {
	f.fatal = true
	runtime.Goexit()
}

func TestReadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("data"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := ReadFile(t, path); string(got) != "data" {
		t.Errorf("ReadFile = %q, want data", got)
	}
	f := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		ReadFile(f, filepath.Join(t.TempDir(), "missing"))
	}()
	<-done
	if !f.fatal {
		t.Error("ReadFile of a missing file did not fail the test")
	}
}
