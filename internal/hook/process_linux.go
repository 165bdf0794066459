package hook

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
)

// readProcess reads process pid from /proc: its parent (from stat, after
// the command name in parentheses, which may itself hold spaces and
// parentheses), its command line, and whether its standard input and
// output are terminals.
func readProcess(pid int) (Process, error) {
	dir := "/proc/" + strconv.Itoa(pid)
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return Process{}, err
	}
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 {
		return Process{}, errors.New("malformed stat")
	}
	f := strings.Fields(string(stat[end+1:]))
	if len(f) < 2 {
		return Process{}, errors.New("malformed stat")
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return Process{}, err
	}
	cmdline, err := os.ReadFile(dir + "/cmdline")
	if err != nil {
		return Process{}, err
	}
	p := Process{PPID: ppid, Argv: strings.Split(strings.TrimSuffix(string(cmdline), "\x00"), "\x00")}
	for fd, dst := range map[string]**bool{"0": &p.StdinTTY, "1": &p.StdoutTTY} {
		if target, err := os.Readlink(dir + "/fd/" + fd); err == nil {
			tty := strings.HasPrefix(target, "/dev/pts/") || strings.HasPrefix(target, "/dev/tty")
			*dst = &tty
		}
	}
	return p, nil
}
