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

// lstatLink reports whether p exists (as far as lstat can see) and
// whether it is a symbolic link. It asks the system directly: os.Lstat
// allocates a FileInfo, which every element of every path a read-only
// line names would pay for.
func lstatLink(p string) (exists, link bool) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(p, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return false, false
		}
		return true, st.Mode&syscall.S_IFMT == syscall.S_IFLNK
	}
}
