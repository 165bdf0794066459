package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The end-to-end tests of issue 16, on the real binaries: shellguard and
// the lean shellguard-hook.

// sgHome is a throwaway home with a project (a git checkout) in it.
type sgHome struct {
	t         *testing.T
	home, dir string // dir: the project
}

func newSGHome(t *testing.T) *sgHome {
	t.Helper()
	home := t.TempDir()
	h := &sgHome{t: t, home: home, dir: filepath.Join(home, "proj")}
	mkdirs(t, home, "proj/.git", ".config/shellguard")
	return h
}

func (h *sgHome) env() []string {
	return []string{"SHELLGUARD_MANAGED_DIR=" + filepath.Join(h.home, "managed")}
}

// run runs shellguard in the project folder.
func (h *sgHome) run(stdin string, args ...string) (string, int) {
	h.t.Helper()
	out, code, killed, _ := runTimed(h.t, 60*time.Second, h.dir, h.home, stdin, h.env(), sgBinary(h.t), args...)
	if killed {
		h.t.Fatalf("shellguard %v hung", args)
	}
	return out, code
}

// hook runs an agent's hook (through "shellguard hook AGENT", or the lean
// binary) for command in the project folder.
func (h *sgHome) hook(agent, command string, lean bool) (string, int) {
	h.t.Helper()
	in := map[string]any{"session_id": "sess-1", "cwd": h.dir, "tool_input": map[string]string{"command": command}}
	switch agent {
	case "gemini":
		in["hook_event_name"], in["tool_name"] = "BeforeTool", "run_shell_command"
	default:
		in["hook_event_name"], in["tool_name"] = "PreToolUse", "Bash"
	}
	b, _ := json.Marshal(in)
	bin, args := sgBinary(h.t), []string{"hook", agent}
	if lean {
		bin, args = leanHookBinary(h.t), []string{agent}
	}
	out, code, killed, _ := runTimed(h.t, 60*time.Second, h.dir, h.home, string(b), h.env(), bin, args...)
	if killed {
		h.t.Fatalf("hook %s hung", agent)
	}
	return out, code
}

func (h *sgHome) userConfig(content string) {
	h.t.Helper()
	userConfig(h.t, h.home, content)
}

func (h *sgHome) refusalsFile() string {
	return filepath.Join(h.home, ".config", "shellguard", "refusals.jsonl")
}

var codeRE = regexp.MustCompile("shellguard allow once ([2-9A-HJKMNP-TW-Z]{8})`")

func codeIn(t *testing.T, out string) string {
	t.Helper()
	m := codeRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no allow-once code in:\n%s", out)
	}
	return m[1]
}

// TestE2EAllowOnceThroughHooks is issue 16's loop through each agent's
// hook: refused with a code, `shellguard allow once CODE`, the retry runs
// once, the next one is refused again.
func TestE2EAllowOnceThroughHooks(t *testing.T) {
	for _, tc := range []struct {
		agent string
		lean  bool
	}{{"gemini", false}, {"codex", false}, {"claude", false}, {"gemini", true}, {"codex", true}} {
		t.Run(fmt.Sprintf("%s lean=%v", tc.agent, tc.lean), func(t *testing.T) {
			h := newSGHome(t)
			const line = "git push --force origin main"
			out, code := h.hook(tc.agent, line, tc.lean)
			if code != 0 || !strings.Contains(out, `"deny"`) && !strings.Contains(out, `"ask"`) {
				t.Fatalf("first answer (exit %d): %s", code, out)
			}
			c := codeIn(t, out)
			if !strings.Contains(out, "a person can run") || !strings.Contains(out, "refuses that command from an agent") {
				t.Errorf("the answer does not say a person approves it: %s", out)
			}
			// The retry before approval: the same code.
			if out2, _ := h.hook(tc.agent, line, tc.lean); codeIn(t, out2) != c {
				t.Errorf("the retry carries another code: %s", out2)
			}
			// A hook that sees no terminal takes the run for unattended, where
			// an ask with a warning is a deny, whose code needs --yes.
			if out, code := h.run("", "allow", "once", "--yes", c); code != 0 || !strings.Contains(out, "approved once") || !strings.Contains(out, line) {
				t.Fatalf("allow once (exit %d): %s", code, out)
			}
			out, code = h.hook(tc.agent, line, tc.lean)
			switch tc.agent {
			case "codex":
				// Codex hooks can only deny: no answer is the allow.
				if code != 0 || strings.TrimSpace(out) != "" {
					t.Fatalf("approved retry on codex (exit %d): %q", code, out)
				}
			default:
				if code != 0 || !strings.Contains(out, `"allow"`) {
					t.Fatalf("approved retry (exit %d): %s", code, out)
				}
			}
			out, _ = h.hook(tc.agent, line, tc.lean)
			if c2 := codeIn(t, out); c2 == c {
				t.Fatalf("the run after the approved one got the used code again: %s", out)
			}
			if out, code := h.run("", "allow-once", c); code != 5 || !strings.Contains(out, "used") {
				t.Errorf("allow-once of the used code (exit %d): %s", code, out)
			}
		})
	}
}

