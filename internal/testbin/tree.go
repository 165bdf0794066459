package testbin

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// WriteTree writes each file of files (a path relative to root, and its
// content) below root with mode perm, creating the folders above it
// (mode 0755); it stops the test when it cannot.
func WriteTree(t testing.TB, root string, files map[string]string, perm os.FileMode) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), perm); err != nil {
			t.Fatal(err)
		}
	}
}

// XDGPaths checks a default path that follows an XDG base directory
// variable: for each value of env in want (set with t.Setenv, in sorted
// order), path must return want's path for it and no error.
func XDGPaths(t testing.TB, env string, path func() (string, error), want map[string]string) {
	t.Helper()
	for _, xdg := range slices.Sorted(maps.Keys(want)) {
		t.Setenv(env, xdg)
		if got, err := path(); err != nil || got != want[xdg] {
			t.Errorf("%s=%q: %q, %v; want %q", env, xdg, got, err, want[xdg])
		}
	}
}
