package main

import (
	"flag"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/shellguard/shellguard/internal/clitest"
)

var update = flag.Bool("update", false, "rewrite the expected output of failing cmp lines in testdata/script")

// TestMain makes this test binary shellguard-hook itself (its main): the
// scripts run it as a command. That it answers as "shellguard hook" does
// is cmd/shellguard's hook_lean.txtar, where both commands are at hand.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"shellguard-hook": main})
}

// TestScripts runs testdata/script/*.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, clitest.Params(t, "testdata/script", *update))
}
