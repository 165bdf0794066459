package main

import (
	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/shellguard/shellguard/internal/clitest"
	"github.com/shellguard/shellguard/internal/hook"
)

var update = flag.Bool("update", false, "rewrite the expected output of failing cmp lines in testdata/script")

// TestMain makes this test binary the two commands of the module: run as
// "shellguard" it is cmd/shellguard, as "shellguard-hook" the lean hook
// binary (cmd/shellguard-hook's main is hook.Main). testscript.Main puts
// both names on PATH, for the scripts and for the Go tests that run the
// binary (sgBinary): no test builds a binary.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"shellguard":      func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"shellguard-hook": func() { os.Exit(hook.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs testdata/script/*.txtar: each a CLI session (commands,
// standard input, expected output and exit status) in a fresh home.
func TestScripts(t *testing.T) {
	testscript.Run(t, clitest.Params(t, "testdata/script", *update))
}
