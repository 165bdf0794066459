package testbin

import (
	"os"
	"testing"
)

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
