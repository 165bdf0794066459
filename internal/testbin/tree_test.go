package testbin

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteTree(t *testing.T) {
	root := t.TempDir()
	WriteTree(t, root, map[string]string{"a.txt": "one", "sub/dir/b.txt": "two"}, 0o600)
	for name, want := range map[string]string{"a.txt": "one", "sub/dir/b.txt": "two"} {
		p := filepath.Join(root, name)
		if got := ReadFile(t, p); string(got) != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v; want 0600", name, fi.Mode(), err)
		}
	}
}

func TestXDGPaths(t *testing.T) {
	path := func() (string, error) {
		if x := os.Getenv("XDG_TESTBIN_HOME"); filepath.IsAbs(x) {
			return filepath.Join(x, "f"), nil
		}
		return "/home/f", nil
	}
	XDGPaths(t, "XDG_TESTBIN_HOME", path, map[string]string{"/x": "/x/f", "": "/home/f", "rel": "/home/f"})

	// A wrong path is an error of the test.
	ft := &fakeTB{TB: t}
	XDGPaths(ft, "XDG_TESTBIN_HOME", path, map[string]string{"/x": "/y/f"})
	if !ft.failed {
		t.Error("a wrong path passed")
	}
}

// fakeTB records Errorf instead of failing the test.
type fakeTB struct {
	testing.TB
	failed bool
}

func (f *fakeTB) Errorf(string, ...any) { f.failed = true }
