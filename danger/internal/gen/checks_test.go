package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestCheckChecks: the generator rejects a [[check]] it cannot write or
// dispatch.
func TestCheckChecks(t *testing.T) {
	ok := checkDef{Name: "x", Description: "d"}
	for _, tc := range []struct {
		name string
		defs []checkDef
		want string
	}{
		{"ok", []checkDef{ok, {Name: "y", Description: "d", Finds: []string{"fork-bomb", "shell"}, Computed: true}}, ""},
		{"no description", []checkDef{{Name: "x"}}, "needs a lower_case name"},
		{"bad name", []checkDef{{Name: "X-y", Description: "d"}}, "needs a lower_case name"},
		{"twice", []checkDef{ok, ok}, "defined twice"},
		{"computed alone", []checkDef{{Name: "x", Description: "d", Computed: true}}, "computed goes with finds"},
		{"finds on a line check", []checkDef{{Name: "x", Description: "d", Line: true, Finds: []string{"shell"}}}, "computed goes with finds"},
		{"bad kind", []checkDef{{Name: "x", Description: "d", Finds: []string{"ForkBomb"}}}, `finds "ForkBomb"`},
	} {
		_, err := checkChecks("checks.toml", tc.defs)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestEmitFindsChecks: a check with finds gets a function that calls
// codeFinds with its kinds; the others get none.
func TestEmitFindsChecks(t *testing.T) {
	var b bytes.Buffer
	emitFindsChecks(&b, []checkDef{
		{Name: "plain", Description: "d"},
		{Name: "interpreter_fork_bomb", Description: " forks ", Finds: []string{"fork-bomb", "shell"}, Computed: true},
	})
	want := "// checkInterpreterForkBomb: forks.\nfunc checkInterpreterForkBomb(sc *scan, i int) bool {\n\treturn codeFinds(sc.code(i), true, interp.ForkBomb, interp.Shell)\n}\n\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
