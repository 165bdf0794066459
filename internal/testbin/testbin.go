// Package testbin builds the module's commands for the tests that need a
// real executable on disk (the tmux and real-agent end-to-end tests, the
// MCP server's process tests): one go build per command and test process,
// into a temporary folder that Main removes. Tests of cmd/shellguard do
// not use it: testscript runs the test binary itself as shellguard.
// It also holds the few helpers tests across packages share: Procs and
// Proc run one test in many processes at once, Golden compares output
// with a golden file.
package testbin

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Commands maps the name of each command of the module to its package.
var commands = map[string]string{
	"shellguard":      "./cmd/shellguard",
	"shellguard-hook": "./cmd/shellguard-hook",
}

var state struct {
	mu    sync.Mutex
	dir   string // "" outside Main
	built map[string]*build
}

type build struct {
	once sync.Once
	path string
	err  error
}

// Main runs the tests with a temporary folder for the binaries Path
// builds, removes it, and returns m.Run's code: a package's TestMain calls
// os.Exit(testbin.Main(m)).
func Main(m *testing.M) int {
	dir, err := os.MkdirTemp("", "shellguard-testbin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testbin:", err)
		return 2
	}
	state.mu.Lock()
	state.dir, state.built = dir, map[string]*build{}
	state.mu.Unlock()
	defer os.RemoveAll(dir)
	return m.Run()
}

// Path returns the path of the named command ("shellguard" or
// "shellguard-hook"), built on first use in this test process. It skips
// the test in -short mode and fails it when the build fails or the
// package's TestMain does not run Main.
func Path(t testing.TB, name string) string {
	t.Helper()
	state.mu.Lock()
	dir := state.dir
	b := state.built[name]
	if b == nil && dir != "" {
		b = &build{}
		state.built[name] = b
	}
	state.mu.Unlock()
	if dir == "" {
		t.Fatal("testbin.Path needs the package's TestMain to call testbin.Main")
	}
	b.once.Do(func() {
		if _, ok := commands[name]; !ok {
			b.err = fmt.Errorf("testbin: no command %q", name)
			return
		}
		if b.err = Build(dir, name); b.err == nil {
			b.path = filepath.Join(dir, name)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// Build builds the named commands ("shellguard", "shellguard-hook") into
// dir with go build, from the module's root: the binaries sit side by
// side, as go install puts them.
func Build(dir string, names ...string) error {
	if len(names) == 0 {
		return errors.New("testbin: no command to build")
	}
	goPath, err := exec.LookPath("go")
	if err != nil {
		return err
	}
	root, err := ModuleRoot()
	if err != nil {
		return err
	}
	args := []string{"build", "-o", dir + string(filepath.Separator)}
	for _, n := range names {
		pkg, ok := commands[n]
		if !ok {
			return fmt.Errorf("testbin: no command %q", n)
		}
		args = append(args, pkg)
	}
	cmd := exec.Command(goPath, args...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// ModuleRoot returns the folder of the module's go.mod, searched upwards
// from the working directory (a package's folder under go test).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("testbin: go.mod not found above the working directory")
		}
		dir = parent
	}
}

// The variables through which Procs tells each process its file and number.
const (
	envProcPath = "SHELLGUARD_TESTBIN_PROC_PATH"
	envProcID   = "SHELLGUARD_TESTBIN_PROC_ID"
)

// Procs runs the test binary n times at once, each process running only
// the test named helper, which calls Proc to learn path and its number (0
// to n-1), and fails t for each process that cannot start or does not
// exit 0, with its output. It is how a test has many processes use one
// file at the same time.
func Procs(t testing.TB, helper string, n int, path string) {
	t.Helper()
	cmds := make([]*exec.Cmd, n)
	outs := make([]*bytes.Buffer, n)
	for i := range n {
		cmd := exec.Command(os.Args[0], "-test.run=^"+helper+"$", "-test.count=1")
		cmd.Env = append(os.Environ(), envProcPath+"="+path, envProcID+"="+strconv.Itoa(i))
		outs[i] = new(bytes.Buffer)
		cmd.Stdout, cmd.Stderr = outs[i], outs[i]
		cmds[i] = cmd
	}
	for i, cmd := range cmds {
		if err := cmd.Start(); err != nil {
			t.Fatalf("process %d: %v", i, err)
		}
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("process %d: %v\n%s", i, err, outs[i])
		}
	}
}

// Proc returns the path and the number a process started by Procs was
// given. Anywhere else it skips t: the helper test, run as an ordinary
// test, does nothing.
func Proc(t testing.TB) (path string, id int) {
	t.Helper()
	path = os.Getenv(envProcPath)
	if path == "" {
		t.Skip("a helper process for testbin.Procs")
	}
	id, err := strconv.Atoi(os.Getenv(envProcID))
	if err != nil {
		t.Fatal(err)
	}
	return path, id
}

// Golden compares got with the golden file at path, or with update (a
// test's -update flag) writes it there.
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("differs from %s:\n got: %s\nwant: %s", path, got, want)
	}
}

// Need returns the path of a program a test needs; it skips the test when
// the program is missing, except in CI (CI set) where it fails it.
func Need(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is required in CI: %v", name, err)
		}
		t.Skipf("%s not installed", name)
	}
	return p
}

// Run runs cmd with its standard output and error into one buffer, and
// returns what it wrote and its exit status; a command that cannot run
// fails t.
func Run(t testing.TB, cmd *exec.Cmd) (string, int) {
	t.Helper()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), 0
}
