package approval

import (
	"os"

	"github.com/shellguard/shellguard/internal/safefile"
)

// TrustError says why an approvals file may not grant anything: another
// user could have written it, or could replace it. Path is the file or
// folder at fault. The audit log is checked by the same rules (the type
// is shared with it).
type TrustError = safefile.TrustError

// What an untrusted store's messages call it and say about it.
const (
	trustWhat   = "approvals file"
	trustEffect = "none of its approvals are used"
)

// CheckTrust reports whether the approvals file at path may grant
// approvals. It returns nil when it may, and a *TrustError (or an error
// from the file system) when it may not.
//
// A file is trusted when both it and the folder that holds it are owned by
// the effective user running shellguard and neither is writable by its
// group or by other users. A root-owned file or folder is trusted only when
// shellguard itself runs as root. The rule is deliberately simple: a shared
// group-writable folder, even with the sticky bit, is not trusted.
// Symbolic links are followed: the folder holding each link, the target
// and the target's folder must all pass. A path that does not exist is
// trusted when its folder is (or does not exist either): there is nothing
// in it to trust, and a file shellguard creates there is private to the
// user.
func CheckTrust(path string) error {
	t, err := safefile.Resolve(path)
	if err != nil {
		return &FileError{Path: t.Abs, Kind: Unreadable, Err: err}
	}
	return t.Trust(trustWhat, trustEffect, os.Geteuid())
}
