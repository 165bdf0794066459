package hook

import (
	"bytes"
	"encoding/binary"
	"errors"

	"golang.org/x/sys/unix"
)

// readProcess reads process pid with sysctl: kern.proc.pid for its parent
// and kern.procargs2 for its command line (argc, the executable path, then
// argc NUL-terminated arguments). Whether its streams are terminals is
// not told.
func readProcess(pid int) (Process, error) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return Process{}, err
	}
	raw, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return Process{}, err
	}
	if len(raw) < 4 {
		return Process{}, errors.New("short procargs2")
	}
	argc := int(binary.LittleEndian.Uint32(raw[:4]))
	rest := raw[4:]
	// Skip the executable path and the NULs that pad it.
	i := bytes.IndexByte(rest, 0)
	if i < 0 {
		return Process{}, errors.New("malformed procargs2")
	}
	rest = rest[i:]
	for len(rest) > 0 && rest[0] == 0 {
		rest = rest[1:]
	}
	var argv []string
	for len(argv) < argc && len(rest) > 0 {
		j := bytes.IndexByte(rest, 0)
		if j < 0 {
			j = len(rest)
		}
		argv = append(argv, string(rest[:j]))
		if j == len(rest) {
			break
		}
		rest = rest[j+1:]
	}
	return Process{PPID: int(kp.Eproc.Ppid), Argv: argv}, nil
}
