package approval

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/shellguard/shellguard/internal/safefile"
)

// RefusalsFileName is the name of the file, beside the approvals file,
// that holds the recent refusals, their allow-once codes and the
// approvals given for one agent session.
const RefusalsFileName = "refusals.jsonl"

// Bounds of the refusals file: it never grows past these, whatever
// happens (see Refusals).
const (
	// maxRefusals is how many refusals the ring keeps (the newest).
	maxRefusals = 64
	// maxSessionGrants is how many session approvals are kept (the
	// newest); expired ones are dropped first.
	maxSessionGrants = 256
	// maxRefusalCommand bounds the command text kept per refusal; a
	// longer line keeps its digest (so its code still works) but cannot
	// be approved exactly from the ring.
	maxRefusalCommand = 16 << 10
	// maxRefusalReason bounds the reason kept per refusal.
	maxRefusalReason = 240
	// maxRefusalsLines and maxRefusalsBytes are the size past which the
	// file is compacted.
	maxRefusalsLines = 2 * maxRefusals
	maxRefusalsBytes = 1 << 20
	// maxRefusalsFile bounds what is read of the file: a larger one is
	// not shellguard's.
	maxRefusalsFile = 8 << 20
)

// defaultCodeLifetime is how long an allow-once code can be used: it must
// be approved (shellguard allow once CODE) within this time of being
// issued, and the approved run must happen within this time of the
// approval.
const defaultCodeLifetime = 10 * time.Minute

// maxRefusalAge is how long a refusal is kept (for "allow last") after
// its code expired; older ones are dropped when the file is compacted and
// not listed.
const maxRefusalAge = 7 * 24 * time.Hour

// maxSessionLifetime bounds a session approval: an agent session's end
// cannot be seen from outside the agent, so it lapses after this long.
const maxSessionLifetime = 24 * time.Hour

// codeAlphabet holds the characters of an allow-once code: digits and
// capital letters without the ones people confuse (0 O, 1 I L, U V).
const codeAlphabet = "23456789ABCDEFGHJKMNPQRSTWXYZ"

// codeLength is the length of an allow-once code (about 39 bits).
const codeLength = 8

