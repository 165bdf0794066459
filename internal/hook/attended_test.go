package hook

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/policy"
)

func TestAttendedClaude(t *testing.T) {
	spec, _ := agents.Lookup("claude")
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{"CLAUDE_CODE_SESSION_ATTENDED": "1"}, true},
		{map[string]string{"CLAUDE_CODE_SESSION_ATTENDED": "0"}, false},
		{map[string]string{"CLAUDE_CODE_SESSION_ATTENDED": "0", "CLAUDE_CODE_ENTRYPOINT": "cli"}, false},
		{map[string]string{"CLAUDE_CODE_ENTRYPOINT": "sdk-ts"}, false},
		{map[string]string{"CLAUDE_CODE_ENTRYPOINT": "cli"}, true},
		{map[string]string{}, true}, // an older Claude Code: as before, a person is assumed
	} {
		env := Env{Getenv: func(k string) string { return c.env[k] }}
		if got := Attended(spec, env); got != c.want {
			t.Errorf("%v: attended = %v, want %v", c.env, got, c.want)
		}
	}
}

func bptr(b bool) *bool { return &b }

func TestAttendedGemini(t *testing.T) {
	spec, _ := agents.Lookup("gemini")
	node := func(args ...string) Process {
		return Process{PPID: 1, Argv: append([]string{"/usr/bin/node", "--max-old-space-size=12052", "/home/u/.npm/bin/gemini"}, args...),
			StdinTTY: bptr(true), StdoutTTY: bptr(true)}
	}
	cases := []struct {
		name     string
		procs    map[int]Process
		env      map[string]string
		terminal bool
		want     bool
	}{
		{"interactive", map[int]Process{100: node()}, nil, true, true},
		{"interactive with options", map[int]Process{100: node("--yolo", "-m", "gemini-2.5-pro", "--include-directories=../lib")}, nil, true, true},
		{"prompt-interactive", map[int]Process{100: node("-i", "fix the bug")}, nil, true, true},
		{"through bash -c", map[int]Process{100: {PPID: 90, Argv: []string{"bash", "-c", "x"}}, 90: node()}, nil, true, true},
		{"the bundle script", map[int]Process{100: {PPID: 1, Argv: []string{"node", "/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js"}}}, nil, true, true},
		{"-p", map[int]Process{100: node("-p", "run it")}, nil, true, false},
		{"--prompt=", map[int]Process{100: node("--prompt=run it", "--yolo")}, nil, true, false},
		{"positional query", map[int]Process{100: node("--yolo", "run it")}, nil, true, false},
		{"query after an array option", map[int]Process{100: node("--allowed-tools", "run_shell_command", "do it")}, nil, true, false},
		{"stdout not a terminal", map[int]Process{100: {PPID: 1, Argv: node().Argv, StdinTTY: bptr(true), StdoutTTY: bptr(false)}}, nil, true, false},
		{"no terminal", map[int]Process{100: node()}, nil, false, false},
		{"CI", map[int]Process{100: node()}, map[string]string{"CI": "true"}, true, false},
		{"GitHub Actions", map[int]Process{100: node()}, map[string]string{"GITHUB_ACTIONS": "true"}, true, false},
		{"no Gemini CLI above", map[int]Process{100: {PPID: 90, Argv: []string{"bash"}}, 90: {PPID: 1, Argv: []string{"sshd"}}}, nil, true, false},
		{"unreadable", map[int]Process{}, nil, true, false},
		{"a gemini in argv is not the process", map[int]Process{100: {PPID: 1, Argv: []string{"timeout", "60", "gemini"}}}, nil, true, false},
	}
	for _, c := range cases {
		env := Env{
			Getenv:      func(k string) string { return c.env[k] },
			HasTerminal: func() bool { return c.terminal },
			Parent:      func() int { return 100 },
			ReadProcess: fakeProcesses(c.procs),
		}
		if got := Attended(spec, env); got != c.want {
			t.Errorf("%s: attended = %v, want %v", c.name, got, c.want)
		}
	}
	if Attended(spec, Env{}) {
		t.Error("the zero Env counts as attended")
	}
}

