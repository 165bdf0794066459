//go:build unix

package tui

import (
	"os"
	"os/exec"
	"syscall"
)

func setProcessGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// interruptGroup sends SIGINT to the process group of c.
func interruptGroup(c *exec.Cmd) error { return signalGroup(c, syscall.SIGINT) }

// terminateGroup sends SIGTERM to the process group of c.
func terminateGroup(c *exec.Cmd) error { return signalGroup(c, syscall.SIGTERM) }

// killGroup sends SIGKILL to the process group of c.
func killGroup(c *exec.Cmd) error { return signalGroup(c, syscall.SIGKILL) }

// signalGroup sends sig to the process group of c (c leads it, see
// setProcessGroup), or to c alone when the group is gone.
func signalGroup(c *exec.Cmd, sig syscall.Signal) error {
	if c.Process == nil {
		return os.ErrProcessDone
	}
	if err := syscall.Kill(-c.Process.Pid, sig); err != nil {
		return c.Process.Signal(sig)
	}
	return nil
}
