package tmux

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shellguard/shellguard/internal/testbin"
)

// startGuarded starts bash or zsh with an rc file that sets PS1, loads
// the snippet and then runs rc, and waits for the first prompt.
func (e *env) startGuarded(shell, rc string, extra ...string) {
	e.t.Helper()
	text := "PS1='$ '\n" + `eval "$(` + e.bin + ` init ` + shell + `)"` + "\n" + rc + "\n"
	switch shell {
	case "bash":
		path := filepath.Join(e.tmp, "bashrc")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			e.t.Fatal(err)
		}
		e.start([]string{testbin.Need(e.t, "bash"), "--rcfile", path, "--noprofile", "-i"}, extra...)
	case "zsh":
		dir := filepath.Join(e.tmp, "zdot")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			e.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".zshrc"), []byte(text), 0o644); err != nil {
			e.t.Fatal(err)
		}
		// -d: no global rc files (the system's zshrc binds keys too).
		e.start([]string{testbin.Need(e.t, "zsh"), "-d", "-i"}, append(extra, "ZDOTDIR="+dir)...)
	}
	e.waitPrompt(1)
}

// clear clears the screen (Ctrl+L) and waits for the bare prompt.
func (e *env) clear() {
	e.t.Helper()
	e.keys("C-l")
	e.waitFor("a clear screen", func(s string) bool { return strings.TrimSpace(s) == "$" })
}

// refuse answers n to the question on screen and waits for "not run"; it
// fails at once if the canary went away instead (the line ran unchecked).
func (e *env) refuse(what string) {
	e.t.Helper()
	e.waitFor("the question", func(s string) bool { return strings.Contains(s, "Proceed? [y/N]") || !e.canaryExists() })
	if !e.canaryExists() {
		e.t.Fatalf("%s ran the line unchecked:\n%s", what, e.screen())
	}
	e.keys("n")
	e.waitText("shellguard: not run")
}

func forShells(t *testing.T, f func(t *testing.T, shell string)) {
	for _, sh := range []string{"bash", "zsh"} {
		t.Run(sh, func(t *testing.T) { f(t, sh) })
	}
}

// TestSnippetVerdicts: the snippet acts on the same decision as the hooks,
// the user's rules included (issue 11 item 4): a deny rule refuses the
// line with its reason and asks nothing; an ask rule asks. At main the
// snippet ran `check`, which sees danger warnings only, and both lines
// ran with no question.
func TestSnippetVerdicts(t *testing.T) {
	forShells(t, func(t *testing.T, shell string) {
		e := newEnv(t)
		e.startGuarded(shell, "")

		e.typeText("touch denied.txt")
		e.keys("Enter")
		e.waitFor("the refusal", func(s string) bool { return strings.Contains(s, "not run (denied)") || e.exists("denied.txt") })
		if e.exists("denied.txt") {
			t.Fatalf("a line denied by a rule ran:\n%s", e.screen())
		}
		s := e.waitText("shellguard: not run (denied)")
		if !strings.Contains(s, "deny: denied by your rule touch denied.txt") || strings.Contains(s, "Proceed?") {
			t.Errorf("deny:\n%s", s)
		}
		if e.exists("denied.txt") {
			t.Fatal("a line denied by a rule ran")
		}

		e.clear()
		e.typeText("touch asked.txt")
		e.keys("Enter")
		s = e.waitText("Proceed? [y/N]")
		if !strings.Contains(s, "your rule touch asked.txt asks for confirmation") {
			t.Errorf("ask:\n%s", s)
		}
		e.golden(shell+"_ask_rule.txt", s)
		e.refuse("an ask rule")
		if e.exists("asked.txt") {
			t.Fatal("answering n ran it")
		}
		e.clear()
		e.typeText("touch asked.txt")
		e.keys("Enter")
		e.waitText("Proceed? [y/N]")
		e.keys("y")
		e.waitFor("asked.txt", func(string) bool { return e.exists("asked.txt") })
	})
}

// TestSnippetTypeAhead: what is typed before "Proceed? [y/N]" appears is
// dropped, and a y that comes with more keys (a paste) is no answer
// (issue 11 item 5). At main `rm canary.txt`, Enter, `yes`, Enter typed
// as one burst removed the canary.
func TestSnippetTypeAhead(t *testing.T) {
	forShells(t, func(t *testing.T, shell string) {
		e := newEnv(t)
		e.startGuarded(shell, "")

		e.typeText("rm canary.txt\ryes\r") // one write
		e.waitText("Proceed? [y/N]")
		time.Sleep(time.Second)
		if !e.canaryExists() {
			t.Fatal("the typed-ahead y answered the question")
		}
		e.keys("n")
		e.waitText("shellguard: not run")
		time.Sleep(500 * time.Millisecond)
		if s := e.screen(); strings.Contains(s, "$ yes") || strings.Contains(s, "$ es") {
			t.Errorf("the typed-ahead line was not dropped:\n%s", s)
		}

		e.clear()
		e.typeText("rm canary.txt")
		e.keys("Enter")
		e.waitText("Proceed? [y/N]")
		e.typeText("yes\r") // pasted once the question is there
		e.waitText("a paste?")
		if !e.canaryExists() {
			t.Fatal("a pasted yes answered the question")
		}

		// A y on its own is an answer.
		e.clear()
		e.typeText("rm canary.txt")
		e.keys("Enter")
		e.waitText("Proceed? [y/N]")
		e.keys("y")
		e.waitCanary(false)
	})
}

