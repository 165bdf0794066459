package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/internal/testbin"
)

// sgBinary returns the shellguard command TestMain put on PATH: this test
// binary, run as cmd/shellguard.
func sgBinary(t *testing.T) string { return onPath(t, "shellguard") }

func onPath(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is not on PATH (TestMain runs testscript.Main): %v", name, err)
	}
	return p
}

func runSG(t *testing.T, stdin string, args ...string) (string, int) {
	t.Helper()
	home := t.TempDir()
	cmd := sgCmd(t, home, home, args...)
	cmd.Stdin = strings.NewReader(stdin)
	return testbin.Run(t, cmd)
}

// runIn runs the binary with HOME and XDG_CONFIG_HOME under home, in dir.
func runIn(t *testing.T, home, dir string, args ...string) (string, int) {
	t.Helper()
	return testbin.Run(t, sgCmd(t, home, dir, args...))
}

// sgCmd is the binary with args, HOME and XDG_CONFIG_HOME under home, in
// dir.
func sgCmd(t *testing.T, home, dir string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(sgBinary(t), args...)
	cmd.Env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "PATH=" + os.Getenv("PATH")}
	cmd.Dir = dir
	return cmd
}

// Programs shellguard does not know may run their argv: after approving
// one use of such a program, what its argv runs is still checked
// (docs/robustness.md, finding 16). Input redirects of secrets and cuts
// of variables set elsewhere are flagged too.
func TestArgvRunnersAndEvasionsBinary(t *testing.T) {
	home := t.TempDir()
	dir := t.TempDir()
	if out, code := runIn(t, home, dir, "allow", "add", "--", "mytool --flag make build"); code != 0 {
		t.Fatalf("allow add: %d %s", code, out)
	}
	for _, tc := range []struct {
		cmd  string
		want int
	}{
		{"mytool --flag make build", exitAllow},
		{"mytool --flag rm -rf /", exitDeny},
		{"mytool --flag sh -c 'rm -rf /'", exitDeny},
	} {
		if out, code := runIn(t, home, dir, "decide", "--", tc.cmd); code != tc.want {
			t.Errorf("decide %q: exit %d, want %d\n%s", tc.cmd, code, tc.want, out)
		}
	}
	for c, want := range map[string]string{
		"direnv exec . rm -rf /": "rm_rf_root",
		"frobnicate rm -rf ~":    "rm_rf_home",
		"cat < ~/.ssh/id_rsa":    "read_secret_file",
		"cat</etc/shadow":        "read_secret_file",
		`cat ${test//hhh\/hm/}`:  "env_slice",
		`cat ${test//hh??hm/}`:   "env_slice",
		"echo rm -rf /":          "",
		"docker rm -f c":         "",
		`mv "$f" "${f%.txt}.md"`: "",
	} {
		out, code := runIn(t, home, dir, "check", "--json", "--", c)
		var res checkJSON
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%q: bad JSON %v: %s", c, err, out)
		}
		if want == "" {
			if code != 0 || res.Dangerous {
				t.Errorf("check %q: exit %d, want no warning: %s", c, code, out)
			}
			continue
		}
		if code != 1 || !strings.Contains(out, `"name":"`+want+`"`) && !strings.Contains(out, `"name": "`+want+`"`) {
			t.Errorf("check %q: exit %d, want rule %s: %s", c, code, want, out)
		}
	}
}
