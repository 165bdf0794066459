//go:build unix

package mcpserver

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup makes the shell the leader of a new process group, so
// that everything it starts can be killed together.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// exitStatus returns the exit status, or 128+N for a death by signal N.
func exitStatus(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// fileID identifies the file behind fi: device and inode.
func fileID(fi os.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	}
	return ""
}
