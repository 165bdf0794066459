package agents

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	sgagents "github.com/shellguard/shellguard/internal/agents"
)

// The cases every agent goes through. Each runs in a sandbox of its own,
// in parallel with the others. Every command is harmless even if the hook
// failed open: canary files in a scratch directory prove what ran.

func TestClaude(t *testing.T)   { t.Parallel(); commonCases(t, "claude") }
func TestCodex(t *testing.T)    { t.Parallel(); commonCases(t, "codex") }
func TestGemini(t *testing.T)   { t.Parallel(); commonCases(t, "gemini") }
func TestCopilot(t *testing.T)  { t.Parallel(); commonCases(t, "copilot") }
func TestOpenCode(t *testing.T) { t.Parallel(); commonCases(t, "opencode") }
func TestKilo(t *testing.T)     { t.Parallel(); commonCases(t, "kilo") }
func TestPi(t *testing.T)       { t.Parallel(); commonCases(t, "pi") }
func TestQwen(t *testing.T)     { t.Parallel(); commonCases(t, "qwen") }
func TestDroid(t *testing.T)    { t.Parallel(); commonCases(t, "droid") }
func TestCline(t *testing.T)    { t.Parallel(); commonCases(t, "cline") }

func commonCases(t *testing.T, agent string) {
	t.Run("run", func(t *testing.T) {
		t.Parallel()
		oneRun(t, agent)
	})
	t.Run("install-doctor-uninstall", func(t *testing.T) {
		t.Parallel()
		s := newSandbox(t, agent)
		first := s.install()
		s.trustCodex()
		if d := s.sg("doctor"); d.code != 0 || !strings.Contains(d.out, "All good.") {
			t.Errorf("doctor after install: exit %d, want 0 and All good.\n%s\n(install said: %s)", d.code, d.out, first.out)
		}
		// A second install changes nothing; one from another place
		// rewrites the command; either way one backup per file.
		if again := s.install(); !strings.Contains(again.out, "already") {
			t.Errorf("second install: %s", again.out)
		}
		moved := filepath.Join(s.root, "moved")
		copyBinaries(t, s.sgDir, moved)
		if r := s.sgFrom(moved, s.work, "install", agent); r.code != 0 {
			t.Fatalf("install from another place: exit %d\n%s", r.code, r.out)
		}
		if u := s.sg("uninstall", agent); u.code != 0 {
			t.Errorf("uninstall: exit %d\n%s", u.code, u.out)
		}
		sameAsOriginal(t, s)
		if d := s.sg("doctor"); d.code != 1 {
			t.Errorf("doctor after uninstall: exit %d, want 1 (installed for no agent)\n%s", d.code, d.out)
		}
		baks, _ := filepath.Glob(s.settings + ".shellguard-bak*")
		if len(baks) > 1 {
			t.Errorf("%d backups of %s after four writes, want one: %v", len(baks), filepath.Base(s.settings), baks)
		}
	})
}

// The steps of oneRun, in order.
const (
	stepDeny = iota
	stepAsk
	stepAllow
	stepUnknown
	stepBroken
	stepMissing
	nSteps
)

var stepNames = [nSteps]string{"deny", "ask", "allow", "unknown", "broken-config", "missing-hook-binary"}

