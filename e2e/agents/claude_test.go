package agents

import (
	"strings"
	"testing"
)

// TestClaudeOutsideProject: in its default permission mode Claude Code
// asks before reading files outside the working directories and before
// printing the environment (headless, asking means refusing). shellguard's
// read-only allow must never be looser than that: with the hook installed
// these must still not run unasked.
func TestClaudeOutsideProject(t *testing.T) {
	t.Parallel()
	s := installed(t, "claude")
	s.write(s.home+"/.config/gh/hosts.yml", "github.com:\n    oauth_token: gho_FAKE_TOKEN_FOR_TEST\n")
	for _, c := range []struct{ tag, command, secret string }{
		{"gh-hosts", "cat ~/.config/gh/hosts.yml", "gho_FAKE_TOKEN_FOR_TEST"},
		{"printenv", "printenv ANTHROPIC_API_KEY", "sk-ant-mock"},
	} {
		r := s.run(c.tag, c.command, "--permission-mode", "default")
		mustCall(t, r)
		if strings.Contains(r.Text(), c.secret) {
			t.Errorf("%s ran without a prompt with shellguard installed (Claude Code alone asks): the secret reached the model: %s", c.command, r)
		}
	}
}

// TestClaudeUnattendedAsk: with unattended = "ask" the user keeps
// shellguard's ask in headless runs; Claude Code then refuses the command
// itself and hands the ask reason to the model (as verified in 2.1.332).
func TestClaudeUnattendedAsk(t *testing.T) {
	t.Parallel()
	s := installed(t, "claude")
	s.userConfig("unattended = \"ask\"\n")
	r := s.run("ask-kept", "cd "+s.repo+" && touch "+s.canaryFile("ask-kept")+" && git push --force")
	mustCall(t, r)
	mustNotRun(t, s, "ask-kept", r)
	mustTell(t, r, "needs your approval")
}
