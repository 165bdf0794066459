package testbin

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteFile writes content to path (mode 0644), creating the folders
// above it (mode 0755) as a test's fixtures need them; it stops the test
// when it cannot.
func WriteFile[C string | []byte](t testing.TB, path string, content C) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ReadFile returns the content of the file at path; an error reading it
// fails t.
func ReadFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
