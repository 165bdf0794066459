package approval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/renameio/v2"

	"github.com/shellguard/shellguard/internal/safefile"
	"github.com/shellguard/shellguard/internal/xdg"
)

// fileVersion is the version of the approvals file format that Store
// writes.
const fileVersion = 2

// seedVersion is the version of the older format that Store still reads:
// {"version": 1, "prefixes": ["git checkout", ...]}.
const seedVersion = 1

// maxFileSize bounds how much of an approvals file is read. A larger file
// is treated as corrupt.
const maxFileSize = 16 << 20

// lockTimeout bounds how long Add and Remove wait for another process that
// is updating the same file.
const lockTimeout = 30 * time.Second

// Store is a persisted approval store: one JSON file holding the
// approvals a person granted with scope Always.
//
// # File format
//
// The file is a JSON object (UTF-8, written with two-space indentation):
//
//	{
//	  "version": 2,
//	  "approvals": [
//	    {
//	      "kind": "prefix",
//	      "pattern": "git checkout",
//	      "scope": "always",
//	      "granted_at": "2026-12-02T10:15:00Z",
//	      "granted_via": "tui",
//	      "command": "git checkout main"
//	    },
//	    {
//	      "kind": "exact",
//	      "pattern": "make deploy-staging",
//	      "scope": "always",
//	      "granted_at": "2026-12-02T10:16:40Z",
//	      "granted_via": "cli",
//	      "command": "make deploy-staging"
//	    }
//	  ]
//	}
//
// "version" is required and must be 2 (or 1, below). Each approval has:
//
//   - "kind": "prefix" approves every invocation whose classified prefix is
//     "pattern" (shown as "git checkout *"); "exact" approves the one
//     command line "pattern" (surrounding white space ignored).
//   - "pattern": the prefix or the command line; never empty.
//   - "scope": "always" (the only scope stored; may be omitted).
//   - "granted_at": when the approval was given, RFC 3339, UTC; absent when
//     unknown (imported approvals).
//   - "granted_via": the interface it came through: "cli", "tui", "mcp",
//     "hook" or "import".
//   - "command": the command line the person was looking at when approving.
//   - "expires": when the approval stops approving anything, RFC 3339,
//     UTC; absent when it never does. An expired entry approves nothing
//     and stays in the file until Prune removes it.
//
// Unknown fields are ignored. A file whose version is newer than 2
// approves nothing and is never rewritten by this version.
//
// The older allow-list format {"version": 1, "prefixes": ["git checkout",
// ...]} is read as well: each string is a prefix approval with scope
// always, granted via "import". The first Add or Remove rewrites such a
// file in the current format, keeping every prefix.
//
// # Safety
//
// Every change (Add, Remove) takes an exclusive lock on
// ".<name>.shellguard-lock" beside the file (".approvals.json.shellguard-lock"
// for approvals.json), re-reads the file, applies the change and replaces
// the file atomically (a temporary file in the same folder, fsync, rename),
// so a crash never leaves a half-written file and concurrent processes never
// lose each other's approvals. Load takes no lock: it sees either the old or
// the new file.
//
// Only a file that is shellguard's is ever changed: a missing file (created
// with mode 0600, in folders created with mode 0700), a valid approvals
// file, or a damaged one that is recognisably an approvals file (a JSON
// object with an "approvals" or "prefixes" member). A damaged approvals
// file approves nothing, and Load reports it in Snapshot.Problem; it is
// never silently overwritten: the next Add keeps it aside as
// "<file>.corrupt-<UTC time>" (for example
// approvals.json.corrupt-20261202T101500Z) before writing a new file, and
// says so in AddResult.MovedAside. Anything else at the path (another
// program's file, an empty file, a file shellguard cannot read, a FIFO, a
// folder) is NotAStore or Unreadable: it approves nothing, and Add and
// Remove refuse to touch it, creating no lock file beside it.
//
// A symbolic link is followed only to a file that already is a valid
// approvals file passing the trust rules (see TrustError; dotfile managers
// link stores); the replacement then happens at the link's target, and the
// link stays. A link to anything else, or to nothing, is refused.
//
// A file that another user could have written approves nothing either (see
// TrustError); Load returns its entries marked untrusted, and Add and
// Remove refuse to change it.
//
// A Store holds only its path; all state is on disk, so a Store is safe for
// concurrent use, and several Stores (in one process or many) may share a
// file.
type Store struct {
	path string
}

