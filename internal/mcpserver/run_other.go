//go:build !unix

package mcpserver

import (
	"os"
	"os/exec"
)

func setProcessGroup(*exec.Cmd) {}

func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

func exitStatus(ps *os.ProcessState) int { return ps.ExitCode() }

func fileID(os.FileInfo) string { return "" }
