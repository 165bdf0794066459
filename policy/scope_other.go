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
