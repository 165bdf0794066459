package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/shellguard/shellguard/hook"
)

// FuzzEdit checks the settings editor on arbitrary files: the parser agrees
// with encoding/json, nothing panics, an installed hook is found, and
// removing it leaves no shellguard hook and a file that still parses.
func FuzzEdit(f *testing.F) {
	for _, name := range []string{"claude-settings.json", "claude-no-hooks.json", "claude-tabs.json",
		"claude-compact.json", "gemini-settings.json", "codex-hooks.json"} {
		if b, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(b, byte(0))
		}
	}
	f.Add([]byte(`{"hooks":{"PreToolUse":[{"hooks":[{"command":"shellguard hook claude"}]}]}}`), byte(0))
	f.Add([]byte("{/* c */}"), byte(1))
	f.Add([]byte(`{"a":[]}`), byte(2))
	f.Fuzz(func(t *testing.T, data []byte, which byte) {
		agent := hook.Agents()[int(which)%3]
		if _, err := parseJSON(data, false); (err == nil) != json.Valid(data) {
			t.Fatalf("parser disagrees with encoding/json on %q: %v", data, err)
		}
		cmd := HookCommand("/usr/bin/shellguard", agent)
		out, _, err := AddHook(data, agent, cmd)
		if err != nil {
			return
		}
		cmds, err := InstalledCommands(out, agent)
		if err != nil || len(cmds) == 0 {
			t.Fatalf("after AddHook: %q, %v\n%s", cmds, err, out)
		}
		for _, c := range cmds {
			if c != cmd {
				t.Fatalf("command %q, want %q", c, cmd)
			}
		}
		back, changed, empty, err := RemoveHook(out, agent, "")
		if err != nil || !changed {
			t.Fatalf("RemoveHook: changed=%v err=%v\n%s", changed, err, out)
		}
		if empty {
			return
		}
		if cmds, err := InstalledCommands(back, agent); err != nil || len(cmds) != 0 {
			t.Fatalf("after RemoveHook: %q, %v\n%s", cmds, err, back)
		}
	})
}
