package install

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/internal/testbin"
	"github.com/shellguard/shellguard/internal/tomldoc"
)

func TestParseCodexConfig(t *testing.T) {
	tests := []struct {
		file       string
		command    string
		want       []InlineHook
		disabled   bool
		state      map[string]HookState
		wantHookEr bool
	}{
		{file: "codex-config.toml", want: []InlineHook{
			{Event: "PreToolUse", Matcher: "apply_patch", Command: "python3 ~/.codex/hooks/check_patch.py", Line: 22},
			{Event: "Stop", Command: "python3 ~/.codex/hooks/stop.py", Line: 28},
		}},
		{file: "codex-config-shellguard.toml", want: []InlineHook{
			{Event: "PreToolUse", Matcher: "^Bash$", Command: "python3 ~/.codex/hooks/log.py", Line: 8},
			{Event: "PreToolUse", Matcher: "^Bash$", Command: exe + " hook codex", Line: 12, Handler: 1, Shellguard: true},
		}, state: map[string]HookState{"/home/dev/.codex/config.toml:pre_tool_use:0:1": {TrustedHash: "sha256:0123"}}},
		{file: "codex-config-inline-table.toml", want: []InlineHook{
			{Event: "PreToolUse", Matcher: "Bash|apply_patch", Command: "/usr/local/bin/shellguard-hook codex", Line: 3, Shellguard: true},
		}},
		// A renamed binary is shellguard's by its exact command.
		{file: "codex-config.toml", command: "python3 ~/.codex/hooks/stop.py", want: []InlineHook{
			{Event: "PreToolUse", Matcher: "apply_patch", Command: "python3 ~/.codex/hooks/check_patch.py", Line: 22},
			{Event: "Stop", Command: "python3 ~/.codex/hooks/stop.py", Line: 28, Shellguard: true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			cfg, err := ParseCodexConfig(readTestdata(t, tt.file), tt.command)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(plainHooks(cfg.Hooks), tt.want) {
				t.Errorf("hooks\n got %+v\nwant %+v", cfg.Hooks, tt.want)
			}
			if cfg.HooksDisabled != tt.disabled || (cfg.HooksErr != nil) != tt.wantHookEr {
				t.Errorf("disabled %v, hooks error %v", cfg.HooksDisabled, cfg.HooksErr)
			}
			if len(tt.state) > 0 && !reflect.DeepEqual(cfg.State, tt.state) {
				t.Errorf("state %+v, want %+v", cfg.State, tt.state)
			}
		})
	}
}

func TestParseCodexConfigSettings(t *testing.T) {
	tests := []struct {
		name, data string
		disabled   bool
		hooksErr   bool
		shellguard int
		runs       bool
	}{
		{"empty", "", false, false, 0, false},
		{"features off", "[features]\nhooks = false\n", true, false, 0, false},
		{"deprecated alias off", "[features]\ncodex_hooks = false\n", true, false, 0, false},
		{"features on", "[features]\nhooks = true\n", false, false, 0, false},
		{"wrong shape", "[hooks.PreToolUse]\nmatcher = \"Bash\"\n", false, true, 0, false},
		{"no matcher runs for Bash", "[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"shellguard hook codex\"\n", false, false, 1, true},
		{"star", "[[hooks.PreToolUse]]\nmatcher = \"*\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"shellguard hook codex\"\n", false, false, 1, true},
		{"other tool", "[[hooks.PreToolUse]]\nmatcher = \"^apply_patch$\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"shellguard hook codex\"\n", false, false, 1, false},
		{"bad regexp", "[[hooks.PreToolUse]]\nmatcher = \"(Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"shellguard hook codex\"\n", false, false, 1, false},
		{"other event", "[[hooks.PostToolUse]]\nmatcher = \"Bash\"\n[[hooks.PostToolUse.hooks]]\ntype = \"command\"\ncommand = \"shellguard hook codex\"\n", false, false, 1, false},
		{"claude's hook is not codex's", "[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"shellguard hook claude\"\n", false, false, 0, false},
		{"multi-line string", "[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = '''\nshellguard hook codex'''\n", false, false, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := ParseCodexConfig([]byte(tt.data), "")
			if err != nil {
				t.Fatal(err)
			}
			if cfg.HooksDisabled != tt.disabled || (cfg.HooksErr != nil) != tt.hooksErr {
				t.Fatalf("disabled %v, hooks error %v", cfg.HooksDisabled, cfg.HooksErr)
			}
			sg := cfg.Shellguard()
			if len(sg) != tt.shellguard {
				t.Fatalf("shellguard hooks %+v, want %d", sg, tt.shellguard)
			}
			if len(sg) > 0 && sg[0].RunsForShell() != tt.runs {
				t.Fatalf("%+v: RunsForShell %v, want %v", sg[0], !tt.runs, tt.runs)
			}
		})
	}
}

