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
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shellguard/shellguard/internal/safefile"
	"github.com/shellguard/shellguard/internal/xdg"
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
	// Warnings names the danger rules that warned, with their level
	// ("rm_recursive:low").
	Warnings []string `json:"warnings,omitempty"`
	// Programs are the programs the line runs (basenames), and Prefixes
	// the approval prefixes of its invocations ("git checkout"); both
	// without repeats, in order.
	Programs []string `json:"programs,omitempty"`
	Prefixes []string `json:"prefixes,omitempty"`
	// Code is the allow-once code the answer carried, if any.
	Code string `json:"code,omitempty"`
	// Shadow reports shadow mode (mode = "warn"): Verdict is what
	// enforcement would have answered; nothing was blocked.
	Shadow bool `json:"shadow,omitempty"`
	// Problem is the decision's problem (over_budget, internal_error,
	// audit_failed), if any.
	Problem string `json:"problem,omitempty"`
}

// Options are the settings of a log.
type Options struct {
	// MaxSize is the size in bytes past which the log is rotated before
	// a record is appended: the log is renamed to "<log>.1" (replacing an
	// older one) and a new log is started. Zero means never.
	MaxSize int64
}

// DefaultPath returns the conventional audit log location:
// $XDG_STATE_HOME/shellguard/audit.jsonl, or
// ~/.local/state/shellguard/audit.jsonl when XDG_STATE_HOME is unset or
// not an absolute path. The log is on by default (see config).
func DefaultPath() (string, error) {
	if p := xdg.State(nil, "audit.jsonl"); p != "" {
		return p, nil
	}
	return "", errors.New("cannot locate the audit log: neither $XDG_STATE_HOME nor $HOME is an absolute path")
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
	r.Prefixes = redactAll(r.Prefixes)
	if r.Time.Year() < 0 || r.Time.Year() >= 10000 {
		// What encoding/json refuses (RFC 3339 has four-digit years).
		return nil, fmt.Errorf("audit: time %v is outside RFC 3339's years", r.Time)
	}
	return appendRecord(make([]byte, 0, 256+len(r.Command)), &r), nil
}

// What the messages about an audit log call it, and say about an
// untrusted one.
const (
	trustWhat   = "audit log"
	trustEffect = "shellguard does not write to it"
)

// Append adds r to the JSONL log at path; see AppendContext.
func Append(path string, r Record) error {
	return AppendContext(context.Background(), path, r)
}

// AppendContext adds r to the JSONL log at path, creating the file (mode
// 0600) and its folder (0700) if needed. Secrets are removed with Redact
// from the command, the reason, the rules and the approvals first. ctx
// bounds the wait for other writers (at most 10 s in any case).
//
// The log obeys the rules of the approval store (see
// approval.TrustError): the file and every folder on its way (the folder
// of each symbolic link, the target's folder) must belong to the user and
// be writable by no one else; a symbolic link is followed only to an
// existing regular file; anything but a regular file (a FIFO, a device, a
// folder) is refused at once, never waited on. Concurrent processes may
// append to the same log: each takes an exclusive lock on
// ".<name>.shellguard-lock" beside the file (checked the same way, never
// followed) and writes its whole record with one write, so lines never
// interleave. A record is never torn: a write that stops short (a full
// disk, a file size limit) is cut back to where it started, and a record
// always starts on a line of its own even if an older shellguard left a
// partial line. A failed write also leaves ".<name>.shellguard-failed"
// beside the log, saying when and why, which Check reports (shellguard
// doctor shows it) until a later write succeeds.
func AppendContext(ctx context.Context, path string, r Record) error {
	return AppendWith(ctx, path, r, Options{})
}

// AppendWith is AppendContext with the log's options: with a MaxSize, a
// record that would take the log past it first rotates the log (under
// the same lock, so concurrent writers rotate once): the log becomes
// "<log>.1", replacing the previous one, and a new log is created. A
// rotation that fails is a failed write.
func AppendWith(ctx context.Context, path string, r Record, opts Options) error {
	if path == "" {
		return errors.New("audit log: no path given")
	}
	line, err := Line(r)
	if err != nil {
		return fmt.Errorf("audit log %s: %w", path, err)
	}
	t, err := usable(path)
	if err != nil {
		return err
	}
	uid := os.Geteuid()
	if t.Info == nil {
		if err := os.MkdirAll(filepath.Dir(t.Real), 0o700); err != nil {
			return fmt.Errorf("audit log %s: %w", t.Abs, err)
		}
		if err := t.Trust(trustWhat, trustEffect, uid); err != nil {
			return err
		}
	}
	unlock, err := safefile.Lock(ctx, lockTimeout, trustWhat, t.Abs, t.Real, uid)
	if err != nil {
		return err
	}
	defer unlock()
	if err := write(t, line, uid, opts.MaxSize); err != nil {
		markFailed(t.Real, uid, err)
		return err
	}
	clearFailed(t.Real)
	return nil
}