// NewStore returns the store kept in the file at path (typically
// DefaultPath). The file need not exist.
func NewStore(path string) *Store { return &Store{path: path} }

// Path returns the path the store was created with.
func (s *Store) Path() string { return s.path }

// DefaultPath returns the user's approvals file:
// $XDG_CONFIG_HOME/shellguard/approvals.json, or
// ~/.config/shellguard/approvals.json when XDG_CONFIG_HOME is unset or not
// an absolute path (as the XDG specification requires).
func DefaultPath() (string, error) {
	if p := xdg.Config(nil, "approvals.json"); p != "" {
		return p, nil
	}
	return "", errors.New("cannot locate the approvals file: neither $XDG_CONFIG_HOME nor $HOME is an absolute path")
}

// ProblemKind classifies what is wrong with an approvals file.
type ProblemKind string

// The problems an approvals file can have. Each one means the file
// approves nothing.
const (
	// Unreadable: the file exists but could not be read (permissions, not
	// a regular file, a broken chain of symbolic links).
	Unreadable ProblemKind = "unreadable"
	// Corrupt: the file was read but is not a valid approvals file.
	Corrupt ProblemKind = "corrupt"
	// UnsupportedVersion: the file was written by a newer shellguard.
	UnsupportedVersion ProblemKind = "unsupported-version"
	// Untrusted: another user could have written the file (see
	// TrustError).
	Untrusted ProblemKind = "untrusted"
	// NotAStore: the path names something that is not a shellguard
	// approvals file (another program's file, an empty file), or a
	// symbolic link to something that is not a valid approvals file or
	// to nothing. shellguard never changes it.
	NotAStore ProblemKind = "not-a-store"
)

// FileError is the error Load reports in Snapshot.Problem, and Add and
// Remove return, when an approvals file cannot be used.
type FileError struct {
	// Path is the approvals file.
	Path string
	Kind ProblemKind
	// Version is the file's version, for UnsupportedVersion.
	Version int
	// Err says what is wrong; for Untrusted it is a *TrustError.
	Err error
}

