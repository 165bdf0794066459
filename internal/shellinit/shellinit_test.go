package shellinit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/shellguard/shellguard/internal/shquote"
	"github.com/shellguard/shellguard/internal/testbin"
)

// fakeDecide is a stand-in for `shellguard decide --cwd DIR -` with its
// exit codes (0 allow, 10 ask, 11 deny, 2 error); it reads the line from
// standard input and writes the directory it was given to $FAKE_CWD_LOG.
const fakeDecide = `#!/bin/sh
[ "$1" = decide ] && [ "$2" = --cwd ] && [ "$4" = - ] || { echo "usage: $*" >&2; exit 2; }
[ -n "$FAKE_CWD_LOG" ] && printf '%s\n' "$3" >"$FAKE_CWD_LOG"
line=$(cat)
case "$line" in
  *"rm canary.txt"*) echo "ask: needs confirmation: Deletes the canary file. (High, rule canary)"
     echo "  [High] Dangerous command detected: Deletes the canary file."; exit 10 ;;
  "touch denied.txt") echo "deny: denied by your rule touch denied.txt"; exit 11 ;;
  "rm shadow.txt") echo 'allow (shadow mode, mode = "warn": not enforced; enforcement would ask): needs confirmation'
     echo "  [High] Dangerous command detected: Deletes the shadow file."; exit 0 ;;
  "touch asked.txt") echo "ask: your rule touch asked.txt asks for confirmation"; exit 10 ;;
  *broken*) echo "cannot parse" >&2; exit 2 ;;
  *crash*) kill -SEGV $$ ;;
esac
echo "allow: allowed"
exit 0
`