// usable resolves path and refuses what the log may not be: a link to
// nothing, anything but a regular file, a file or folder that fails the
// trust checks.
func usable(path string) (safefile.Target, error) {
	t, err := safefile.Resolve(path)
	if err != nil {
		return t, fmt.Errorf("audit log %s: %w", path, err)
	}
	switch {
	case t.Dangling():
		return t, fmt.Errorf("audit log %s is a symbolic link to %s, which does not exist; shellguard follows a link only to an existing log", t.Abs, t.Real)
	case t.Info != nil && !t.Info.Mode().IsRegular():
		return t, fmt.Errorf("audit log %s is not a regular file (%s); shellguard does not write to it", t.Abs, t.Info.Mode().Type())
	}
	if err := t.Trust(trustWhat, trustEffect, os.Geteuid()); err != nil {
		return t, err
	}
	return t, nil
}

// write appends line to the log at t.Real, which the caller has locked,
// rotating it first when it would grow past maxSize (0: never).
func write(t safefile.Target, line []byte, uid int, maxSize int64) error {
	f, fi, err := safefile.Open(t.Real, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("audit log %s: %w", t.Abs, err)
	}
	defer func() { f.Close() }()
	if err := safefile.CheckInfo(trustWhat, trustEffect, t.Abs, t.Real, fi, uid); err != nil {
		return err
	}
	start := fi.Size()
	if maxSize > 0 && start > 0 && start+int64(len(line)) > maxSize {
		f.Close()
		if err := os.Rename(t.Real, RotatedPath(t.Real)); err != nil {
			return fmt.Errorf("audit log %s: cannot rotate it past %d bytes: %w", t.Abs, maxSize, err)
		}
		// A new log, created here: O_EXCL, so nothing that appeared in
		// its place meanwhile is written through.
		f, fi, err = safefile.Open(t.Real, os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return fmt.Errorf("audit log %s: after rotating: %w", t.Abs, err)
		}
		if err := safefile.CheckInfo(trustWhat, trustEffect, t.Abs, t.Real, fi, uid); err != nil {
			return err
		}
		start = 0
	}
	buf := line
	if start > 0 {
		// A partial line left by a write that was not cut back (an older
		// shellguard, a crash): start this record on a line of its own.
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, start-1); err == nil && last[0] != '\n' {
			buf = append([]byte{'\n'}, line...)
		}
	}
	n, werr := f.Write(buf)
	if werr == nil && n != len(buf) {
		werr = io.ErrShortWrite
	}
	if werr != nil {
		if n == 0 {
			return fmt.Errorf("audit log %s: %w", t.Abs, werr)
		}
		if terr := f.Truncate(start); terr != nil {
			return fmt.Errorf("audit log %s: %w after %d of %d bytes, and the partial record could not be removed: %v", t.Abs, werr, n, len(buf), terr)
		}
		return fmt.Errorf("audit log %s: %w after %d of %d bytes (the partial record was removed)", t.Abs, werr, n, len(buf))
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("audit log %s: %w", t.Abs, err)
	}
	return nil
}

// failedPath is the file that records the last failed write of the log
// at real.
func failedPath(real string) string {
	return filepath.Join(filepath.Dir(real), "."+filepath.Base(real)+".shellguard-failed")
}

// markFailed records (best effort) that writing the log at real failed.
func markFailed(real string, uid int, why error) {
	f, fi, err := safefile.Open(failedPath(real), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	if safefile.CheckInfo(trustWhat, "", real, failedPath(real), fi, uid) != nil {
		return
	}
	msg := why.Error()
	if len(msg) > 2000 {
		msg = msg[:2000]
	}
	fmt.Fprintf(f, "%s %s\n", time.Now().UTC().Format(time.RFC3339), msg)
}

// clearFailed removes the failure record after a successful write.
func clearFailed(real string) {
	p := failedPath(real)
	if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
		_ = os.Remove(p)
	}
}

// Check reports whether the log at path can be written, without writing
// it: nil when it can, else why not (the same refusals as Append: a link
// to nothing, not a regular file, not trusted), or that the last write
// failed (when, and why) and no write has succeeded since. A missing log
// in a usable folder is fine.
func Check(path string) error {
	if path == "" {
		return nil
	}
	t, err := usable(path)
	if err != nil {
		return err
	}
	if t.Info != nil {
		f, _, err := safefile.Open(t.Real, os.O_RDONLY, 0)
		if err != nil {
			return fmt.Errorf("audit log %s: %w", t.Abs, err)
		}
		f.Close()
	}
	if err := safefile.CheckLock(trustWhat, t.Abs, t.Real, os.Geteuid()); err != nil {
		return err
	}
	f, _, err := safefile.Open(failedPath(t.Real), os.O_RDONLY, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 4096))
	when, why, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	if why == "" {
		why = "unknown error"
	}
	return fmt.Errorf("the last write to audit log %s failed at %s: %s (the record was not kept)", t.Abs, when, why)
}

// RotatedPath returns the name the log at path is rotated to.
func RotatedPath(path string) string { return path + ".1" }

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