func TestParseCodexConfigInvalid(t *testing.T) {
	_, err := ParseCodexConfig(readTestdata(t, "codex-config-invalid.toml"), "")
	var pe *ParseError
	var te *TOMLError
	if !errors.As(err, &pe) || !errors.As(err, &te) {
		t.Fatalf("error %T %v, want a *ParseError with a *TOMLError", err, err)
	}
	if te.Line != 4 || !strings.Contains(err.Error(), "line 4") {
		t.Fatalf("error %q (line %d), want line 4", err, te.Line)
	}
}

// plainHooks drops the fields that only the trust hash reads.
func plainHooks(hs []InlineHook) []InlineHook {
	out := make([]InlineHook, len(hs))
	for i, h := range hs {
		h.HasMatcher, h.Timeout, h.Async, h.StatusMessage = false, nil, nil, ""
		out[i] = h
	}
	return out
}

func TestTOMLSnippetRoundTrip(t *testing.T) {
	for _, cmd := range []string{
		HookCommand(exe, agents.Codex),
		HookCommand("/Users/Jo O'Neil/bin/shellguard", agents.Codex),
		LeanHookCommand(`C:\tools\shellguard-hook`, agents.Codex),
		HookCommand("/opt/\"q\"/shellguard", agents.Codex),
	} {
		snip := TOMLSnippet(cmd)
		if _, _, err := tomldoc.Decode([]byte(snip)); err != nil {
			t.Fatalf("%q: snippet does not parse: %v\n%s", cmd, err, snip)
		}
		// Appended to a realistic file, the snippet is found as
		// shellguard's hook that runs for shell commands, on its line.
		data := append(readTestdata(t, "codex-config.toml"), "\n"+snip...)
		cfg, err := ParseCodexConfig(data, "")
		if err != nil {
			t.Fatal(err)
		}
		// PreToolUse and PermissionRequest, each on its own line.
		sg := cfg.Shellguard()
		if len(sg) != 2 {
			t.Fatalf("%q: found %+v\n%s", cmd, sg, data)
		}
		var pre *InlineHook
		for i, h := range sg {
			if h.Command != cmd || h.Line == 0 || h.Timeout == nil || *h.Timeout != 30 || !h.HasMatcher {
				t.Fatalf("%q: found %+v\n%s", cmd, h, data)
			}
			if got := strings.Split(string(data), "\n")[h.Line-1]; !strings.HasPrefix(got, "command = ") {
				t.Fatalf("line %d is %q", h.Line, got)
			}
			if h.Event == "PreToolUse" {
				pre = &sg[i]
			}
		}
		// The other hooks keep their group indexes (Codex keys trust by them).
		if pre == nil || !pre.RunsForShell() || len(cfg.Hooks) != 4 || pre.Group != 1 {
			t.Fatalf("hooks %+v", cfg.Hooks)
		}
	}
}

