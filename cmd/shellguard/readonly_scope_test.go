package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReadOnlyScopeBinary (issue 14 §2, issue 11 item 8): through the real
// binary, `decide --cwd` and the Claude Code hook no longer allow, as
// read-only, reads outside the project, reads of credential stores and
// secrets, or prints of the environment; reads inside the project and of
// system files that hold no secrets stay allowed. At main every line
// below was allowed (exit 0; hook "allow").
func TestReadOnlyScopeBinary(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	proj := filepath.Join(home, "proj")
	mkdirs(t, home, "proj/src", ".config/gh", ".ssh", "other")
	for name, content := range map[string]string{
		"proj/README.md":       "readme",
		"proj/src/a.go":        "package a",
		"proj/.env":            "TOKEN=x",
		".config/gh/hosts.yml": "oauth_token: gho_x",
		".ssh/id_ed25519":      "KEY",
		".ssh/id_ed25519.pub":  "ssh-ed25519 AAAA",
		"notes.txt":            "notes",
		"other/README.md":      "other",
	} {
		write(t, filepath.Join(home, name), content)
	}
	tests := []struct {
		cmd  string
		code int // 0 allow, 10 ask
	}{
		{"cat README.md", 0},
		{"cat ./src/a.go", 0},
		{"ls -la src", 0},
		{"cat /etc/os-release", 0},
		{"grep -rn package src", 0},
		{"cat ~/.config/gh/hosts.yml", 10},
		{"printenv ANTHROPIC_API_KEY", 10},
		{"printenv", 10},
		{"env", 10},
		{"cat ~/notes.txt", 10},
		{"cat ../other/README.md", 10},
		{"ls ~/.ssh", 10},
		{"cat ~/.ssh/id_ed25519.pub", 10},
		{"cat .env", 10},
		{"cat /proc/self/environ", 10},
		{"grep -r token ~", 10},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			// decide --cwd, run from elsewhere: the flag is the project.
			out, code, killed, _ := runTimed(t, time.Minute, root, home, "", nil, sgBinary(t), "decide", "--cwd", proj, "--", tc.cmd)
			if killed || code != tc.code {
				t.Errorf("decide --cwd: exit %d (killed %v), want %d\n%s", code, killed, tc.code, out)
			}
			out, code, killed, _ = runTimed(t, time.Minute, proj, home, claudeHookInput(tc.cmd, proj), nil, sgBinary(t), "hook", "claude")
			allowed := strings.Contains(out, `"permissionDecision":"allow"`) || strings.Contains(out, `"permissionDecision": "allow"`)
			if killed || code != 0 || allowed != (tc.code == 0) {
				t.Errorf("hook claude: exit %d (killed %v), allowed %v, want %v\n%s", code, killed, allowed, tc.code == 0, out)
			}
		})
	}
}
