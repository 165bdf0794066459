package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/internal/testbin"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

const exe = "/opt/shellguard/bin/shellguard"

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeLoose decodes settings (comments stripped by re-parsing with our
// parser when needed) into a generic value.
func decodeLoose(t *testing.T, data []byte, agent agents.Agent) any {
	t.Helper()
	root, err := parseJSON(data, allowsComments(agent))
	if err != nil {
		t.Fatalf("result does not parse: %v\n%s", err, data)
	}
	var v any
	if err := json.Unmarshal(stripComments(data, root), &v); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return v
}

// stripComments re-assembles data from the parsed tree's values only.
func stripComments(data []byte, n *node) []byte {
	switch n.kind {
	case '{':
		var b bytes.Buffer
		b.WriteByte('{')
		for i, m := range n.members {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(m.key)
			b.Write(k)
			b.WriteByte(':')
			b.Write(stripComments(data, m.value))
		}
		b.WriteByte('}')
		return b.Bytes()
	case '[':
		var b bytes.Buffer
		b.WriteByte('[')
		for i, e := range n.elems {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(stripComments(data, e))
		}
		b.WriteByte(']')
		return b.Bytes()
	}
	return data[n.start:n.end]
}

func TestInstallUninstallRoundTrip(t *testing.T) {
	tests := []struct {
		file  string
		agent agents.Agent
		// exact: uninstall gives back the original bytes.
		exact bool
	}{
		{"claude-settings.json", agents.Claude, true},
		{"claude-no-hooks.json", agents.Claude, true},
		{"claude-tabs.json", agents.Claude, false}, // "hooks": {} becomes absent
		{"claude-compact.json", agents.Claude, false},
		{"gemini-settings.json", agents.Gemini, true},
		{"codex-hooks.json", agents.Codex, true},
		// Another agent's file layout with a different event: still fine.
		{"claude-settings.json", agents.Codex, true},
		{"copilot-settings.json", agents.Copilot, true},
		{"cursor-hooks.json", agents.Cursor, true},
		{"windsurf-hooks.json", agents.Windsurf, true},
		{"qwen-settings.json", agents.Qwen, true},
		{"droid-hooks.json", agents.Droid, true},
		{"crush.json", agents.Crush, true},
		{"augment-settings.json", agents.Augment, true},
		{"claude-settings.json", agents.Qwen, true},
		{"claude-settings.json", agents.Augment, true},
	}
	for _, tt := range tests {
		t.Run(tt.file+"/"+string(tt.agent), func(t *testing.T) {
			orig := readTestdata(t, tt.file)
			path := filepath.Join(t.TempDir(), "settings.json")
			if err := os.WriteFile(path, orig, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := HookCommand(exe, tt.agent)

			res, err := Install(path, tt.agent, cmd, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Changed || res.Created || res.Backup == "" {
				t.Fatalf("first install: %+v", res)
			}
			if b, err := os.ReadFile(res.Backup); err != nil || !bytes.Equal(b, orig) {
				t.Fatalf("backup %s: %v, same=%v", res.Backup, err, bytes.Equal(b, orig))
			}
			installed, _ := os.ReadFile(path)
			if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want 0600 kept", st.Mode().Perm())
			}
			cmds, err := InstalledCommands(installed, tt.agent)
			if err != nil || !reflect.DeepEqual(cmds, []string{cmd}) {
				t.Fatalf("installed commands %q, %v\n%s", cmds, err, installed)
			}
			golden(t, filepath.Join("testdata", "golden", strings.TrimSuffix(tt.file, ".json")+"."+string(tt.agent)+".installed"), installed)

			// The hook entry is where the agent looks for it.
			v := decodeLoose(t, installed, tt.agent).(map[string]any)
			spec := tt.agent.Spec()
			events := v
			if !spec.EventsAtRoot {
				events = v["hooks"].(map[string]any)
			}
			groups := events[tt.agent.Event()].([]any)
			last := groups[len(groups)-1].(map[string]any)
			handler := last
			if spec.Layout == agents.LayoutGroups {
				handler = last["hooks"].([]any)[0].(map[string]any)
				if last["matcher"] == "" {
					t.Fatalf("entry %v has no matcher", last)
				}
			}
			if handler[commandKey(spec)] != cmd {
				t.Fatalf("entry %v", last)
			}

			// Every other key survives, in order.
			if !tt.exact {
				before := decodeLoose(t, orig, tt.agent).(map[string]any)
				for k, val := range before {
					if k != "hooks" && !reflect.DeepEqual(v[k], val) {
						t.Errorf("key %q changed: %v -> %v", k, val, v[k])
					}
				}
			}

			// Second install: nothing to do.
			res2, err := Install(path, tt.agent, cmd, Options{})
			if err != nil || res2.Changed || res2.Backup != "" {
				t.Fatalf("second install: %+v, %v", res2, err)
			}
			if again, _ := os.ReadFile(path); !bytes.Equal(again, installed) {
				t.Fatal("second install changed the file")
			}

			res3, err := Uninstall(path, tt.agent, "", Options{})
			if err != nil || !res3.Changed || res3.Removed || res3.Backup != path+BackupSuffix {
				t.Fatalf("uninstall: %+v, %v", res3, err)
			}
			// One backup per file: the content before the last write.
			if b, err := os.ReadFile(res3.Backup); err != nil || !bytes.Equal(b, installed) {
				t.Fatalf("backup after uninstall: %v, holds the installed file: %v", err, bytes.Equal(b, installed))
			}
			if baks, _ := filepath.Glob(path + ".shellguard-bak*"); len(baks) != 1 {
				t.Fatalf("backups: %v, want one", baks)
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if tt.exact && !bytes.Equal(after, orig) {
				t.Fatalf("uninstall did not restore the original bytes:\n%s\n--- want ---\n%s", after, orig)
			}
			if cmds, _ := InstalledCommands(after, tt.agent); len(cmds) != 0 {
				t.Fatalf("hook still there: %q", cmds)
			}
			if !tt.exact {
				want := decodeLoose(t, orig, tt.agent).(map[string]any)
				got := decodeLoose(t, after, tt.agent).(map[string]any)
				delete(want, "hooks")
				delete(got, "hooks")
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("uninstall changed other keys: %v, want %v", got, want)
				}
			}
			res4, err := Uninstall(path, tt.agent, "", Options{})
			if err != nil || res4.Changed {
				t.Fatalf("second uninstall: %+v, %v", res4, err)
			}
		})
	}
}

func TestInstallKeepsKeyOrder(t *testing.T) {
	orig := readTestdata(t, "claude-settings.json")
	out, changed, err := AddHook(orig, agents.Claude, HookCommand(exe, agents.Claude))
	if err != nil || !changed {
		t.Fatal(err)
	}
	order := func(b []byte) []string {
		root, err := parseJSON(b, false)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, m := range root.members {
			keys = append(keys, m.key)
		}
		for _, m := range root.get("hooks").members {
			keys = append(keys, "hooks."+m.key)
		}
		return keys
	}
	if got, want := order(out), order(orig); !reflect.DeepEqual(got, want) {
		t.Fatalf("key order %v, want %v", got, want)
	}
	if !bytes.HasPrefix(out, orig[:bytes.Index(orig, []byte(`"PreToolUse"`))]) {
		t.Fatal("bytes before the PreToolUse list changed")
	}
}

func TestInstallCreatesAndUninstallRemoves(t *testing.T) {
	for _, agent := range agents.Agents() {
		t.Run(string(agent), func(t *testing.T) {
			env := Env{Home: t.TempDir(), Dir: t.TempDir()}
			for _, scope := range []Scope{User, Project} {
				path, err := SettingsPath(agent, scope, env)
				if err != nil {
					t.Fatal(err)
				}
				cmd := HookCommand(exe, agent)
				res, err := Install(path, agent, cmd, Options{})
				if err != nil || !res.Created || !res.Changed || res.Backup != "" {
					t.Fatalf("install: %+v, %v", res, err)
				}
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				golden(t, filepath.Join("testdata", "golden", "new."+string(agent)+".installed"), data)
				st := Inspect(agent, scope, env, "")
				if !st.Exists || st.Err != nil || !reflect.DeepEqual(st.Commands, []string{cmd}) {
					t.Fatalf("inspect: %+v", st)
				}
				res, err = Uninstall(path, agent, "", Options{})
				// A file shellguard wrote whole is removed with no backup.
				own := agent.Spec().Layout == agents.LayoutFile
				if err != nil || !res.Removed || (res.Backup == "") != own {
					t.Fatalf("uninstall: %+v, %v", res, err)
				}
				if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
					t.Fatalf("file still there: %v", err)
				}
			}
		})
	}
}

func TestSettingsPath(t *testing.T) {
	env := Env{Home: "/h", Dir: "/p", Getenv: func(k string) string {
		return map[string]string{"CODEX_HOME": "/ch"}[k]
	}}
	tests := []struct {
		agent agents.Agent
		scope Scope
		want  string
	}{
		{agents.Claude, User, "/h/.claude/settings.json"},
		{agents.Claude, Project, "/p/.claude/settings.json"},
		{agents.Gemini, User, "/h/.gemini/settings.json"},
		{agents.Gemini, Project, "/p/.gemini/settings.json"},
		{agents.Codex, User, "/ch/hooks.json"},
		{agents.Codex, Project, "/p/.codex/hooks.json"},
		{agents.Copilot, User, "/h/.copilot/settings.json"},
		{agents.Copilot, Project, "/p/.github/copilot/settings.json"},
		{agents.OpenCode, User, "/h/.config/opencode/plugins/shellguard.js"},
		{agents.OpenCode, Project, "/p/.opencode/plugins/shellguard.js"},
		{agents.Cursor, User, "/h/.cursor/hooks.json"},
		{agents.Cursor, Project, "/p/.cursor/hooks.json"},
		{agents.Windsurf, User, "/h/.codeium/windsurf/hooks.json"},
		{agents.Windsurf, Project, "/p/.windsurf/hooks.json"},
		{agents.Cline, User, "/h/.cline/hooks/PreToolUse.bash"},
		{agents.Cline, Project, "/p/.cline/hooks/PreToolUse.bash"},
		{agents.Qwen, User, "/h/.qwen/settings.json"},
		{agents.Qwen, Project, "/p/.qwen/settings.json"},
		{agents.Droid, User, "/h/.factory/hooks.json"},
		{agents.Droid, Project, "/p/.factory/hooks.json"},
		{agents.Crush, User, "/h/.config/crush/crush.json"},
		{agents.Crush, Project, "/p/crush.json"},
		{agents.Pi, User, "/h/.pi/agent/extensions/shellguard.ts"},
		{agents.Pi, Project, "/p/.pi/extensions/shellguard.ts"},
		{agents.Kilo, User, "/h/.config/kilo/plugins/shellguard.js"},
		{agents.Kilo, Project, "/p/.kilo/plugins/shellguard.js"},
		{agents.Amp, User, "/h/.config/amp/plugins/shellguard.ts"},
		{agents.Amp, Project, "/p/.amp/plugins/shellguard.ts"},
		{agents.Augment, User, "/h/.augment/settings.json"},
		{agents.Augment, Project, "/p/.augment/settings.json"},
	}
	for _, tt := range tests {
		got, err := SettingsPath(tt.agent, tt.scope, env)
		if err != nil || got != tt.want {
			t.Errorf("SettingsPath(%s, %s) = %q, %v; want %q", tt.agent, tt.scope, got, err, tt.want)
		}
	}
	// The directories the environment moves.
	moved := Env{Home: "/h", Dir: "/p", Getenv: func(k string) string {
		return map[string]string{"XDG_CONFIG_HOME": "/x", "COPILOT_HOME": "/co", "CLINE_DIR": "/cl",
			"CRUSH_GLOBAL_CONFIG": "/cr", "PI_CODING_AGENT_DIR": "/pi", "CLAUDE_CONFIG_DIR": "/cc"}[k]
	}}
	for agent, want := range map[agents.Agent]string{
		agents.OpenCode: "/x/opencode/plugins/shellguard.js", agents.Kilo: "/x/kilo/plugins/shellguard.js",
		agents.Amp: "/x/amp/plugins/shellguard.ts", agents.Copilot: "/co/settings.json", agents.Cline: "/cl/hooks/PreToolUse.bash",
		agents.Crush: "/cr/crush.json", agents.Pi: "/pi/extensions/shellguard.ts", agents.Claude: "/cc/settings.json",
	} {
		if got, err := SettingsPath(agent, User, moved); err != nil || got != want {
			t.Errorf("moved: SettingsPath(%s) = %q, %v; want %q", agent, got, err, want)
		}
	}
	relative := Env{Home: "/h", Getenv: func(k string) string { return map[string]string{"XDG_CONFIG_HOME": "rel"}[k] }}
	if got, _ := SettingsPath(agents.OpenCode, User, relative); got != "/h/.config/opencode/plugins/shellguard.js" {
		t.Errorf("a relative XDG_CONFIG_HOME was used: %s", got)
	}
	if _, err := SettingsPath(agents.Claude, "global", env); err == nil {
		t.Error("unknown scope accepted")
	}
}

func TestInstallRefusesUnparseable(t *testing.T) {
	bad := map[string][]byte{
		"trailing comma": []byte("{\n  \"model\": \"opus\",\n}\n"),
		"comment":        []byte("{\n  // not allowed for Claude Code\n  \"model\": \"opus\"\n}\n"),
		"array":          []byte("[1, 2]\n"),
		"hooks string":   []byte(`{"hooks": "none"}`),
		"event object":   []byte(`{"hooks": {"PreToolUse": {}}}`),
		"truncated":      []byte(`{"hooks": {"PreToolUse": [`),
	}
	for name, data := range bad {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "settings.json")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Install(path, agents.Claude, HookCommand(exe, agents.Claude), Options{})
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
				t.Fatal("file changed")
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Fatalf("extra files: %v", entries)
			}
			// Uninstall refuses too, or finds nothing to remove.
			res, err := Uninstall(path, agents.Claude, "", Options{})
			if err != nil && !errors.As(err, &pe) || res.Changed {
				t.Fatalf("uninstall: %+v, %v", res, err)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
				t.Fatal("uninstall changed the file")
			}
		})
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	orig := readTestdata(t, "claude-settings.json")
	if err := os.WriteFile(path, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Install(path, agents.Claude, HookCommand(exe, agents.Claude), Options{DryRun: true})
	if err != nil || !res.Changed || res.Backup != "" || !bytes.Contains(res.After, []byte(exe)) {
		t.Fatalf("dry run: %+v, %v", res, err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, orig) {
		t.Fatal("dry run changed the file")
	}
	missing := filepath.Join(dir, "sub", "settings.json")
	if res, err := Install(missing, agents.Claude, "x shellguard hook claude", Options{DryRun: true}); err != nil || !res.Created {
		t.Fatalf("dry run on a new file: %+v, %v", res, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("dry run created files: %v", entries)
	}
}

func TestInstallUpdatesStalePath(t *testing.T) {
	old := HookCommand("/old/place/shellguard", agents.Claude)
	data, _, err := AddHook(readTestdata(t, "claude-settings.json"), agents.Claude, old)
	if err != nil {
		t.Fatal(err)
	}
	cmd := HookCommand("/new place/shellguard", agents.Claude)
	out, changed, err := AddHook(data, agents.Claude, cmd)
	if err != nil || !changed {
		t.Fatalf("changed=%v err=%v", changed, err)
	}
	cmds, _ := InstalledCommands(out, agents.Claude)
	if !reflect.DeepEqual(cmds, []string{cmd}) || cmd != `'/new place/shellguard' hook claude`+FailClosedSuffix {
		t.Fatalf("commands %q", cmds)
	}
}

func TestUninstallLeavesOtherAgentsAndUserHooks(t *testing.T) {
	// A hand-made group holding shellguard's hook next to another one.
	in := []byte(`{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {"type": "command", "command": "/usr/local/bin/audit"},
          {"type": "command", "command": "shellguard hook claude"},
          {"type": "command", "command": "shellguard hook codex"}
        ]
      }
    ]
  }
}
`)
	out, changed, empty, err := RemoveHook(in, agents.Claude, "")
	if err != nil || !changed || empty {
		t.Fatalf("changed=%v empty=%v err=%v", changed, empty, err)
	}
	if bytes.Contains(out, []byte("hook claude")) || !bytes.Contains(out, []byte("/usr/local/bin/audit")) ||
		!bytes.Contains(out, []byte("hook codex")) || !json.Valid(out) {
		t.Fatalf("result:\n%s", out)
	}
}

func TestSymlinkIsFollowed(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles-settings.json")
	orig := readTestdata(t, "claude-no-hooks.json")
	if err := os.WriteFile(real, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "settings.json")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	if _, err := Install(link, agents.Claude, HookCommand(exe, agents.Claude), Options{}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symbolic link was replaced")
	}
	if data, _ := os.ReadFile(real); !bytes.Contains(data, []byte(exe)) {
		t.Fatal("the link's target was not updated")
	}
}

func TestIsShellguardCommand(t *testing.T) {
	tests := []struct {
		cmd   string
		agent agents.Agent
		want  bool
	}{
		{"/usr/bin/shellguard hook claude", agents.Claude, true},
		{"'/my dir/shellguard' hook gemini", agents.Gemini, true},
		{"shellguard hook 'codex'", agents.Codex, true},
		{"/usr/bin/shellguard hook claude", agents.Codex, false},
		{"/usr/bin/other hook claude", agents.Claude, false},
		{"shellguard check", agents.Claude, false},
	}
	for _, tt := range tests {
		if got := IsShellguardCommand(tt.cmd, tt.agent); got != tt.want {
			t.Errorf("IsShellguardCommand(%q, %s) = %v", tt.cmd, tt.agent, got)
		}
	}
}

func TestCheckCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "bin dir", "shellguard")
	if err := os.MkdirAll(filepath.Dir(good), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(good, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	noexec := filepath.Join(dir, "noexec")
	if err := os.WriteFile(noexec, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cmd string
		ok  bool
	}{
		{HookCommand(good, agents.Claude), true},
		{`"` + good + `" hook claude`, true},
		{HookCommand(filepath.Join(dir, "missing"), agents.Claude), false},
		{HookCommand(noexec, agents.Claude), false},
		{HookCommand(dir, agents.Claude), false},
		{"shellguard hook claude", false},
		{"$HOME/bin/shellguard hook claude", false},
		{"'unterminated hook claude", false},
	}
	for _, tt := range tests {
		if err := CheckCommand(tt.cmd); (err == nil) != tt.ok {
			t.Errorf("CheckCommand(%q) = %v, want ok=%v", tt.cmd, err, tt.ok)
		}
	}
}

func TestParserMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,2.5e-3,-0,true,false,null,"\u00e9\n"]}`, ` {"a" : {"b":{}}} `,
		`{"a":01}`, `{"a":1.}`, `{"a":"\x"}`, "{\"a\":\"\t\"}", `{"a":1,}`, `[1,]`, `{"a"}`, `nul`, `"`, ``, `{} {}`} {
		_, err := parseJSON([]byte(s), false)
		if (err == nil) != json.Valid([]byte(s)) {
			t.Errorf("parseJSON(%q) err=%v, json.Valid=%v", s, err, json.Valid([]byte(s)))
		}
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	testbin.Golden(t, path, got, *update)
}

func TestRenamedBinaryIsRecognisedByItsExactCommand(t *testing.T) {
	orig := readTestdata(t, "claude-settings.json")
	cmd := HookCommand("/usr/local/bin/sg", agents.Claude)
	once, changed, err := AddHook(orig, agents.Claude, cmd)
	if err != nil || !changed {
		t.Fatal(err)
	}
	twice, changed, err := AddHook(once, agents.Claude, cmd)
	if err != nil || changed || !bytes.Equal(once, twice) {
		t.Fatalf("second AddHook changed=%v err=%v", changed, err)
	}
	back, changed, _, err := RemoveHook(twice, agents.Claude, cmd)
	if err != nil || !changed || !bytes.Equal(back, orig) {
		t.Fatalf("RemoveHook changed=%v err=%v\n%s", changed, err, back)
	}
}
