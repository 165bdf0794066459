//go:build !linux

package mcpserver

import (
	"os"
	"os/exec"
)

// RunVar is the variable that marks every process a command starts (on
// Linux only; elsewhere it is not set).
const RunVar = "SHELLGUARD_MCP_RUN"

// procTable tracks nothing beyond process groups outside Linux: there is
// no child subreaper to keep a command's processes in the server's tree.
type procTable struct{}

func newProcTable(bool) *procTable { return &procTable{} }

type job struct{}

func (*procTable) newJob(*os.File) (*job, error)     { return &job{}, nil }
func (*job) env(env []string) []string               { return env }
func (*procTable) start(cmd *exec.Cmd, _ *job) error { return cmd.Start() }
func (*procTable) finish(*job)                       {}
func (*job) kill(cmd *exec.Cmd) error                { return killProcessGroup(cmd) }
func (*procTable) killAll()                          {}
