package approval

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/shellguard/shellguard/internal/safefile"
)

// RefusalsFileName is the name of the file, beside the approvals file,
// that holds the recent refusals, their allow-once codes and the
// approvals given for one agent session.
const RefusalsFileName = "refusals.json"

// RefusalsVersion is the version of the refusals file format.
const RefusalsVersion = 1

// Bounds of the refusals file: it never grows past these, whatever
// happens (see Refusals).
const (
	// MaxRefusals is how many refusals the ring keeps (the newest).
	MaxRefusals = 64
	// MaxSessionGrants is how many session approvals are kept (the
	// newest); expired ones are dropped first.
	MaxSessionGrants = 256
	// MaxRefusalCommand bounds the command text kept per refusal; a
	// longer line keeps its digest (so its code still works) but cannot
	// be approved exactly from the ring.
	MaxRefusalCommand = 16 << 10
	// maxRefusalsFile bounds what is read of the file.
	maxRefusalsFile = 4 << 20
)

// DefaultCodeLifetime is how long an allow-once code can be used: it must
// be approved (shellguard allow once CODE) within this time of being
// issued, and the approved run must happen within this time of the
// approval.
const DefaultCodeLifetime = 10 * time.Minute

// MaxSessionLifetime bounds a session approval: an agent session's end
// cannot be seen from outside the agent, so it lapses after this long.
const MaxSessionLifetime = 24 * time.Hour

// CodeAlphabet holds the characters of an allow-once code: digits and
// capital letters without the ones people confuse (0 O, 1 I L, U V).
const CodeAlphabet = "23456789ABCDEFGHJKMNPQRSTWXYZ"

// CodeLength is the length of an allow-once code (about 39 bits).
const CodeLength = 8

// Refusal is one deny or ask answer that reached a model or a person,
// kept in the ring with its allow-once code.
type Refusal struct {
	// Code is the allow-once code (CodeLength characters of
	// CodeAlphabet).
	Code string `json:"code"`
	// Command is the command line as given (cut at MaxRefusalCommand:
	// see Truncated).
	Command string `json:"command"`
	// Digest is the SHA-256 of the command line without surrounding
	// white space, in hex: what the code is tied to.
	Digest string `json:"digest"`
	// Truncated reports that Command was cut.
	Truncated bool `json:"truncated,omitempty"`
	// Cwd is the directory the command was to run in (absolute, clean),
	// and CwdID identifies that directory ("device:inode"), so that a
	// code for a folder that was moved or replaced approves nothing.
	Cwd   string `json:"cwd"`
	CwdID string `json:"cwd_id,omitempty"`
	// Time is when the refusal was (last) answered, Count how many times
	// the same line was refused in the same folder while its code was
	// open.
	Time  time.Time `json:"time"`
	Count int       `json:"count,omitempty"`
	// Expires is when the code can no longer be approved.
	Expires time.Time `json:"expires"`
	// Verdict is "ask" or "deny"; Reason, Level and Rules say why.
	Verdict string   `json:"verdict"`
	Reason  string   `json:"reason,omitempty"`
	Level   string   `json:"level,omitempty"`
	Rules   []string `json:"rules,omitempty"`
	// Source names the entry point ("hook:claude", "mcp", "cli"), and
	// Session the agent session it came from, when known.
	Source  string `json:"source,omitempty"`
	Session string `json:"session,omitempty"`
	// Prefixes are what approving the line by prefix records; empty when
	// no prefix approval can cover it, and then PrefixReason says why.
	Prefixes     []string `json:"prefixes,omitempty"`
	PrefixReason string   `json:"prefix_reason,omitempty"`
	// Approved is when a person approved the code (zero: not yet), and
	// ApprovedUntil when that approval lapses unused.
	Approved      time.Time `json:"approved,omitzero"`
	ApprovedUntil time.Time `json:"approved_until,omitzero"`
	// Used is when the approved run happened (zero: not yet).
	Used time.Time `json:"used,omitzero"`
	// Locked marks a refusal no code may lift (a line about shellguard
	// itself, a warning the managed configuration forbids approving,
	// shadow mode): it has no Code.
	Locked bool `json:"locked,omitempty"`
}

