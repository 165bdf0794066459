package hook

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	leanOnce sync.Once
	leanPath string
	leanErr  error
)

func leanBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	leanOnce.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			leanErr = err
			return
		}
		leanPath = filepath.Join(binDir, "shellguard-hook")
		cmd := exec.Command("go", "build", "-o", leanPath, "./cmd/shellguard-hook")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			leanErr = &buildError{err, string(out)}
		}
	})
	if leanErr != nil {
		t.Fatalf("building shellguard-hook: %v", leanErr)
	}
	return leanPath
}

// The lean binary answers byte for byte what "shellguard hook AGENT" answers.
func TestLeanBinaryMatchesCLI(t *testing.T) {
	full, lean := shellguardBinary(t), leanBinary(t)
	env := isolatedEnv(t)
	project := t.TempDir()
	inputs := []string{"rm -rf /", "ls -la", "make build", "git push --force", "echo 'open"}
	for _, agent := range Agents() {
		for _, command := range inputs {
			q, _ := json.Marshal(command)
			in := strings.ReplaceAll(inputFor(agent, string(q)), "/home/u/project", project)
			want, _, wantCode := runHook(t, full, env, agent, in)
			cmd := exec.Command(lean, string(agent))
			cmd.Env = env
			cmd.Stdin = strings.NewReader(in)
			var out bytes.Buffer
			cmd.Stdout = &out
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if out.String() != want || code != wantCode {
				t.Errorf("%s %q: lean answered %q (exit %d), shellguard hook %q (exit %d)", agent, command, out.String(), code, want, wantCode)
			}
		}
	}
	// Garbage and bad usage block (exit 2 or the protocol's blocking form).
	cmd := exec.Command(lean)
	cmd.Env = env
	if err := cmd.Run(); err == nil {
		t.Error("shellguard-hook with no agent succeeded")
	}
}
