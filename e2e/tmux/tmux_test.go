package tmux

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shellguard/shellguard/internal/testbin"
	"github.com/shellguard/shellguard/internal/tui"
)

var update = flag.Bool("update", false, "rewrite the golden screens in testdata/")

// built is the shellguard binary, built once for all tests by TestMain.
var built struct {
	path string
	err  error
}

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "sg-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	built.path, built.err = buildShellguard(dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildShellguard builds the binary into dir.
func buildShellguard(dir string) (string, error) {
	if err := testbin.Build(dir, "shellguard"); err != nil {
		return "", err
	}
	return filepath.Join(dir, "shellguard"), nil
}

// canaryConfig flags `rm canary.txt`; the tests never run anything more
// destructive than removing that file in a temporary directory. Its rules
// deny `touch denied.txt` and ask for `touch asked.txt`, two lines no
// danger pattern flags.
const canaryConfig = `[[pattern]]
name = "canary"
regex = 'rm canary\.txt'
level = "high"
description = "Deletes the canary file."

[rules]
deny = ["touch denied.txt"]
ask = ["touch asked.txt"]
`

// maxWait bounds every wait for the screen to show something.
const maxWait = 10 * time.Second

// env is a test's sandbox: binary, temporary home and work directory.
type env struct {
	t      *testing.T
	tmp    string // root of everything below
	bin    string // the shellguard binary
	work   string // working directory holding canary.txt
	home   string
	config string
	tmux   string
	socket string
	// width and height are the size of the tmux window; 0 means 100x30.
	width, height int
}

