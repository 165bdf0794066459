//go:build !unix

package tui

import (
	"os"
	"os/exec"
)

func setProcessGroup(c *exec.Cmd) {}

// interruptGroup stops c; without process groups it is killed.
func interruptGroup(c *exec.Cmd) error { return killGroup(c) }

// terminateGroup stops c; without process groups it is killed.
func terminateGroup(c *exec.Cmd) error { return killGroup(c) }

// killGroup kills c.
func killGroup(c *exec.Cmd) error {
	if c.Process == nil {
		return os.ErrProcessDone
	}
	return c.Process.Kill()
}
