package policy_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/shellguard/shellguard/policy"
)

func hasWarning(d policy.Decision, rule string) bool {
	for _, w := range d.Warnings {
		if w.Pattern.Name == rule {
			return true
		}
	}
	return false
}

// TestContextRule: a recursive delete of build or cache folders inside
// the project gets no warning; the nearest other deletes keep theirs.
func TestContextRule(t *testing.T) {
	h := newHome(t, `safe_delete = ["out/cache", "*.tmpbuild"]`)
	p := h.proj
	for _, d := range []string{"node_modules/.cache", "build", "target", ".next", ".turbo", "coverage", "__pycache__",
		".pytest_cache", ".venv", "foo.egg-info", "src", "out/cache", "out/keep", "x.tmpbuild", "app/node_modules", "app/src",
		".git/node_modules"} {
		if err := os.MkdirAll(filepath.Join(p, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	outside := filepath.Join(h.dir, "outside")
	if err := os.MkdirAll(filepath.Join(outside, "node_modules"), 0o700); err != nil {
		t.Fatal(err)
	}
	// dist is a link to a folder outside the project; lib/dist is a link
	// inside it; "dist2" a plain file.
	if err := os.Symlink(outside, filepath.Join(p, "dist")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(p, "build"), filepath.Join(p, "coverage2")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(p, "linked")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p, "build.log"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(p, "pkg"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p, "pkg", "build"), nil, 0o600); err != nil {
		t.Fatal(err)
	}

	quiet := []string{
		"rm -rf node_modules",
		"rm -rf node_modules/",
		"rm -rf ./node_modules",
		"rm -r -f node_modules",
		"rm -fr build target",
		"rm --recursive --force .next .turbo",
		"rm -rf -- coverage __pycache__ .pytest_cache",
		"rm -rf .venv foo.egg-info",
		"rm -rf node_modules/.cache",
		"rm -rf app/node_modules",
		"/bin/rm -rf build",
		"rm -rf " + filepath.Join(p, "node_modules"),
		"rm -rf node_modules && npm install",
		"ls && rm -rf build",
		"rm -rf build; rm -rf target",
		"bash -c 'rm -rf build'",
		"rm -rf out/cache",
		"rm -rf x.tmpbuild",
	}
	loud := []string{
		"rm -rf .git",
		"rm -rf .git/node_modules",
		"rm -rf .",
		"rm -rf ./",
		"rm -rf " + p,
		"rm -rf ..",
		"rm -rf ../node_modules",
		"rm -rf node_modules/../src",
		"rm -rf build/../src",
		"rm -rf dist",
		"rm -rf dist/",
		"rm -rf dist/node_modules",
		"rm -rf linked/node_modules",
		"rm -rf coverage2",
		"rm -rf src",
		"rm -rf node_modules src",
		"rm -rf out/keep",
		"rm -rf out",
		"rm -rf pkg/build",
		"rm -rf missing/build",
		"rm -rf " + filepath.Join(outside, "node_modules"),
		"rm -rf ~/proj/node_modules",
		"rm -rf $PWD/node_modules",
		`rm -rf "$(pwd)/node_modules"`,
		"rm -rf node_*",
		"rm -rf *.egg-info",
		"cd /tmp && rm -rf node_modules",
		"cd .. ; rm -rf build",
		"ln -sfn / build && rm -rf build/",
		"mv src build && rm -rf build",
		"ssh host rm -rf node_modules",
		"find . -name node_modules -exec rm -rf {} +",
		"echo node_modules | xargs rm -rf",
		"rm -rf node_modules &",
	}
	g := h.guard(t, "cli")
	for _, line := range quiet {
		if d := h.decide(t, g, line); hasWarning(d, "rm_recursive") {
			t.Errorf("%q: still warned: %s", line, d.Reason)
		}
	}
	for _, line := range loud {
		if d := h.decide(t, g, line); !hasWarning(d, "rm_recursive") {
			t.Errorf("%q: no rm_recursive warning (%d warnings): %s", line, len(d.Warnings), d.Reason)
		}
	}

	// From a folder of the project, relative to it.
	sub := filepath.Join(p, "app")
	if d := g.Decide(policy.Request{Command: "rm -rf node_modules", Cwd: sub}); hasWarning(d, "rm_recursive") {
		t.Error("app/node_modules from app: warned")
	}
	if d := g.Decide(policy.Request{Command: "rm -rf src", Cwd: sub}); !hasWarning(d, "rm_recursive") {
		t.Error("app/src from app: not warned")
	}
	// Without a .git, the working folder is the project.
	if d := g.Decide(policy.Request{Command: "rm -rf node_modules", Cwd: outside}); hasWarning(d, "rm_recursive") {
		t.Error("node_modules in a folder without .git: warned")
	}
	// Other warnings on the same line stay.
	if d := h.decide(t, g, "sudo rm -rf node_modules"); len(d.Warnings) == 0 {
		t.Error("sudo rm: all warnings dropped")
	}
	// safe_delete is the user's: a project file cannot add to it.
	h2 := newHome(t, "")
	h2.write(t, "proj/.shellguard.toml", `safe_delete = ["src"]`+"\n")
	if err := os.MkdirAll(filepath.Join(h2.proj, "src"), 0o700); err != nil {
		t.Fatal(err)
	}
	if d := h2.decide(t, h2.guard(t, "cli"), "rm -rf src"); !hasWarning(d, "rm_recursive") {
		t.Error("a project file's safe_delete was honoured")
	}
}
