package policy_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestREADMELibrarySnippet: the README's library snippet is the body of
// Example in example_test.go (one tab of indentation less), which go vet
// and go test compile: what the README shows compiles, with its imports
// and its error handling.
func TestREADMELibrarySnippet(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "\n## Library\n")
	if !ok {
		t.Fatal("README.md has no ## Library section")
	}
	_, after, ok = strings.Cut(after, "```go\n")
	if !ok {
		t.Fatal("README.md's ## Library section has no ```go block")
	}
	snippet, _, ok := strings.Cut(after, "```")
	if !ok {
		t.Fatal("README.md's go block does not end")
	}

	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "example_test.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var body string
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "Example" && fn.Recv == nil {
			body = string(src[fset.Position(fn.Body.Lbrace).Offset+1 : fset.Position(fn.Body.Rbrace).Offset])
		}
	}
	if body == "" {
		t.Fatal("example_test.go has no func Example")
	}
	var want []string
	for _, l := range strings.Split(strings.Trim(body, "\n"), "\n") {
		want = append(want, strings.TrimPrefix(l, "\t"))
	}
	if got := strings.TrimRight(snippet, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("README.md's library snippet is not Example's body; make it:\n%s", strings.Join(want, "\n"))
	}
}
