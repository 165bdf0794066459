package main

import (
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// TestCheckCodeRuns: the generator rejects a code run that can never
// apply or that says something twice.
func TestCheckCodeRuns(t *testing.T) {
	const base = `
[[program]]
names = ["p"]
values = ["-c", "--command"]
subcommands = true
[[program.sub]]
path = "run"
values = ["-x"]
`
	for _, tc := range []struct{ name, data, want string }{
		{"ok", `[[program.code_run]]
at = "option"
names = ["-c", "--command"]
read = "shell"
[[program.code_run]]
sub = "run"
at = "option"
names = ["-x"]
read = "shell"
[[program.code_run]]
at = "env"
names = ["P_PAGER"]
read = "shell"
[program.config_code]
"core.pager" = "shell"
"alias.*" = "alias"`, ""},
		{"unknown place", "[[program.code_run]]\nat = \"argument\"\nread = \"shell\"", "unknown place"},
		{"unknown reader", "[[program.code_run]]\nat = \"stdin\"\nread = \"python\"", "unknown reader"},
		{"option without a value", "[[program.code_run]]\nat = \"option\"\nnames = [\"-v\"]\nread = \"shell\"", "does not say it takes a value"},
		{"a sub's option at the root", "[[program.code_run]]\nat = \"option\"\nnames = [\"-x\"]\nread = \"shell\"", "does not say it takes a value"},
		{"undeclared sub", "[[program.code_run]]\nsub = \"exec\"\nat = \"operands\"\nread = \"argv\"", "declares no sub"},
		{"names at stdin", "[[program.code_run]]\nat = \"stdin\"\nnames = [\"-c\"]\nread = \"shell\"", "names are wanted"},
		{"plus without plus", "[[program.code_run]]\nat = \"option\"\nnames = [\"+\"]\nread = \"vim\"", "plus = true"},
		{"twice", "[[program.code_run]]\nat = \"stdin\"\nread = \"shell\"\n[[program.code_run]]\nat = \"stdin\"\nread = \"shell\"", "described twice"},
		{"conflict", "[[program.code_run]]\nat = \"option\"\nnames = [\"-c\"]\nread = \"shell\"\n[[program.code_run]]\nat = \"option\"\nnames = [\"-c\"]\nread = \"awk\"", "conflicts"},
		{"config kind", "[program.config_code]\n\"core.pager\" = \"program\"", "unknown kind"},
		{"config key", "[program.config_code]\n\"pager\" = \"shell\"", "section.name"},
	} {
		var file struct {
			Program []programDef `toml:"program"`
		}
		if err := toml.Unmarshal([]byte(base+tc.data), &file); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		progs, err := mergePrograms(file.Program)
		if err == nil {
			err = checkProgram(progs["p"])
		}
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

// TestCodeRunsMerge: a program named in two entries gets the runs of
// both, in order, and the same config key set twice differently is an
// error.
func TestCodeRunsMerge(t *testing.T) {
	var file struct {
		Program []programDef `toml:"program"`
	}
	data := `
[[program]]
names = ["a", "b"]
[[program.code_run]]
at = "stdin"
read = "shell"
[[program]]
names = ["b"]
[[program.code_run]]
at = "operand"
read = "awk"
[program.config_code]
"x.y" = "shell"
[[program]]
names = ["b"]
[program.config_code]
"x.y" = "url"
`
	if err := toml.Unmarshal([]byte(data), &file); err != nil {
		t.Fatal(err)
	}
	if _, err := mergePrograms(file.Program); err == nil || !strings.Contains(err.Error(), "set twice") {
		t.Errorf("merge: %v, want a key set twice", err)
	}
	progs, err := mergePrograms(file.Program[:2])
	if err != nil {
		t.Fatal(err)
	}
	if a, b := len(progs["a"].def.CodeRun), len(progs["b"].def.CodeRun); a != 1 || b != 2 || progs["b"].def.CodeRun[1].Read != "awk" {
		t.Errorf("runs of a: %d, of b: %d (%+v)", a, b, progs["b"].def.CodeRun)
	}
}
