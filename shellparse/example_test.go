package shellparse_test

import (
	"fmt"

	"github.com/shellguard/shellguard/shellparse"
)

// A program's standard input, when it is static: here a heredoc with a
// quoted delimiter fed to psql.
func ExampleInvocation_stdin() {
	r := shellparse.Parse("psql app <<'SQL'\nDROP TABLE users;\nSQL")
	inv := r.Invocations[0]
	fmt.Printf("%s %v %q\n", inv.StdinFrom, inv.StdinKnown, inv.Stdin)
	// Output: << true "DROP TABLE users;\n"
}

// Words bash resolves statically are resolved, and marked: the danger
// rules read the value, approvals see a word expanded at run time.
func ExampleParse_resolved() {
	r := shellparse.Parse(`p=rm; for d in / ~; do $p -rf "$d"; done`)
	for _, inv := range r.Invocations[1:] {
		fmt.Println(inv.Argv(), inv.Resolved(), inv.Dynamic())
	}
	// Output:
	// [rm -rf /] $p true
	// [rm -rf ~] $p true
}

// A glob used as a program path: every program it could name.
func ExampleInvocation_candidate() {
	r := shellparse.Parse(`/???/?m -rf /`)
	for _, inv := range r.Invocations {
		fmt.Printf("%q %v %s\n", inv.Program, inv.Candidate, inv.Args[0].Raw)
	}
	// Output:
	// "" false /???/?m
	// "/bin/rm" true /???/?m
}

func ExampleCleanPath() {
	fmt.Println(shellparse.CleanPath("/tmp/../../.."), shellparse.CleanPath("../../../../../../../../../.."), shellparse.CleanPath("~/x/.."))
	// Output: / / ~
}