func newEnv(t *testing.T) *env {
	t.Helper()
	tmuxPath := testbin.Need(t, "tmux")
	if built.err != nil {
		t.Fatal(built.err)
	}
	// A short root keeps the tmux socket path under the 108-byte limit.
	tmp, err := os.MkdirTemp("", "sg-e2e-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	if tmp, err = filepath.EvalSymlinks(tmp); err != nil {
		t.Fatal(err)
	}
	e := &env{
		t: t, tmp: tmp, tmux: tmuxPath,
		bin:    filepath.Join(tmp, "bin", "shellguard"),
		work:   filepath.Join(tmp, "work"),
		home:   filepath.Join(tmp, "home"),
		config: filepath.Join(tmp, "config.toml"),
		socket: filepath.Join(tmp, "tmux.sock"),
	}
	for _, d := range []string{e.work, e.home, filepath.Dir(e.bin)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(e.config, []byte(canaryConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	e.writeCanary()
	// A copy per test: the snippet embeds its path, which normalize hides.
	b, err := os.ReadFile(built.path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e.bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		exec.Command(e.tmux, "-S", e.socket, "kill-server").Run()
	})
	return e
}

func (e *env) canary() string { return filepath.Join(e.work, "canary.txt") }

func (e *env) writeCanary() {
	if err := os.WriteFile(e.canary(), []byte("tweet\n"), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) canaryExists() bool {
	_, err := os.Stat(e.canary())
	return err == nil
}

// vars is the whole environment of the program under test.
func (e *env) vars(extra ...string) []string {
	return append([]string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + e.home,
		"XDG_CONFIG_HOME=" + filepath.Join(e.home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(e.home, ".local", "state"),
		"XDG_DATA_HOME=" + filepath.Join(e.home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(e.home, ".cache"),
		"SHELLGUARD_CONFIG=" + e.config,
		"SHELLGUARD_APPROVALS=" + filepath.Join(e.home, "approvals.json"),
		"SHELL=/bin/sh",
		"TERM=xterm-256color",
		"LANG=C.UTF-8",
	}, extra...)
}

// start runs argv in a new detached tmux session (100x30 unless the
// env's width and height say otherwise).
func (e *env) start(argv []string, extra ...string) {
	e.t.Helper()
	w, h := e.width, e.height
	if w == 0 {
		w, h = 100, 30
	}
	words := []string{"exec", "env", "-i"}
	for _, v := range e.vars(extra...) {
		words = append(words, quote(v))
	}
	for _, a := range argv {
		words = append(words, quote(a))
	}
	e.run("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "-c", e.work, strings.Join(words, " "))
	// Keep the pane's last screen when the program ends.
	e.run("set-option", "-t", "t", "remain-on-exit", "on")
}

func (e *env) run(args ...string) string {
	e.t.Helper()
	cmd := exec.Command(e.tmux, append([]string{"-S", e.socket}, args...)...)
	cmd.Env = e.vars()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		e.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.String()
}

// typeText types s literally; keys sends tmux key names (Enter, C-d, Up).
func (e *env) typeText(s string) { e.t.Helper(); e.run("send-keys", "-t", "t", "-l", s) }
func (e *env) keys(k ...string) {
	e.t.Helper()
	e.run(append([]string{"send-keys", "-t", "t"}, k...)...)
}

func (e *env) screen() string {
	e.t.Helper()
	return e.run("capture-pane", "-p", "-t", "t")
}

// waitFor polls the screen until ok accepts it, for at most maxWait.
func (e *env) waitFor(what string, ok func(screen string) bool) string {
	e.t.Helper()
	deadline := time.Now().Add(maxWait)
	var s string
	for {
		s = e.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (e *env) waitText(text string) string {
	e.t.Helper()
	return e.waitFor(fmt.Sprintf("%q", text), func(s string) bool { return strings.Contains(s, text) })
}

// waitCount waits until text appears n times.
func (e *env) waitCount(text string, n int) string {
	e.t.Helper()
	return e.waitFor(fmt.Sprintf("%d× %q", n, text), func(s string) bool { return strings.Count(s, text) >= n })
}

// waitFile waits until the canary's existence is want.
func (e *env) waitCanary(want bool) {
	e.t.Helper()
	deadline := time.Now().Add(maxWait)
	for e.canaryExists() != want {
		if time.Now().After(deadline) {
			e.t.Fatalf("canary exists = %v, want %v; screen:\n%s", !want, want, e.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// normalize replaces the temporary paths of a screen and drops trailing
// blank lines and spaces.
func (e *env) normalize(s string) string {
	s = strings.ReplaceAll(s, filepath.Dir(e.bin), "<BIN>")
	s = strings.ReplaceAll(s, e.work, "<WORK>")
	s = strings.ReplaceAll(s, e.tmp, "<TMP>")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
}

// golden compares the normalised screen with testdata/name, or writes it
// with -update.
func (e *env) golden(name, screen string) {
	e.t.Helper()
	got := e.normalize(screen)
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			e.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		e.t.Fatalf("%s missing: run go test ./e2e/tmux -update", path)
	}
	if err != nil {
		e.t.Fatal(err)
	}
	if got != string(want) {
		e.t.Errorf("screen differs from %s (go test ./e2e/tmux -update rewrites it)\n--- got:\n%s--- want:\n%s", path, got, want)
	}
}

// waitPrompt waits until the shell shows its n-th prompt ("$ ") and
// nothing after it, so that what is typed next is not typed ahead.
func (e *env) waitPrompt(n int) {
	e.t.Helper()
	e.waitFor(fmt.Sprintf("prompt %d", n), func(s string) bool {
		lines := strings.Split(strings.TrimRight(s, "\n "), "\n")
		prompts := 0
		for _, l := range lines {
			if strings.HasPrefix(l, "$ ") || l == "$" {
				prompts++
			}
		}
		return prompts >= n && strings.TrimRight(lines[len(lines)-1], " ") == "$"
	})
}

// answer presses k in the TUI's overlay, which ignores every key until it
// has been shown, untouched, for tui.DefaultSettle: it waits for that,
// presses k, and presses again (at most 5 times) while done is false.
func (e *env) answer(k string, done func() bool) {
	e.t.Helper()
	for range 5 {
		time.Sleep(tui.DefaultSettle + 300*time.Millisecond)
		e.keys(k)
		deadline := time.Now().Add(2 * time.Second)
		for time.Now().Before(deadline) {
			if done() {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	e.t.Fatalf("pressing %s did not answer the overlay; screen:\n%s", k, e.screen())
}

func (e *env) exists(name string) bool {
	_, err := os.Stat(filepath.Join(e.work, name))
	return err == nil
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// lineIs reports whether a line of the screen is exactly text (trailing
// spaces aside).
func lineIs(screen, text string) bool {
	for _, l := range strings.Split(screen, "\n") {
		if strings.TrimRight(l, " ") == text {
			return true
		}
	}
	return false
}

func TestShell(t *testing.T) {
	e := newEnv(t)
	e.start([]string{e.bin, "shell"})
	e.waitText("shellguard shell ·")

	// Cancel: nothing runs.
	e.typeText("!rm canary.txt")
	e.keys("Enter")
	s := e.waitFor("the overlay", func(s string) bool {
		return strings.Contains(s, "Dangerous command detected") && strings.Contains(s, "┘")
	})
	for _, want := range []string{"[High] Deletes the canary file.", "Command: rm canary.txt", "[c] Cancel  [p] Proceed anyway"} {
		if !strings.Contains(s, want) {
			t.Errorf("overlay lacks %q:\n%s", want, s)
		}
	}
	e.golden("shell_overlay.txt", s)
	e.answer("c", func() bool { return strings.Contains(e.screen(), "[cancelled]") })
	if !e.canaryExists() {
		t.Fatal("cancel removed the canary")
	}

	// Proceed: it runs.
	e.typeText("!rm canary.txt")
	e.keys("Enter")
	e.waitText("Dangerous command detected")
	e.answer("p", func() bool { return !e.canaryExists() })
	e.waitText("[exit 0]")

	// A clean command runs at once.
	e.typeText("!echo hello")
	e.keys("Enter")
	e.waitFor("hello", func(s string) bool { return lineIs(s, "hello") })
	if strings.Contains(e.screen(), "Dangerous command detected") {
		t.Error("clean command showed the overlay")
	}

	// A line without ! is analysed, not run.
	e.writeCanary()
	e.typeText("rm canary.txt")
	e.keys("Enter")
	e.waitText("? rm canary.txt")
	e.waitText("(type !rm canary.txt to run it)")
	if !e.canaryExists() {
		t.Fatal("analysis ran the command")
	}

	// History: Up brings back the last line, and it is in the 0600 file.
	e.keys("Up")
	e.waitText("› rm canary.txt")
	e.keys("C-c")
	e.waitFor("the cleared prompt", func(s string) bool { return !strings.Contains(s, "› rm canary.txt") })
	hist := filepath.Join(e.home, ".local", "state", "shellguard", "history")
	fi, err := os.Stat(hist)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("history mode %v", fi.Mode().Perm())
	}
	b, _ := os.ReadFile(hist)
	if !strings.Contains(string(b), "!echo hello\n") {
		t.Errorf("history:\n%s", b)
	}

	// Ctrl+D on the empty prompt quits.
	e.keys("C-d")
	e.waitFor("the program to end", func(string) bool {
		return strings.TrimSpace(e.run("display-message", "-p", "-t", "t", "#{pane_dead}")) == "1"
	})
}

func TestShellInterruptAndCd(t *testing.T) {
	e := newEnv(t)
	if err := os.Mkdir(filepath.Join(e.work, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.start([]string{e.bin, "shell"})
	e.waitText("shellguard shell ·")
	e.typeText("!sleep 60")
	e.keys("Enter")
	e.waitText("ctrl+c interrupts")
	t0 := time.Now()
	e.keys("C-c")
	e.waitText("[signal: interrupt]")
	t.Logf("interrupt took %v", time.Since(t0))

	e.typeText("!cd sub")
	e.keys("Enter")
	e.waitText("cwd: " + filepath.Join(e.work, "sub"))
	e.typeText("!pwd")
	e.keys("Enter")
	e.waitFor("pwd output", func(s string) bool { return lineIs(s, filepath.Join(e.work, "sub")) })
}

func TestBashSnippet(t *testing.T) {
	testSnippet(t, "bash", []string{testbin.Need(t, "bash"), "--norc", "--noprofile", "-i"}, "PS1=$ ")
}

func TestZshSnippet(t *testing.T) {
	testSnippet(t, "zsh", []string{testbin.Need(t, "zsh"), "-f", "-i"}, "PS1=$ ")
}

func testSnippet(t *testing.T, shell string, argv []string, ps1 string) {
	e := newEnv(t)
	e.start(argv, ps1, "HISTFILE="+filepath.Join(e.home, "histfile"))
	e.waitPrompt(1)
	e.typeText(`eval "$(` + e.bin + ` init ` + shell + `)"`)
	e.keys("Enter")
	e.waitPrompt(2)

	// A clean line runs with no question.
	e.typeText("echo hello")
	e.keys("Enter")
	e.waitFor("hello", func(s string) bool { return lineIs(s, "hello") })
	e.waitPrompt(3)

	// n: the line does not run.
	e.typeText("rm canary.txt")
	e.keys("Enter")
	s := e.waitText("Proceed? [y/N]")
	if !strings.Contains(s, "Deletes the canary file.") {
		t.Errorf("no warning shown:\n%s", s)
	}
	e.golden(shell+"_prompt.txt", s)
	e.keys("n")
	e.waitText("shellguard: not run")
	if !e.canaryExists() {
		t.Fatal("answering n removed the canary")
	}

	// y: it runs.
	e.typeText("rm canary.txt")
	e.keys("Enter")
	e.waitCount("Proceed? [y/N]", 2)
	e.keys("y")
	e.waitCanary(false)
}
