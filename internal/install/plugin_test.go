package install

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/internal/testbin"
)

func fileAgents() []agents.Agent {
	var out []agents.Agent
	for _, s := range agents.Specs() {
		if s.Layout == agents.LayoutFile {
			out = append(out, s.Name)
		}
	}
	return out
}

// TestPluginFiles: the files shellguard writes whole are written, kept,
// updated and removed as its own, and never over a file it did not write.
func TestPluginFiles(t *testing.T) {
	for _, agent := range fileAgents() {
		t.Run(string(agent), func(t *testing.T) {
			env := Env{Home: t.TempDir(), Dir: t.TempDir()}
			path, err := SettingsPath(agent, User, env)
			if err != nil {
				t.Fatal(err)
			}
			// Another plugin next to it, which must survive untouched.
			other := filepath.Join(filepath.Dir(path), "their-plugin"+filepath.Ext(path))
			testbin.WriteFile(t, other, []byte("// the user's own\n"))
			cmd := LeanHookCommand("/opt/my tools/it's/shellguard-hook", agent)
			res, err := Install(path, agent, cmd, Options{})
			if err != nil || !res.Created || !res.Changed || res.Backup != "" {
				t.Fatalf("install: %+v, %v", res, err)
			}
			data, _ := os.ReadFile(path)
			if got, ours := pluginCommand(data, agent); !ours || got != cmd {
				t.Fatalf("the file names %q (ours %v), want %q:\n%s", got, ours, cmd, data)
			}
			if !bytes.Contains(data, []byte(`["/opt/my tools/it's/shellguard-hook","`+string(agent)+`"]`)) && agent.Spec().Plugin != agents.PluginCline {
				t.Fatalf("the hook's argv is not in the file:\n%s", data)
			}
			st := Inspect(agent, User, env, "")
			if !reflect.DeepEqual(st.Commands, []string{cmd}) || len(st.Hooks) != 1 || st.Hooks[0].Event != agent.Event() {
				t.Fatalf("inspect: %+v", st)
			}
			if res, err := Install(path, agent, cmd, Options{}); err != nil || res.Changed {
				t.Fatalf("second install: %+v, %v", res, err)
			}
			moved := LeanHookCommand("/usr/local/bin/shellguard-hook", agent)
			if res, err := Install(path, agent, moved, Options{}); err != nil || !res.Changed || res.Backup != "" {
				t.Fatalf("install from another place: %+v, %v", res, err)
			}
			if res, err := Uninstall(path, agent, "", Options{DryRun: true}); err != nil || !res.Removed || !exists(path) {
				t.Fatalf("dry-run uninstall: %+v, %v", res, err)
			}
			if res, err := Uninstall(path, agent, "", Options{}); err != nil || !res.Removed {
				t.Fatalf("uninstall: %+v, %v", res, err)
			}
			if exists(path) {
				t.Fatal("the file is still there")
			}
			if b, _ := os.ReadFile(other); string(b) != "// the user's own\n" {
				t.Fatal("the other plugin changed")
			}
			if res, err := Uninstall(path, agent, "", Options{}); err != nil || res.Changed {
				t.Fatalf("second uninstall: %+v, %v", res, err)
			}

			// A file of the user's at that name is never replaced or removed.
			testbin.WriteFile(t, path, []byte("// mine\n"))
			if _, err := Install(path, agent, cmd, Options{}); err == nil || !strings.Contains(err.Error(), "not written by shellguard") {
				t.Fatalf("install over the user's file: %v", err)
			}
			if res, err := Uninstall(path, agent, "", Options{}); err != nil || res.Changed {
				t.Fatalf("uninstall of the user's file: %+v, %v", res, err)
			}
			if b, _ := os.ReadFile(path); string(b) != "// mine\n" {
				t.Fatal("the user's file changed")
			}
		})
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return !errors.Is(err, os.ErrNotExist)
}

func TestSplitWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"/a/shellguard hook pi", []string{"/a/shellguard", "hook", "pi"}},
		{"'/opt/my tools/it'\\''s/shellguard-hook' amp", []string{"/opt/my tools/it's/shellguard-hook", "amp"}},
		{`"/x y/z" kilo`, []string{"/x y/z", "kilo"}},
	} {
		if got, err := splitWords(tc.in); err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitWords(%q) = %q, %v", tc.in, got, err)
		}
	}
	for _, bad := range []string{"a; b", "a | b", "$HOME/x", "a `b`", "'open", `"a $b"`, "a && b", "a > f", "~/x"} {
		if _, err := splitWords(bad); err == nil {
			t.Errorf("splitWords(%q) accepted a command that needs a shell", bad)
		}
	}
}

// TestOpenCodePluginIsJavaScript checks the plugin's syntax with node,
// when node is there.
func TestOpenCodePluginIsJavaScript(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	data, err := PluginFile(agents.OpenCode, LeanHookCommand("/opt/shellguard-hook", agents.OpenCode))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "shellguard.mjs")
	testbin.WriteFile(t, path, data)
	if out, err := exec.Command(node, "--check", path).CombinedOutput(); err != nil {
		t.Fatalf("node --check: %v\n%s", err, out)
	}
}

// TestClineScript runs the Cline hook script with bash: it passes the
// hook's answer through, and prints a cancel when the program cannot run.
func TestClineScript(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	dir := t.TempDir()
	hook := filepath.Join(dir, "shellguard-hook")
	testbin.WriteFile(t, hook, []byte("#!/bin/sh\ncat >/dev/null\necho '{\"context\":\"from the hook\"}'\n"))
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(command string) string {
		t.Helper()
		data, err := PluginFile(agents.Cline, command)
		if err != nil {
			t.Fatal(err)
		}
		script := filepath.Join(dir, "PreToolUse.bash")
		testbin.WriteFile(t, script, data)
		c := exec.Command(bash, script)
		c.Stdin = strings.NewReader(`{"hookName":"tool_call"}`)
		out, err := c.Output()
		if err != nil {
			t.Fatalf("the script failed: %v", err)
		}
		return string(out)
	}
	if out := run(LeanHookCommand(hook, agents.Cline)); out != "{\"context\":\"from the hook\"}\n" {
		t.Errorf("answer not passed through: %q", out)
	}
	if out := run(LeanHookCommand(filepath.Join(dir, "gone", "shellguard-hook"), agents.Cline)); !strings.Contains(out, `"cancel":true`) ||
		!strings.Contains(out, "exit 127") {
		t.Errorf("a missing hook program does not cancel: %q", out)
	}
}
