package audit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/gofrs/flock"
)

// MaxCommandBytes bounds the command text kept in one record; longer
// commands (a large here-document, say) are cut and marked.
const MaxCommandBytes = 64 << 10

// lockTimeout bounds how long Append waits for other writers.
const lockTimeout = 10 * time.Second

// Record is one decision, written as one line of JSON:
//
//	{"time":"2026-12-02T10:15:00Z","cwd":"/src/app","command":"git push --force",
//	 "verdict":"ask","level":"high","rules":["ask: git push *"],
//	 "reason":"force push rewrites the remote branch","source":"hook:claude"}
type Record struct {
	// Time of the decision; Append fills in the current time when zero.
	// Written in UTC.
	Time time.Time `json:"time"`
	// Cwd is the working directory the command would run in.
	Cwd string `json:"cwd"`
	// Command is the command line (redacted, and cut at MaxCommandBytes).
	Command string `json:"command"`
	// Verdict is "allow", "ask" or "deny".
	Verdict string `json:"verdict"`
	// Level is the highest danger level found ("low" ... "critical"), or
	// empty.
	Level string `json:"level,omitempty"`
	// Rules names the configuration rules that matched ("deny: rm *").
	Rules []string `json:"rules,omitempty"`
	// ApprovedBy lists what approved the command's invocations
	// ("always: git checkout *", "session: npm test *").
	ApprovedBy []string `json:"approved_by,omitempty"`
	// Reason is the decision's explanation (redacted).
	Reason string `json:"reason,omitempty"`
	// Source names who asked ("hook:claude", "mcp", "cli", "tui"), if
	// known.
	Source string `json:"source,omitempty"`
}

// DefaultPath returns the conventional audit log location:
// $XDG_STATE_HOME/shellguard/audit.jsonl, or
// ~/.local/state/shellguard/audit.jsonl when XDG_STATE_HOME is unset or
// not an absolute path. The log is only written when configured.
func DefaultPath() (string, error) {
	if dir := os.Getenv("XDG_STATE_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "shellguard", "audit.jsonl"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot locate the audit log: %w", err)
	}
	return filepath.Join(home, ".local", "state", "shellguard", "audit.jsonl"), nil
}

// Line returns r as it is written to the log: redacted, with the time in
// UTC (the current time when r.Time is zero), as one line of JSON ending
// in a newline.
func Line(r Record) ([]byte, error) {
	if r.Time.IsZero() {
		r.Time = time.Now()
	}
	r.Time = r.Time.UTC().Round(0)
	r.Command = cut(Redact(r.Command), MaxCommandBytes)
	r.Reason = Redact(r.Reason)
	r.Rules = redactAll(r.Rules)
	r.ApprovedBy = redactAll(r.ApprovedBy)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil { // Encode ends the line with '\n'
		return nil, err
	}
	return buf.Bytes(), nil
}

// Append adds r to the JSONL log at path, creating the file (mode 0600) and
// its folder (0700) if needed. Concurrent processes may append to the same
// log: each takes an exclusive lock on "<path>.lock" and writes its whole
// line with one write to a file opened for appending, so lines never
// interleave or tear. Secrets are removed with Redact from the command,
// the reason, the rules and the approvals first.
func Append(path string, r Record) error {
	if path == "" {
		return errors.New("audit log: no path given")
	}
	line, err := Line(r)
	if err != nil {
		return fmt.Errorf("audit log %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("audit log %s: %w", path, err)
	}
	lock := flock.New(path+".lock", flock.SetPermissions(0o600))
	ctx, cancel := context.WithTimeout(context.Background(), lockTimeout)
	defer cancel()
	locked, err := lock.TryLockContext(ctx, time.Millisecond)
	if err != nil || !locked {
		if err == nil || errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("another process held the lock %s for more than %s", lock.Path(), lockTimeout)
		}
		return fmt.Errorf("audit log %s: cannot lock it: %w", path, err)
	}
	defer lock.Unlock()

	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("audit log %s: %w", path, err)
	}
	n, werr := f.Write(line)
	cerr := f.Close()
	switch {
	case werr != nil:
		return fmt.Errorf("audit log %s: %w", path, werr)
	case n != len(line):
		return fmt.Errorf("audit log %s: short write (%d of %d bytes)", path, n, len(line))
	case cerr != nil:
		return fmt.Errorf("audit log %s: %w", path, cerr)
	}
	return nil
}

// Read decodes a JSONL audit log. An invalid line is an error naming its
// line number; the records before it are returned with it.
func Read(r io.Reader) ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 4*MaxCommandBytes+(1<<20))
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var rec Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return out, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, rec)
	}
	return out, sc.Err()
}

func redactAll(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = Redact(s)
	}
	return out
}

// cut shortens s to at most max bytes (on a character boundary), saying
// how much was dropped.
func cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	end := max
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + fmt.Sprintf("…[%d bytes cut]", len(s)-end)
}
