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
func interruptGroup(c *exec.Cmd) error {
	if c.Process == nil {
		return os.ErrProcessDone
	}
	if err := syscall.Kill(-c.Process.Pid, syscall.SIGINT); err != nil {
		return c.Process.Signal(os.Interrupt)
	}
	return nil
}
