package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hostileBound is the gross bound on one process in these tests: several
// times the documented 2 s, for a loaded machine. The figures are in
// docs/robustness.md.
const hostileBound = 10 * time.Second

// heavyPatterns returns n [[pattern]] entries, each with a regex that
// compiles to about 5,000 instructions and never matches.
func heavyPatterns(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[[pattern]]\nname = \"p%d\"\nlevel = \"low\"\nregex = '(?:\\w+\\s*){999}\\d'\n", i)
	}
	return b.String()
}

func hookAnswer(t *testing.T, out string) string {
	t.Helper()
	var a struct {
		HookSpecificOutput struct {
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("hook answer %q: %v", out, err)
	}
	return a.HookSpecificOutput.PermissionDecision + ": " + a.HookSpecificOutput.PermissionDecisionReason
}

// TestHostileProjectFileBinary is issue 11 item 2 on the real binary: a
// project file (only keys a project may set) of heavy regexes made a hook
// call take tens of seconds and gigabytes. Now what a project may add is
// bounded before anything is compiled: the hook answers at once, with the
// bound as the reason (ask for Claude Code), and decide exits 2 naming it.
func TestHostileProjectFileBinary(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	mkdirs(t, root, "repo/.git", "home")
	home := filepath.Join(root, "home")
	write(t, filepath.Join(repo, ".shellguard.toml"), heavyPatterns(3000)) // 230 KB
	out, code, killed, took := runTimed(t, hostileBound, repo, home, claudeHookInput("rm -rf /", repo), nil, sgBinary(t), "hook", "claude")
	if killed || code != 0 {
		t.Fatalf("hook: exit %d, killed %v after %s", code, killed, took)
	}
	if a := hookAnswer(t, out); !strings.HasPrefix(a, "ask: ") || !strings.Contains(a, "instructions") {
		t.Errorf("hook answered %q, want ask naming the regex bound", a)
	}
	t.Logf("hook: %s", took)
	out, code, killed, took = runTimed(t, hostileBound, repo, home, "", nil, sgBinary(t), "decide", "--", "rm -rf /")
	if killed || code != exitUsage || !strings.Contains(out, "a project file's regex may compile to at most") {
		t.Errorf("decide: exit %d, killed %v after %s:\n%s", code, killed, took, out)
	}
	t.Logf("decide: %s", took)
}

// TestDecisionBudgetBinary: whatever the configuration (here the user's
// own file, which is not bounded, with patterns that take many seconds on
// a long line), the hook and decide answer within the budget: ask, with
// the budget as the reason, never allow. At main they took as long as the
// patterns did.
func TestDecisionBudgetBinary(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "work", "home")
	home, work := filepath.Join(root, "home"), filepath.Join(root, "work")
	userConfig(t, home, heavyPatterns(40))
	line := "echo " + strings.Repeat("abcdefgh ", 7000) // 63 KB, inside the parser's limit
	out, code, killed, took := runTimed(t, hostileBound, work, home, claudeHookInput(line, work), nil, sgBinary(t), "hook", "claude")
	if killed || code != 0 {
		t.Fatalf("hook: exit %d, killed %v after %s", code, killed, took)
	}
	if a := hookAnswer(t, out); !strings.HasPrefix(a, "ask: ") || !strings.Contains(a, "budget") {
		t.Errorf("hook answered %q, want ask over budget", a)
	}
	t.Logf("hook: %s", took)
	out, code, killed, took = runTimed(t, hostileBound, work, home, line, nil, sgBinary(t), "decide", "--json", "-")
	if killed || code != exitAsk || !strings.Contains(out, `"problem": "over_budget"`) {
		t.Errorf("decide: exit %d, killed %v after %s:\n%.300s", code, killed, took, out)
	}
	t.Logf("decide: %s", took)
	// The short commands of that configuration are decided as usual.
	if _, code, _, _ := runTimed(t, hostileBound, work, home, "", nil, sgBinary(t), "decide", "--", "rm -rf /"); code != exitDeny {
		t.Errorf("rm -rf /: exit %d", code)
	}
}
