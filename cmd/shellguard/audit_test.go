package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runTimed runs the real binary like runEnv, killing it after limit; it
// reports whether it had to.
func runTimed(t *testing.T, limit time.Duration, dir, home, stdin string, env []string, name string, args ...string) (out string, code int, killed bool, took time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append([]string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".state"), "PATH=" + os.Getenv("PATH")}, env...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	start := time.Now()
	err := cmd.Run()
	took = time.Since(start)
	if ctx.Err() != nil {
		return buf.String(), -1, true, took
	}
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return buf.String(), code, false, took
}

func userConfig(t *testing.T, home, content string) {
	t.Helper()
	dir := filepath.Join(home, ".config", "shellguard")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "config.toml"), content)
}

func claudeHookInput(command, cwd string) string {
	b, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]string{"command": command}})
	return string(b)
}

// TestAuditLogFIFODoesNotHang is issue 11 item 3 on the real binary: an
// audit log that is a FIFO hung decide and the hook forever. Now the write
// is refused at once; the decision stands, and audit_error says why.
func TestAuditLogFIFODoesNotHang(t *testing.T) {
	for _, which := range []string{"log", "lock"} {
		t.Run(which, func(t *testing.T) {
			home := t.TempDir()
			logDir := filepath.Join(home, "logs")
			mkdirs(t, home, "logs")
			fifo := filepath.Join(logDir, "audit.jsonl")
			if which == "lock" {
				fifo = filepath.Join(logDir, ".audit.jsonl.shellguard-lock")
			}
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skip("mkfifo:", err)
			}
			userConfig(t, home, "audit_log = "+quoteTOML(filepath.Join(logDir, "audit.jsonl"))+"\n")
			out, code, killed, _ := runTimed(t, 20*time.Second, home, home, "", nil, sgBinary(t), "decide", "--json", "--", "ls")
			if killed {
				t.Fatalf("decide hung on a FIFO %s", which)
			}
			var d struct {
				Decision   string `json:"decision"`
				AuditError string `json:"audit_error"`
			}
			if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &d); err != nil {
				t.Fatalf("exit %d: %v\n%s", code, err, out)
			}
			if code != 0 || d.Decision != "allow" || !strings.Contains(d.AuditError, "not a regular file") {
				t.Errorf("exit %d, %+v", code, d)
			}
			out, code, killed, _ = runTimed(t, 20*time.Second, home, home, claudeHookInput("ls", home), nil, sgBinary(t), "hook", "claude")
			if killed {
				t.Fatalf("the hook hung on a FIFO %s", which)
			}
			if code != 0 || !strings.Contains(out, `"allow"`) {
				t.Errorf("hook: exit %d\n%s", code, out)
			}
		})
	}
}

// TestAuditRequired is issue 11 item 11 on the real binary: with
// audit_required = true, a decision whose record cannot be written (here
// under a file size limit, as on a full disk) is ask, not allow; doctor
// reports the failed write.
func TestAuditRequired(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	home := t.TempDir()
	mkdirs(t, home, "logs")
	log := filepath.Join(home, "logs", "audit.jsonl")
	write(t, log, strings.Repeat(`{"time":"2026-12-02T10:15:00Z","cwd":"/","command":"ls","verdict":"allow"}`+"\n", 56)) // 4,200 bytes
	userConfig(t, home, "audit_log = "+quoteTOML(log)+"\naudit_required = true\n")
	// ulimit -f counts blocks of 512 (or 1,024) bytes: 4 blocks are under
	// the log's size either way, so no record fits. Go ignores SIGXFSZ, so
	// the write fails with EFBIG.
	limited := []string{"-c", `ulimit -f 4 && exec "$0" "$@"`, sgBinary(t)}
	out, code, killed, _ := runTimed(t, 20*time.Second, home, home, "", nil, "sh", append(limited, "decide", "--", "ls")...)
	if killed || code != exitAsk || !strings.Contains(out, "audit_required") {
		t.Fatalf("decide with an unwritable log: exit %d (killed %v), want %d:\n%s", code, killed, exitAsk, out)
	}
	out, code, _, _ = runTimed(t, 20*time.Second, home, home, claudeHookInput("ls", home), nil, "sh", append(limited, "hook", "claude")...)
	if code != 0 || !strings.Contains(out, `"ask"`) || !strings.Contains(out, "audit") {
		t.Errorf("hook with an unwritable log: exit %d\n%s", code, out)
	}
	out, _, _, _ = runTimed(t, 20*time.Second, home, home, "", nil, sgBinary(t), "doctor")
	if !strings.Contains(out, "PROBLEM: the last write to audit log") {
		t.Errorf("doctor does not report the failed write:\n%s", out)
	}
	// Without the limit the next write succeeds, and doctor is content.
	if _, code, _, _ := runTimed(t, 20*time.Second, home, home, "", nil, sgBinary(t), "decide", "--", "ls"); code != exitAllow {
		t.Errorf("decide without the limit: exit %d", code)
	}
	if out, _, _, _ := runTimed(t, 20*time.Second, home, home, "", nil, sgBinary(t), "doctor"); !strings.Contains(out, "audit log "+log+": ok") {
		t.Errorf("doctor after a good write:\n%s", out)
	}
	b, _ := os.ReadFile(log)
	if bytes.Count(b, []byte("\n")) != 57 {
		t.Errorf("log holds %d lines, want 57", bytes.Count(b, []byte("\n")))
	}
}

func quoteTOML(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