// setRefusalTime rewrites, in the refusals file, the times of the
// refusal carrying code (a test stands in for ten minutes passing).
func setRefusalTime(t *testing.T, path, code string, expires time.Time) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var m map[string]any
		if json.Unmarshal(line, &m) == nil && m["code"] == code && m["event"] == "refused" {
			m["expires"] = expires.UTC().Format(time.RFC3339Nano)
			line, _ = json.Marshal(m)
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	if err := os.WriteFile(path, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestE2ECodesRefused: expired, used, moved, forged and malformed codes
// approve nothing, and allow once says which, with its exit status.
func TestE2ECodesRefused(t *testing.T) {
	h := newSGHome(t)
	decideCode := func(line string) string {
		out, code := h.run("", "decide", "--", line)
		if code != 10 && code != 11 {
			t.Fatalf("decide %q: exit %d: %s", line, code, out)
		}
		return codeIn(t, out)
	}

	expired := decideCode("make deploy-expired")
	setRefusalTime(t, h.refusalsFile(), expired, time.Now().Add(-time.Minute))
	if out, code := h.run("", "allow", "once", expired); code != 4 || !strings.Contains(out, "expired") {
		t.Errorf("expired (exit %d): %s", code, out)
	}

	used := decideCode("make deploy-used")
	if _, code := h.run("", "allow", "once", used); code != 0 {
		t.Fatal("allow once failed")
	}
	if out, code := h.run("", "decide", "--", "make deploy-used"); code != 0 || !strings.Contains(out, "allowed once") {
		t.Fatalf("approved run (exit %d): %s", code, out)
	}
	if out, code := h.run("", "allow", "once", used); code != 5 || !strings.Contains(out, "used") {
		t.Errorf("used (exit %d): %s", code, out)
	}

	moved := decideCode("make deploy-moved")
	if err := os.Rename(h.dir, h.dir+".old"); err != nil {
		t.Fatal(err)
	}
	mkdirs(t, h.home, "proj/.git")
	if out, code := h.run("", "allow", "once", moved); code != 6 || !strings.Contains(out, "moved") {
		t.Errorf("moved (exit %d): %s", code, out)
	}

	for _, forged := range []string{"K7QM3XHP", "22222222"} {
		if out, code := h.run("", "allow", "once", forged); code != 3 || !strings.Contains(out, "unknown") {
			t.Errorf("forged %s (exit %d): %s", forged, code, out)
		}
	}
	for _, bad := range []string{"hello", "K7QM3XH", "K7QM3XHP9", "O0O0I1L1"} {
		if out, code := h.run("", "allow", "once", bad); code != 3 || !strings.Contains(out, "malformed") {
			t.Errorf("malformed %s (exit %d): %s", bad, code, out)
		}
	}

	// A deny's code needs --yes off a terminal.
	deny := decideCode("rm -rf /")
	if out, code := h.run("", "allow", "once", deny); code != 1 || !strings.Contains(out, "--yes") {
		t.Errorf("deny code without --yes (exit %d): %s", code, out)
	}
	if out, code := h.run("", "allow", "once", "--yes", deny); code != 0 {
		t.Errorf("deny code with --yes (exit %d): %s", code, out)
	}
	// In another folder the approved line is still refused.
	other := filepath.Join(h.home, "other")
	mkdirs(t, h.home, "other")
	if _, code := h.run("", "decide", "--cwd", other, "--", "rm -rf /"); code != 11 {
		t.Errorf("the approved line ran in another folder: exit %d", code)
	}
}

// TestE2EAllowLast: allow last lists the recent refusals, newest first,
// and approves the chosen one, showing what before it writes.
func TestE2EAllowLast(t *testing.T) {
	h := newSGHome(t)
	for _, line := range []string{"make deploy staging", "npm run build --prod", "terraform plan -out x"} {
		if _, code := h.run("", "decide", "--", line); code != 10 {
			t.Fatalf("decide %q: exit %d", line, code)
		}
	}
	out, code := h.run("", "allow", "last", "--list")
	if code != 0 {
		t.Fatalf("allow last --list: exit %d: %s", code, out)
	}
	i1, i2, i3 := strings.Index(out, "terraform plan"), strings.Index(out, "npm run build"), strings.Index(out, "make deploy")
	if i1 < 0 || i2 < i1 || i3 < i2 {
		t.Fatalf("not newest first:\n%s", out)
	}
	// Off a terminal without --yes: shown, not written.
	out, code = h.run("", "allow", "last", "2")
	if code != 1 || !strings.Contains(out, "will approve (always, prefix):\n  npm run build *") || !strings.Contains(out, "--yes") {
		t.Fatalf("allow last 2 without --yes (exit %d):\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(h.home, ".config", "shellguard", "approvals.json")); err == nil {
		t.Fatal("allow last wrote without --yes")
	}
	out, code = h.run("", "allow", "last", "--yes", "2")
	if code != 0 || !strings.Contains(out, "approved: npm run build *") {
		t.Fatalf("allow last --yes 2 (exit %d):\n%s", code, out)
	}
	if out, code := h.run("", "decide", "--", "npm run build --watch"); code != 0 {
		t.Errorf("the approved prefix does not approve (exit %d): %s", code, out)
	}
	if _, code := h.run("", "decide", "--", "make deploy staging"); code != 10 {
		t.Error("another refusal was approved")
	}
	// --exact: the newest is the last decide (make deploy staging), then
	// terraform...
	out, code = h.run("", "allow", "last", "--exact", "--expires", "2h", "--yes")
	if code != 0 || !strings.Contains(out, "(always, exact line):\n  make deploy staging") || !strings.Contains(out, "expires") {
		t.Fatalf("allow last --exact (exit %d):\n%s", code, out)
	}
	if _, code := h.run("", "decide", "--", "make deploy staging"); code != 0 {
		t.Error("the exact approval does not approve")
	}
	if _, code := h.run("", "decide", "--", "make deploy production"); code != 10 {
		t.Error("the exact approval approves another line")
	}
	// --session needs a session.
	if out, code := h.run("", "allow", "last", "--session", "--yes"); code != 1 || !strings.Contains(out, "session") {
		t.Errorf("--session for a cli refusal (exit %d): %s", code, out)
	}
	if _, code := h.run("", "decide", "--source", "hook:claude", "--session-id", "s-42", "--", "cargo publish --dry-run"); code != 10 {
		t.Fatal("cargo publish was not asked")
	}
	out, code = h.run("", "allow", "last", "--session", "--yes")
	if code != 0 || !strings.Contains(out, "for session s-42 of hook:claude") {
		t.Fatalf("--session (exit %d):\n%s", code, out)
	}
	if _, code := h.run("", "decide", "--source", "hook:claude", "--session-id", "s-42", "--", "cargo publish --dry-run"); code != 0 {
		t.Error("the session approval does not approve in its session")
	}
	for _, args := range [][]string{{"--source", "hook:claude", "--session-id", "s-43"}, {"--source", "hook:gemini", "--session-id", "s-42"}, {}} {
		if _, code := h.run("", append(append([]string{"decide"}, args...), "--", "cargo publish --dry-run")...); code != 10 {
			t.Errorf("the session approval approves with %v", args)
		}
	}
	// A refusal about shellguard itself cannot be approved.
	if _, code := h.run("", "decide", "--source", "hook:codex", "--", "shellguard uninstall codex"); code != 11 {
		t.Fatal("the self-guard did not deny")
	}
	if out, code := h.run("", "allow", "last", "--yes"); code != 1 || !strings.Contains(out, "shellguard itself") {
		t.Errorf("approving a self-guard refusal (exit %d): %s", code, out)
	}
}

// TestE2EExpiresAndList: --expires is honoured, list shows it, prune
// removes what expired, remove takes a number, explain says why.
func TestE2EExpiresAndList(t *testing.T) {
	h := newSGHome(t)
	if out, code := h.run("", "allow", "add", "--expires", "1h", "--", "make deploy"); code != 0 || !strings.Contains(out, "expires") {
		t.Fatalf("allow add --expires (exit %d): %s", code, out)
	}
	day := time.Now().AddDate(0, 0, 3).Format("2006-01-02")
	if out, code := h.run("", "allow", "add", "--expires", day, "--exact", "--", "make release"); code != 0 {
		t.Fatalf("allow add --expires DATE (exit %d): %s", code, out)
	}
	for _, bad := range []string{"yesterday", "-1h", "2001-01-01", "0s"} {
		if _, code := h.run("", "allow", "add", "--expires", bad, "--", "make x"); code != 2 {
			t.Errorf("--expires %s accepted", bad)
		}
	}
	if _, code := h.run("", "decide", "--", "make deploy staging"); code != 0 {
		t.Fatal("an approval that has not expired does not approve")
	}
	out, _ := h.run("", "allow", "list")
	if !strings.Contains(out, "1  prefix  make deploy *") || !strings.Contains(out, "expires ") {
		t.Errorf("list:\n%s", out)
	}
	// An hour passes.
	store := filepath.Join(h.home, ".config", "shellguard", "approvals.json")
	data, err := os.ReadFile(store)
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	f["approvals"].([]any)[0].(map[string]any)["expires"] = time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	data, _ = json.Marshal(f)
	write(t, store, string(data))
	if _, code := h.run("", "decide", "--", "make deploy staging"); code != 10 {
		t.Error("an expired approval approves")
	}
	out, _ = h.run("", "allow", "list", "--json")
	var l struct {
		Entries []struct {
			Index   int    `json:"index"`
			Display string `json:"display"`
			Expires string `json:"expires"`
			Expired bool   `json:"expired"`
		} `json:"entries"`
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatalf("list --json: %v\n%s", err, out)
	}
	if len(l.Entries) != 2 || !l.Entries[0].Expired || l.Entries[0].Index != 1 || l.Entries[1].Expired || l.Entries[1].Expires == "" {
		t.Errorf("list --json: %+v", l.Entries)
	}
	if out, _ := h.run("", "allow", "list"); !strings.Contains(out, "EXPIRED") {
		t.Errorf("list does not show EXPIRED:\n%s", out)
	}
	if out, code := h.run("", "allow", "explain", "--", "make deploy staging"); code != 1 || !strings.Contains(out, "expired") {
		t.Errorf("explain (exit %d):\n%s", code, out)
	}
	if out, code := h.run("", "allow", "explain", "--", "make release"); code != 0 || !strings.Contains(out, "approved by always: make release") {
		t.Errorf("explain of an approved line (exit %d):\n%s", code, out)
	}
	if out, code := h.run("", "allow", "prune"); code != 0 || !strings.Contains(out, "pruned: make deploy *") {
		t.Errorf("prune (exit %d): %s", code, out)
	}
	if out, code := h.run("", "allow", "remove", "1"); code != 0 || !strings.Contains(out, "removed: make release") {
		t.Errorf("remove 1 (exit %d): %s", code, out)
	}
	if out, code := h.run("", "allow", "remove", "1"); code != 1 {
		t.Errorf("remove 1 of an empty store (exit %d): %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(h.home, ".state", "shellguard", "audit.jsonl")); err != nil {
		t.Errorf("allow explain or decide: no audit log by default: %v", err)
	}
}

// TestE2EHistory: log, stats and suggest on a generated audit log.
func TestE2EHistory(t *testing.T) {
	h := newSGHome(t)
	logDir := filepath.Join(h.home, ".state", "shellguard")
	mkdirs(t, h.home, ".state/shellguard")
	now := time.Now().UTC()
	var b strings.Builder
	add := func(ago time.Duration, verdict, command, level string, prefixes, warnings []string, extra map[string]any) {
		r := map[string]any{"time": now.Add(-ago).Format(time.RFC3339Nano), "cwd": h.dir, "command": command, "verdict": verdict,
			"source": "hook:claude", "prefixes": prefixes, "warnings": warnings, "programs": []string{strings.Fields(command)[0]}}
		if level != "" {
			r["level"] = level
		}
		for k, v := range extra {
			r[k] = v
		}
		line, _ := json.Marshal(r)
		b.Write(line)
		b.WriteByte('\n')
	}
	for i := range 5 {
		add(time.Duration(i)*time.Minute, "ask", fmt.Sprintf("npm run build -- %d", i), "", []string{"npm run build"}, nil, nil)
	}
	for i := range 4 {
		add(time.Duration(i)*time.Minute, "ask", "git push --force", "low", []string{"git push"}, []string{"git_push_force:low"}, nil)
	}
	for i := range 3 {
		add(time.Duration(i)*time.Minute, "ask", "docker system prune", "medium", []string{"docker system prune"}, []string{"docker_prune:medium"}, nil)
	}
	add(time.Minute, "deny", "docker system prune -af --volumes", "high", []string{"docker system prune"}, []string{"docker_prune:high"}, nil)
	for i := range 3 {
		add(time.Duration(i)*time.Minute, "ask", "kubectl apply -f x", "", []string{"kubectl apply"}, nil, map[string]any{"rules": []string{"ask: kubectl *"}})
	}
	add(3*time.Hour, "ask", "make old", "", []string{"make old"}, nil, nil)
	add(time.Minute, "allow", "ls -la", "", []string{"ls"}, nil, map[string]any{"approved_by": []string{"read-only: ls"}})
	add(time.Minute, "deny", "rm -rf /", "critical", []string{"rm"}, []string{"rm_rf_root:critical"}, map[string]any{"shadow": true})
	add(time.Minute, "ask", "make deploy", "", []string{"make deploy"}, nil, map[string]any{"shadow": true, "code": "K7QM3XHP"})
	b.WriteString("this line is not a record\n")
	write(t, filepath.Join(logDir, "audit.jsonl"), b.String())

	out, code := h.run("", "log", "--decision", "deny")
	if code != 0 || strings.Count(out, "\n") != 3 || !strings.Contains(out, "deny (shadow)") || !strings.Contains(out, "1 lines") {
		t.Errorf("log --decision deny (exit %d):\n%s", code, out)
	}
	out, _ = h.run("", "log", "--since", "2h", "--json", "--limit", "2")
	if n := strings.Count(out, `"verdict"`); n != 2 {
		t.Errorf("log --since 2h --json --limit 2: %d records\n%s", n, out)
	}
	if out, _ := h.run("", "log", "--since", "2h"); strings.Contains(out, "make old") {
		t.Errorf("--since kept an older record:\n%s", out)
	}

	out, code = h.run("", "stats", "--json")
	if code != 0 {
		t.Fatalf("stats: exit %d: %s", code, out)
	}
	var st statsJSON
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &st); err != nil {
		t.Fatalf("stats --json: %v\n%s", err, out)
	}
	if st.Decisions.Ask != 17 || st.Decisions.Deny != 2 || st.Decisions.Allow != 1 || st.Shadow.Deny != 1 || st.Shadow.Ask != 1 || st.CodesIssued != 1 {
		t.Errorf("stats: %+v", st)
	}
	if len(st.TopAsked) == 0 || st.TopAsked[0].Name != "npm run build" || st.TopAsked[0].Ask != 5 {
		t.Errorf("top asked: %+v", st.TopAsked)
	}
	out, _ = h.run("", "stats")
	for _, want := range []string{"by rule:", "git_push_force", "by program:", "top asked prefixes", "npm run build *", "enforcement would have asked about 1 and denied 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("stats lacks %q:\n%s", want, out)
		}
	}

	out, _ = h.run("", "suggest", "--json")
	var sg []suggestion
	if err := json.Unmarshal([]byte(out[strings.Index(out, "["):]), &sg); err != nil {
		t.Fatalf("suggest --json: %v\n%s", err, out)
	}
	got := map[string]suggestion{}
	for _, s := range sg {
		got[s.Kind+":"+s.Prefix+s.Rule] = s
	}
	if s, ok := got["approval:npm run build"]; !ok || s.Asked != 5 || s.Do != "shellguard allow add -- npm run build" {
		t.Errorf("no approval for npm run build: %+v", sg)
	}
	if s, ok := got["approval:git push"]; !ok || len(s.Warned) != 1 {
		t.Errorf("git push: %+v", sg)
	}
	if _, ok := got["exempt:git_push_force"]; !ok {
		t.Errorf("no exempt for git_push_force: %+v", sg)
	}
	for _, never := range []string{"approval:docker system prune", "exempt:docker_prune", "approval:kubectl apply", "approval:make old", "approval:rm"} {
		if _, ok := got[never]; ok {
			t.Errorf("suggested %s: %+v", never, sg)
		}
	}
	// What is approved already is not suggested.
	if _, code := h.run("", "allow", "add", "--", "npm run build"); code != 0 {
		t.Fatal("allow add failed")
	}
	if out, _ := h.run("", "suggest"); strings.Contains(out, "allow add -- npm run build") || !strings.Contains(out, "git push") {
		t.Errorf("suggest after approving:\n%s", out)
	}
}

// TestE2EAuditLogOnByDefault: decide logs to the XDG state folder unless
// audit_log = "".
func TestE2EAuditLogOnByDefault(t *testing.T) {
	h := newSGHome(t)
	h.run("", "decide", "--", "ls")
	log := filepath.Join(h.home, ".state", "shellguard", "audit.jsonl")
	fi, err := os.Stat(log)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("default audit log: %v %v", fi, err)
	}
	out, _ := h.run("", "config", "show")
	if !strings.Contains(out, "audit_log = "+quoteTOML(log)) {
		t.Errorf("config show:\n%s", out)
	}
	h2 := newSGHome(t)
	h2.userConfig(`audit_log = ""` + "\n")
	h2.run("", "decide", "--", "ls")
	if _, err := os.Stat(filepath.Join(h2.home, ".state")); err == nil {
		t.Error(`audit_log = "" still logs`)
	}
}

// TestE2EShadowMode: mode = "warn" in the user's file: decide answers what
// enforcement would do but exits 0; a project file cannot turn it on;
// stats tells what enforcement would have done.
func TestE2EShadowMode(t *testing.T) {
	h := newSGHome(t)
	h.userConfig(`mode = "warn"` + "\n")
	out, code := h.run("", "decide", "--", "rm -rf /")
	if code != 0 || !strings.Contains(out, "shadow mode") || !strings.Contains(out, "enforcement would deny") {
		t.Fatalf("shadow decide (exit %d): %s", code, out)
	}
	out, code = h.run("", "decide", "--json", "--", "git push --force")
	var d struct {
		Decision string `json:"decision"`
		Shadow   bool   `json:"shadow"`
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &d); err != nil || code != 0 || d.Decision != "ask" || !d.Shadow {
		t.Errorf("shadow decide --json (exit %d): %+v %v", code, d, err)
	}
	out, _ = h.run("", "stats")
	if !strings.Contains(out, "enforcement would have asked about 1 and denied 1") {
		t.Errorf("stats in shadow mode:\n%s", out)
	}
	out, _ = h.run("", "config", "show")
	if !strings.Contains(out, `mode = "warn"`) || !strings.Contains(out, "shadow mode") {
		t.Errorf("config show:\n%s", out)
	}
	if out, code := h.run("", "mode"); code != 0 || strings.TrimSpace(out) != "warn" {
		t.Errorf("mode (exit %d): %q", code, out)
	}
	// The self-guard still holds, from an agent.
	if _, code := h.run("", "decide", "--source", "hook:claude", "--", "shellguard allow once ABCDEFGH"); code != 11 {
		t.Errorf("self-guard in shadow mode: exit %d", code)
	}

	p := newSGHome(t)
	write(t, filepath.Join(p.dir, ".shellguard.toml"), `mode = "warn"`+"\n")
	out, code = p.run("", "decide", "--", "rm -rf /")
	if code != 11 || !strings.Contains(out, ".shellguard.toml:1: ignored mode") {
		t.Errorf("a project file's mode (exit %d): %s", code, out)
	}
	if out, _ := p.run("", "mode"); strings.TrimSpace(out) != "enforce" {
		t.Errorf("mode with a project file's mode = \"warn\": %q", out)
	}
}

// TestE2ESelfGuard: from each agent's hook (and decide --source as a hook
// sets it), lines that change shellguard are denied with the reason.
func TestE2ESelfGuard(t *testing.T) {
	h := newSGHome(t)
	mkdirs(t, h.home, ".claude")
	write(t, filepath.Join(h.home, ".claude", "settings.json"), "{}")
	lines := []string{
		"shellguard allow once K7QM3XHP",
		"shellguard uninstall claude",
		"sed -i 's/shellguard/true/' ~/.claude/settings.json",
		"cd ~/.claude && rm settings.json",
		`echo 'mode = "warn"' >> ${XDG_CONFIG_HOME}/shellguard/config.toml`,
		"rm -rf ~/.config/shellguard",
		`python3 -c "import os; os.remove(os.path.expanduser('~/.codex/hooks.json'))"`,
	}
	for _, agent := range []string{"claude", "gemini", "codex"} {
		for _, line := range lines {
			out, code := h.hook(agent, line, agent != "claude")
			if code != 0 || !strings.Contains(out, `"deny"`) || !strings.Contains(out, "change shellguard itself") {
				t.Errorf("%s: %q (exit %d): %s", agent, line, code, out)
			}
			if strings.Contains(out, "a person can run") {
				t.Errorf("%s: %q carries a code: %s", agent, line, out)
			}
		}
		for _, line := range []string{"cat ~/.claude/settings.json", "shellguard stats"} {
			if out, _ := h.hook(agent, line, false); strings.Contains(out, "shellguard itself") {
				t.Errorf("%s: %q: %s", agent, line, out)
			}
		}
	}
	for _, src := range []string{"hook:claude", "hook:gemini", "hook:codex", "mcp"} {
		for _, line := range lines {
			if out, code := h.run("", "decide", "--source", src, "--", line); code != 11 || !strings.Contains(out, "shellguard itself") {
				t.Errorf("decide --source %s %q (exit %d): %s", src, line, code, out)
			}
		}
	}
	if out, _ := h.run("", "decide", "--", lines[0]); strings.Contains(out, "shellguard itself") {
		t.Errorf("decide from a person: %s", out)
	}
}

// TestE2EContextRule: rm -rf of build folders inside the project is not
// warned about; the near misses are.
func TestE2EContextRule(t *testing.T) {
	h := newSGHome(t)
	mkdirs(t, h.dir, "node_modules", "src", "build")
	mkdirs(t, h.home, "outside")
	if err := os.Symlink(filepath.Join(h.home, "outside"), filepath.Join(h.dir, "dist")); err != nil {
		t.Fatal(err)
	}
	warned := func(line string) bool {
		out, _ := h.run("", "decide", "--json", "--", line)
		return strings.Contains(out, `"rm_recursive"`)
	}
	for _, line := range []string{"rm -rf node_modules", "rm -rf node_modules build"} {
		if warned(line) {
			t.Errorf("%q warned", line)
		}
	}
	for _, line := range []string{"rm -rf ../node_modules", "rm -rf node_modules/../src", "rm -rf dist", "rm -rf dist/", "rm -rf .git", "rm -rf .", "rm -rf src"} {
		if !warned(line) {
			t.Errorf("%q not warned", line)
		}
	}
}

// TestE2EManagedTier: /etc/shellguard (moved by SHELLGUARD_MANAGED_DIR,
// which needs root-owned files) is a floor: config show names it, the
// user's loosening is ignored, and a managed file others could write
// stops everything.
func TestE2EManagedTier(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("managed files must be root's")
	}
	if _, err := os.Lstat("/etc/shellguard"); err == nil {
		t.Skip("/etc/shellguard exists: SHELLGUARD_MANAGED_DIR is ignored, as it must be")
	}
	h := newSGHome(t)
	md := filepath.Join(h.home, "managed")
	mkdirs(t, h.home, "managed")
	if err := os.Chmod(md, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(md, "config.toml"), "deny_at = \"high\"\n[rules]\ndeny = [\"terraform destroy *\"]\n[managed]\nforbid_warn_mode = true\nforbid_allow_rules = true\n")
	h.userConfig("deny_at = \"critical\"\nmode = \"warn\"\n[rules]\nallow = [\"terraform *\"]\n")
	out, code := h.run("", "config", "show")
	if code != 0 || !strings.Contains(out, "managed  "+filepath.Join(md, "config.toml")) || !strings.Contains(out, "ignored mode") || !strings.Contains(out, "ignored rules.allow[0]") {
		t.Errorf("config show (exit %d):\n%s", code, out)
	}
	if out, code := h.run("", "decide", "--", "terraform destroy -auto-approve"); code != 11 || strings.Contains(out, "shadow mode, mode") || strings.Contains(out, "allow once") {
		t.Errorf("managed deny rule (exit %d): %s", code, out)
	}
	if out, _ := h.run("", "mode"); strings.TrimSpace(out) != "enforce" {
		t.Errorf("mode: %q", out)
	}
	if err := os.Chmod(filepath.Join(md, "config.toml"), 0o666); err != nil {
		t.Fatal(err)
	}
	if out, code := h.run("", "decide", "--", "ls"); code != 2 || !strings.Contains(out, "not trusted") {
		t.Errorf("an untrusted managed file (exit %d): %s", code, out)
	}
}
