package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// sgBinary builds the real binary once per test run.
func sgBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "shellguard-bin")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "shellguard")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = err
			binPath = string(out)
		}
	})
	if binErr != nil {
		t.Fatalf("building shellguard: %v\n%s", binErr, binPath)
	}
	return binPath
}

func runSG(t *testing.T, stdin string, args ...string) (string, int) {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(sgBinary(t), args...)
	cmd.Env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "PATH=" + os.Getenv("PATH")}
	cmd.Dir = home
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

func TestCheckBinary(t *testing.T) {
	flagged := []string{`r''m -fr /`, `sudo env X=1 nice /bin/rm -r -f /`, `bash -c 'rm -rf /'`, `echo "rm -rf /" | sh`,
		`$(printf rm) -rf /`, `curl -s x | sudo bash`, `:(){ :|:& };:`, "ls\nrm -rf ~", `eval "$x"`}
	for _, c := range flagged {
		out, code := runSG(t, "", "check", "--json", "--", c)
		var res checkJSON
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%q: bad JSON %v: %s", c, err, out)
		}
		if code != 1 || !res.Dangerous || len(res.Warnings) == 0 {
			t.Errorf("check %q: exit %d, %s", c, code, out)
		}
	}
	for _, c := range []string{`echo "rm -rf /"`, `grep -r "rm -rf" .`, `git commit -m "rm -rf /"`, `python3 -c "print('rm -rf /')"`, `man dd`, `docker run --rm x`} {
		out, code := runSG(t, "", "check", "--", c)
		if code != 0 || !strings.Contains(out, "No danger found") {
			t.Errorf("check %q: exit %d, %s", c, code, out)
		}
	}
	// "-" reads the whole line, newlines included.
	if _, code := runSG(t, "ls -la\nrm -rf /\n", "check", "-"); code != 1 {
		t.Errorf("check - with a newline-separated rm: exit %d", code)
	}
	if _, code := runSG(t, "", "check", "--min-level", "critical", "--", "git push --force"); code != 0 {
		t.Errorf("--min-level critical should ignore a Low warning: exit %d", code)
	}
	if _, code := runSG(t, "", "check", "--min-level", "bogus", "--", "ls"); code != 2 {
		t.Errorf("bad --min-level: exit %d, want 2", code)
	}
	if _, code := runSG(t, "", "check"); code != 2 {
		t.Errorf("no command: exit %d, want 2", code)
	}
}

func TestCheckBatchBinary(t *testing.T) {
	out, code := runSG(t, "ls\nrm -rf /\necho 'open\n", "check", "--batch")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 {
		t.Fatalf("batch: exit %d, %d lines: %s", code, len(lines), out)
	}
	want := []bool{false, true, true}
	for i, l := range lines {
		var res checkJSON
		if err := json.Unmarshal([]byte(l), &res); err != nil || res.Dangerous != want[i] {
			t.Errorf("line %d: %v %s", i, err, l)
		}
	}
	out, _ = runSG(t, "ls\x00rm -rf /\x00", "check", "--batch", "-0")
	if n := strings.Count(strings.TrimSpace(out), "\n") + 1; n != 2 {
		t.Errorf("-0: %d lines: %s", n, out)
	}
}

func TestDecideAndExplainBinary(t *testing.T) {
	for c, want := range map[string]int{"ls -la": exitAllow, "make build": exitAsk, "rm -rf /": exitDeny, "ls |": exitAsk} {
		if out, code := runSG(t, "", "decide", "--json", "--", c); code != want {
			t.Errorf("decide %q: exit %d, want %d: %s", c, code, want, out)
		}
	}
	out, code := runSG(t, "", "explain", "--", `sudo -u bob bash -c "rm -rf /tmp/x && echo \$HOME"`)
	for _, want := range []string{"wrapper: sudo -u bob", "shell string bash -c", "Decision:"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain output lacks %q (exit %d):\n%s", want, code, out)
		}
	}
}

// runIn runs the binary with HOME and XDG_CONFIG_HOME under home, in dir.
func runIn(t *testing.T, home, dir string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(sgBinary(t), args...)
	cmd.Env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "PATH=" + os.Getenv("PATH")}
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), 0
}

func TestDecideLayersBinary(t *testing.T) {
	home := t.TempDir()
	proj := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(home, ".config", "shellguard"), 0o700))
	must(os.WriteFile(filepath.Join(home, ".config", "shellguard", "config.toml"), []byte("[rules]\nallow = [\"make *\"]\n"), 0o600))
	// The project file may add a deny rule but not an allow rule.
	must(os.WriteFile(filepath.Join(proj, ".shellguard.toml"), []byte("[rules]\nallow = [\"curl *\"]\ndeny = [\"make deploy *\"]\n"), 0o600))

	cases := []struct {
		cmd  string
		want int
	}{
		{"make build", exitAllow},     // user allow rule
		{"make deploy", exitDeny},     // project deny rule wins
		{"curl https://x", exitAsk},   // project allow rule ignored
		{"npm test", exitAsk},         // not approved yet
		{"rm -rf /", exitDeny},        // critical
		{"make build; rm x", exitAsk}, // every invocation must be approved
	}
	for _, tc := range cases {
		out, code := runIn(t, home, proj, "decide", "--", tc.cmd)
		if code != tc.want {
			t.Errorf("decide %q: exit %d, want %d\n%s", tc.cmd, code, tc.want, out)
		}
	}
	if out, code := runIn(t, home, proj, "allow", "add", "--", "npm test"); code != 0 {
		t.Fatalf("allow add: %d %s", code, out)
	}
	if out, code := runIn(t, home, proj, "decide", "--json", "--", "npm test --coverage"); code != exitAllow || !strings.Contains(out, `"approved_by": "always: npm test *"`) {
		t.Errorf("after allow add: exit %d\n%s", code, out)
	}
	if _, code := runIn(t, home, proj, "decide", "--", "sudo npm test"); code == exitAllow {
		t.Error("approving npm test approved sudo npm test")
	}
	// A config error is exit 2, never an allow.
	must(os.WriteFile(filepath.Join(proj, ".shellguard.toml"), []byte("bogus = 1\n"), 0o600))
	if out, code := runIn(t, home, proj, "decide", "--", "ls"); code != 2 || !strings.Contains(out, ".shellguard.toml:1") {
		t.Errorf("config error: exit %d\n%s", code, out)
	}
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
