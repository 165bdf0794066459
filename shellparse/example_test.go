package shellparse_test

import (
	"fmt"

	"github.com/shellguard/shellguard/shellparse"
)

// Parse finds every program a line runs: here sudo's bash runs rm from a
// string, in the first stage of a pipeline. A line that does not parse is
// still a Result, with Problems: what it runs is unknown, never safe.
func ExampleParse() {
	res := shellparse.Parse(`sudo -u bob bash -c 'rm -rf /tmp/x' | tee log`)
	if err := res.Err(); err != nil {
		fmt.Println("unknown, never safe:", err)
		return
	}
	for i, inv := range res.Invocations {
		fmt.Printf("[%d] %v wrappers=%v run by=%d where=%s\n", i, inv.Argv(), inv.Wrappers, inv.Parent, inv.Where.Path())
	}
	fmt.Println(shellparse.Parse("echo 'open").Err())
	// Output:
	// [0] [bash -c rm -rf /tmp/x] wrappers=[{sudo [-u bob]}] run by=-1 where=pipeline stage 1/2
	// [1] [rm -rf /tmp/x] wrappers=[] run by=0 where=pipeline stage 1/2 > shell string bash -c
	// [2] [tee log] wrappers=[] run by=-1 where=pipeline stage 2/2
	// syntax: line 1 column 6: reached EOF without closing quote `'`
}

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
