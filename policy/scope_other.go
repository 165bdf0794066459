//go:build !unix

package policy

import (
	"errors"
	"os"
)

// openDir opens dir for listing only if it is a folder.
func openDir(dir string) (*os.File, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, errors.New("not a folder")
	}
	return os.Open(dir)
}

// lstatLink reports whether p exists (as far as lstat can see) and
// whether it is a symbolic link.
func lstatLink(p string) (exists, link bool) {
	fi, err := os.Lstat(p)
	if err != nil {
		return false, false
	}
	return true, fi.Mode()&os.ModeSymlink != 0
}
