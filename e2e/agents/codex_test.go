package agents

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// codexEvents maps hooks.json event names to the labels Codex uses in
// [hooks.state] keys and trust hashes.
var codexEvents = map[string]string{"PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request",
	"PostToolUse": "post_tool_use", "SessionStart": "session_start", "UserPromptSubmit": "user_prompt_submit", "Stop": "stop"}

// codexTrust returns the [hooks.state] entries Codex's /hooks view writes
// when the user trusts every command hook of hooks.json: key
// "<hooks.json>:<event>:<group>:<handler>" and value "sha256:<hex>" of the
// compact, key-sorted JSON of {"event_name", "matcher", "hooks": [handler
// with timeout defaulted to 600 and async to false]}. This is the test's
// own oracle (openai/codex codex-rs/hooks/src/engine/discovery.rs,
// command_hook_hash); TestCodexTrust checks it against the real Codex by
// whether Codex then runs the hook.
func codexTrust(t *testing.T, hooksJSON string) map[string]string {
	t.Helper()
	var doc struct {
		Hooks map[string][]struct {
			Matcher *string          `json:"matcher"`
			Hooks   []map[string]any `json:"hooks"`
		} `json:"hooks"`
	}
	b, err := os.ReadFile(hooksJSON)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for ev, groups := range doc.Hooks {
		label, ok := codexEvents[ev]
		if !ok {
			continue
		}
		for gi, g := range groups {
			for hi, h := range g.Hooks {
				if h["type"] != "command" {
					continue
				}
				timeout := 600.0
				if v, ok := h["timeout"].(float64); ok {
					timeout = max(v, 1)
				}
				async, _ := h["async"].(bool)
				norm := map[string]any{"type": "command", "command": h["command"], "timeout": int(timeout), "async": async}
				if sm, ok := h["statusMessage"].(string); ok && sm != "" {
					norm["statusMessage"] = sm
				}
				ident := map[string]any{"event_name": label, "hooks": []any{norm}}
				if g.Matcher != nil {
					ident["matcher"] = *g.Matcher
				}
				var buf bytes.Buffer
				enc := json.NewEncoder(&buf)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(ident); err != nil {
					t.Fatal(err)
				}
				sum := sha256.Sum256(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
				out[fmt.Sprintf("%s:%s:%d:%d", hooksJSON, label, gi, hi)] = "sha256:" + hex.EncodeToString(sum[:])
			}
		}
	}
	return out
}

// trustCodex records trust for the hooks in the sandbox's hooks.json as
// Codex's /hooks view does, replacing what an earlier call recorded. It
// does nothing for other agents.
func (s *sandbox) trustCodex() {
	s.t.Helper()
	if s.agent != "codex" {
		return
	}
	cfg := filepath.Join(s.home, ".codex", "config.toml")
	text := s.read(cfg)
	text = regexp.MustCompile(`(?m)\n?\[hooks\.state\."[^"]*"\]\ntrusted_hash = "[^"]*"\n`).ReplaceAllString(text, "")
	for k, v := range codexTrust(s.t, s.settings) {
		text += fmt.Sprintf("\n[hooks.state.%q]\ntrusted_hash = %q\n", k, v)
	}
	s.write(cfg, text)
}

// TestCodexTrust: Codex skips a hook the user has not trusted in /hooks,
// or whose definition changed since (a new path), without a word; doctor
// must say so, and install must say that trust must be given again.
func TestCodexTrust(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, "codex")
	inst := s.install()
	if !strings.Contains(inst.out, "/hooks") {
		t.Errorf("install does not say the hook must be trusted in /hooks:\n%s", inst.out)
	}
	// Untrusted: Codex skips the hook (a broken configuration would block
	// every command if the hook ran) and doctor must not say all is well.
	d := s.sg("doctor")
	if d.code != 1 || !strings.Contains(d.out, "trust") {
		t.Errorf("doctor right after install (hook not trusted): exit %d, want 1 and a PROBLEM about trust\n%s", d.code, d.out)
	}
	s.userConfig("deny_at = \"critical\n")
	r := s.run("untrusted", "touch "+s.canaryFile("untrusted"))
	if !exists(s.canaryFile("untrusted")) {
		t.Logf("note: Codex ran the untrusted hook (it used to skip it): %s", r)
	}
	s.removeUserConfig()

	// Trusted as /hooks records it: doctor is content and Codex runs the
	// hook (which proves the recorded hash is the one Codex computes).
	s.trustCodex()
	if d := s.sg("doctor"); d.code != 0 {
		t.Errorf("doctor with the hook trusted: exit %d, want 0\n%s", d.code, d.out)
	}
	r = s.run("trusted", "cd "+s.victim+" && touch "+s.canaryFile("trusted")+" && rm -r *")
	mustNotRun(t, s, "trusted", r)
	mustTell(t, r, "shellguard denied")

	// Installed again from another place: a new command, so the recorded
	// trust is stale and Codex skips the hook again.
	moved := filepath.Join(s.root, "moved")
	copyBinaries(t, s.sgDir, moved)
	again := s.sgFrom(moved, s.work, "install", "codex")
	if again.code != 0 || !strings.Contains(again.out, "/hooks") {
		t.Errorf("install with a new command: exit %d; it must say to trust the hook again in /hooks\n%s", again.code, again.out)
	}
	d = s.sg("doctor")
	if d.code != 1 || !strings.Contains(d.out, "trust") {
		t.Errorf("doctor with stale trust: exit %d, want 1 and a PROBLEM about trust\n%s", d.code, d.out)
	}
	r = s.run("stale", "cd "+s.victim+" && touch "+s.canaryFile("stale")+" && rm -r *")
	if exists(s.canaryFile("stale")) {
		t.Logf("as doctor said: Codex skipped the hook whose trust is stale (the command ran in the scratch directory)")
	} else {
		t.Logf("note: Codex ran the hook with stale trust: %s", r)
	}
}