// SessionGrant is an approval that holds for one agent session (its
// Session and Source) until Expires.
type SessionGrant struct {
	Entry
	// Session is the agent's session id, Source the entry point
	// ("hook:claude").
	Session string `json:"session"`
	Source  string `json:"source"`
}

// refusalsFile is the file format.
type refusalsFile struct {
	Version  int            `json:"version"`
	Refusals []Refusal      `json:"refusals"`
	Sessions []SessionGrant `json:"session_approvals,omitempty"`
}

// Refusals is the file beside an approvals file (RefusalsFileName) that
// holds the recent refusals — a ring of the newest MaxRefusals, each with
// its allow-once code — and the approvals given for one agent session.
// It is written on every deny or ask answer, whether or not an audit log
// is kept.
//
// It obeys the approvals file's rules (see Store and CheckTrust): the file
// and its folder must be the user's and writable by no one else, and a
// refusals file that is anything but a regular file of the user's — a
// symbolic link, a FIFO, another program's file — is never read, written
// or replaced: then no code is issued and none approves anything. Every
// change locks ".refusals.json.shellguard-lock" beside it, re-reads the
// file, and replaces it with a new file (a temporary file created
// exclusively in the same folder, then renamed), so concurrent hooks
// never lose each other's refusals. The file never holds more than
// MaxRefusals refusals and MaxSessionGrants session approvals; expired
// session approvals are dropped on every change.
//
// A Refusals holds only its path and is safe for concurrent use.
type Refusals struct {
	path string
}

// RefusalsPath returns the refusals file kept beside the approvals file
// at approvalsPath: the same folder (as written: a symbolic link to a
// dotfile repository is not followed), named RefusalsFileName.
func RefusalsPath(approvalsPath string) string {
	if abs, err := filepath.Abs(approvalsPath); err == nil {
		approvalsPath = abs
	}
	return filepath.Join(filepath.Dir(approvalsPath), RefusalsFileName)
}

// NewRefusals returns the refusals file at path (see RefusalsPath).
func NewRefusals(path string) *Refusals { return &Refusals{path: path} }

// Path returns the file's path.
func (r *Refusals) Path() string { return r.path }

// What messages call the file.
const (
	refusalsWhat   = "refusals file"
	refusalsEffect = "no allow-once code is issued or honoured"
)

// CodeProblem says why a code approves nothing.
type CodeProblem string

// The reasons a code approves nothing.
const (
	// CodeMalformed: not CodeLength characters of CodeAlphabet.
	CodeMalformed CodeProblem = "malformed"
	// CodeUnknown: no refusal carries this code (a typo, a code from
	// another approvals folder, or a forged one).
	CodeUnknown CodeProblem = "unknown"
	// CodeExpired: the code was not approved within its lifetime, or its
	// approval lapsed unused.
	CodeExpired CodeProblem = "expired"
	// CodeUsed: the approved run already happened.
	CodeUsed CodeProblem = "used"
	// CodeMoved: the folder the command was to run in is gone or is
	// another folder now.
	CodeMoved CodeProblem = "moved"
)

// CodeError is what Approve returns for a code that approves nothing.
type CodeError struct {
	Code    string
	Problem CodeProblem
	// Refusal is the refusal the code belongs to (zero when unknown or
	// malformed).
	Refusal Refusal
	// Detail completes the message.
	Detail string
}

func (e *CodeError) Error() string {
	msg := fmt.Sprintf("code %s is %s", e.Code, e.Problem)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg + "; it approves nothing"
}

// NormalizeCode returns code as stored (capitals, no spaces or dashes),
// or a *CodeError with CodeMalformed.
func NormalizeCode(code string) (string, error) {
	var b strings.Builder
	for _, r := range code {
		switch {
		case r == '-' || r == ' ' || r == '\t':
			continue
		case r >= 'a' && r <= 'z':
			r -= 'a' - 'A'
		}
		if r > 0x7f || !strings.ContainsRune(CodeAlphabet, r) {
			return "", &CodeError{Code: code, Problem: CodeMalformed, Detail: fmt.Sprintf("codes hold only %s", CodeAlphabet)}
		}
		b.WriteRune(r)
	}
	if b.Len() != CodeLength {
		return "", &CodeError{Code: code, Problem: CodeMalformed, Detail: fmt.Sprintf("codes are %d characters long", CodeLength)}
	}
	return b.String(), nil
}

