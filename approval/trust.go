package approval

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// TrustError says why an approvals file may not grant anything: another
// user could have written it, or could replace it. Path is the file or
// folder at fault.
type TrustError struct {
	// File is the approvals file that was checked.
	File string
	// Path is the file or folder whose owner or mode is wrong (File itself,
	// its folder, or a symbolic link's target or its folder).
	Path string
	// Reason says what is wrong ("is writable by its group and by other users (mode -rw-rw-rw-)").
	Reason string
	// Fix is a shell command that would make Path trustworthy, or "".
	Fix string
}

func (e *TrustError) Error() string {
	msg := fmt.Sprintf("approvals file %s is not trusted: %s %s", e.File, e.Path, e.Reason)
	if e.Path == e.File {
		msg = fmt.Sprintf("approvals file %s is not trusted: it %s", e.File, e.Reason)
	}
	msg += "; none of its approvals are used"
	if e.Fix != "" {
		msg += " (fix: " + e.Fix + ")"
	}
	return msg
}

// CheckTrust reports whether the approvals file at path may grant
// approvals. It returns nil when it may, and a *TrustError (or an error
// from the file system) when it may not.
//
// A file is trusted when both it and the folder that holds it are owned by
// the effective user running shellguard and neither is writable by its
// group or by other users. A root-owned file or folder is trusted only when
// shellguard itself runs as root. The rule is deliberately simple: a shared
// group-writable folder, even with the sticky bit, is not trusted.
// Symbolic links are followed: the folder holding the link, the target and
// the target's folder must all pass. A path that does not exist is trusted
// when its folder is (or does not exist either): there is nothing in it to
// trust, and a file shellguard creates there is private to the user.
func CheckTrust(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("approvals file %s: %w", path, err)
	}
	uid := os.Geteuid()
	if err := checkDir(abs, filepath.Dir(abs), uid); err != nil {
		return err
	}
	fi, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("approvals file %s: %w", abs, err)
	}
	target := abs
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err = resolve(abs)
		if err != nil {
			return fmt.Errorf("approvals file %s: %w", abs, err)
		}
		if err := checkDir(abs, filepath.Dir(target), uid); err != nil {
			return err
		}
		fi, err = os.Stat(target)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // dangling link: nothing to trust yet
		}
		if err != nil {
			return fmt.Errorf("approvals file %s: %w", abs, err)
		}
	}
	return checkInfo(abs, target, fi, uid)
}

// checkInfo checks the owner and mode of one file or folder.
func checkInfo(file, path string, fi fs.FileInfo, uid int) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return &TrustError{File: file, Path: path, Reason: "has an owner shellguard cannot determine on this system"}
	}
	if int(st.Uid) != uid {
		return &TrustError{
			File:   file,
			Path:   path,
			Reason: fmt.Sprintf("is owned by another user (uid %d, shellguard runs as uid %d)", st.Uid, uid),
			Fix:    fmt.Sprintf("chown %d %s", uid, shellQuote(path)),
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
			File:   file,
			Path:   path,
			Reason: fmt.Sprintf("is writable by %s (mode %s)", who, fi.Mode()),
			Fix:    "chmod go-w " + shellQuote(path),
		}
	}
	return nil
}

// checkDir checks the folder that holds file (or a link to it). A folder
// that does not exist yet is fine: shellguard creates it private.
func checkDir(file, dir string, uid int) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("approvals file %s: folder: %w", file, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("approvals file %s: %s is not a folder", file, dir)
	}
	return checkInfo(file, dir, fi, uid)
}

// resolve follows symbolic links in path. A dangling final link resolves
// to its (missing) target.
func resolve(path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	// The file (or a link's target) does not exist: resolve the folder,
	// then follow a dangling final link by hand.
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	}
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, filepath.Base(path))
	for range 40 {
		link, err := os.Readlink(p)
		if err != nil {
			// Not a link (or missing): p is where the file is or will be.
			return p, nil
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		d, err := filepath.EvalSymlinks(filepath.Dir(link))
		if err != nil {
			return "", fmt.Errorf("symbolic link %s points into a missing folder: %w", p, err)
		}
		p = filepath.Join(d, filepath.Base(link))
	}
	return "", fmt.Errorf("too many levels of symbolic links at %s", path)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	for _, r := range s {
		if !(r == '/' || r == '.' || r == '-' || r == '_' || r == '+' || r == ',' || r == ':' || r == '@' ||
			('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')) {
			return "'" + escapeSingle(s) + "'"
		}
	}
	if s == "" {
		return "''"
	}
	return s
}

func escapeSingle(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			out = append(out, `'\''`...)
			continue
		}
		out = append(out, s[i])
	}
	return string(out)
}
