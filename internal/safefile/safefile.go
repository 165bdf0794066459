package safefile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/shellguard/shellguard/internal/shquote"
)

// maxLinks bounds the symbolic links Resolve follows.
const maxLinks = 40

// TrustError says why a file may not be trusted: another user could have
// written it, or could replace it. Path is the file or folder at fault.
type TrustError struct {
	// What names the kind of file ("approvals file", "audit log").
	What string
	// File is the file that was checked.
	File string
	// Path is the file or folder whose owner or mode is wrong (File itself,
	// its folder, or a symbolic link's target or its folder).
	Path string
	// Reason says what is wrong ("is writable by its group and by other users (mode -rw-rw-rw-)").
	Reason string
	// Fix is a shell command that would make Path trustworthy, or "".
	Fix string
	// Effect says what shellguard does about it ("none of its approvals
	// are used"), or "".
	Effect string
}

func (e *TrustError) Error() string {
	what := e.What
	if what == "" {
		what = "file"
	}
	msg := fmt.Sprintf("%s %s is not trusted: %s %s", what, e.File, e.Path, e.Reason)
	if e.Path == e.File {
		msg = fmt.Sprintf("%s %s is not trusted: it %s", what, e.File, e.Reason)
	}
	if e.Effect != "" {
		msg += "; " + e.Effect
	}
	if e.Fix != "" {
		msg += " (fix: " + e.Fix + ")"
	}
	return msg
}

// Target is a path with its symbolic links followed.
type Target struct {
	// Abs is the path as given, made absolute.
	Abs string
	// Real is where the file is (or would be created): every symbolic
	// link followed, folders included.
	Real string
	// Links are the symbolic links followed from Abs to Real, in order
	// (their folders resolved); empty when Abs itself is no link.
	Links []string
	// Info is what lstat says of Real; nil when Real does not exist.
	Info fs.FileInfo
}

// Linked reports whether Abs is a symbolic link.
func (t Target) Linked() bool { return len(t.Links) > 0 }

// Dangling reports whether Abs is a symbolic link to nothing.
func (t Target) Dangling() bool { return t.Linked() && t.Info == nil }

// Dirs returns the folders whose trust matters: the one holding each
// link, and the one holding Real, without repeats.
func (t Target) Dirs() []string {
	out := make([]string, 0, len(t.Links)+1)
	add := func(d string) {
		for _, x := range out {
			if x == d {
				return
			}
		}
		out = append(out, d)
	}
	for _, l := range t.Links {
		add(filepath.Dir(l))
	}
	add(filepath.Dir(t.Real))
	return out
}

// Resolve follows the symbolic links of path (in its folders and in its
// last component). A missing file, or a link to a missing file, is not an
// error: Info is then nil. A missing folder resolves to itself.
func Resolve(path string) (Target, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Target{}, err
	}
	t := Target{Abs: abs}
	p := abs
	for range maxLinks {
		dir, err := filepath.EvalSymlinks(filepath.Dir(p))
		if errors.Is(err, fs.ErrNotExist) {
			t.Real = p
			return t, nil
		}
		if err != nil {
			return t, err
		}
		p = filepath.Join(dir, filepath.Base(p))
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			t.Real = p
			return t, nil
		}
		if err != nil {
			return t, err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			t.Real, t.Info = p, fi
			return t, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return t, err
		}
		t.Links = append(t.Links, p)
		if !filepath.IsAbs(link) {
			link = filepath.Join(dir, link)
		}
		p = filepath.Clean(link)
	}
	return t, fmt.Errorf("too many levels of symbolic links at %s", abs)
}

// Trust checks the folders of t (see Dirs) and, when it exists, the file:
// each must belong to uid and be writable by no one else. what names the
// kind of file in messages; effect says what shellguard does about an
// untrusted one.
func (t Target) Trust(what, effect string, uid int) error {
	for _, d := range t.Dirs() {
		if err := CheckDir(what, effect, t.Abs, d, uid); err != nil {
			return err
		}
	}
	if t.Info == nil {
		return nil
	}
	return CheckInfo(what, effect, t.Abs, t.Real, t.Info, uid)
}

