package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/shellguard/shellguard/internal/agents"
)

// FuzzEdit checks the settings editor on arbitrary files: the parser agrees
// with encoding/json, nothing panics, an installed hook is found, and
// removing it leaves no shellguard hook and a file that still parses.
func FuzzEdit(f *testing.F) {
	for _, name := range []string{"claude-settings.json", "claude-no-hooks.json", "claude-tabs.json",
		"claude-compact.json", "gemini-settings.json", "codex-hooks.json", "copilot-settings.json", "cursor-hooks.json",
		"windsurf-hooks.json", "qwen-settings.json", "droid-hooks.json", "crush.json", "augment-settings.json"} {
		if b, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(b, byte(0))
		}
	}
	f.Add([]byte(`{"hooks":{"PreToolUse":[{"hooks":[{"command":"shellguard hook claude"}]}]}}`), byte(0))
	f.Add([]byte("{/* c */}"), byte(1))
	f.Add([]byte(`{"a":[]}`), byte(2))
	// The agents whose settings the editor edits (not the files
	// shellguard writes whole).
	var edited []agents.Agent
	for _, sp := range agents.Specs() {
		if sp.Layout != agents.LayoutFile {
			edited = append(edited, sp.Name)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, which byte) {
		agent := edited[int(which)%len(edited)]
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

// FuzzCodexConfig checks the read-only config.toml reader on arbitrary
// files: nothing panics, a file that does not parse is a *ParseError, and
// every hook's line is in the file; appending shellguard's snippet to a
// file that parses yields a file where the hook is found.
func FuzzCodexConfig(f *testing.F) {
	for _, name := range []string{"codex-config.toml", "codex-config-shellguard.toml",
		"codex-config-inline-table.toml", "codex-config-invalid.toml"} {
		if b, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("[hooks]\nPreToolUse = 1\n"))
	f.Add([]byte("[features]\nhooks = false\n[hooks.state.x]\nenabled = false\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseCodexConfig(data, "")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T %v, want *ParseError", err, err)
			}
			return
		}
		n := bytes.Count(data, []byte("\n")) + 1
		for _, h := range cfg.Hooks {
			if h.Line < 0 || h.Line > n {
				t.Fatalf("hook %+v: line out of 1..%d", h, n)
			}
		}
		cmd := HookCommand("/usr/bin/shellguard", agents.Codex)
		with := append(append(append([]byte{}, data...), '\n'), TOMLSnippet(cmd)...)
		cfg, err = ParseCodexConfig(with, "")
		if err != nil {
			return // the snippet can clash with the file's own tables
		}
		found := false
		for _, h := range cfg.Shellguard() {
			found = found || h.Command == cmd
		}
		if !found && cfg.HooksErr == nil {
			t.Fatalf("appended hook not found: %+v\n%s", cfg.Hooks, with)
		}
	})
}