// TestBashAcceptKeys: every key that makes bash run the line goes through
// the check (issue 11 item 6): C-o (operate-and-get-next), C-x C-e and
// vi's v (the edited text is checked), M-# with an argument (which
// uncomments and runs), C-j. At main all but C-j ran the line unchecked.
func TestBashAcceptKeys(t *testing.T) {
	e := newEnv(t)
	editor := filepath.Join(e.tmp, "editor")
	// The "editor" replaces the line with the canary's removal.
	if err := os.WriteFile(editor, []byte("#!/bin/sh\necho 'rm canary.txt' > \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.startGuarded("bash", "", "VISUAL="+editor)
	steps := []struct {
		name, text string
		keys       []string
	}{
		{"C-o", "rm canary.txt", []string{"C-o"}},
		{"C-x C-e", "echo safe", []string{"C-x", "C-e"}},
		{"C-j", "rm canary.txt", []string{"C-j"}},
	}
	for _, st := range steps {
		e.clear()
		e.typeText(st.text)
		e.keys(st.keys...)
		e.refuse(st.name)
		if !e.canaryExists() {
			t.Fatalf("%s ran the line unchecked", st.name)
		}
	}
	// M-# with an argument used to uncomment and run: now it only comments
	// the line, and a comment runs nothing (no question: nothing flagged it).
	e.clear()
	e.typeText("#rm canary.txt")
	e.keys("M-1", "M-#")
	e.waitText("##rm canary.txt")
	e.waitPrompt(2)
	if !e.canaryExists() {
		t.Fatal("M-1 M-# ran the line unchecked")
	}
	// vi mode: v edits and runs. (set -o vi is not flagged: a line you
	// type that is only not approved yet runs without a question.)
	e.clear()
	e.typeText("set -o vi")
	e.keys("Enter")
	e.waitPrompt(2)
	// (C-l does not clear the screen in vi's insert mode.)
	e.typeText("echo safe")
	e.keys("Escape")
	time.Sleep(200 * time.Millisecond)
	e.keys("v")
	e.waitFor("the question", func(s string) bool { return strings.Contains(s, "Proceed? [y/N]") || !e.canaryExists() })
	if !e.canaryExists() {
		t.Fatal("vi's v ran the edited line unchecked")
	}
	e.keys("n")
	e.waitText("shellguard: not run")
	if !e.canaryExists() {
		t.Fatal("vi's v ran the edited line unchecked")
	}
}

// TestZshAcceptKeys: C-o (accept-line-and-down-history), ESC-a
// (accept-and-hold) and C-j go through the check (issue 11 item 6). At
// main only the accept-line widget was wrapped.
func TestZshAcceptKeys(t *testing.T) {
	e := newEnv(t)
	e.startGuarded("zsh", "")
	for _, keys := range [][]string{{"C-o"}, {"Escape", "a"}, {"C-j"}} {
		e.clear()
		e.typeText("rm canary.txt")
		e.keys(keys...)
		e.refuse(strings.Join(keys, " "))
		if !e.canaryExists() {
			t.Fatalf("%v ran the line unchecked", keys)
		}
		e.keys("C-u") // accept-and-hold keeps the line
	}
}

// TestSnippetSaysWhenNotInEffect: a binding made after the snippet takes
// a key away from the guard; the snippet says so at the first prompt
// (and shellguard_status on demand), and zsh says so again when a line
// runs unchecked (issue 11 item 6). At main nothing was said.
func TestSnippetSaysWhenNotInEffect(t *testing.T) {
	rcs := map[string]string{
		"bash": `bind '"\C-m": accept-line'`,
		"zsh":  `bindkey '^M' .accept-line`,
	}
	forShells(t, func(t *testing.T, shell string) {
		e := newEnv(t)
		e.startGuarded(shell, rcs[shell])
		s := e.waitText("NOT IN EFFECT")
		key := map[string]string{"bash": `"\C-m"`, "zsh": `"^M"`}[shell]
		if !strings.Contains(s, "NOT IN EFFECT for "+key) || !strings.Contains(s, "load the snippet again") {
			t.Errorf("start-up message:\n%s", s)
		}
		e.clear()
		e.typeText("shellguard_status")
		e.keys("Enter")
		e.waitText("NOT IN EFFECT for " + key)
		if shell == "zsh" {
			e.clear()
			e.typeText("echo unchecked")
			e.keys("Enter")
			e.waitText("this line was NOT checked")
		}
		// Loading the snippet again puts the guard back.
		e.clear()
		e.typeText(`eval "$(` + e.bin + ` init ` + shell + `)"`)
		e.keys("Enter")
		e.clear()
		e.typeText("shellguard_status")
		e.keys("Enter")
		e.waitText("shellguard: in effect")
	})
}