// newCode returns a fresh code from crypto/rand.
func newCode() (string, error) {
	var out [CodeLength]byte
	var buf [32]byte
	n := 0
	limit := byte(256 - 256%len(CodeAlphabet)) // reject to keep it uniform
	for n < CodeLength {
		if _, err := rand.Read(buf[:]); err != nil {
			return "", err
		}
		for _, c := range buf {
			if c >= limit {
				continue
			}
			out[n] = CodeAlphabet[int(c)%len(CodeAlphabet)]
			n++
			if n == CodeLength {
				break
			}
		}
	}
	return string(out[:]), nil
}

// Digest returns the digest a refusal is tied to: the SHA-256 of the
// command line without surrounding white space, in hex.
func Digest(command string) string {
	sum := sha256.Sum256([]byte(strings.TrimSpace(command)))
	return hex.EncodeToString(sum[:])
}

// DirID returns "device:inode" for the folder dir, or "" when it cannot
// be read.
func DirID(dir string) string {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%d:%d", uint64(st.Dev), uint64(st.Ino))
}

// CleanCwd returns dir as a code is tied to it: absolute and clean.
func CleanCwd(dir string) string {
	if dir == "" {
		return ""
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return filepath.Clean(dir)
}

// List returns the refusals, newest first, and the session approvals.
// A missing file holds none. Anything that is not a sound refusals file of
// the user's is an error (and holds nothing).
func (r *Refusals) List() ([]Refusal, []SessionGrant, error) {
	f, err := r.read()
	if err != nil {
		return nil, nil, err
	}
	out := make([]Refusal, len(f.Refusals))
	for i, x := range f.Refusals {
		out[len(f.Refusals)-1-i] = x
	}
	return out, f.Sessions, nil
}

// SessionEntries returns the session approvals for session and source
// that have not expired at now, as entries with scope Session. An
// unusable file holds none.
func (r *Refusals) SessionEntries(session, source string, now time.Time) []Entry {
	if session == "" {
		return nil
	}
	f, err := r.read()
	if err != nil {
		return nil
	}
	var out []Entry
	for _, g := range f.Sessions {
		if g.Session == session && g.Source == source && !g.Expired(now) {
			e := g.Entry
			e.Scope = Session
			out = append(out, e)
		}
	}
	return out
}

// RecordResult is what Record did.
type RecordResult struct {
	// Refusal is the refusal as stored, with its code. When the same
	// line was refused in the same folder and its code is still open,
	// that refusal (and code) is reused.
	Refusal Refusal
	// Once is set when a person had approved this line in this folder
	// with its code: the approval was used up by this call (Refusal.Used
	// is set), and the caller lets the command run this once.
	Once bool
}

// Record answers a refusal of rec.Command in rec.Cwd at now. If a person
// approved a code for that very line in that folder (Approve), that
// approval is used up and RecordResult.Once is set: the command may run
// this once. Otherwise the refusal goes into the ring with a code valid
// for lifetime (DefaultCodeLifetime when zero), reusing the open code of
// an earlier refusal of the same line in the same folder. rec.Command and
// rec.Cwd must be set; Code, Digest, Expires and the approval fields are
// filled in. A Locked refusal gets no code, and no earlier approval
// applies to it. ctx bounds the wait for the lock.
func (r *Refusals) Record(ctx context.Context, rec Refusal, now time.Time, lifetime time.Duration) (RecordResult, error) {
	var res RecordResult
	if lifetime <= 0 {
		lifetime = DefaultCodeLifetime
	}
	if strings.TrimSpace(rec.Command) == "" || rec.Cwd == "" {
		return res, errors.New("a refusal needs a command and a folder")
	}
	now = now.UTC().Round(0)
	rec.Cwd = CleanCwd(rec.Cwd)
	if rec.CwdID == "" {
		rec.CwdID = DirID(rec.Cwd)
	}
	rec.Digest = Digest(rec.Command)
	if len(rec.Command) > MaxRefusalCommand {
		rec.Command, rec.Truncated = cutString(rec.Command, MaxRefusalCommand), true
	}
	rec.Time, rec.Count = now, 1
	rec.Approved, rec.ApprovedUntil, rec.Used = time.Time{}, time.Time{}, time.Time{}
	err := r.update(ctx, func(f *refusalsFile) (bool, error) {
		if !rec.Locked {
			for i := range f.Refusals {
				x := &f.Refusals[i]
				if x.Digest == rec.Digest && x.Cwd == rec.Cwd && x.CwdID == rec.CwdID && rec.CwdID != "" &&
					!x.Approved.IsZero() && x.Used.IsZero() && now.Before(x.ApprovedUntil) {
					x.Used = now
					res.Refusal, res.Once = *x, true
					return true, nil
				}
			}
		}
		for i := len(f.Refusals) - 1; i >= 0; i-- {
			x := f.Refusals[i]
			if x.Digest == rec.Digest && x.Cwd == rec.Cwd && x.CwdID == rec.CwdID && x.Locked == rec.Locked &&
				x.Approved.IsZero() && now.Before(x.Expires) {
				// The same refusal again while its code is open: the
				// same code, moved to the front of the ring.
				rec.Code, rec.Expires, rec.Count = x.Code, x.Expires, x.Count+1
				f.Refusals = append(f.Refusals[:i:i], f.Refusals[i+1:]...)
				break
			}
		}
		if rec.Locked {
			rec.Code, rec.Expires = "", now.Add(lifetime)
		} else if rec.Code == "" {
			code, err := uniqueCode(f)
			if err != nil {
				return false, err
			}
			rec.Code, rec.Expires = code, now.Add(lifetime)
		}
		f.Refusals = append(f.Refusals, rec)
		res.Refusal = rec
		return true, nil
	})
	if err != nil {
		return RecordResult{}, err
	}
	return res, nil
}

// uniqueCode returns a new code that no refusal in f carries.
func uniqueCode(f *refusalsFile) (string, error) {
	for range 16 {
		c, err := newCode()
		if err != nil {
			return "", err
		}
		taken := false
		for _, x := range f.Refusals {
			taken = taken || x.Code == c
		}
		if !taken {
			return c, nil
		}
	}
	return "", errors.New("cannot draw an unused code")
}

// Approve approves the refusal carrying code for one run: the next
// Record of the same line in the same folder (within lifetime of now,
// DefaultCodeLifetime when zero) uses it up and lets the command run
// once. It returns the refusal; an approval that already exists, unused,
// is returned as it is. A code that approves nothing is a *CodeError
// saying why: malformed, unknown, expired (not approved in time), used,
// or moved (its folder is gone or is another folder now).
func (r *Refusals) Approve(ctx context.Context, code string, now time.Time, lifetime time.Duration) (Refusal, error) {
	if lifetime <= 0 {
		lifetime = DefaultCodeLifetime
	}
	norm, err := NormalizeCode(code)
	if err != nil {
		return Refusal{}, err
	}
	now = now.UTC().Round(0)
	var out Refusal
	var cerr *CodeError
	err = r.update(ctx, func(f *refusalsFile) (bool, error) {
		for i := range f.Refusals {
			x := &f.Refusals[i]
			if x.Code != norm {
				continue
			}
			out = *x
			switch {
			case !x.Used.IsZero():
				cerr = &CodeError{Code: norm, Problem: CodeUsed, Refusal: *x, Detail: "the approved run happened at " + x.Used.Local().Format(time.Kitchen)}
				return false, nil
			case !x.Approved.IsZero() && now.Before(x.ApprovedUntil):
				return false, nil // approved already, still unused
			case !x.Approved.IsZero():
				cerr = &CodeError{Code: norm, Problem: CodeExpired, Refusal: *x, Detail: "it was approved but not used before " + x.ApprovedUntil.Local().Format(time.Kitchen)}
				return false, nil
			case !now.Before(x.Expires):
				cerr = &CodeError{Code: norm, Problem: CodeExpired, Refusal: *x, Detail: "it had to be approved before " + x.Expires.Local().Format(time.Kitchen)}
				return false, nil
			}
			if id := DirID(x.Cwd); id == "" || id != x.CwdID {
				why := "the folder " + x.Cwd + " is another folder now"
				if id == "" {
					why = "the folder " + x.Cwd + " no longer exists"
				}
				cerr = &CodeError{Code: norm, Problem: CodeMoved, Refusal: *x, Detail: why}
				return false, nil
			}
			x.Approved, x.ApprovedUntil = now, now.Add(lifetime)
			out = *x
			return true, nil
		}
		cerr = &CodeError{Code: norm, Problem: CodeUnknown, Detail: "no recent refusal beside this approvals file carries it"}
		return false, nil
	})
	if err != nil {
		return Refusal{}, err
	}
	if cerr != nil {
		return cerr.Refusal, cerr
	}
	return out, nil
}

// Lookup returns the refusal carrying code, whatever its state.
func (r *Refusals) Lookup(code string) (Refusal, error) {
	norm, err := NormalizeCode(code)
	if err != nil {
		return Refusal{}, err
	}
	f, err := r.read()
	if err != nil {
		return Refusal{}, err
	}
	for _, x := range f.Refusals {
		if x.Code == norm {
			return x, nil
		}
	}
	return Refusal{}, &CodeError{Code: norm, Problem: CodeUnknown, Detail: "no recent refusal beside this approvals file carries it"}
}

// GrantSession records entries as approvals for one agent session (and
// source) until expires, which is capped at MaxSessionLifetime from now.
func (r *Refusals) GrantSession(ctx context.Context, session, source string, entries []Entry, now, expires time.Time) ([]SessionGrant, error) {
	if session == "" {
		return nil, errors.New("no agent session to approve for")
	}
	now = now.UTC().Round(0)
	if expires.IsZero() || expires.After(now.Add(MaxSessionLifetime)) {
		expires = now.Add(MaxSessionLifetime)
	}
	var added []SessionGrant
	err := r.update(ctx, func(f *refusalsFile) (bool, error) {
		for _, e := range entries {
			e.Pattern = normalizePattern(e.Kind, e.Pattern)
			if e.Pattern == "" || (e.Kind != Prefix && e.Kind != Exact) {
				return false, fmt.Errorf("cannot approve %q for a session", e.Pattern)
			}
			e.Scope, e.GrantedAt, e.Expires = Session, now, expires.UTC().Round(0)
			g := SessionGrant{Entry: e, Session: session, Source: source}
			replaced := false
			for i := range f.Sessions {
				s := &f.Sessions[i]
				if s.Session == session && s.Source == source && s.Kind == e.Kind && s.Pattern == e.Pattern {
					*s, replaced = g, true
				}
			}
			if !replaced {
				f.Sessions = append(f.Sessions, g)
			}
			added = append(added, g)
		}
		return true, nil
	})
	return added, err
}

// read reads the file without a lock (a reader sees the old or the new
// file, never half of one).
func (r *Refusals) read() (*refusalsFile, error) {
	t, err := r.check()
	if err != nil {
		return &refusalsFile{Version: RefusalsVersion}, err
	}
	return readRefusals(t)
}

// check resolves the path and refuses what shellguard may not use: a
// symbolic link, anything but a regular file, a file or folder another
// user could write.
func (r *Refusals) check() (safefile.Target, error) {
	if r == nil || r.path == "" {
		return safefile.Target{}, errors.New("refusals file: no path given")
	}
	t, err := safefile.Resolve(r.path)
	if err != nil {
		return t, fmt.Errorf("%s %s: %w", refusalsWhat, r.path, err)
	}
	if t.Linked() {
		return t, fmt.Errorf("%s %s is a symbolic link; shellguard keeps this file itself and never follows a link there (%s)", refusalsWhat, t.Abs, refusalsEffect)
	}
	if t.Info != nil && !t.Info.Mode().IsRegular() {
		return t, fmt.Errorf("%s %s is not a regular file (%s); %s", refusalsWhat, t.Abs, t.Info.Mode().Type(), refusalsEffect)
	}
	if err := t.Trust(refusalsWhat, refusalsEffect, os.Geteuid()); err != nil {
		return t, err
	}
	return t, nil
}

// readRefusals reads the checked file at t. A missing or empty file is an
// empty ring (a crash between creating and filling the file leaves an
// empty one); anything else that is not a refusals file is an error.
func readRefusals(t safefile.Target) (*refusalsFile, error) {
	f := &refusalsFile{Version: RefusalsVersion}
	if t.Info == nil {
		return f, nil
	}
	fh, fi, err := safefile.Open(t.Real, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("%s %s: %w", refusalsWhat, t.Abs, err)
	}
	defer fh.Close()
	if err := safefile.CheckInfo(refusalsWhat, refusalsEffect, t.Abs, t.Real, fi, os.Geteuid()); err != nil {
		return f, err
	}
	data, err := io.ReadAll(io.LimitReader(fh, maxRefusalsFile+1))
	if err != nil {
		return f, fmt.Errorf("%s %s: %w", refusalsWhat, t.Abs, err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return f, nil
	}
	if len(data) > maxRefusalsFile {
		return f, fmt.Errorf("%s %s is larger than %d MiB; it is not shellguard's (%s)", refusalsWhat, t.Abs, maxRefusalsFile>>20, refusalsEffect)
	}
	var got refusalsFile
	if err := json.Unmarshal(data, &got); err != nil || got.Version == 0 {
		return f, fmt.Errorf("%s %s is not a refusals file shellguard can read (remove it to start a new one); %s", refusalsWhat, t.Abs, refusalsEffect)
	}
	if got.Version > RefusalsVersion {
		return f, fmt.Errorf("%s %s has version %d, newer than this shellguard understands; %s", refusalsWhat, t.Abs, got.Version, refusalsEffect)
	}
	got.Version = RefusalsVersion
	bound(&got, time.Now())
	return &got, nil
}

// bound keeps f within its limits: the newest MaxRefusals refusals, the
// newest MaxSessionGrants session approvals that have not expired.
func bound(f *refusalsFile, now time.Time) {
	if n := len(f.Refusals); n > MaxRefusals {
		f.Refusals = append([]Refusal(nil), f.Refusals[n-MaxRefusals:]...)
	}
	keep := f.Sessions[:0:0]
	for _, g := range f.Sessions {
		if !g.Expired(now) {
			keep = append(keep, g)
		}
	}
	if n := len(keep); n > MaxSessionGrants {
		keep = keep[n-MaxSessionGrants:]
	}
	f.Sessions = keep
}

// update applies change to the file under its lock, and writes the
// result when change reports a change.
func (r *Refusals) update(ctx context.Context, change func(*refusalsFile) (bool, error)) error {
	t, err := r.check()
	if err != nil {
		return err
	}
	// What is there must be a refusals file (or nothing) before a lock
	// file is created beside it.
	if _, err := readRefusals(t); err != nil {
		return err
	}
	uid := os.Geteuid()
	dir := filepath.Dir(t.Real)
	if t.Info == nil {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("%s %s: cannot create its folder: %w", refusalsWhat, t.Abs, err)
		}
		if t, err = r.check(); err != nil {
			return err
		}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, lockTimeout)
	defer cancel()
	unlock, err := safefile.Lock(ctx, refusalsWhat, t.Abs, t.Real, uid)
	if err != nil {
		return err
	}
	defer unlock()
	// Under the lock: check and read again.
	t, err = r.check()
	if err != nil {
		return err
	}
	f, err := readRefusals(t)
	if err != nil {
		return err
	}
	changed, err := change(f)
	if err != nil || !changed {
		return err
	}
	bound(f, time.Now())
	return writeRefusals(t, f)
}

// writeRefusals replaces the file at t with f: a temporary file created
// exclusively in the same folder, renamed over it. The rename is not
// synced to disk: after a crash the ring may be older or empty, which
// costs at most a code that has to be asked for again.
func writeRefusals(t safefile.Target, f *refusalsFile) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return err
	}
	dir := filepath.Dir(t.Real)
	tmp, err := os.CreateTemp(dir, "."+RefusalsFileName+".tmp-*")
	if err != nil {
		return fmt.Errorf("%s %s: %w", refusalsWhat, t.Abs, err)
	}
	name := tmp.Name()
	defer os.Remove(name) // after a successful rename, there is nothing left to remove
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("%s %s: %w", refusalsWhat, t.Abs, err)
	}
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("%s %s: %w", refusalsWhat, t.Abs, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s %s: %w", refusalsWhat, t.Abs, err)
	}
	if err := os.Rename(name, t.Real); err != nil {
		return fmt.Errorf("%s %s: %w", refusalsWhat, t.Abs, err)
	}
	return nil
}

// cutString shortens s to at most n bytes, on a character boundary.
func cutString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