func (e *FileError) Error() string {
	switch e.Kind {
	case Corrupt:
		return fmt.Sprintf("approvals file %s is corrupt: %v; it approves nothing until it is repaired or removed (the next approval keeps it aside as %s.corrupt-<time> and starts a new file)", e.Path, e.Err, filepath.Base(e.Path))
	case UnsupportedVersion:
		return fmt.Sprintf("approvals file %s has version %d, newer than this shellguard understands (%d); it approves nothing and is left unchanged", e.Path, e.Version, fileVersion)
	case Untrusted:
		return e.Err.Error()
	case NotAStore:
		return fmt.Sprintf("%s is not a shellguard approvals file: %v; it approves nothing, and shellguard does not change it (check --approvals and $SHELLGUARD_APPROVALS)", e.Path, e.Err)
	}
	return fmt.Sprintf("approvals file %s cannot be read: %v; it approves nothing", e.Path, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// Snapshot is what Load found in an approvals file.
type Snapshot struct {
	// Path is the store's path.
	Path string
	// Entries are the approvals in the file, in the order they were
	// granted. They are set for a trusted file and for an untrusted but
	// readable one (so they can be shown); use Active for the entries that
	// may approve anything.
	Entries []Entry
	// Trusted reports whether the file may grant approvals: it is sound
	// and passes the trust rules (see TrustError). A missing file is
	// trusted (and empty).
	Trusted bool
	// Problem is nil when the file is missing or fine, and otherwise a
	// *FileError (corrupt, unreadable, unsupported version, untrusted).
	Problem error
	// Missing reports that the file does not exist.
	Missing bool
	// Version is the file format version read (0 when missing or
	// unusable, 1 for the older prefix list, 2 for the current format).
	Version int

	// probes are what Store.Fresh compares.
	probes []probe
}

// Active returns the entries that may approve commands: all of them when
// the file is trusted and sound, none otherwise.
func (sn Snapshot) Active() []Entry {
	if !sn.Trusted || sn.Problem != nil {
		return nil
	}
	return sn.Entries
}

// Load reads the store. It never fails and never panics: a missing file is
// an empty, trusted store; any other problem is reported in
// Snapshot.Problem, and then Active returns nothing.
func (s *Store) Load() Snapshot {
	sn := Snapshot{Path: s.path}
	st := readStore(s.path)
	sn.probes = st.probes
	switch {
	case st.missing:
		sn.Missing = true
		sn.Trusted = true
		return sn
	case st.problem != nil:
		sn.Problem = st.problem
		return sn
	}
	sn.Entries = st.entries
	sn.Version = st.version
	if st.trustErr != nil {
		sn.Problem = &FileError{Path: st.abs, Kind: Untrusted, Err: st.trustErr}
		return sn
	}
	sn.Trusted = true
	return sn
}

// AddResult reports what Add did.
type AddResult struct {
	// Path is the file that was written (symbolic links resolved).
	Path string
	// Added are the entries that were new, as stored.
	Added []Entry
	// AlreadyPresent are the entries that were in the file already (same
	// Kind, Pattern and Expires); they are left as they were.
	AlreadyPresent []Entry
	// Renewed are entries that were in the file already with another
	// expiry: they now carry the new one (and the new grant's time and
	// interface), as stored.
	Renewed []Entry
	// MovedAside is where a damaged approvals file was kept before a new
	// one was written, or "".
	MovedAside string
	// Converted reports that a file in the older prefix-list format was
	// rewritten in the current format.
	Converted bool
}

// Notices returns sentences about what Add did besides adding entries,
// for showing to the user.
func (r AddResult) Notices() []string {
	var out []string
	if r.MovedAside != "" {
		out = append(out, fmt.Sprintf("the approvals file %s was damaged; it was kept as %s and a new file was started", r.Path, r.MovedAside))
	}
	if r.Converted {
		out = append(out, fmt.Sprintf("the approvals file %s was converted from the version %d prefix list to version %d", r.Path, seedVersion, fileVersion))
	}
	return out
}

// Add stores entries. Each must have Kind Prefix or Exact and a non-empty
// Pattern; its Scope must be Always or empty (it is stored as Always).
// Prefix patterns may be given as displayed ("git checkout *"). A zero
// GrantedAt becomes the current time. Entries whose Kind and Pattern are
// already stored are not added twice: when the stored one has another
// Expires (an expired approval granted again, a time limit lifted), it
// takes the new entry's Expires, GrantedAt and GrantedVia (Renewed).
//
// If the file is a damaged approvals file it is first kept aside (see
// Store) and AddResult.MovedAside names the copy. Add refuses to change
// (and returns the *FileError of) a file that fails the trust rules (TrustError), is not an
// approvals file (NotAStore: another program's file, an empty file, a
// symbolic link to anything but a valid approvals file or to nothing),
// cannot be read, is not a regular file, or has a newer version.
func (s *Store) Add(entries ...Entry) (AddResult, error) {
	res := AddResult{Path: s.path}
	now := time.Now().UTC().Truncate(time.Second)
	var todo []Entry
	for i, e := range entries {
		n, err := normalizeEntry(e, now)
		if err != nil {
			return res, fmt.Errorf("approval %d: %w", i+1, err)
		}
		if indexOf(todo, n.Kind, n.Pattern) < 0 {
			todo = append(todo, n)
		}
	}
	if len(todo) == 0 {
		return res, nil
	}
	u, err := s.update(true, func(cur []Entry) ([]Entry, bool) {
		at := make(map[entryKey]int, len(cur))
		for i, e := range cur {
			at[keyOf(e)] = i
		}
		renewed := false
		for _, e := range todo {
			if j, ok := at[keyOf(e)]; ok {
				if !cur[j].Expires.Equal(e.Expires) {
					// The same approval with another expiry (or none):
					// the new grant replaces the old one's time limit.
					cur[j].Expires, cur[j].GrantedAt, cur[j].GrantedVia = e.Expires, e.GrantedAt, e.GrantedVia
					res.Renewed = append(res.Renewed, cur[j])
					renewed = true
					continue
				}
				res.AlreadyPresent = append(res.AlreadyPresent, cur[j])
				continue
			}
			at[keyOf(e)] = len(cur)
			cur = append(cur, e)
			res.Added = append(res.Added, e)
		}
		return cur, len(res.Added) > 0 || renewed
	})
	res.Path, res.MovedAside, res.Converted = u.path, u.movedAside, u.converted
	if err != nil {
		res.Added, res.AlreadyPresent, res.Renewed = nil, nil, nil
	}
	return res, err
}

// Remove deletes the entry with that kind and pattern (a prefix may be
// given as displayed, "git checkout *") and reports whether it was there.
// A missing file holds nothing to remove (and Remove creates nothing for
// it). Remove never rewrites a damaged, unreadable, untrusted or newer
// file, nor anything that is not an approvals file; it returns its
// *FileError instead.
func (s *Store) Remove(kind Kind, pattern string) (bool, error) {
	pattern = normalizePattern(kind, pattern)
	found := false
	_, err := s.update(false, func(cur []Entry) ([]Entry, bool) {
		j := indexOf(cur, kind, pattern)
		if j < 0 {
			return cur, false
		}
		found = true
		return append(cur[:j:j], cur[j+1:]...), true
	})
	if err != nil {
		return false, err
	}
	return found, nil
}

// Prune deletes the entries that have expired at now and returns them. A
// missing file holds nothing to prune; like Remove, Prune never rewrites a
// file that is not a sound, trusted approvals file.
func (s *Store) Prune(now time.Time) ([]Entry, error) {
	var gone []Entry
	_, err := s.update(false, func(cur []Entry) ([]Entry, bool) {
		gone = gone[:0]
		keep := cur[:0:0]
		for _, e := range cur {
			if e.Expired(now) {
				gone = append(gone, e)
				continue
			}
			keep = append(keep, e)
		}
		return keep, len(gone) > 0
	})
	if err != nil {
		return nil, err
	}
	return gone, nil
}

// updated is what update did besides applying the change.
type updated struct {
	path       string
	movedAside string
	converted  bool
}

// update runs change on the current entries under the file lock and writes
// the result atomically if change reports a change. With moveAside, a
// damaged approvals file is kept aside and change starts from nothing;
// otherwise such a file is an error. Whatever is not shellguard's is
// refused before anything is created (see writable).
func (s *Store) update(moveAside bool, change func([]Entry) ([]Entry, bool)) (updated, error) {
	u := updated{path: s.path}
	if s.path == "" {
		return u, errors.New("approvals file: no path given")
	}
	st := readStore(s.path)
	if err := st.writable(moveAside); err != nil {
		return u, err
	}
	if st.missing && !moveAside {
		// Nothing to remove from a file that does not exist: create
		// neither a folder nor a lock for it.
		return u, nil
	}
	abs, real := st.abs, st.target.Real
	u.path = real
	dir := filepath.Dir(real)
	if st.target.Info == nil {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return u, fmt.Errorf("approvals file %s: cannot create its folder: %w", abs, err)
		}
		// The folders may not have existed when readStore checked them.
		if err := st.target.Trust(trustWhat, trustEffect, os.Geteuid()); err != nil {
			return u, refusal(abs, err)
		}
	}

	unlock, err := safefile.Lock(context.Background(), lockTimeout, trustWhat, abs, real, os.Geteuid())
	if err != nil {
		var te *TrustError
		if errors.As(err, &te) {
			return u, refusal(abs, err)
		}
		return u, fmt.Errorf("approvals file %s: cannot lock it: %w", abs, err)
	}
	defer unlock()

	// Under the lock: read again, and check again.
	st = readStore(s.path)
	if st.target.Real != real {
		return u, fmt.Errorf("approvals file %s: it now leads to %s instead of %s; try again", abs, st.target.Real, real)
	}
	if err := st.writable(moveAside); err != nil {
		return u, err
	}
	var cur []Entry
	switch {
	case st.missing:
	case st.problem != nil:
		name, err := keepAside(real, time.Now())
		if err != nil {
			return u, fmt.Errorf("%w; keeping it aside failed, so it was left as it is: %v", st.problem, err)
		}
		u.movedAside = name
	default:
		cur = st.entries
		u.converted = st.version == seedVersion
	}
	next, changed := change(cur)
	if !changed && u.movedAside == "" {
		u.converted = false
		return u, nil
	}
	if err := writeEntries(real, next); err != nil {
		return u, fmt.Errorf("approvals file %s: cannot write it: %w", abs, err)
	}
	return u, nil
}

// writable reports why Add (with moveAside) or Remove may not replace the
// file readStore found, or nil when they may.
func (st *storeState) writable(moveAside bool) error {
	t := st.target
	switch {
	case st.trustErr != nil:
		return refusal(st.abs, st.trustErr)
	case t.Dangling():
		return &FileError{Path: st.abs, Kind: NotAStore, Err: fmt.Errorf("it is a symbolic link to %s, which does not exist; shellguard follows a link only to an existing approvals file", t.Real)}
	case st.missing:
		return nil
	case t.Linked() && (st.problem != nil || st.empty):
		why := "it is empty"
		var fe *FileError
		if errors.As(st.problem, &fe) && fe.Err != nil {
			why = fe.Err.Error()
		} else if st.problem != nil {
			why = st.problem.Error()
		}
		return &FileError{Path: st.abs, Kind: NotAStore, Err: fmt.Errorf("it is a symbolic link to %s, which is not a valid approvals file (%s); shellguard follows a link only to a valid approvals file", t.Real, why)}
	case st.empty:
		return &FileError{Path: st.abs, Kind: NotAStore, Err: errors.New("it is empty, so shellguard cannot tell it is its own; remove it, or write {\"version\": 2, \"approvals\": []} in it")}
	case st.problem != nil:
		if !moveAside || !st.movable {
			return st.problem
		}
	}
	return nil
}

// refusal wraps a trust failure as the error Add and Remove return.
func refusal(abs string, err error) error {
	var te *TrustError
	if errors.As(err, &te) {
		return &FileError{Path: abs, Kind: Untrusted, Err: fmt.Errorf("%w; refusing to change it", err)}
	}
	return err
}

// keepAside gives the file at path a second, dated name that no other file
// has, so that its bytes survive the file being replaced.
func keepAside(path string, now time.Time) (string, error) {
	base := path + ".corrupt-" + now.UTC().Format("20060102T150405Z")
	for i := 1; i <= 100; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		err := os.Link(path, name)
		if err == nil {
			return name, nil
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		// Hard links unsupported here: rename instead, never over an
		// existing file.
		if _, serr := os.Lstat(name); serr == nil {
			continue
		}
		if rerr := os.Rename(path, name); rerr != nil {
			return "", rerr
		}
		return name, nil
	}
	return "", fmt.Errorf("too many corrupt copies named %s*", base)
}

// encodeEntries returns the file contents holding entries.
func encodeEntries(entries []Entry) ([]byte, error) {
	if entries == nil {
		entries = []Entry{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(fileV2{Version: fileVersion, Approvals: entries}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeEntries replaces the file at path with entries, atomically.
func writeEntries(path string, entries []Entry) error {
	data, err := encodeEntries(entries)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	pf, err := renameio.NewPendingFile(path, renameio.WithTempDir(dir), renameio.WithStaticPermissions(0o600))
	if err != nil {
		return err
	}
	defer pf.Cleanup()
	if _, err := pf.Write(data); err != nil {
		return err
	}
	if err := pf.CloseAtomicallyReplace(); err != nil {
		return err
	}
	// Make the rename itself durable.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// storeState is what readStore found.
type storeState struct {
	abs     string
	target  safefile.Target
	missing bool  // no file (or a link to nothing)
	empty   bool  // an empty (or all white space) file: an empty store
	problem error // *FileError: unreadable, corrupt, not a store, unsupported version
	movable bool  // problem is one Add may resolve by keeping the file aside: a damaged approvals file
	// trustErr is set when the file or a folder on its way fails the
	// trust checks.
	trustErr error
	entries  []Entry
	version  int
	probes   []probe // taken before the file was read
}

// readStore reads and checks the approvals file at path.
func readStore(path string) (st storeState) {
	st.abs = path
	if path == "" {
		st.problem = &FileError{Path: path, Kind: Unreadable, Err: errors.New("no path given")}
		return st
	}
	t, err := safefile.Resolve(path)
	st.abs, st.target = t.Abs, t
	if st.abs == "" {
		st.abs = path
	}
	unreadable := func(err error) storeState {
		st.problem = &FileError{Path: st.abs, Kind: Unreadable, Err: err}
		return st
	}
	if err != nil {
		return unreadable(err)
	}
	st.probes = probesFor(t)
	uid := os.Geteuid()
	st.trustErr = t.Trust(trustWhat, trustEffect, uid)
	if t.Info == nil {
		st.missing = true // no file, or a dangling symbolic link
		return st
	}
	if !t.Info.Mode().IsRegular() {
		return unreadable(fmt.Errorf("not a regular file (%s)", t.Info.Mode().Type()))
	}
	f, fi, err := safefile.Open(t.Real, os.O_RDONLY, 0)
	if err != nil {
		return unreadable(err)
	}
	defer f.Close()
	if st.trustErr == nil {
		// What was opened, not what was looked at before.
		st.trustErr = safefile.CheckInfo(trustWhat, trustEffect, st.abs, t.Real, fi, uid)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return unreadable(err)
	}
	if len(data) > maxFileSize {
		st.problem = &FileError{Path: st.abs, Kind: Corrupt, Err: fmt.Errorf("larger than %d MiB", maxFileSize>>20)}
		if !looksLikeStore(data[:64<<10]) {
			st.problem = &FileError{Path: st.abs, Kind: NotAStore, Err: fmt.Errorf("larger than %d MiB, and not JSON with \"approvals\"", maxFileSize>>20)}
		}
		st.movable = st.problem.(*FileError).Kind == Corrupt
		return st
	}
	entries, version, err := parseStore(data)
	if err != nil {
		var fe *FileError
		if errors.As(err, &fe) {
			fe.Path = st.abs
			st.problem = fe
			return st
		}
		if !looksLikeStore(data) {
			st.problem = &FileError{Path: st.abs, Kind: NotAStore, Err: err}
			return st
		}
		st.movable = true
		st.problem = &FileError{Path: st.abs, Kind: Corrupt, Err: err}
		return st
	}
	st.entries, st.version = entries, version
	st.empty = len(bytes.TrimSpace(data)) == 0
	return st
}

// looksLikeStore reports whether data, which is not a valid approvals
// file, still is recognisably one: a JSON object whose members, as far as
// they can be read, include "approvals" or "prefixes" (the version 1
// list). Only such a file is kept aside and replaced; anything else is
// some other program's file.
func looksLikeStore(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		key, ok := tok.(string)
		if !ok {
			return false
		}
		if key == "approvals" || key == "prefixes" {
			return true
		}
		// Skip the member's value.
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return false
		}
	}
}

// fileV2 is the current file format.
type fileV2 struct {
	Version   int     `json:"version"`
	Approvals []Entry `json:"approvals"`
}

// parseStore decodes an approvals file. An error is either a
// *FileError{Kind: UnsupportedVersion} or a description of why the data is
// corrupt. An empty (or all white space) file is an empty store.
func parseStore(data []byte) ([]Entry, int, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fileVersion, nil
	}
	// One pass over the document: the members of the top-level object
	// are read one by one, and the approvals one entry at a time (a large
	// store is mostly its approvals list), each decoded once.
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, 0, describeJSONError(data, err)
	}
	if tok != json.Delim('{') {
		if tok == nil {
			return nil, 0, errors.New("the document is null, want an object with \"version\" and \"approvals\"")
		}
		what := "JSON value"
		switch tok.(type) {
		case json.Delim:
			what = "JSON array"
		case string:
			what = "JSON string"
		case float64, json.Number:
			what = "JSON number"
		case bool:
			what = "JSON bool"
		}
		return nil, 0, fmt.Errorf("the document is a %s, want an object with \"version\" and \"approvals\"", what)
	}
	var (
		rawVersion, rawPrefixes, rawApprovals json.RawMessage
		haveVersion, havePrefixes             bool
		entries                               []Entry
		streamed                              bool // entries were read from the stream
	)
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, 0, describeJSONError(data, err)
		}
		key, _ := tok.(string)
		if seen[key] {
			return nil, 0, fmt.Errorf("the member %q appears twice", truncate(key, 40))
		}
		seen[key] = true
		switch {
		case key == "approvals" && haveVersion && versionIs(rawVersion, fileVersion):
			// The usual order (version first): stream the list.
			entries, err = decodeApprovals(dec, data)
			if err != nil {
				return nil, 0, err
			}
			streamed = true
			continue
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, 0, describeJSONError(data, err)
		}
		switch key {
		case "version":
			rawVersion, haveVersion = raw, true
		case "prefixes":
			rawPrefixes, havePrefixes = raw, true
		case "approvals":
			rawApprovals = raw
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, 0, describeJSONError(data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		off := dec.InputOffset()
		return nil, 0, fmt.Errorf("unexpected data after the JSON object at %s", position(data, off))
	}
	if !haveVersion {
		return nil, 0, errors.New("no \"version\" field")
	}
	var version int
	if err := json.Unmarshal(rawVersion, &version); err != nil {
		return nil, 0, fmt.Errorf("\"version\" is %s, want a whole number", truncate(string(rawVersion), 40))
	}
	switch {
	case version > fileVersion:
		return nil, version, &FileError{Kind: UnsupportedVersion, Version: version, Err: fmt.Errorf("version %d", version)}
	case version == seedVersion:
		return parseSeed(rawPrefixes, havePrefixes)
	case version != fileVersion:
		return nil, 0, fmt.Errorf("unknown version %d", version)
	}
	if !streamed && rawApprovals != nil {
		d := json.NewDecoder(bytes.NewReader(rawApprovals))
		if entries, err = decodeApprovals(d, rawApprovals); err != nil {
			return nil, 0, err
		}
	}
	return entries, fileVersion, nil
}

// versionIs reports whether raw is the JSON number v.
func versionIs(raw json.RawMessage, v int) bool {
	var n int
	return json.Unmarshal(raw, &n) == nil && n == v
}

// decodeApprovals reads the "approvals" value from dec: null or a list of
// entries, each validated; duplicates (same kind and pattern) are dropped.
func decodeApprovals(dec *json.Decoder, data []byte) ([]Entry, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, describeJSONError(data, err)
	}
	if tok == nil {
		return nil, nil
	}
	if tok != json.Delim('[') {
		return nil, fmt.Errorf("\"approvals\" is not a list")
	}
	var entries []Entry
	seen := map[entryKey]struct{}{}
	for i := 0; dec.More(); i++ {
		var e Entry
		if err := dec.Decode(&e); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return nil, fmt.Errorf("approval %d: %v", i+1, unwrapJSON(err))
			}
			var se *json.SyntaxError
			if errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				return nil, describeJSONError(data, err)
			}
			return nil, fmt.Errorf("approval %d: %v", i+1, unwrapJSON(err))
		}
		e, err := validateStored(e)
		if err != nil {
			return nil, fmt.Errorf("approval %d: %v", i+1, err)
		}
		if k := keyOf(e); !has(seen, k) {
			seen[k] = struct{}{}
			entries = append(entries, e)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing bracket
		return nil, describeJSONError(data, err)
	}
	return entries, nil
}