func TestInspectCodex(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	env := Env{Home: home, Dir: dir}
	l := InspectCodex(User, env, "")
	if l.TOMLExists || l.TOMLErr != nil || l.JSON.Exists || l.BothRepresentations() {
		t.Fatalf("empty home: %+v", l)
	}
	testbin.WriteFile(t, filepath.Join(home, ".codex", "config.toml"), readTestdata(t, "codex-config-shellguard.toml"))
	jsonPath := filepath.Join(home, ".codex", "hooks.json")
	testbin.WriteFile(t, jsonPath, readTestdata(t, "codex-hooks.json"))
	l = InspectCodex(User, env, "")
	if !l.TOMLExists || l.TOMLErr != nil || len(l.TOML.Shellguard()) != 1 || !l.BothRepresentations() || len(l.JSON.Commands) != 0 {
		t.Fatalf("user layer: %+v", l)
	}
	// shellguard in hooks.json: its position is reported for StateKey.
	out, _, err := AddHook(readTestdata(t, "codex-hooks.json"), agents.Codex, HookCommand(exe, agents.Codex))
	if err != nil {
		t.Fatal(err)
	}
	testbin.WriteFile(t, jsonPath, out)
	l = InspectCodex(User, env, "")
	pos := map[string][2]int{}
	for _, h := range l.JSON.Hooks {
		pos[h.Event] = [2]int{h.Group, h.Handler}
	}
	if len(l.JSON.Commands) != 1 || !reflect.DeepEqual(pos, map[string][2]int{"PreToolUse": {1, 0}, "PermissionRequest": {0, 0}}) {
		t.Fatalf("hooks.json positions: %+v", l)
	}
	// An invalid project config.toml is reported with its line.
	testbin.WriteFile(t, filepath.Join(dir, ".codex", "config.toml"), readTestdata(t, "codex-config-invalid.toml"))
	l = InspectCodex(Project, env, "")
	if !l.TOMLExists || l.TOMLErr == nil || !strings.Contains(l.TOMLErr.Error(), "line 4") {
		t.Fatalf("project layer: %+v", l)
	}
	if p, _ := CodexConfigPath(User, Env{Home: home, Getenv: func(k string) string {
		if k == "CODEX_HOME" {
			return "/srv/codex"
		}
		return ""
	}}); p != "/srv/codex/config.toml" {
		t.Fatalf("CODEX_HOME: %s", p)
	}
}

func TestStateKey(t *testing.T) {
	if got := StateKey("/home/dev/.codex/hooks.json", 1, 0); got != "/home/dev/.codex/hooks.json:pre_tool_use:1:0" {
		t.Fatal(got)
	}
}

func TestParseCodexConfigHooksNotATable(t *testing.T) {
	for _, data := range []string{"hooks = 1\n", "[[hooks]]\n[[hooks.PreToolUse]]\nmatcher = 'Bash'\n"} {
		cfg, err := ParseCodexConfig([]byte(data), "")
		if err != nil || cfg.HooksErr == nil {
			t.Errorf("%q: err %v, hooks error %v; want a hooks error", data, err, cfg.HooksErr)
		}
	}
}

// Codex reads config.toml keys case-sensitively: a table or key spelt
// with other case is not a hook. (BurntSushi's struct decoding matched
// them case-insensitively, and which of [hookS] and [hooks] won depended
// on map order; FuzzCodexConfig found it.)
func TestParseCodexConfigKeysAreCaseSensitive(t *testing.T) {
	for _, src := range []string{
		"[[hookS.PreToolUse]]\nmatcher = 'Bash'\n[[hookS.PreToolUse.hooks]]\ntype = 'command'\ncommand = '/usr/bin/shellguard hook codex'\n",
		"[[hooks.PreToolUse]]\nmatcher = 'Bash'\n[[hooks.PreToolUse.Hooks]]\ntype = 'command'\ncommand = '/usr/bin/shellguard hook codex'\n",
		"[[hooks.PreToolUse]]\nmatcher = 'Bash'\n[[hooks.PreToolUse.hooks]]\ntype = 'command'\nCommand = '/usr/bin/shellguard hook codex'\n",
	} {
		for i := 0; i < 20; i++ { // map order varies between runs
			cfg, err := ParseCodexConfig([]byte(src), "")
			if err != nil {
				t.Fatalf("%q: %v", src, err)
			}
			if n := len(cfg.Shellguard()); n != 0 {
				t.Fatalf("%q: %d shellguard hooks found, want 0 (%+v)", src, n, cfg.Hooks)
			}
		}
	}
	cfg, err := ParseCodexConfig([]byte("[hookS]\nPreToolUse=[{1xC90=[{}]}]\n[[hooks.PreToolUse]]\nmatcher = '^Bash$'\n[[hooks.PreToolUse.hooks]]\ntype = 'command'\ncommand = '/usr/bin/shellguard hook codex'\n"), "")
	if err != nil || len(cfg.Shellguard()) != 1 || cfg.HooksErr != nil {
		t.Fatalf("[hooks] next to [hookS]: %+v, %v", cfg, err)
	}
}