// Refusal is one deny or ask answer that reached a model or a person,
// kept in the ring with its allow-once code.
type Refusal struct {
	// Code is the allow-once code: eight characters of
	// 23456789ABCDEFGHJKMNPQRSTWXYZ.
	Code string `json:"code"`
	// Command is the command line as given (cut at 16 KiB: see
	// Truncated).
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

// Refusals is the file beside an approvals file (RefusalsFileName) that
// holds the recent refusals — the newest 64, each with its allow-once
// code — and the approvals given for one agent session. It is
// written on every deny or ask answer, whether or not an audit log is
// kept.
//
// # Format
//
// JSON lines. The first line is the header
// {"version":1,"kind":"shellguard-refusals"}; each further line is an
// event: {"event":"refused", ...Refusal} when a line is refused (again),
// {"event":"approved","code":...,"approved":...,"approved_until":...}
// when a person approves a code, {"event":"used","code":...,"used":...}
// when the approved run happens, and {"event":"session",
// "session_approval":{...}} for a session approval. Replaying the events
// in order gives the state. Appending one line is what a refusal costs
// (as for the audit log), so a hook answering ask pays about what its
// audit record costs; past 128 lines (or 1 MiB) the file is compacted:
// rewritten with the state alone (the newest 64 refusals of the last
// seven days, and the session approvals that have not expired), as a new
// file renamed over the old one.
//
// # Safety
//
// It obeys the approvals file's rules (see Store and TrustError): the file
// and its folder must be the user's and writable by no one else, and a
// refusals file that is anything but a regular file of the user's whose
// first line is the header — a symbolic link, a FIFO, another program's
// file — is never read, written or replaced: then no code is issued and
// none approves anything. Every change locks
// ".refusals.jsonl.shellguard-lock" beside it and appends whole lines
// with one write; a write that stops short is cut back, and lines that do
// not decode are skipped, so a crash never makes the file unusable.
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
	// CodeMalformed: not eight characters of the code alphabet (see
	// Refusal.Code).
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

// normalizeCode returns code as stored (capitals, no spaces or dashes),
// or a *CodeError with CodeMalformed.
func normalizeCode(code string) (string, error) {
	var b strings.Builder
	for _, r := range code {
		switch {
		case r == '-' || r == ' ' || r == '\t':
			continue
		case r >= 'a' && r <= 'z':
			r -= 'a' - 'A'
		}
		if r > 0x7f || !strings.ContainsRune(codeAlphabet, r) {
			return "", &CodeError{Code: code, Problem: CodeMalformed, Detail: fmt.Sprintf("codes hold only %s", codeAlphabet)}
		}
		b.WriteRune(r)
	}
	if b.Len() != codeLength {
		return "", &CodeError{Code: code, Problem: CodeMalformed, Detail: fmt.Sprintf("codes are %d characters long", codeLength)}
	}
	return b.String(), nil
}

// newCode returns a fresh code from crypto/rand.
func newCode() (string, error) {
	var out [codeLength]byte
	var buf [32]byte
	n := 0
	limit := byte(256 - 256%len(codeAlphabet)) // reject to keep it uniform
	for n < codeLength {
		if _, err := rand.Read(buf[:]); err != nil {
			return "", err
		}
		for _, c := range buf {
			if c >= limit {
				continue
			}
			out[n] = codeAlphabet[int(c)%len(codeAlphabet)]
			n++
			if n == codeLength {
				break
			}
		}
	}
	return string(out[:]), nil
}

// commandDigest returns the digest a refusal is tied to: the SHA-256 of the
// command line without surrounding white space, in hex.
func commandDigest(command string) string {
	sum := sha256.Sum256([]byte(strings.TrimSpace(command)))
	return hex.EncodeToString(sum[:])
}

// dirID returns "device:inode" for the folder dir, or "" when it cannot
// be read.
func dirID(dir string) string {
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

// refusalsHeader is the first line of a refusals file, with the version
// of its format.
const refusalsHeader = `{"version":1,"kind":"shellguard-refusals"}`

// event is one line of the file.
type event struct {
	Event string `json:"event"`
	Refusal
	Grant *SessionGrant `json:"session_approval,omitempty"`
}

// state is the file replayed.
type state struct {
	// refusals, oldest first (by their latest event).
	refusals []Refusal
	sessions []SessionGrant
	lines    int
}

// replay reads the events of data (the header already checked) into a
// state. Lines that do not decode are skipped.
func replay(data []byte) *state {
	st := &state{}
	type slot struct {
		r   Refusal
		seq int
	}
	byKey := map[string]*slot{}
	seq := 0
	key := func(r Refusal) string {
		if r.Code != "" {
			return r.Code
		}
		return "locked:" + r.Digest + "\x00" + r.Cwd
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		st.lines++
		var ev event
		if unmarshalEvent(line, &ev) != nil {
			continue
		}
		seq++
		switch ev.Event {
		case "refused":
			k := key(ev.Refusal)
			if old, ok := byKey[k]; ok {
				r := ev.Refusal
				if r.Approved.IsZero() {
					r.Approved, r.ApprovedUntil = old.r.Approved, old.r.ApprovedUntil
				}
				if r.Used.IsZero() {
					r.Used = old.r.Used
				}
				old.r, old.seq = r, seq
				continue
			}
			byKey[k] = &slot{ev.Refusal, seq}
		case "approved":
			if s, ok := byKey[ev.Code]; ok && ev.Code != "" {
				s.r.Approved, s.r.ApprovedUntil = ev.Approved, ev.ApprovedUntil
			}
		case "used":
			if s, ok := byKey[ev.Code]; ok && ev.Code != "" {
				s.r.Used = ev.Used
			}
		case "session":
			if ev.Grant == nil {
				continue
			}
			g := *ev.Grant
			replaced := false
			for i := range st.sessions {
				x := &st.sessions[i]
				if x.Session == g.Session && x.Source == g.Source && x.Kind == g.Kind && x.Pattern == g.Pattern {
					*x, replaced = g, true
				}
			}
			if !replaced {
				st.sessions = append(st.sessions, g)
			}
		}
	}
	slots := make([]*slot, 0, len(byKey))
	for _, s := range byKey {
		slots = append(slots, s)
	}
	sort.Slice(slots, func(i, j int) bool { return slots[i].seq < slots[j].seq })
	cutoff := time.Now().Add(-maxRefusalAge)
	fresh := slots[:0]
	for _, s := range slots {
		if s.r.Expires.After(cutoff) || !s.r.Approved.IsZero() && s.r.Used.IsZero() {
			fresh = append(fresh, s)
		}
	}
	slots = fresh
	if n := len(slots); n > maxRefusals {
		slots = slots[n-maxRefusals:]
	}
	for _, s := range slots {
		st.refusals = append(st.refusals, s.r)
	}
	return st
}

// List returns the refusals, newest first, and the session approvals.
// A missing file holds none. Anything that is not a sound refusals file of
// the user's is an error (and holds nothing).
func (r *Refusals) List() ([]Refusal, []SessionGrant, error) {
	data, err := r.read()
	if err != nil {
		return nil, nil, err
	}
	st := replay(data)
	out := make([]Refusal, len(st.refusals))
	for i, x := range st.refusals {
		out[len(st.refusals)-1-i] = x
	}
	return out, st.sessions, nil
}

// SessionEntries returns the session approvals for session and source
// that have not expired at now, as entries with scope Session. An
// unusable file holds none.
func (r *Refusals) SessionEntries(session, source string, now time.Time) []Entry {
	if session == "" {
		return nil
	}
	data, err := r.read()
	if err != nil || !bytes.Contains(data, []byte(`"event":"session"`)) {
		return nil
	}
	var out []Entry
	for _, g := range replay(data).sessions {
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
// for lifetime (ten minutes when zero), reusing the open code of
// an earlier refusal of the same line in the same folder. rec.Command and
// rec.Cwd must be set; Code, Digest, Expires and the approval fields are
// filled in. A Locked refusal gets no code, and no earlier approval
// applies to it. ctx bounds the wait for the lock.
func (r *Refusals) Record(ctx context.Context, rec Refusal, now time.Time, lifetime time.Duration) (RecordResult, error) {
	var res RecordResult
	if lifetime <= 0 {
		lifetime = defaultCodeLifetime
	}
	if strings.TrimSpace(rec.Command) == "" || rec.Cwd == "" {
		return res, errors.New("a refusal needs a command and a folder")
	}
	now = now.UTC().Round(0)
	rec.Cwd = CleanCwd(rec.Cwd)
	if rec.CwdID == "" {
		rec.CwdID = dirID(rec.Cwd)
	}
	rec.Digest = commandDigest(rec.Command)
	if len(rec.Command) > maxRefusalCommand {
		rec.Command, rec.Truncated = cutString(rec.Command, maxRefusalCommand), true
	}
	rec.Time, rec.Count = now, 1
	rec.Reason = cutString(rec.Reason, maxRefusalReason)
	rec.Approved, rec.ApprovedUntil, rec.Used, rec.Code = time.Time{}, time.Time{}, time.Time{}, ""
	err := r.update(ctx, func(data []byte) ([]event, error) {
		same := func(x Refusal) bool {
			return x.Digest == rec.Digest && x.Cwd == rec.Cwd && x.CwdID == rec.CwdID
		}
		var open *Refusal
		if bytes.Contains(data, []byte(`"event":"approved"`)) {
			// Some code was approved: replay to see whether it is this one.
			st := replay(data)
			for i := range st.refusals {
				x := &st.refusals[i]
				if !rec.Locked && rec.CwdID != "" && same(*x) && !x.Locked && !x.Approved.IsZero() && x.Used.IsZero() && now.Before(x.ApprovedUntil) {
					x.Used = now
					res.Refusal, res.Once = *x, true
					return []event{{Event: "used", Refusal: Refusal{Code: x.Code, Used: now}}}, nil
				}
			}
			for i := len(st.refusals) - 1; i >= 0; i-- {
				if x := st.refusals[i]; same(x) && x.Locked == rec.Locked && x.Approved.IsZero() && now.Before(x.Expires) {
					open = &x
					break
				}
			}
		} else {
			// No code was approved: the latest refusal of this line, if
			// its code is open, is the one to reuse.
			open = lastOpen(data, rec, now, same)
		}
		if open != nil {
			rec.Code, rec.Expires, rec.Count = open.Code, open.Expires, open.Count+1
		} else if rec.Locked {
			rec.Expires = now.Add(lifetime)
		} else {
			code, err := uniqueCode(data)
			if err != nil {
				return nil, err
			}
			rec.Code, rec.Expires = code, now.Add(lifetime)
		}
		res.Refusal = rec
		return []event{{Event: "refused", Refusal: rec}}, nil
	})
	if err != nil {
		return RecordResult{}, err
	}
	return res, nil
}

// lastOpen finds, without replaying the file, the latest refusal of rec's
// line in rec's folder whose code is still open. It is only right when no
// code was approved (then no code was used either).
func lastOpen(data []byte, rec Refusal, now time.Time, same func(Refusal) bool) *Refusal {
	needle := []byte(`"digest":"` + rec.Digest + `"`)
	end := len(data)
	for range maxRefusalsLines + 1 {
		i := bytes.LastIndex(data[:end], needle)
		if i < 0 {
			return nil
		}
		start := bytes.LastIndexByte(data[:i], '\n') + 1
		stop := bytes.IndexByte(data[i:], '\n')
		if stop < 0 {
			stop = len(data) - i
		}
		end = start
		var ev event
		if unmarshalEvent(data[start:i+stop], &ev) != nil || ev.Event != "refused" || !same(ev.Refusal) {
			continue
		}
		if ev.Locked != rec.Locked || !now.Before(ev.Expires) {
			return nil
		}
		return &ev.Refusal
	}
	return nil
}

// uniqueCode returns a new code that no refusal in data carries.
func uniqueCode(data []byte) (string, error) {
	for range 16 {
		c, err := newCode()
		if err != nil {
			return "", err
		}
		if !bytes.Contains(data, []byte(`"code":"`+c+`"`)) {
			return c, nil
		}
	}
	return "", errors.New("cannot draw an unused code")
}

// Approve approves the refusal carrying code for one run: the next
// Record of the same line in the same folder (within lifetime of now,
// ten minutes when zero) uses it up and lets the command run
// once. It returns the refusal; an approval that already exists, unused,
// is returned as it is. A code that approves nothing is a *CodeError
// saying why: malformed, unknown, expired (not approved in time), used,
// or moved (its folder is gone or is another folder now).
func (r *Refusals) Approve(ctx context.Context, code string, now time.Time, lifetime time.Duration) (Refusal, error) {
	if lifetime <= 0 {
		lifetime = defaultCodeLifetime
	}
	norm, err := normalizeCode(code)
	if err != nil {
		return Refusal{}, err
	}
	now = now.UTC().Round(0)
	var out Refusal
	var cerr *CodeError
	err = r.update(ctx, func(data []byte) ([]event, error) {
		x, ok := find(replay(data), norm)
		if !ok {
			cerr = &CodeError{Code: norm, Problem: CodeUnknown, Detail: "no recent refusal beside this approvals file carries it"}
			return nil, nil
		}
		out = x
		switch {
		case !x.Used.IsZero():
			cerr = &CodeError{Code: norm, Problem: CodeUsed, Refusal: x, Detail: "the approved run happened at " + x.Used.Local().Format(time.Kitchen)}
			return nil, nil
		case !x.Approved.IsZero() && now.Before(x.ApprovedUntil):
			return nil, nil // approved already, still unused
		case !x.Approved.IsZero():
			cerr = &CodeError{Code: norm, Problem: CodeExpired, Refusal: x, Detail: "it was approved but not used before " + x.ApprovedUntil.Local().Format(time.Kitchen)}
			return nil, nil
		case !now.Before(x.Expires):
			cerr = &CodeError{Code: norm, Problem: CodeExpired, Refusal: x, Detail: "it had to be approved before " + x.Expires.Local().Format(time.Kitchen)}
			return nil, nil
		}
		if id := dirID(x.Cwd); id == "" || id != x.CwdID {
			why := "the folder " + x.Cwd + " is another folder now"
			if id == "" {
				why = "the folder " + x.Cwd + " no longer exists"
			}
			cerr = &CodeError{Code: norm, Problem: CodeMoved, Refusal: x, Detail: why}
			return nil, nil
		}
		out.Approved, out.ApprovedUntil = now, now.Add(lifetime)
		return []event{{Event: "approved", Refusal: Refusal{Code: norm, Approved: out.Approved, ApprovedUntil: out.ApprovedUntil}}}, nil
	})
	if err != nil {
		return Refusal{}, err
	}
	if cerr != nil {
		return cerr.Refusal, cerr
	}
	return out, nil
}

func find(st *state, code string) (Refusal, bool) {
	for _, x := range st.refusals {
		if x.Code == code {
			return x, true
		}
	}
	return Refusal{}, false
}

// Lookup returns the refusal carrying code, whatever its state.
func (r *Refusals) Lookup(code string) (Refusal, error) {
	norm, err := normalizeCode(code)
	if err != nil {
		return Refusal{}, err
	}
	data, err := r.read()
	if err != nil {
		return Refusal{}, err
	}
	if x, ok := find(replay(data), norm); ok {
		return x, nil
	}
	return Refusal{}, &CodeError{Code: norm, Problem: CodeUnknown, Detail: "no recent refusal beside this approvals file carries it"}
}

// GrantSession records entries as approvals for one agent session (and
// source) until expires, which is capped at 24 hours from now.
func (r *Refusals) GrantSession(ctx context.Context, session, source string, entries []Entry, now, expires time.Time) ([]SessionGrant, error) {
	if session == "" {
		return nil, errors.New("no agent session to approve for")
	}
	now = now.UTC().Round(0)
	if expires.IsZero() || expires.After(now.Add(maxSessionLifetime)) {
		expires = now.Add(maxSessionLifetime)
	}
	var added []SessionGrant
	for _, e := range entries {
		e.Pattern = normalizePattern(e.Kind, e.Pattern)
		if e.Pattern == "" || (e.Kind != Prefix && e.Kind != Exact) {
			return nil, fmt.Errorf("cannot approve %q for a session", e.Pattern)
		}
		e.Scope, e.GrantedAt, e.Expires = Session, now, expires.UTC().Round(0)
		added = append(added, SessionGrant{Entry: e, Session: session, Source: source})
	}
	err := r.update(ctx, func([]byte) ([]event, error) {
		evs := make([]event, len(added))
		for i := range added {
			evs[i] = event{Event: "session", Grant: &added[i]}
		}
		return evs, nil
	})
	if err != nil {
		return nil, err
	}
	return added, nil
}

// read reads the file without a lock (a reader sees whole lines, and
// skips a partial last one) and returns its events.
func (r *Refusals) read() ([]byte, error) {
	t, err := r.check()
	if err != nil {
		return nil, err
	}
	if t.Info == nil {
		return nil, nil
	}
	f, fi, err := safefile.Open(t.Real, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", refusalsWhat, t.Abs, err)
	}
	defer f.Close()
	return readEvents(t, f, fi)
}

// readEvents checks the opened file and returns its data after the
// header.
func readEvents(t safefile.Target, f *os.File, fi fs.FileInfo) ([]byte, error) {
	if err := safefile.CheckInfo(refusalsWhat, refusalsEffect, t.Abs, t.Real, fi, os.Geteuid()); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxRefusalsFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", refusalsWhat, t.Abs, err)
	}
	if len(data) > maxRefusalsFile {
		return nil, fmt.Errorf("%s %s is larger than %d MiB; it is not shellguard's (%s)", refusalsWhat, t.Abs, maxRefusalsFile>>20, refusalsEffect)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil // created, not written yet (a crash): ours, empty
	}
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if string(bytes.TrimSpace(first)) != refusalsHeader {
		return nil, fmt.Errorf("%s %s is not a refusals file shellguard wrote (remove it to start a new one); %s", refusalsWhat, t.Abs, refusalsEffect)
	}
	return rest, nil
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

// update runs change on the file's events under its lock and appends
// the events it returns, each as one line, with one write; then compacts
// the file when it grew past its bounds.
func (r *Refusals) update(ctx context.Context, change func(data []byte) ([]event, error)) error {
	t, err := r.check()
	if err != nil {
		return err
	}
	uid := os.Geteuid()
	if t.Info == nil {
		if err := os.MkdirAll(filepath.Dir(t.Real), 0o700); err != nil {
			return fmt.Errorf("%s %s: cannot create its folder: %w", refusalsWhat, t.Abs, err)
		}
		if t, err = r.check(); err != nil {
			return err
		}
	} else if _, err := os.Lstat(safefile.LockPath(t.Real)); err != nil {
		// Before a lock file is created beside it, what is there must be
		// a refusals file.
		if _, err := r.read(); err != nil {
			return err
		}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	unlock, err := safefile.Lock(ctx, lockTimeout, refusalsWhat, t.Abs, t.Real, uid)
	if err != nil {
		return err
	}
	defer unlock()
	if t, err = r.check(); err != nil {
		return err
	}
	f, fi, err := safefile.Open(t.Real, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("%s %s: %w", refusalsWhat, t.Abs, err)
	}
	defer f.Close()
	data, err := readEvents(t, f, fi)
	if err != nil {
		return err
	}
	evs, err := change(data)
	if err != nil || len(evs) == 0 {
		return err
	}
	var out []byte
	if fi.Size() == 0 {
		out = append(out, refusalsHeader+"\n"...)
	} else if data, _ := io.ReadAll(io.NewSectionReader(f, fi.Size()-1, 1)); len(data) == 1 && data[0] != '\n' {
		out = append(out, '\n') // a partial line left by a crash
	}
	for i := range evs {
		if out, err = appendEvent(out, &evs[i]); err != nil {
			return err
		}
	}
	start := fi.Size()
	n, werr := f.Write(out)
	if werr == nil && n != len(out) {
		werr = io.ErrShortWrite
	}
	if werr != nil {
		if n > 0 {
			_ = f.Truncate(start)
		}
		return fmt.Errorf("%s %s: %w", refusalsWhat, t.Abs, werr)
	}
	lines := bytes.Count(data, []byte("\n")) + len(evs)
	if lines > maxRefusalsLines || start+int64(n) > maxRefusalsBytes {
		all := append(append([]byte(nil), data...), out...)
		if fi.Size() == 0 {
			all = all[len(refusalsHeader)+1:]
		}
		return compact(t, replay(all))
	}
	return nil
}

// compact replaces the file at t with st alone: a temporary file created
// exclusively in the same folder, renamed over it (under the lock). The
// rename is not synced to disk: after a crash the file may be the older
// one, which costs at most a code that has to be asked for again.
func compact(t safefile.Target, st *state) error {
	out := []byte(refusalsHeader + "\n")
	var err error
	for _, x := range st.refusals {
		approved, until, used := x.Approved, x.ApprovedUntil, x.Used
		x.Approved, x.ApprovedUntil, x.Used = time.Time{}, time.Time{}, time.Time{}
		evs := []event{{Event: "refused", Refusal: x}}
		// Approvals stay events of their own: Record looks for them.
		if !approved.IsZero() {
			evs = append(evs, event{Event: "approved", Refusal: Refusal{Code: x.Code, Approved: approved, ApprovedUntil: until}})
		}
		if !used.IsZero() {
			evs = append(evs, event{Event: "used", Refusal: Refusal{Code: x.Code, Used: used}})
		}
		for i := range evs {
			if out, err = appendEvent(out, &evs[i]); err != nil {
				return err
			}
		}
	}
	now := time.Now()
	var live []SessionGrant
	for _, g := range st.sessions {
		if !g.Expired(now) {
			live = append(live, g)
		}
	}
	if n := len(live); n > maxSessionGrants {
		live = live[n-maxSessionGrants:]
	}
	for i := range live {
		if out, err = appendEvent(out, &event{Event: "session", Grant: &live[i]}); err != nil {
			return err
		}
	}
	dir := filepath.Dir(t.Real)
	tmp, err := os.CreateTemp(dir, "."+RefusalsFileName+".tmp-*")
	if err != nil {
		return fmt.Errorf("%s %s: %w", refusalsWhat, t.Abs, err)
	}
	name := tmp.Name()
	defer os.Remove(name) // nothing is left to remove after the rename
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("%s %s: %w", refusalsWhat, t.Abs, err)
	}
	if _, err := tmp.Write(out); err != nil {
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