// parseSeed reads the older {"version":1,"prefixes":[...]} format.
func parseSeed(raw json.RawMessage, ok bool) ([]Entry, int, error) {
	if !ok {
		return nil, 0, errors.New("version 1 file without a \"prefixes\" list")
	}
	var prefixes []string
	if err := json.Unmarshal(raw, &prefixes); err != nil {
		return nil, 0, fmt.Errorf("\"prefixes\" is not a list of strings: %v", unwrapJSON(err))
	}
	var entries []Entry
	seen := make(map[entryKey]struct{}, len(prefixes))
	for i, p := range prefixes {
		p = normalizePattern(Prefix, p)
		if p == "" {
			return nil, 0, fmt.Errorf("prefix %d is empty", i+1)
		}
		e := Entry{Kind: Prefix, Pattern: p, Scope: Always, GrantedVia: "import"}
		if k := keyOf(e); !has(seen, k) {
			seen[k] = struct{}{}
			entries = append(entries, e)
		}
	}
	return entries, seedVersion, nil
}

// validateStored checks an entry read from a file and normalises its
// pattern as Add would have (a hand-edited "git checkout *" prefix means
// "git checkout").
func validateStored(e Entry) (Entry, error) {
	if e.Kind != Prefix && e.Kind != Exact {
		return e, fmt.Errorf("unknown kind %q (want %q or %q)", truncate(string(e.Kind), 40), Prefix, Exact)
	}
	e.Pattern = normalizePattern(e.Kind, e.Pattern)
	if e.Pattern == "" {
		return e, errors.New("empty pattern")
	}
	if e.Scope != "" && e.Scope != Always {
		return e, fmt.Errorf("scope %q cannot be stored (only %q)", truncate(string(e.Scope), 40), Always)
	}
	e.Scope = Always
	return e, nil
}

