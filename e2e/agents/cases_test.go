package agents

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The cases every agent goes through. Each runs in a sandbox of its own,
// in parallel with the others. Every command is harmless even if the hook
// failed open: canary files in a scratch directory prove what ran.

func TestClaude(t *testing.T)   { commonCases(t, "claude") }
func TestCodex(t *testing.T)    { commonCases(t, "codex") }
func TestGemini(t *testing.T)   { commonCases(t, "gemini") }
func TestCopilot(t *testing.T)  { commonCases(t, "copilot") }
func TestOpenCode(t *testing.T) { commonCases(t, "opencode") }
func TestKilo(t *testing.T)     { commonCases(t, "kilo") }
func TestPi(t *testing.T)       { commonCases(t, "pi") }
func TestQwen(t *testing.T)     { commonCases(t, "qwen") }
func TestDroid(t *testing.T)    { commonCases(t, "droid") }
func TestCline(t *testing.T)    { commonCases(t, "cline") }

func commonCases(t *testing.T, agent string) {
	t.Run("deny", func(t *testing.T) {
		t.Parallel()
		s := installed(t, agent)
		// Critical (rm_rf_wildcard); if it ran it would only empty the
		// scratch victim directory.
		r := s.run("deny", "cd "+s.victim+" && touch "+s.canaryFile("deny")+" && rm -r *")
		mustCall(t, r)
		mustNotRun(t, s, "deny", r)
		if !exists(filepath.Join(s.victim, "keep-me")) {
			t.Errorf("the victim directory was emptied")
		}
		mustTell(t, r, "shellguard denied", "This is the user's safety policy")
		noDoublePeriod(t, r)
	})
	t.Run("ask", func(t *testing.T) {
		t.Parallel()
		s := installed(t, agent)
		// Low (git_push_force), in a repository with no remote. No person
		// sees a prompt in these headless runs, so shellguard's ask must
		// reach the model as a refusal it must not work around.
		r := s.run("ask", "cd "+s.repo+" && touch "+s.canaryFile("ask")+" && git push --force")
		mustCall(t, r)
		mustNotRun(t, s, "ask", r)
		mustTell(t, r, "git push --force")
		if !strings.Contains(strings.ToLower(r.Text()), "do not try to") {
			t.Errorf("the model was not told not to work around it: %s", r)
		}
		noDoublePeriod(t, r)
	})
	t.Run("allow", func(t *testing.T) {
		t.Parallel()
		s := installed(t, agent)
		r := s.run("allow", "ls -la "+s.work)
		mustCall(t, r)
		if !strings.Contains(r.Text(), "marker-ls-ok") || r.IsErr() {
			t.Errorf("ls -la did not run: %s", r)
		}
	})
	t.Run("unknown", func(t *testing.T) {
		t.Parallel()
		s := installed(t, agent)
		// shellguard has no opinion on make: the agent's own permission
		// mode decides, and every mode these runs use lets it run.
		r := s.run("unknown", "make --version && touch "+s.canaryFile("unknown"))
		mustCall(t, r)
		if !exists(s.canaryFile("unknown")) {
			t.Errorf("an unknown command did not run under the agent's own policy: %s", r)
		}
	})
	t.Run("broken-config", func(t *testing.T) {
		t.Parallel()
		s := installed(t, agent)
		s.userConfig("deny_at = \"critical\nask_at = [\n")
		if d := s.sg("doctor"); d.code != 1 {
			t.Errorf("doctor with a broken configuration: exit %d, want 1\n%s", d.code, d.out)
		}
		r := s.run("broken", "touch "+s.canaryFile("broken"))
		mustCall(t, r)
		mustNotRun(t, s, "broken", r)
		mustTell(t, r, "shellguard could not check this command", "shellguard doctor")
		noDoublePeriod(t, r)
		if agent == "gemini" {
			// Gemini CLI blocks; there is nothing for the person to approve.
			if all := r.stdout + r.stderr + r.Text(); strings.Contains(all, "Approve it") {
				t.Errorf("Gemini CLI's failure text tells the user to approve a command that was blocked:\n%s", all)
			}
		}
	})
	t.Run("missing-hook-binary", func(t *testing.T) {
		t.Parallel()
		s := installed(t, agent)
		// Installed from a copy that is then deleted, as after a moved
		// GOBIN: the hook program is gone.
		copyDir := filepath.Join(s.root, "sgcopy")
		copyBinaries(t, s.sgDir, copyDir)
		if r := s.sgFrom(copyDir, s.work, "install", agent); r.code != 0 {
			t.Fatalf("install from the copy: exit %d\n%s", r.code, r.out)
		}
		s.trustCodex()
		if err := os.RemoveAll(copyDir); err != nil {
			t.Fatal(err)
		}
		d := s.sg("doctor")
		if d.code != 1 || !strings.Contains(d.out, filepath.Join(copyDir, "shellguard")) {
			t.Errorf("doctor with the hook program gone: exit %d, want 1 and a PROBLEM naming %s\n%s", d.code, copyDir, d.out)
		}
		r := s.run("missing", "touch "+s.canaryFile("missing"))
		setup := setups[agent]
		if setup.aborts {
			// The run is stopped: the command is not run, and no result
			// comes back.
			if !r.Called {
				t.Fatalf("the agent never made the tool call: %s", r)
			}
			mustNotRun(t, s, "missing", r)
		} else {
			mustCall(t, r)
			mustNotRun(t, s, "missing", r)
			mustTell(t, r, firstSet(setup.missingTells, "shellguard"))
		}
		// uninstall still recognises the command and restores the file.
		if u := s.sg("uninstall", agent); u.code != 0 {
			t.Errorf("uninstall: exit %d\n%s", u.code, u.out)
		}
		sameAsOriginal(t, s)
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
		if err := os.WriteFile(filepath.Join(to, n), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
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

// noDoublePeriod catches a reason that ends in "." glued to the agent's
// own ". Command: ..." (Codex).
func noDoublePeriod(t *testing.T, r runResult) {
	t.Helper()
	if strings.Contains(r.Text(), "..") && !strings.Contains(r.Text(), "...") {
		t.Errorf("the reason the model got has a double period: %s", r)
	}
}