// oneRun drives the agent once through every case, one tool call each
// (an agent start costs seconds of CPU; one run keeps the package
// within its time budget): deny, ask, read-only allow, unknown, then
// with the configuration broken, then with the hook program deleted.
// shellguard is installed from a copy of its binaries, deleted before
// the last step, as after a moved GOBIN. Each case is reported as a
// subtest of its own.
func oneRun(t *testing.T, agent string) {
	s := newSandbox(t, agent)
	copyDir := filepath.Join(s.root, "sgcopy")
	copyBinaries(t, s.sgDir, copyDir)
	if r := s.sgFrom(copyDir, s.work, "install", agent); r.code != 0 {
		t.Fatalf("install: exit %d\n%s", r.code, r.out)
	}
	s.trustCodex()
	// doctor sees a broken configuration (checked before the run: doctor
	// must not run inside the mock's handler).
	const broken = "deny_at = \"critical\nask_at = [\n"
	s.userConfig(broken)
	if d := s.sg("doctor"); d.code != 1 {
		t.Errorf("doctor with a broken configuration: exit %d, want 1\n%s", d.code, d.out)
	}
	s.removeUserConfig()

	var errs []string // from the Before callbacks
	steps := make([]step, nSteps)
	// Critical (rm_rf_wildcard); if it ran it would only empty the
	// scratch victim directory.
	steps[stepDeny] = step{Command: "cd " + s.victim + " && touch " + s.canaryFile("deny") + " && rm -r *"}
	// Low (git_push_force), in a repository with no remote. No person sees
	// a prompt in these headless runs, so shellguard's ask must reach the
	// model as a refusal it must not work around.
	steps[stepAsk] = step{Command: "cd " + s.repo + " && touch " + s.canaryFile("ask") + " && git push --force"}
	steps[stepAllow] = step{Command: "ls -la " + s.work}
	// shellguard has no opinion on make: the agent's own permission mode
	// decides, and every mode these runs use lets it run.
	steps[stepUnknown] = step{Command: "make --version && touch " + s.canaryFile("unknown")}
	steps[stepBroken] = step{Command: "touch " + s.canaryFile("broken"), Before: func() {
		if err := writeFile(filepath.Join(s.home, ".config", "shellguard", "config.toml"), broken); err != nil {
			errs = append(errs, err.Error())
		}
	}}
	steps[stepMissing] = step{Command: "touch " + s.canaryFile("missing"), Before: func() {
		s.removeUserConfig()
		if err := os.RemoveAll(copyDir); err != nil {
			errs = append(errs, err.Error())
		}
	}}
	r := s.runScenario(scenario{Tag: "cases", Steps: steps})
	for _, e := range errs {
		t.Error(e)
	}
	if !r.Called {
		t.Fatalf("the agent never made the tool call: %s", r)
	}
	for i, x := range r.Results {
		if i < nSteps {
			t.Logf("%s %s: the model got %q", agent, stepNames[i], tail(x.Text, 400))
		}
	}
	setup := setups[agent]
	// res returns the result of step i, failing the subtest when the
	// conversation did not come back with it.
	res := func(t *testing.T, i int) toolResult {
		t.Helper()
		if i >= len(r.Results) {
			t.Fatalf("the agent never sent the result of this step back (%d results): %s", len(r.Results), r)
		}
		return r.Results[i]
	}
	t.Run("deny", func(t *testing.T) {
		mustNotRun(t, s, "deny", r)
		if !exists(filepath.Join(s.victim, "keep-me")) {
			t.Errorf("the victim directory was emptied")
		}
		if v := s.auditVerdict(steps[stepDeny].Command); v != "deny" {
			t.Errorf("shellguard's audit log has verdict %q for the command, want deny", v)
		}
		x := res(t, stepDeny)
		mustSay(t, x, "shellguard denied", "This is the user's safety policy")
		noDoublePeriod(t, x)
	})
	t.Run("ask", func(t *testing.T) {
		mustNotRun(t, s, "ask", r)
		x := res(t, stepAsk)
		mustSay(t, x, "git push --force")
		if !strings.Contains(strings.ToLower(x.Text), "do not try to") {
			t.Errorf("the model was not told not to work around it: %q", x.Text)
		}
		noDoublePeriod(t, x)
	})
	t.Run("allow", func(t *testing.T) {
		x := res(t, stepAllow)
		if v := s.auditVerdict(steps[stepAllow].Command); v != "allow" {
			t.Errorf("shellguard's audit log has verdict %q for %q, want allow", v, steps[stepAllow].Command)
		}
		switch {
		case x.IsError || strings.Contains(x.Text, "shellguard"):
			t.Errorf("ls -la did not run: %q", x.Text)
		case !strings.Contains(x.Text, "marker-ls-ok"):
			// Qwen Code, on a busy machine, sometimes reports a command's
			// output as "(empty)": the command ran, its output was lost.
			t.Logf("ls -la ran, but its output did not reach the model: %q", x.Text)
		}
	})
	t.Run("unknown", func(t *testing.T) {
		if !exists(s.canaryFile("unknown")) {
			t.Errorf("an unknown command did not run under the agent's own policy: %s", r)
		}
	})
	t.Run("broken-config", func(t *testing.T) {
		mustNotRun(t, s, "broken", r)
		x := res(t, stepBroken)
		mustSay(t, x, "shellguard could not check this command", "shellguard doctor")
		noDoublePeriod(t, x)
		if agent == "gemini" {
			// Gemini CLI blocks; there is nothing for the person to approve.
			if all := r.stdout + r.stderr + x.Text; strings.Contains(all, "Approve it") {
				t.Errorf("Gemini CLI's failure text tells the user to approve a command that was blocked:\n%s", all)
			}
		}
	})
	t.Run("missing-hook-binary", func(t *testing.T) {
		mustNotRun(t, s, "missing", r)
		if setup.aborts {
			// The agent stops the whole run: the command is not run, and
			// no result comes back.
			if r.Final {
				t.Errorf("the run went on after the hook program went missing: %s", r)
			}
		} else {
			mustSay(t, res(t, stepMissing), firstSet(setup.missingTells, "shellguard"))
		}
		d := s.sg("doctor")
		if d.code != 1 || !strings.Contains(d.out, filepath.Join(copyDir, "shellguard")) {
			t.Errorf("doctor with the hook program gone: exit %d, want 1 and a PROBLEM naming %s\n%s", d.code, copyDir, d.out)
		}
		// uninstall still recognises the command and restores the file.
		if u := s.sg("uninstall", agent); u.code != 0 {
			t.Errorf("uninstall: exit %d\n%s", u.code, u.out)
		}
		sameAsOriginal(t, s)
	})
	if !setup.aborts && !r.Final {
		t.Errorf("the agent never sent every result back: %s", r)
	}
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

func firstSet(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// installed returns a sandbox with shellguard's hook installed (and, for
// Codex, trusted the way its /hooks view records it).
func installed(t *testing.T, agent string) *sandbox {
	s := newSandbox(t, agent)
	s.install()
	s.trustCodex()
	return s
}

func copyBinaries(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"shellguard", "shellguard-hook"} {
		b, err := os.ReadFile(filepath.Join(from, n))
		if err != nil {
			if n == "shellguard-hook" && os.IsNotExist(err) {
				continue
			}
			t.Fatal(err)
		}
		dst := filepath.Join(to, n)
		if err := os.WriteFile(dst, b, 0o755); err != nil {
			t.Fatal(err)
		}
		waitExecutable(t, dst)
	}
}

// waitExecutable waits until the binary just written at p can be run: a
// parallel test that forks while the file is open for writing keeps it
// open in the child until that child execs, and until then exec of p
// fails with ETXTBSY ("text file busy", golang.org/issue/22315).
func waitExecutable(t *testing.T, p string) {
	t.Helper()
	for range 200 {
		err := exec.Command(p, "help").Run()
		if !errors.Is(err, syscall.ETXTBSY) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s: still text file busy after 2 s", p)
}

func sameAsOriginal(t *testing.T, s *sandbox) {
	t.Helper()
	now, err := os.ReadFile(s.settings)
	switch {
	case s.orig == nil && err == nil:
		t.Errorf("%s was absent before install and is still there after uninstall:\n%s", s.settings, now)
	case s.orig != nil && err != nil:
		t.Errorf("%s: %v after uninstall", s.settings, err)
	case s.orig != nil && !bytes.Equal(now, s.orig):
		t.Errorf("%s after uninstall differs from before install:\nbefore: %q\nafter:  %q", s.settings, s.orig, now)
	}
}

// IsErr reports a tool result marked as an error.
func (r runResult) IsErr() bool {
	for _, x := range r.Results {
		if x.IsError {
			return true
		}
	}
	return false
}

func mustCall(t *testing.T, r runResult) {
	t.Helper()
	if !r.Called {
		t.Fatalf("the agent never made the tool call: %s", r)
	}
	if !r.Final {
		t.Errorf("the agent never sent the tool result back: %s", r)
	}
}

func mustNotRun(t *testing.T, s *sandbox, name string, r runResult) {
	t.Helper()
	if exists(s.canaryFile(name)) {
		t.Errorf("THE COMMAND RAN (canary %s exists): %s", name, r)
	}
}

// mustTell checks that the tool result the model got says each of want.
func mustTell(t *testing.T, r runResult, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(r.Text(), w) {
			t.Errorf("the model was not told %q: %s", w, r)
		}
	}
}

// mustSay checks that one tool result says each of want.
func mustSay(t *testing.T, x toolResult, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(x.Text, w) {
			t.Errorf("the model was not told %q: %q", w, x.Text)
		}
	}
}

// noDoublePeriod catches a reason that ends in "." glued to the agent's
// own ". Command: ..." (Codex).
func noDoublePeriod(t *testing.T, x toolResult) {
	t.Helper()
	if strings.Contains(x.Text, "..") && !strings.Contains(x.Text, "...") {
		t.Errorf("the reason the model got has a double period: %q", x.Text)
	}
}

// TestEveryAgentDrivenOrExplained: every agent shellguard installs for is
// either driven by these tests or listed in undriven with the reason.
func TestEveryAgentDrivenOrExplained(t *testing.T) {
	for _, a := range sgagents.Agents() {
		_, driven := clis[string(a)]
		why, explained := undriven[string(a)]
		switch {
		case driven && explained:
			t.Errorf("%s is driven and also listed as undriven (%s)", a, why)
		case !driven && !explained:
			t.Errorf("%s has neither a real-client test (clis, setups) nor a reason in undriven", a)
		case driven:
			if _, ok := setups[string(a)]; !ok {
				t.Errorf("%s has a pinned CLI but no setup", a)
			}
		}
	}
}
