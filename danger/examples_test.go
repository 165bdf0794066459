package danger_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/internal/testbin"
)

// TestRuleExamples runs every built-in rule's examples through the real
// detector: each hit line gets the rule, each miss line does not. Rules
// of the packs on by default are checked with danger.Default(), the
// others with a detector of every pack. go generate ./danger runs it after
// generating, so that generation fails when an example does not hold.
func TestRuleExamples(t *testing.T) {
	var all []danger.Pattern
	on := map[string]bool{}
	for _, p := range danger.Packs() {
		ps, ok := danger.PackPatterns(p.Name)
		if !ok || len(ps) != len(p.Rules) {
			t.Fatalf("pack %s: %d patterns, %d rules", p.Name, len(ps), len(p.Rules))
		}
		all = append(all, ps...)
		for _, r := range p.Rules {
			on[r] = p.Default
		}
	}
	every := danger.MustNewDetector(all)
	def := danger.Default()
	n := 0
	for _, p := range all {
		d := every
		if on[p.Name] {
			d = def
		}
		if len(p.Hit) == 0 || len(p.Miss) == 0 {
			t.Errorf("%s: needs hit and miss examples", p.Name)
		}
		for _, line := range p.Hit {
			n++
			if got := rulesFor(d, line); !slices.Contains(got, p.Name) {
				t.Errorf("%s: hit %q gets %v", p.Name, line, got)
			}
		}
		for _, line := range p.Miss {
			n++
			if got := rulesFor(d, line); slices.Contains(got, p.Name) {
				t.Errorf("%s: miss %q gets it (%v)", p.Name, line, got)
			}
		}
	}
	t.Logf("%d examples of %d rules", n, len(all))
}

// scratchTree skips the test in -short mode (why: what it builds), and
// returns the repository's root and a temporary directory holding a copy
// of rels (files or directories relative to the root, without their
// testdata).
func scratchTree(t *testing.T, why string, rels ...string) (root, tmp string) {
	t.Helper()
	if testing.Short() {
		t.Skip(why)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	tmp = t.TempDir()
	copyTree(t, root, tmp, rels...)
	return root, tmp
}

// copyTree copies the files at rel (a file or a directory, relative to
// root) into dst.
func copyTree(t *testing.T, root, dst string, rels ...string) {
	t.Helper()
	for _, rel := range rels {
		src := filepath.Join(root, rel)
		err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			r, _ := filepath.Rel(root, p)
			out := filepath.Join(dst, r)
			if fi.IsDir() {
				if fi.Name() == "testdata" {
					return filepath.SkipDir
				}
				return os.MkdirAll(out, 0o755)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(out, b, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// generate runs the generator in the tree at dir.
func generate(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("go", "run", "./danger/internal/gen", "-rules", "danger/rules", "-checks", "danger/checks.toml",
		"-programs", "internal/programs/data", "-out", "danger/rules_gen.go", "-programs-out", "internal/programs/programs_gen.go")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generator: %v\n%s", err, out)
	}
}

// TestWalkthrough: the walk-through of docs/rules.md (a pack for a new
// program, with its facts, in one file) generates, and its examples hold
// through the real detector.
func TestWalkthrough(t *testing.T) {
	root, tmp := scratchTree(t, "builds the generator and the package",
		"go.mod", "go.sum", "danger", "shellparse", "internal/programs", "internal/shquote", "internal/testbin", "internal/textlex")
	doc := testbin.ReadFile(t, filepath.Join(root, "docs", "rules.md"))
	_, after, ok := strings.Cut(string(doc), "TestWalkthrough generates and tests the block below. -->\n```toml\n")
	block, _, ok2 := strings.Cut(after, "```\n")
	if !ok || !ok2 || !strings.Contains(block, "[pack]") {
		t.Fatal("docs/rules.md: the walk-through's TOML block not found")
	}
	if err := os.WriteFile(filepath.Join(tmp, "danger", "rules", "nomad.toml"), []byte(block), 0o644); err != nil {
		t.Fatal(err)
	}
	generate(t, tmp)
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestRuleExamples$", "./danger")
	cmd.Dir = tmp
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the walk-through's examples: %v\n%s", err, out)
	}
}

// TestGeneratedUpToDate regenerates the registry and the program table
// from the data, in a copy of the tree that has neither generated file (the
// generator imports neither package it writes), and compares them with the
// committed ones.
func TestGeneratedUpToDate(t *testing.T) {
	root, tmp := scratchTree(t, "builds the generator",
		"go.mod", "go.sum", "danger/rules", "danger/checks.toml", "danger/internal/gen", "danger/internal/reprefix", "internal/programs/data", "internal/textlex")
	generate(t, tmp)
	for _, rel := range []string{"danger/rules_gen.go", "internal/programs/programs_gen.go"} {
		if !bytes.Equal(testbin.ReadFile(t, filepath.Join(tmp, rel)), testbin.ReadFile(t, filepath.Join(root, rel))) {
			t.Errorf("%s is out of date: run go generate ./danger", rel)
		}
	}
}