// The hook passes the agent, the permission mode and whether the run is
// unattended to the policy; Codex never reports unattended (it cannot ask).
func TestRequestFields(t *testing.T) {
	for _, c := range []struct {
		agent          agents.Agent
		env            Env
		wantUnattended bool
		wantMode       string
	}{
		{agents.Claude, unattendedEnv, true, "default"},
		{agents.Claude, attendedEnv, false, "default"},
		{agents.Gemini, unattendedEnv, true, ""},
		{agents.Gemini, attendedEnv, false, ""},
		{agents.Codex, unattendedEnv, false, "default"},
	} {
		var got Request
		RunWith(c.agent, strings.NewReader(inputFor(c.agent, `"ls"`)), &bytes.Buffer{}, &bytes.Buffer{}, func(r Request) (policy.Decision, error) {
			got = r
			return unknown(r.Command), nil
		}, c.env)
		if got.Agent != c.agent || got.Unattended != c.wantUnattended || got.Mode != c.wantMode || got.Command != "ls" {
			t.Errorf("%s: request %+v", c.agent, got)
		}
	}
}

// Codex's PermissionRequest: allow what shellguard approves, deny what it
// denies, no answer otherwise.
func TestCodexPermissionRequest(t *testing.T) {
	in := func(command string) string {
		q, _ := json.Marshal(command)
		return `{"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/p","hook_event_name":"PermissionRequest",` +
			`"model":"m","permission_mode":"default","tool_name":"Bash","tool_input":{"command":` + string(q) + `,"description":"why"}}`
	}
	for _, c := range []struct {
		name   string
		decide func(string) policy.Decision
		want   string
	}{
		{"approved", allowed, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`},
		{"denied", critical, `"behavior":"deny","message":"shellguard denied`},
		{"asks", askWarned, ``},
		{"unknown", unknown, ``},
	} {
		var out bytes.Buffer
		RunWith(agents.Codex, strings.NewReader(in("cmd")), &out, &bytes.Buffer{}, func(r Request) (policy.Decision, error) {
			return c.decide(r.Command), nil
		}, attendedEnv)
		got := strings.TrimSpace(out.String())
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: answer %s, want %q", c.name, got, c.want)
		}
	}
	// A problem refuses the request.
	var out bytes.Buffer
	RunWith(agents.Codex, strings.NewReader(in("cmd")), &out, &bytes.Buffer{}, func(Request) (policy.Decision, error) {
		return policy.Decision{}, errNoConfig
	}, attendedEnv)
	if !strings.Contains(out.String(), `"behavior":"deny"`) {
		t.Errorf("failure: %s", out.String())
	}
	// Other agents do not answer it.
	out.Reset()
	RunWith(agents.Claude, strings.NewReader(strings.Replace(in("cmd"), "PermissionRequest", "PermissionRequest", 1)), &out, &bytes.Buffer{}, func(r Request) (policy.Decision, error) {
		return allowed(r.Command), nil
	}, attendedEnv)
	if out.Len() != 0 {
		t.Errorf("Claude Code PermissionRequest answered: %s", out.String())
	}
}

// Claude Code's PowerShell tool: answered through the same policy, never
// allowed.
func TestClaudePowerShell(t *testing.T) {
	in := func(command string) string {
		q, _ := json.Marshal(command)
		return `{"session_id":"s","cwd":"C:\\p","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"PowerShell","tool_input":{"command":` + string(q) + `}}`
	}
	for _, c := range []struct {
		decide func(string) policy.Decision
		want   Action
	}{
		{allowed, NoOpinion}, {critical, DenyAction}, {askWarned, AskAction}, {unknown, NoOpinion},
	} {
		var out bytes.Buffer
		RunWith(agents.Claude, strings.NewReader(in("Get-ChildItem")), &out, &bytes.Buffer{}, func(r Request) (policy.Decision, error) {
			return c.decide(r.Command), nil
		}, attendedEnv)
		if got := parseAction(t, agents.Claude, out.Bytes()); got != c.want {
			t.Errorf("%v: %s", got, out.String())
		}
		if c.want != NoOpinion && !strings.Contains(out.String(), "PowerShell") {
			t.Errorf("the reason does not say the command is PowerShell: %s", out.String())
		}
	}
}

var errNoConfig = errorString("shellguard configuration error: bad")

type errorString string

func (e errorString) Error() string { return string(e) }

// BenchmarkAttendedGemini measures the probe a Gemini CLI hook call makes:
// /dev/tty and up to six ancestors read from /proc.
func BenchmarkAttendedGemini(b *testing.B) {
	spec, _ := agents.Lookup("gemini")
	env := ProcessEnv()
	env.HasTerminal = func() bool { return true } // walk the ancestors even without a terminal
	for b.Loop() {
		Attended(spec, env)
	}
}
