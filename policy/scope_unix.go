//go:build unix

package policy

import (
	"os"
	"syscall"
)

// openDir opens dir for listing only if it is a folder: a FIFO, a terminal
// or a device is never opened (opening one may block or act).
func openDir(dir string) (*os.File, error) {
	return os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
}
