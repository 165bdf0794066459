//go:build unix && !linux

package mcpserver

import (
	"os"
	"os/exec"
	"syscall"
)

// killProcessGroup kills the shell's whole process group with SIGKILL.
func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if err != nil {
		// The group may be gone already; make sure the shell is.
		if kerr := cmd.Process.Kill(); kerr != nil && kerr != os.ErrProcessDone {
			return kerr
		}
	}
	return nil
}
