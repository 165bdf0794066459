package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/internal/testbin"
	"github.com/shellguard/shellguard/policy"
)

// TestGuards: a directory's Guard is kept while its configuration files
// stay the same, and loaded again when one is added, edited or removed,
// the user's file included.
func TestGuards(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	dir := filepath.Join(root, "proj", "sub")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	var notices []string
	gs := NewGuards(policy.Options{Env: func(k string) string { return env[k] }}, func(n string) { notices = append(notices, n) })
	g1, err := gs.Guard(dir)
	if err != nil {
		t.Fatal(err)
	}
	if g2, _ := gs.Guard(dir); g2 != g1 {
		t.Error("loaded again with nothing changed")
	}
	verdict := func(cmd string) policy.Verdict {
		t.Helper()
		g, err := gs.Guard(dir)
		if err != nil {
			t.Fatal(err)
		}
		return g.Decide(policy.Request{Command: cmd, Cwd: dir}).Verdict
	}
	if verdict("echo hi") != policy.Allow {
		t.Fatal("echo hi is not allowed to begin with")
	}
	testbin.WriteFile(t, filepath.Join(root, "proj", ".shellguard.toml"), "[rules]\ndeny = [\"echo *\"]\nallow = [\"x\"]\n")
	if verdict("echo hi") != policy.Deny {
		t.Error("a project file added above: not read")
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "ignored rules.allow") {
		t.Errorf("notices %q", notices)
	}
	testbin.WriteFile(t, filepath.Join(root, "proj", ".shellguard.toml"), "[rules]\nask = [\"echo *\"]\n")
	if verdict("echo hi") != policy.Ask {
		t.Error("the project file edited: not read")
	}
	if err := os.Remove(filepath.Join(root, "proj", ".shellguard.toml")); err != nil {
		t.Fatal(err)
	}
	if verdict("echo hi") != policy.Allow {
		t.Error("the project file removed: still applied")
	}
	testbin.WriteFile(t, filepath.Join(home, ".config", "shellguard", "config.toml"), "[rules]\ndeny = [\"echo *\"]\n")
	if verdict("echo hi") != policy.Deny {
		t.Error("the user file added: not read")
	}
	testbin.WriteFile(t, filepath.Join(dir, ".shellguard.toml"), "deny_at = \n")
	if _, err := gs.Guard(dir); err == nil {
		t.Error("a broken project file loaded")
	}
	// Bounded: the oldest directories are forgotten.
	for i := range maxGuards + 5 {
		d := filepath.Join(root, fmt.Sprint("d", i))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := gs.Guard(d); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(gs.entries); n != maxGuards || len(gs.order) != maxGuards {
		t.Errorf("%d entries, %d in order; want %d", n, len(gs.order), maxGuards)
	}
}
