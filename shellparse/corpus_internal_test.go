package shellparse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// eachCorpusField calls fn with every tab-separated field of every line of
// the shared corpora (shared/corpus/*/*.t* in the first directory above the
// package that has them), and skips the test when there are none.
func eachCorpusField(t *testing.T, fn func(field string)) {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for ; ; dir = filepath.Dir(dir) {
		files, _ = filepath.Glob(filepath.Join(dir, "shared", "corpus", "*", "*.t*"))
		if len(files) > 0 || filepath.Dir(dir) == dir {
			break
		}
	}
	if len(files) == 0 {
		t.Skip("no shared/corpus above the package")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			for _, field := range strings.Split(l, "\t") {
				fn(field)
			}
		}
	}
}