func writeFake(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "shellguard")
	if err := os.WriteFile(p, []byte(fakeDecide), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSnippet(t *testing.T) {
	for _, sh := range Shells() {
		s, err := Snippet(sh, "/opt/it's here/shellguard")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(s, `__shellguard_default_bin="/opt/it's here/shellguard"`) {
			t.Errorf("%s: binary not embedded:\n%s", sh, s)
		}
		if strings.Contains(s, placeholder) {
			t.Errorf("%s: placeholder left", sh)
		}
		if !strings.Contains(s, `decide --cwd "$PWD" - --source shell --typed 2>&1 <<<"$line"`) || !strings.Contains(s, "SHELLGUARD_BIN") {
			t.Errorf("%s: does not call decide or honour SHELLGUARD_BIN", sh)
		}
	}
	errs := []struct{ shell, bin string }{
		{"fish", "/bin/shellguard"},
		{"", "/bin/shellguard"},
		{"bash", "shellguard"},
		{"zsh", "/bin/a\nb"},
	}
	for _, e := range errs {
		if _, err := Snippet(e.shell, e.bin); err == nil {
			t.Errorf("Snippet(%q, %q) did not fail", e.shell, e.bin)
		}
	}
}

func TestSnippetSyntax(t *testing.T) {
	for _, sh := range Shells() {
		t.Run(sh, func(t *testing.T) {
			shell := testbin.Need(t, sh)
			s, err := Snippet(sh, "/usr/bin/shellguard")
			if err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(shell, "-n", "-c", s).CombinedOutput()
			if err != nil {
				t.Fatalf("%s -n: %v\n%s", sh, err, out)
			}
		})
	}
}

// TestSnippetBinary: bash and zsh read the embedded binary back as the
// path given, whatever characters it holds.
func TestSnippetBinary(t *testing.T) {
	for _, sh := range Shells() {
		t.Run(sh, func(t *testing.T) {
			shell := testbin.Need(t, sh)
			for _, bin := range []string{"/usr/bin/shellguard", "/opt/it's here/shellguard", `/opt/$(id)/` + "`id`" + `/a"b\c`, "/opt/tab\there/ü/sg", "/opt/*/[a]/~x"} {
				s, err := Snippet(sh, bin)
				if err != nil {
					t.Fatal(err)
				}
				out, err := exec.Command(shell, "-c", s+"\nprintf %s \"$__shellguard_default_bin\"").Output()
				if err != nil || string(out) != bin {
					t.Errorf("%q reads back as %q (%v)", bin, out, err)
				}
			}
		})
	}
}

// runShell runs script with the snippet loaded in a new session (no
// controlling terminal), the answer on standard input.
func runShell(t *testing.T, shell, script, answer string, env ...string) (string, int) {
	t.Helper()
	return runShellArgs(t, shell, nil, script, answer, env...)
}

// runShellArgs is runShell with more arguments for the shell (-i).
func runShellArgs(t *testing.T, shell string, extra []string, script, answer string, env ...string) (string, int) {
	t.Helper()
	path := testbin.Need(t, shell)
	snip, err := Snippet(shell, writeFake(t))
	if err != nil {
		t.Fatal(err)
	}
	args := append(extra, "-c", snip+"\n"+script)
	if shell == "zsh" {
		args = append([]string{"-f"}, args...)
	} else {
		args = append([]string{"--norc", "--noprofile"}, args...)
	}
	cmd := exec.Command(path, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	cmd.Stdin = strings.NewReader(answer)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return testbin.Run(t, cmd)
}

// TestBashConfirm: the snippet acts on decide's exit status (issue 11
// item 4): 0 runs, 11 refuses with the reason and asks nothing, 10 asks,
// anything else fails closed with a message and asks.
func TestBashConfirm(t *testing.T) {
	tests := []struct {
		name, line, answer string
		wantCode           int
		wantOut            []string
		quiet, noQuestion  bool
	}{
		{"allow", "echo hello", "", 0, nil, true, true},
		{"blank", "   ", "", 0, nil, true, true},
		{"status", "shellguard_status", "", 0, nil, true, true},
		{"flagged no", "rm canary.txt", "n", 1, []string{"Deletes the canary file.", "Proceed? [y/N]", "not run"}, false, false},
		{"flagged enter", "rm canary.txt", "\n", 1, []string{"not run"}, false, false},
		{"flagged no input", "rm canary.txt", "", 1, []string{"not run"}, false, false},
		{"flagged yes", "rm canary.txt", "y", 0, []string{"Deletes the canary file."}, false, false},
		{"flagged Yes", "rm canary.txt", "Y", 0, nil, false, false},
		{"deny rule", "touch denied.txt", "y", 1, []string{"deny: denied by your rule touch denied.txt", "shellguard: not run (denied)"}, false, true},
		{"ask rule no", "touch asked.txt", "n", 1, []string{"your rule touch asked.txt asks", "Proceed? [y/N]", "not run"}, false, false},
		{"ask rule yes", "touch asked.txt", "y", 0, []string{"Proceed? [y/N]"}, false, false},
		{"error asks", "broken (", "n", 1, []string{"cannot parse", "could not decide on this line (exit 2)", "not run"}, false, false},
		{"error yes", "broken (", "y", 0, []string{"could not decide"}, false, false},
		{"crash asks", "crash", "n", 1, []string{"could not decide on this line (exit 139)", "not run"}, false, false},
		{"shadow mode shows and runs", "rm shadow.txt", "", 0, []string{"shadow mode", "Deletes the shadow file."}, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			script := `__shellguard_confirm ` + shquote.Quote(tc.line)
			out, code := runShell(t, "bash", script, tc.answer)
			if code != tc.wantCode {
				t.Errorf("status %d, want %d; output:\n%s", code, tc.wantCode, out)
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if tc.quiet && out != "" {
				t.Errorf("allowed line printed %q", out)
			}
			if tc.noQuestion && strings.Contains(out, "Proceed?") {
				t.Errorf("asked:\n%s", out)
			}
		})
	}
}

// TestSnippetPassesCwd: the decision is made for the shell's current
// directory (it selects the project configuration).
func TestSnippetPassesCwd(t *testing.T) {
	for _, sh := range Shells() {
		t.Run(sh, func(t *testing.T) {
			dir := t.TempDir()
			log := filepath.Join(t.TempDir(), "cwd")
			out, code := runShell(t, sh, "cd "+shquote.Quote(dir)+" && __shellguard_confirm 'echo hi'", "", "FAKE_CWD_LOG="+log)
			if code != 0 {
				t.Fatalf("status %d:\n%s", code, out)
			}
			b, err := os.ReadFile(log)
			if err != nil || strings.TrimSpace(string(b)) != dir {
				t.Errorf("--cwd %q (%v), want %q", b, err, dir)
			}
		})
	}
}

func TestBashMissingBinaryAsks(t *testing.T) {
	out, code := runShell(t, "bash", `SHELLGUARD_BIN=/nonexistent/shellguard __shellguard_confirm 'ls'`, "n")
	if code != 1 || !strings.Contains(out, "could not decide") {
		t.Errorf("status %d, output:\n%s", code, out)
	}
}

func TestBashReadlineEmptiesRefusedLine(t *testing.T) {
	script := `set -o history
READLINE_LINE='rm canary.txt'; READLINE_POINT=13
__shellguard_readline
printf '[%s]\n' "$READLINE_LINE"
history
`
	out, code := runShell(t, "bash", script, "n")
	if code != 0 || !strings.Contains(out, "rm canary.txt\nask: needs confirmation") || !strings.Contains(out, "not run\n[]") {
		t.Errorf("status %d, output:\n%s", code, out)
	}
	if !strings.Contains(out[strings.Index(out, "[]"):], "rm canary.txt") {
		t.Errorf("refused line not in history:\n%s", out)
	}
	out, _ = runShell(t, "bash", `READLINE_LINE='rm canary.txt'; __shellguard_readline; printf '[%s]\n' "$READLINE_LINE"`, "y")
	if !strings.Contains(out, "[rm canary.txt]") {
		t.Errorf("accepted line changed:\n%s", out)
	}
	out, _ = runShell(t, "bash", `READLINE_LINE='echo hi'; __shellguard_readline; printf '[%s]\n' "$READLINE_LINE"`, "")
	if out != "[echo hi]\n" {
		t.Errorf("clean line: %q", out)
	}
}

func TestZshConfirm(t *testing.T) {
	// Without a terminal, zsh's read -k cannot read an answer: asked lines
	// are refused; the y answer is covered by the tmux tests in e2e/tmux.
	out, code := runShell(t, "zsh", `__shellguard_confirm 'echo hello'`, "")
	if code != 0 || out != "" {
		t.Errorf("allow: status %d, output %q", code, out)
	}
	out, code = runShell(t, "zsh", `__shellguard_confirm 'rm canary.txt'`, "y")
	if code != 1 || !strings.Contains(out, "Deletes the canary file.") || !strings.Contains(out, "not run") {
		t.Errorf("ask: status %d, output:\n%s", code, out)
	}
	out, code = runShell(t, "zsh", `__shellguard_confirm 'touch denied.txt'`, "y")
	if code != 1 || !strings.Contains(out, "not run (denied)") || strings.Contains(out, "Proceed?") {
		t.Errorf("deny: status %d, output:\n%s", code, out)
	}
	out, code = runShell(t, "zsh", `__shellguard_confirm 'rm shadow.txt'`, "")
	if code != 0 || !strings.Contains(out, "shadow mode") || strings.Contains(out, "Proceed?") {
		t.Errorf("shadow mode: status %d, output:\n%s", code, out)
	}
	out, code = runShell(t, "zsh", `__shellguard_confirm 'broken ('`, "")
	if code != 1 || !strings.Contains(out, "could not decide on this line (exit 2)") {
		t.Errorf("error: status %d, output:\n%s", code, out)
	}
}

func TestBinary(t *testing.T) {
	t.Setenv("SHELLGUARD_BIN", "/custom/shellguard")
	if b, err := Binary(); err != nil || b != "/custom/shellguard" {
		t.Errorf("Binary() = %q, %v", b, err)
	}
	t.Setenv("SHELLGUARD_BIN", "")
	b, err := Binary()
	if err != nil || !filepath.IsAbs(b) {
		t.Errorf("Binary() = %q, %v", b, err)
	}
}

// TestBashGuardsEveryAcceptKey: every key bound to a readline command
// that runs the line — Enter, C-j, C-o, C-x C-e, M-#, and vi's v and # —
// goes through the check (issue 11 item 6), a binding made after the
// snippet is reported by shellguard_status, and loading the snippet
// again binds it back. At main only Enter and C-j were covered.
func TestBashGuardsEveryAcceptKey(t *testing.T) {
	script := `
bind -m emacs -s; bind -m vi-command -s; bind -m vi-insert -s
echo "--- status"; shellguard_status; echo "rc=$?"
bind '"\C-m": accept-line'; bind -m vi-insert '"\C-xr": operate-and-get-next'
echo "--- after bind"; shellguard_status; echo "rc=$?"
eval "$__sg_snippet"
echo "--- again"; shellguard_status; echo "rc=$?"
`
	snip, err := Snippet("bash", writeFake(t))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := runShellArgs(t, "bash", []string{"-i"}, script, "", "__sg_snippet="+snip)
	before, rest, _ := strings.Cut(out, "--- status")
	for _, want := range []string{
		`"\C-m": "\C-x\C-]c\C-x\C-]a"`,
		`"\C-j": "\C-x\C-]c\C-x\C-]a"`,
		`"\C-o": "\C-x\C-]c\C-x\C-]o"`,
		`"\C-x\C-e": "\C-x\C-]e\C-x\C-]c\C-x\C-]a"`,
		`"\e#": "\C-x\C-]#\C-x\C-]c\C-x\C-]a"`,
		`"v": "\C-x\C-]v\C-x\C-]c\C-x\C-]a"`,
		`"#": "\C-x\C-]#\C-x\C-]c\C-x\C-]a"`,
	} {
		if !strings.Contains(before, want) {
			t.Errorf("bindings lack %s:\n%s", want, before)
		}
	}
	status, rest, _ := strings.Cut(rest, "--- after bind")
	after, again, _ := strings.Cut(rest, "--- again")
	if !strings.Contains(status, "in effect") || !strings.Contains(status, "rc=0") {
		t.Errorf("status at start:\n%s", status)
	}
	for _, want := range []string{`NOT IN EFFECT for "\C-m" (keymap emacs): it runs accept-line`, `NOT IN EFFECT for "\C-xr" (keymap vi-insert): it runs operate-and-get-next`, "load the snippet again", "rc=1"} {
		if !strings.Contains(after, want) {
			t.Errorf("status after the user's bind lacks %q:\n%s", want, after)
		}
	}
	if !strings.Contains(again, "in effect") || !strings.Contains(again, "rc=0") {
		t.Errorf("status after loading the snippet again:\n%s", again)
	}
}

// TestZshGuardsEveryAcceptWidget: the widgets that run the line are
// wrapped by name (accept-line, accept-and-hold, accept-line-and-down-
// history, accept-and-infer-next-history), which covers every key bound
// to them; a key bound to zsh's own .accept-line, or accept-line made
// zsh's own again, is reported; loading the snippet again fixes both.
func TestZshGuardsEveryAcceptWidget(t *testing.T) {
	script := `
zmodload zsh/zleparameter
for w in accept-line accept-and-hold accept-line-and-down-history accept-and-infer-next-history; do print -r -- "$w=${widgets[$w]}"; done
echo "--- status"; shellguard_status; echo "rc=$?"
bindkey '^X^M' .accept-line
zle -A .accept-and-hold accept-and-hold
echo "--- after bind"; shellguard_status; echo "rc=$?"
eval "$__sg_snippet"
echo "--- again"; shellguard_status; echo "rc=$?"; bindkey '^X^M'
`
	snip, err := Snippet("zsh", writeFake(t))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := runShellArgs(t, "zsh", []string{"-i"}, script, "", "__sg_snippet="+snip)
	before, rest, _ := strings.Cut(out, "--- status")
	for _, w := range []string{"accept-line", "accept-and-hold", "accept-line-and-down-history", "accept-and-infer-next-history"} {
		if !strings.Contains(before, w+"=user:__shellguard_w_"+w+"\n") {
			t.Errorf("%s is not wrapped:\n%s", w, before)
		}
	}
	status, rest, _ := strings.Cut(rest, "--- after bind")
	after, again, _ := strings.Cut(rest, "--- again")
	if !strings.Contains(status, "in effect") || !strings.Contains(status, "rc=0") {
		t.Errorf("status at start:\n%s", status)
	}
	for _, want := range []string{`NOT IN EFFECT for "^X^M" (keymap emacs): it runs .accept-line`, "NOT IN EFFECT for the accept-and-hold widget", "rc=1"} {
		if !strings.Contains(after, want) {
			t.Errorf("status after the user's bindings lacks %q:\n%s", want, after)
		}
	}
	if !strings.Contains(again, "in effect") || !strings.Contains(again, "rc=0") || !strings.Contains(again, `"^X^M" accept-line`) {
		t.Errorf("after loading the snippet again:\n%s", again)
	}
}
