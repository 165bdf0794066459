package approval

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/shellguard/shellguard/internal/safefile"
)

// probe is one file or folder whose state a Snapshot depends on, with
// what stat said of it when the snapshot was taken.
type probe struct {
	path   string
	follow bool // stat (follow links) rather than lstat
	state  fileState
}

// fileState is what a probe compares: which file is there, its size and
// time, and everything the trust checks read (type, mode, owner).
type fileState struct {
	missing        bool
	dev, ino       uint64
	size, mtime    int64
	mode           fs.FileMode
	uid, gid       uint32
	unknownOwner   bool
	otherStatError bool
}

func statOf(path string, follow bool) fileState {
	var fi fs.FileInfo
	var err error
	if follow {
		fi, err = os.Stat(path)
	} else {
		fi, err = os.Lstat(path)
	}
	if err != nil {
		return fileState{missing: true, otherStatError: !os.IsNotExist(err)}
	}
	st := fileState{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.dev, st.ino, st.uid, st.gid = uint64(sys.Dev), uint64(sys.Ino), sys.Uid, sys.Gid
	} else {
		st.unknownOwner = true
	}
	return st
}

// probesFor lists what Load's answer for t depends on: the path itself
// and each symbolic link on the way (lstat: a link re-pointed), the
// folder holding the path as written (stat: a folder link re-pointed),
// the file, and each folder the trust checks read (their owner and mode).
func probesFor(t safefile.Target) []probe {
	var out []probe
	add := func(path string, follow bool) {
		for _, p := range out {
			if p.path == path && p.follow == follow {
				return
			}
		}
		out = append(out, probe{path: path, follow: follow, state: statOf(path, follow)})
	}
	add(t.Abs, false)
	add(filepath.Dir(t.Abs), true)
	for _, l := range t.Links {
		add(l, false)
	}
	if t.Real != "" {
		add(t.Real, false)
		for _, d := range t.Dirs() {
			add(d, true)
		}
	}
	return out
}

// Fresh reports whether sn, which Load returned, still describes the
// store: neither the file nor any symbolic link on its way was replaced
// or changed, and the owner and mode of the file and of every folder the
// trust checks read are as they were (a folder made writable by others, a
// file given to another user). It costs a few stat calls, so a process
// that keeps a store open (an MCP server, a TUI) can call it before every
// use and Load again only when it reports false.
func (s *Store) Fresh(sn *Snapshot) bool {
	if sn == nil || len(sn.probes) == 0 || sn.Path != s.path {
		return false
	}
	for _, p := range sn.probes {
		if statOf(p.path, p.follow) != p.state || p.state.otherStatError {
			return false
		}
	}
	return true
}
