//go:build unix

package tui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the writer goroutine of exec.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestShellRunner(t *testing.T) {
	dir := t.TempDir()
	r := ShellRunner{Shell: "/bin/sh", Env: []string{"PATH=" + os.Getenv("PATH"), "X=1"}}
	tests := []struct {
		line, want string
		code       int
	}{
		{"echo out; echo err >&2", "out\nerr\n", 0},
		{"exit 3", "", 3},
		{"pwd; echo \"$PWD\" \"$X\"", dir + "\n" + dir + " 1\n", 0},
		{"read x; echo \"[$x]\"", "[]\n", 0}, // standard input is empty
	}
	for _, tc := range tests {
		var out syncBuffer
		p, err := r.Start(context.Background(), tc.line, dir, &out)
		if err != nil {
			t.Fatal(err)
		}
		code, err := p.Wait()
		if err != nil || code != tc.code || out.String() != tc.want {
			t.Errorf("%q: code %d, err %v, output %q; want %d, %q", tc.line, code, err, out.String(), tc.code, tc.want)
		}
	}
}

func TestShellRunnerInterrupt(t *testing.T) {
	r := ShellRunner{Shell: "/bin/sh"}
	var out syncBuffer
	// Both processes of the pipeline must stop: SIGINT goes to the group.
	marker := filepath.Join(t.TempDir(), "started")
	p, err := r.Start(context.Background(), "touch "+marker+"; sleep 60 | sleep 60", t.TempDir(), &out)
	if err != nil {
		t.Fatal(err)
	}
	// The shell has not started yet; Interrupt before it would still work,
	// but waiting makes the test about the running pipeline. A shell that
	// never starts fails the test instead of hanging it.
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			p.Interrupt()
			p.Wait()
			t.Fatalf("the shell did not start the pipeline within 30 s (%s never appeared)", marker)
		}
		time.Sleep(time.Millisecond)
	}
	if err := p.Interrupt(); err != nil {
		t.Fatal(err)
	}
	code, err := p.Wait()
	if code != -1 || err == nil || !strings.Contains(err.Error(), "interrupt") {
		t.Errorf("code %d, err %v", code, err)
	}
}

func TestShellRunnerCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p, err := ShellRunner{Shell: "/bin/sh"}.Start(ctx, "sleep 60", t.TempDir(), &syncBuffer{})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if code, _ := p.Wait(); code == 0 {
		t.Error("cancelled command exited 0")
	}
}

func TestShellPath(t *testing.T) {
	t.Setenv("SHELL", "/bin/zsh")
	if got := (ShellRunner{}).ShellPath(); got != "/bin/zsh" {
		t.Errorf("got %q", got)
	}
	t.Setenv("SHELL", "")
	if got := (ShellRunner{}).ShellPath(); got != "/bin/sh" {
		t.Errorf("got %q", got)
	}
	if got := (ShellRunner{Shell: "/bin/bash"}).ShellPath(); got != "/bin/bash" {
		t.Errorf("got %q", got)
	}
}

func TestInteractiveCommand(t *testing.T) {
	c := ShellRunner{Shell: "/bin/sh"}.Interactive("exit 4", t.TempDir())
	var out bytes.Buffer
	c.SetStdin(strings.NewReader(""))
	c.SetStdout(&out)
	c.SetStderr(&out)
	code, err := exitStatus(c.Run())
	if code != 4 || err != nil {
		t.Errorf("code %d, err %v", code, err)
	}
}
