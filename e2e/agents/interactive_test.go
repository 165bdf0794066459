package agents

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Interactive sessions, driven in a detached tmux like a person at a
// terminal: the agent's own prompt is where shellguard's ask must land.

// term is one agent running interactively in tmux.
type term struct {
	t      *testing.T
	tmux   string
	socket string
}

func needTmux(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("tmux")
	if err != nil {
		if inCI() {
			t.Fatalf("tmux is needed for the interactive real-agent tests in CI: %v", err)
		}
		t.Skipf("tmux not installed: %v", err)
	}
	return p
}

// startTerm runs the sandbox's agent with args in tmux, in the work
// directory, with the sandbox environment (TERM a real terminal's).
func (s *sandbox) startTerm(args ...string) *term {
	s.t.Helper()
	tm := &term{t: s.t, tmux: needTmux(s.t), socket: filepath.Join(s.root, "tmux.sock")}
	env := append(s.baseEnv(), s.env...)
	for i, e := range env {
		if strings.HasPrefix(e, "TERM=") {
			env[i] = "TERM=xterm-256color"
		}
	}
	argv := append([]string{"env", "-i"}, env...)
	argv = append(argv, s.bin)
	argv = append(argv, args...)
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	cmd := exec.Command(tm.tmux, "-S", tm.socket, "new-session", "-d", "-x", "200", "-y", "50",
		"cd '"+strings.ReplaceAll(s.work, "'", `'\''`)+"' && "+strings.Join(quoted, " ")+"; sleep 60")
	cmd.Env = append(os.Environ(), "TMUX=")
	if out, err := cmd.CombinedOutput(); err != nil {
		s.t.Fatalf("tmux: %v %s", err, out)
	}
	s.t.Cleanup(func() { exec.Command(tm.tmux, "-S", tm.socket, "kill-server").Run() })
	return tm
}

func (tm *term) screen() string {
	out, _ := exec.Command(tm.tmux, "-S", tm.socket, "capture-pane", "-p", "-J").Output()
	return string(out)
}

// waitFor waits until the screen shows every one of want.
func (tm *term) waitFor(d time.Duration, want ...string) (string, bool) {
	deadline := time.Now().Add(d)
	for {
		sc := tm.screen()
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(sc, w)
		}
		if ok {
			return sc, true
		}
		if time.Now().After(deadline) {
			return sc, false
		}
		time.Sleep(300 * time.Millisecond)
	}
}

func (tm *term) keys(keys ...string) {
	tm.t.Helper()
	if out, err := exec.Command(tm.tmux, append([]string{"-S", tm.socket, "send-keys", "-t", "0"}, keys...)...).CombinedOutput(); err != nil {
		tm.t.Fatalf("send-keys: %v %s", err, out)
	}
}

// prompt types the prompt once the agent is ready for it, and presses
// Enter until the model is asked (a busy machine can swallow the first
// Enter while the text is still being taken as a paste).
func (s *sandbox) prompt(tm *term, ready, tag string) {
	s.t.Helper()
	if sc, ok := tm.waitFor(90*time.Second, ready); !ok {
		s.t.Fatalf("the agent did not get ready (%q):\n%s", ready, sc)
	}
	time.Sleep(time.Second)
	tm.keys("-l", "run the command")
	tm.waitFor(10*time.Second, "run the command")
	for try := 0; try < 4; try++ {
		time.Sleep(time.Second)
		tm.keys("Enter")
		deadline := time.Now().Add(15 * time.Second)
		for time.Now().Before(deadline) {
			if s.mock.outcome(tag).Called {
				return
			}
			time.Sleep(300 * time.Millisecond)
		}
	}
	s.t.Fatalf("the prompt never reached the model:\n%s", tm.screen())
}

// TestGeminiInteractiveAsk: Gemini CLI 0.61 shows its confirmation for a
// hook's ask, even in YOLO mode; shellguard answers ask when a person is
// at the terminal (and deny in headless runs, see the ask case).
func TestGeminiInteractiveAsk(t *testing.T) {
	t.Parallel()
	s := installed(t, "gemini")
	s.mock.set(scenario{Tag: "iask", Steps: []step{{Command: "cd " + s.repo + " && touch " + s.canaryFile("iask") + " && git push --force"}}})
	tm := s.startTerm("--yolo")
	s.prompt(tm, "Type your message", "iask")
	sc, ok := tm.waitFor(90*time.Second, "Allow execution", "shellguard:", "needs your approval")
	if !ok {
		t.Fatalf("Gemini CLI did not show its confirmation with shellguard's reason:\n%s", sc)
	}
	tm.keys("Escape")
	if sc, ok := tm.waitFor(30*time.Second, "cancelled"); !ok {
		t.Errorf("no cancellation:\n%s", sc)
	}
	if exists(s.canaryFile("iask")) {
		t.Errorf("the command ran")
	}
}

// TestGeminiInteractiveUntrustedFolder: in a folder the user chose not to
// trust, Gemini CLI loads no settings hooks: a command shellguard denies
// reaches Gemini CLI's own confirmation instead (doctor says so, see
// TestGeminiUntrustedFolder).
func TestGeminiInteractiveUntrustedFolder(t *testing.T) {
	t.Parallel()
	s := installed(t, "gemini")
	s.trustGeminiFolder(s.work, "DO_NOT_TRUST")
	s.mock.set(scenario{Tag: "iuntrusted", Steps: []step{{Command: "cd " + s.victim + " && touch " + s.canaryFile("iuntrusted") + " && rm -r *"}}})
	tm := s.startTerm()
	s.prompt(tm, "Type your message", "iuntrusted")
	sc, ok := tm.waitFor(90*time.Second, "Allow execution")
	if !ok {
		t.Fatalf("no confirmation:\n%s", sc)
	}
	if strings.Contains(sc, "shellguard") {
		t.Errorf("shellguard's hook ran in an untrusted folder (Gemini CLI changed?):\n%s", sc)
	}
	tm.keys("Escape")
	tm.waitFor(30*time.Second, "cancelled")
	if exists(s.canaryFile("iuntrusted")) {
		t.Errorf("the command ran")
	}
}

// TestClaudeInteractiveAsk: Claude Code shows its permission prompt with
// shellguard's reason when a person is there (CLAUDE_CODE_SESSION_ATTENDED
// is 1), in every permission mode (verified for default,
// bypassPermissions, dontAsk and auto in 2.1.332).
func TestClaudeInteractiveAsk(t *testing.T) {
	t.Parallel()
	s := installed(t, "claude")
	s.write(filepath.Join(s.home, ".claude.json"), `{"hasCompletedOnboarding": true, "theme": "dark",
  "customApiKeyResponses": {"approved": ["sk-ant-mock"], "rejected": []},
  "projects": {"`+s.work+`": {"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}}}`)
	s.mock.set(scenario{Tag: "iask", Steps: []step{{Command: "cd " + s.repo + " && touch " + s.canaryFile("iask") + " && git push --force"}}})
	tm := s.startTerm("--permission-mode", "default")
	s.prompt(tm, "? for shortcuts", "iask")
	sc, ok := tm.waitFor(90*time.Second, "requires confirmation", "shellguard:", "needs your approval", "Do you want to proceed?")
	if !ok {
		t.Fatalf("Claude Code did not show its prompt with shellguard's reason:\n%s", sc)
	}
	tm.keys("Escape")
	time.Sleep(3 * time.Second)
	if exists(s.canaryFile("iask")) {
		t.Errorf("the command ran")
	}
}