// TestCodexTerminalSession: the model opens a shell with exec_command
// (tty) and types the real command with write_stdin, which never reaches
// a hook. The first call must be refused.
func TestCodexTerminalSession(t *testing.T) {
	t.Parallel()
	s := installed(t, "codex")
	for _, shell := range []string{"bash", "python3"} {
		typed := "touch " + s.canaryFile("pty-"+shell) + "; exit\n"
		if shell == "python3" {
			typed = "open(" + fmt.Sprintf("%q", s.canaryFile("pty-"+shell)) + ", 'w').close(); exit()\n"
		}
		r := s.runScenario(scenario{Tag: "pty-" + shell, Steps: []step{
			{Tool: "exec_command", Args: map[string]any{"cmd": shell, "tty": true, "yield_time_ms": 1000}},
			{Tool: "write_stdin", Args: map[string]any{"session_id": "$SID", "chars": typed, "yield_time_ms": 1500}},
		}})
		mustCall(t, r)
		if exists(s.canaryFile("pty-" + shell)) {
			t.Errorf("%s in a terminal session walked past the hook: the command typed with write_stdin ran: %s", shell, r)
		}
		if len(r.Results) == 0 || !strings.Contains(r.Results[0].Text, "shellguard") {
			t.Errorf("the model was not told why %s was refused: %s", shell, r)
		}
	}
}

// TestCodexPermissionRequest: when Codex raises an approval (here: the
// model asks to run outside the sandbox, and --approve-for-me routes the
// request to automatic review, which the mock cannot give), shellguard's
// PermissionRequest hook approves what shellguard approves and leaves the
// rest to Codex.
func TestCodexPermissionRequest(t *testing.T) {
	t.Parallel()
	s := installed(t, "codex")
	s.userConfig("[rules]\nallow = [\"touch *\"]\n")
	escalate := func(tag, command string) runResult {
		return s.runScenario(scenario{Tag: tag, Steps: []step{{Tool: "exec_command", Args: map[string]any{
			"cmd": command, "sandbox_permissions": "require_escalated", "justification": "needs to write outside the workspace"}}}},
			"exec", "--skip-git-repo-check", "--approve-for-me")
	}
	r := escalate("approved", "touch "+s.canaryFile("approved"))
	mustCall(t, r)
	if !exists(s.canaryFile("approved")) {
		t.Errorf("a command shellguard approves (allow rule touch *) was not approved when Codex asked: %s", r)
	}
	// Not approved by shellguard: no opinion, Codex's own review decides
	// (and the mock's review is no answer, so Codex refuses).
	r = escalate("unapproved", "make --version >/dev/null && touch "+s.canaryFile("unapproved"))
	mustCall(t, r)
	if exists(s.canaryFile("unapproved")) {
		t.Errorf("a command shellguard does not approve was approved: %s", r)
	}
}
