package agents

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/shellguard/shellguard/internal/testbin"
)

// built holds the shellguard binaries the sandboxes install, built once by
// TestMain (or taken from $SHELLGUARD_E2E_BIN, a directory holding
// shellguard and shellguard-hook, to test other binaries: an older
// release, say, to see a test fail before its fix).
var built struct {
	once sync.Once
	dir  string
	err  error
}

// shellguardDir returns the directory of the shellguard binaries the
// sandboxes install, building them the first time it is called (a run
// that only installs the agent CLIs builds nothing).
func shellguardDir() (string, error) {
	built.once.Do(func() {
		if built.err == nil && built.dir != "" && os.Getenv("SHELLGUARD_E2E_BIN") == "" {
			built.err = buildShellguard(built.dir)
		}
	})
	return built.dir, built.err
}

func TestMain(m *testing.M) {
	flag.Parse()
	// An agent run mostly waits (for its model, its hooks, its own start),
	// so more runs than cores share the machine well; -parallel given on
	// the command line wins.
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", "4")
	}
	code := func() int {
		if d := os.Getenv("SHELLGUARD_E2E_BIN"); d != "" {
			built.dir, built.err = filepath.Abs(d)
			return m.Run()
		}
		dir, err := os.MkdirTemp("", "sg-agents-bin-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer os.RemoveAll(dir)
		built.dir = dir
		return m.Run()
	}()
	os.Exit(code)
}

// buildShellguard builds shellguard and shellguard-hook into dir, as
// `go install ./cmd/...` puts them side by side.
func buildShellguard(dir string) error {
	return testbin.Build(dir, "shellguard", "shellguard-hook")
}

// inCI reports a CI run ($CI set to anything but "" or "false"): there the
// real-agent tests never skip.
func inCI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "false" && v != "0"
}

// needCLI returns the agent's command, installing it from npm (cached)
// the first time. Outside CI, SHELLGUARD_E2E_AGENTS=0 or -short skips the
// test with a message; in CI nothing skips, and a CLI that cannot be
// installed (no node, no npm, npm registry unreachable) fails the test.
func needCLI(t *testing.T, c cli) string {
	t.Helper()
	if !inCI() {
		if os.Getenv("SHELLGUARD_E2E_AGENTS") == "0" {
			t.Skipf("SHELLGUARD_E2E_AGENTS=0: the real-agent test of %s is skipped", c.Package)
		}
		if testing.Short() {
			t.Skipf("-short: the real-agent test of %s is skipped (it installs %s@%s from npm)", c.Package, c.Package, c.version())
		}
	}
	how := "(set SHELLGUARD_E2E_AGENTS=0 to skip the real-agent tests outside CI)"
	if inCI() {
		how = "(CI must run the real-agent tests: make npm and its registry reachable)"
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("REAL-AGENT TEST NOT RUN: node (>= 20) is needed for %s: %v %s", c.Package, err, how)
	}
	bin, err := c.ensure()
	if err != nil {
		t.Fatalf("REAL-AGENT TEST NOT RUN: cannot install %s@%s: %v %s", c.Package, c.version(), err, how)
	}
	return bin
}
