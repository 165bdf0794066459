package danger

import (
	"slices"
	"testing"
)

// TestProgramGlobs: a user's program globs match as the built-in ones do,
// case-insensitively, and "*" matches every program.
func TestProgramGlobs(t *testing.T) {
	d, err := NewDetector([]Pattern{
		{Name: "any_program", Level: Low, Description: "any program", Match: &Spec{Programs: []string{"*"}, Operand: "/srv"}},
		{Name: "tool_family", Level: Medium, Description: "a tool family", Match: &Spec{Programs: []string{"mytool-*"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for line, want := range map[string]string{
		"ls /srv":            "any_program",
		"MyTool-Sync x":      "tool_family",
		"mytool-sync x":      "tool_family",
		"othertool-sync x":   "",
		"ZEDCTL /srv":        "any_program",
		"\u212a /srv":        "any_program",
		"nytool-sync /other": "",
	} {
		got := ""
		for _, w := range d.Check(line) {
			got = w.Pattern.Name
		}
		if got != want {
			t.Errorf("%q: %q, want %q", line, got, want)
		}
	}
}

// TestGlobsSorted: the built-in globs carry their keys and are sorted by
// them, as globsFor needs.
func TestGlobsSorted(t *testing.T) {
	for _, g := range builtinGlobs {
		if g.key != globKey(g.prefix) {
			t.Errorf("glob %q has key %q, want %q: run go generate ./danger", g.prefix, g.key, globKey(g.prefix))
		}
	}
	if !slices.IsSortedFunc(builtinGlobs[:], func(a, b globEntry) int { return int(a.key) - int(b.key) }) {
		t.Error("builtinGlobs is not sorted by globKey: run go generate ./danger")
	}
}