// normalizeEntry checks and completes an entry about to be stored.
func normalizeEntry(e Entry, now time.Time) (Entry, error) {
	if e.Kind != Prefix && e.Kind != Exact {
		return e, fmt.Errorf("unknown kind %q (want %q or %q)", e.Kind, Prefix, Exact)
	}
	if e.Scope != "" && e.Scope != Always {
		return e, fmt.Errorf("scope %q is not stored in an approvals file (only %q is)", e.Scope, Always)
	}
	e.Pattern = normalizePattern(e.Kind, e.Pattern)
	if e.Pattern == "" {
		return e, errors.New("empty pattern")
	}
	e.Scope = Always
	if e.GrantedAt.IsZero() {
		e.GrantedAt = now
	} else {
		e.GrantedAt = e.GrantedAt.UTC().Round(0)
	}
	if !e.Expires.IsZero() {
		e.Expires = e.Expires.UTC().Round(0)
	}
	return e, nil
}

// normalizePattern trims white space, and for a prefix the " *" it is
// displayed with.
func normalizePattern(k Kind, p string) string {
	p = strings.TrimSpace(p)
	if k == Prefix {
		if p == "*" {
			return ""
		}
		p = strings.TrimSpace(strings.TrimSuffix(p, " *"))
	}
	return p
}

// entryKey identifies an entry: no two stored entries share one.
type entryKey struct {
	kind    Kind
	pattern string
}

func keyOf(e Entry) entryKey { return entryKey{e.Kind, e.Pattern} }

func has(m map[entryKey]struct{}, k entryKey) bool {
	_, ok := m[k]
	return ok
}

func indexOf(entries []Entry, k Kind, pattern string) int {
	for i, e := range entries {
		if e.Kind == k && e.Pattern == pattern {
			return i
		}
	}
	return -1
}

// describeJSONError turns a decoding error into a message with a line and
// column.
func describeJSONError(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("invalid JSON at %s: %v", position(data, se.Offset), se)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("the document is a JSON %s, want an object with \"version\" and \"approvals\"", te.Value)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("invalid JSON: the file ends too early (truncated?)")
	}
	return fmt.Errorf("invalid JSON: %v", err)
}

// unwrapJSON shortens the decoder's messages for a field of an entry.
func unwrapJSON(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Errorf("%q is a JSON %s, want %s", te.Field, te.Value, te.Type)
	}
	return err
}

// position converts a byte offset into "line L, column C".
func position(data []byte, off int64) string {
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return fmt.Sprintf("line %d, column %d", line, col)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
