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
	if data := ReadFile(t, path); string(data) != "two" {
		t.Fatalf("read %q; want \"two\"", data)
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

// TestFilesFail: a path under a regular file cannot be written, a
// missing file cannot be read, and the test that asked is stopped.
func TestFilesFail(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	WriteFile(t, file, "x")
	for what, call := range map[string]func(testing.TB){
		"WriteFile under a regular file": func(tb testing.TB) { WriteFile(tb, filepath.Join(file, "below", "x"), "y") },
		"ReadFile of a missing file":     func(tb testing.TB) { ReadFile(tb, filepath.Join(file+".missing")) },
	} {
		if !fails(t, call) {
			t.Errorf("%s did not fail the test", what)
		}
	}
}

// fails reports whether call stops the test it is given with Fatal.
func fails(t *testing.T, call func(testing.TB)) bool {
	ft := &fatalT{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		call(ft)
	}()
	<-done
	return ft.failed
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

func TestJSONLine(t *testing.T) {
	got := JSONLine(t, map[string]any{"a": "<&>\n", "b": []int{1}})
	if want := "{\"a\":\"<&>\\n\",\"b\":[1]}\n"; string(got) != want {
		t.Errorf("JSONLine = %q, want %q", got, want)
	}
}