// CheckInfo checks the owner and mode of one file or folder: owned by uid
// (root only when uid is root), not writable by its group or by others.
func CheckInfo(what, effect, file, path string, fi fs.FileInfo, uid int) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return &TrustError{What: what, Effect: effect, File: file, Path: path, Reason: "has an owner shellguard cannot determine on this system"}
	}
	if int(st.Uid) != uid {
		return &TrustError{
			What:   what,
			Effect: effect,
			File:   file,
			Path:   path,
			Reason: fmt.Sprintf("is owned by another user (uid %d, shellguard runs as uid %d)", st.Uid, uid),
			Fix:    fmt.Sprintf("chown %d %s", uid, shquote.Quote(path)),
		}
	}
	perm := fi.Mode().Perm()
	if perm&0o022 != 0 {
		who := "other users"
		switch {
		case perm&0o020 != 0 && perm&0o002 != 0:
			who = "its group and by other users"
		case perm&0o020 != 0:
			who = "its group"
		}
		return &TrustError{
			What:   what,
			Effect: effect,
			File:   file,
			Path:   path,
			Reason: fmt.Sprintf("is writable by %s (mode %s)", who, fi.Mode()),
			Fix:    "chmod go-w " + shquote.Quote(path),
		}
	}
	return nil
}

// CheckDir checks the folder dir that holds file (or a link to it). A
// folder that does not exist yet passes: shellguard creates it private.
func CheckDir(what, effect, file, dir string, uid int) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s %s: folder: %w", what, file, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s %s: %s is not a folder", what, file, dir)
	}
	return CheckInfo(what, effect, file, dir, fi, uid)
}

// NotRegularError is returned by Open for anything but a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	if e.Mode&fs.ModeSymlink != 0 {
		return "a symbolic link appeared in its place"
	}
	return fmt.Sprintf("not a regular file (%s)", e.Mode.Type())
}

// Open opens the file at real (a path whose last component is no
// symbolic link, see Resolve) with flag, and returns it only if it is a
// regular file. It never follows a symbolic link in the last component
// (O_NOFOLLOW: a link swapped in after the checks fails) and never blocks
// (O_NONBLOCK: a FIFO or a device in its place is refused at once).
func Open(real string, flag int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(real, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, perm)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, nil, &NotRegularError{Path: real, Mode: fs.ModeSymlink}
		}
		if errors.Is(err, syscall.ENXIO) {
			// Opened for writing, non-blocking, with no reader: a FIFO.
			return nil, nil, &NotRegularError{Path: real, Mode: fs.ModeNamedPipe}
		}
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Path: real, Mode: fi.Mode()}
	}
	return f, fi, nil
}

// LockPath returns the lock file shellguard uses for the file at real:
// ".<name>.shellguard-lock" in the same folder.
func LockPath(real string) string {
	return filepath.Join(filepath.Dir(real), "."+filepath.Base(real)+".shellguard-lock")
}

// Lock takes an exclusive lock (flock) on the lock file of real (see
// LockPath), creating it with mode 0600, and returns the function that
// releases it. The lock file must be a regular file that passes CheckInfo
// (a symbolic link, a FIFO or another user's file there is refused). It
// waits for other holders until ctx is done or wait has passed.
func Lock(ctx context.Context, wait time.Duration, what, file, real string, uid int) (unlock func(), err error) {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	path := LockPath(real)
	f, fi, err := Open(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("%s %s: lock file %s: %w", what, file, path, err)
	}
	if err := CheckInfo(what, "shellguard does not use it", file, path, fi, uid); err != nil {
		f.Close()
		return nil, err
	}
	fd := int(f.Fd())
	for {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				_ = syscall.Flock(fd, syscall.LOCK_UN)
				f.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("%s %s: cannot lock %s: %w", what, file, path, err)
		}
		wait := time.NewTimer(2 * time.Millisecond)
		select {
		case <-ctx.Done():
			wait.Stop()
			f.Close()
			return nil, fmt.Errorf("%s %s: another process held the lock %s for too long (%w)", what, file, path, context.Cause(ctx))
		case <-wait.C:
		}
	}
}

// CheckLock reports whether Lock could use the lock file of real, without
// creating or locking it: nil when it is missing or a regular file that
// passes CheckInfo.
func CheckLock(what, file, real string, uid int) error {
	path := LockPath(real)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	f, fi, err := Open(path, os.O_RDONLY, 0)
	if err != nil {
		return fmt.Errorf("%s %s: lock file %s: %w", what, file, path, err)
	}
	f.Close()
	return CheckInfo(what, "shellguard does not use it", file, path, fi, uid)
}
