package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// waitDelay is how long the output pipe may stay open after the shell has
// exited (held by a background job), before it is closed.
const waitDelay = 2 * time.Second

// killedDelay is how long the output pipe may stay open after the
// command was killed: every process found to be the command's was killed
// with it, so only one that escaped (see docs/mcp.md) can still hold it.
const killedDelay = 250 * time.Millisecond

// execute runs command with the shell in dir for at most timeout. The
// command is killed when ctx (the call) or session (the MCP session) ends.
func (s *server) execute(ctx, session context.Context, command, dir string, timeout time.Duration) (*RunOutput, error) {
	if strings.ContainsRune(command, 0) {
		return nil, errors.New("command contains a NUL byte")
	}
	if !s.start() {
		return nil, errors.New("the shellguard MCP server is shutting down; the command was not run")
	}
	defer s.running.Done()
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stop := context.AfterFunc(session, cancel)
	defer stop()

	// The output pipe is ours, not os/exec's: its inode identifies the
	// command's processes, and we decide how long to read it.
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("cannot run the command: %w", err)
	}
	defer pr.Close()
	j, err := s.procs.newJob(pw)
	if err != nil {
		pw.Close()
		return nil, fmt.Errorf("cannot run the command: %w", err)
	}

	args := append(append([]string(nil), s.shell[1:]...), command)
	cmd := exec.CommandContext(runCtx, s.shell[0], args...)
	cmd.Dir = dir
	cmd.Env = j.env(s.env)
	cmd.Stdin = nil // /dev/null: the server's stdin is the MCP channel
	cmd.Stdout = pw // one pipe for both, interleaved as written
	cmd.Stderr = pw
	cmd.WaitDelay = waitDelay
	setProcessGroup(cmd)
	var killed atomic.Bool
	cmd.Cancel = func() error {
		killed.Store(true)
		return j.kill(cmd)
	}

	err = s.procs.start(cmd, j)
	pw.Close()
	if err != nil {
		return nil, fmt.Errorf("cannot run the command: %w", err)
	}
	out := newCapture(s.maxOutput)
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(out, pr)
		close(copied)
	}()
	err = cmd.Wait()
	s.procs.finish(j)
	// Read what the command wrote until every writer is gone, or for a
	// little while.
	delay, done := waitDelay, runCtx.Done()
	if killed.Load() {
		delay, done = killedDelay, nil
	}
	t := time.NewTimer(delay)
	select {
	case <-copied:
	case <-t.C:
	case <-done: // timed out or cancelled while a background job writes
	}
	t.Stop()
	_ = pr.Close()
	<-copied

	timedOut := killed.Load() && errors.Is(runCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil && session.Err() == nil
	if ctx.Err() != nil {
		return nil, fmt.Errorf("the call was cancelled; the command was killed: %w", ctx.Err())
	}
	if session.Err() != nil {
		return nil, errors.New("the MCP session ended; the command was killed")
	}
	res := &RunOutput{TimedOut: timedOut}
	res.Output, res.Truncated = out.result()
	switch {
	case cmd.ProcessState != nil:
		res.ExitCode = exitStatus(cmd.ProcessState)
	case err != nil:
		return nil, fmt.Errorf("cannot run the command: %w", err)
	}
	if timedOut {
		res.Output += fmt.Sprintf("\n[shellguard: timed out after %s; the command and every process it started were killed]\n", timeout)
	}
	return res, nil
}

// capture keeps the head and the tail of what is written to it, up to limit
// bytes in all (at least 2). It is safe for concurrent use.
type capture struct {
	mu      sync.Mutex
	headCap int
	tailCap int
	head    []byte
	tail    []byte // ring once full
	pos     int    // next write position in a full ring
	total   int64
}

func newCapture(limit int) *capture {
	limit = max(limit, 2)
	h := limit / 2
	return &capture{headCap: h, tailCap: limit - h}
}

// Write never fails, so a chatty command is never blocked or broken.
func (c *capture) Write(p []byte) (int, error) {
	n := len(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total += int64(n)
	if room := c.headCap - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	if room := c.tailCap - len(c.tail); room > 0 {
		k := min(room, len(p))
		c.tail = append(c.tail, p[:k]...)
		p = p[k:]
	}
	if len(p) >= c.tailCap {
		copy(c.tail, p[len(p)-c.tailCap:])
		c.pos = 0
		return n, nil
	}
	for len(p) > 0 {
		k := copy(c.tail[c.pos:], p)
		p = p[k:]
		c.pos = (c.pos + k) % c.tailCap
	}
	return n, nil
}

// result returns what was kept, with a marker where bytes were left out,
// and whether any were.
func (c *capture) result() (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := int64(len(c.head) + len(c.tail))
	tail := append(append([]byte(nil), c.tail[c.pos:]...), c.tail[:c.pos]...)
	if c.total <= kept {
		return strings.ToValidUTF8(string(c.head)+string(tail), "\uFFFD"), false
	}
	var b strings.Builder
	b.WriteString(strings.ToValidUTF8(string(c.head), "\uFFFD"))
	fmt.Fprintf(&b, "\n[shellguard: output truncated: %d bytes left out here; %d bytes in all]\n", c.total-kept, c.total)
	b.WriteString(strings.ToValidUTF8(string(tail), "\uFFFD"))
	return b.String(), true
}
