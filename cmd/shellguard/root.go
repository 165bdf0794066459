package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// Exit codes shared by every command. Commands that answer a question with
// their exit code (check, decide) document their own codes as well.
const (
	exitOK    = 0
	exitUsage = 2 // usage or internal error
)

// exitError carries an exit code out of a cobra RunE.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

// exitCode returns an error that makes run return code without printing
// anything more.
func exitCode(code int) error { return &exitError{code: code} }

// streams are the standard streams a command uses; tests pass buffers.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

func newRootCmd(s *streams) *cobra.Command {
	root := &cobra.Command{
		Use:           "shellguard",
		Short:         "Check shell commands before they run: danger, approvals, allow/ask/deny",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(s.in)
	root.SetOut(s.out)
	root.SetErr(s.err)
	root.AddCommand(
		newCheckCmd(s),
		newExplainCmd(s),
		newDecideCmd(s),
		newClassifyCmd(s),
		newAllowCmd(s),
		newAllowOnceCmd(s, "allow-once"),
		newLogCmd(s),
		newStatsCmd(s),
		newSuggestCmd(s),
		newModeCmd(s),
		newConfigCmd(s),
		newHookCmd(s),
		newInstallCmd(s),
		newUninstallCmd(s),
		newDoctorCmd(s),
		newShellCmd(s),
		newInitCmd(s),
		newMCPCmd(s),
		newRulesCmd(s),
	)
	return root
}

// run executes the CLI and returns the process exit code.
func run(args []string, in io.Reader, out, errw io.Writer) int {
	s := &streams{in: in, out: out, err: errw}
	root := newRootCmd(s)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(errw, "shellguard:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(errw, "shellguard:", err)
	return exitUsage
}
