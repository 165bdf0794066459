package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProjectFilesUnion is issue 11 item 13: the nearest .shellguard.toml
// replaced the stricter one of the enclosing project. Every file from the
// project's root down to the working directory applies now.
func TestProjectFilesUnion(t *testing.T) {
	strict := "deny_at = \"high\"\n[rules]\ndeny = [\"rm *\"]\nask = [\"git push *\"]\n"
	cases := []struct {
		name string
		// files maps paths (under the temp dir) to their content; "" makes
		// a folder .git, "gitfile" a .git file.
		files     map[string]string
		cwd       string
		wantDeny  []string
		wantFiles int
	}{
		{"empty file in a dependency", map[string]string{
			"repo/.git/":                              "",
			"repo/.shellguard.toml":                   strict,
			"repo/node_modules/dep/.shellguard.toml":  "",
			"repo/node_modules/dep/lib/placeholder.x": "x",
		}, "repo/node_modules/dep/lib", []string{"rm *"}, 2},
		{"a dependency that is a repository of its own", map[string]string{
			"repo/.git/":                       "",
			"repo/.shellguard.toml":            strict,
			"repo/vendor/dep/.git":             "gitdir: ../../.git/modules/dep\n",
			"repo/vendor/dep/.shellguard.toml": "[rules]\ndeny = [\"curl *\"]\n",
		}, "repo/vendor/dep", []string{"rm *", "curl *"}, 2},
		{"three levels", map[string]string{
			"repo/.git/":                  "",
			"repo/.shellguard.toml":       strict,
			"repo/a/.shellguard.toml":     "[rules]\ndeny = [\"dd *\"]\n",
			"repo/a/b/c/.shellguard.toml": "[rules]\ndeny = [\"mkfs *\"]\n",
		}, "repo/a/b/c", []string{"rm *", "dd *", "mkfs *"}, 3},
		{"files above the repository are not read", map[string]string{
			".shellguard.toml":      "[rules]\ndeny = [\"ls *\"]\n",
			"repo/.git/":            "",
			"repo/.shellguard.toml": strict,
		}, "repo", []string{"rm *"}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for p, content := range tc.files {
				full := filepath.Join(dir, p)
				switch {
				case strings.HasSuffix(p, "/"):
					if err := os.MkdirAll(full, 0o755); err != nil {
						t.Fatal(err)
					}
				default:
					write(t, full, content)
				}
			}
			opts := isolated(dir)
			opts.Cwd = filepath.Join(dir, tc.cwd)
			c := mustLoad(t, opts)
			if got := rulePatterns(c.Deny); strings.Join(got, "|") != strings.Join(tc.wantDeny, "|") {
				t.Errorf("deny rules %q, want %q", got, tc.wantDeny)
			}
			n := 0
			for _, f := range c.Files {
				if f.Layer == LayerProject {
					n++
				}
			}
			if n != tc.wantFiles {
				t.Errorf("%d project files read, want %d: %+v", n, tc.wantFiles, c.Files)
			}
			if strings.Contains(tc.files["repo/.shellguard.toml"], "high") && c.DenyAt.String() != "High" {
				t.Errorf("deny_at %v: the root's stricter threshold was lost", c.DenyAt)
			}
			// config show names every file read.
			var b bytes.Buffer
			if err := c.Show(&b); err != nil {
				t.Fatal(err)
			}
			for _, f := range c.Files {
				if !strings.Contains(b.String(), "project\t"+f.File) && !strings.Contains(b.String(), f.File) {
					t.Errorf("config show does not name %s:\n%s", f.File, b.String())
				}
			}
		})
	}
}

// A deeper file cannot undo what an outer one tightened.
func TestProjectFilesStayTightenOnly(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "repo", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "repo", ".shellguard.toml"), "ask_at = \"low\"\ndeny_at = \"high\"\nread_only = false\n[builtin.git_reset_hard]\nlevel = \"critical\"\n")
	write(t, filepath.Join(dir, "repo", "sub", ".shellguard.toml"), "deny_at = \"critical\"\nread_only = true\n[builtin.git_reset_hard]\nlevel = \"medium\"\n")
	opts := isolated(dir)
	opts.Cwd = filepath.Join(dir, "repo", "sub")
	c := mustLoad(t, opts)
	if c.DenyAt.String() != "High" || c.ReadOnly || c.Relevel["git_reset_hard"].Level.String() != "Critical" {
		t.Errorf("the inner file loosened the outer: deny_at %v read_only %v git_reset_hard %v", c.DenyAt, c.ReadOnly, c.Relevel["git_reset_hard"])
	}
	if len(c.Notices) < 3 {
		t.Errorf("notices %q", c.Notices)
	}
}

// TestProjectBounds is issue 11 item 2's first half: what project files
// may add is bounded before anything is compiled.
func TestProjectBounds(t *testing.T) {
	pattern := func(i int, regex string) string {
		return fmt.Sprintf("[[pattern]]\nname = \"p%d\"\nlevel = \"high\"\nregex = '%s'\n", i, regex)
	}
	many := func(n, from int, regex string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(pattern(from+i, regex))
		}
		return b.String()
	}
	rules := func(n int, rule string) string {
		var b strings.Builder
		b.WriteString("[rules]\ndeny = [\n")
		for i := range n {
			fmt.Fprintf(&b, "  \"%s %d\",\n", rule, i)
		}
		b.WriteString("]\n")
		return b.String()
	}
	cases := []struct {
		name, outer, inner, wantErr string
	}{
		{"within the bounds", many(50, 0, `\bfoo\b`), rules(100, "tool"), ""},
		{"too many patterns in one file", many(MaxProjectPatterns+1, 0, `x`), "", "at most 100 [[pattern]]"},
		{"too many patterns in two files", many(60, 0, `x`), many(60, 100, `y`), "at most 100 [[pattern]]"},
		{"a heavy regex", pattern(0, `(?:\w+\s*){1000}`), "", "instructions"},
		{"heavy regexes together", many(8, 0, `[a-z]{600}\d{300}`), "", "together"},
		{"a long regex", pattern(0, strings.Repeat("a", MaxProjectRegexBytes+1)), "", "at most 1024"},
		{"too many rules", rules(MaxProjectRules+1, "x"), "", "at most 500 ask and deny rules"},
		{"long rules", rules(200, strings.Repeat("*a", 50)), "", "bytes together"},
		{"too many bytes", "# " + strings.Repeat("x", 700<<10) + "\n", "# " + strings.Repeat("y", 400<<10) + "\n", "bytes together"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "repo", ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(dir, "repo", ".shellguard.toml"), tc.outer)
			if tc.inner != "" {
				write(t, filepath.Join(dir, "repo", "sub", ".shellguard.toml"), tc.inner)
			}
			opts := isolated(dir)
			opts.Cwd = filepath.Join(dir, "repo", "sub")
			if err := os.MkdirAll(opts.Cwd, 0o755); err != nil {
				t.Fatal(err)
			}
			_, err := Load(opts)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatal(err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("Load = %v, want an error with %q", err, tc.wantErr)
			}
			// The same file as the user's own is not bounded.
			if tc.inner == "" && tc.wantErr != "" && !strings.Contains(tc.name, "bytes") {
				user := filepath.Join(dir, "user", "config.toml")
				write(t, user, tc.outer)
				if _, err := CheckFileWith(user, LayerUser, LoadOptions{BuiltinLevel: builtinLevel}); err != nil {
					t.Errorf("as a user file: %v", err)
				}
			}
		})
	}
}
