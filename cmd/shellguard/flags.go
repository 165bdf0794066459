package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/shellguard/shellguard/policy"
	"github.com/spf13/cobra"
)

// commandLine returns the command line given as words (joined by single
// spaces), or read whole from standard input when the only word is "-";
// its errors are usage errors (exit 2).
func commandLine(s *streams, args []string) (string, error) {
	if len(args) == 0 {
		return "", &exitError{code: exitUsage, err: fmt.Errorf("no command given (pass it after --, or - to read standard input)")}
	}
	if len(args) == 1 && args[0] == "-" {
		b, err := io.ReadAll(io.LimitReader(s.in, maxInput+1))
		if err != nil {
			return "", &exitError{code: exitUsage, err: fmt.Errorf("reading standard input: %w", err)}
		}
		line := string(b)
		// One trailing newline is how lines end, not part of the command.
		line = strings.TrimSuffix(line, "\n")
		return line, nil
	}
	return strings.Join(args, " "), nil
}

// guardFlags are the flags every deciding command shares.
type guardFlags struct {
	config, approvals, cwd string
}

func (f *guardFlags) add(c *cobra.Command, withApprovals bool) {
	c.Flags().StringVar(&f.config, "config", "", "extra configuration file, applied last (default $SHELLGUARD_CONFIG)")
	c.Flags().StringVar(&f.cwd, "cwd", "", "working directory that selects the project configuration (default: current)")
	if withApprovals {
		addApprovalsFlag(c, &f.approvals)
	}
}

// addApprovalsFlag adds --approvals FILE, the approval store, to c.
func addApprovalsFlag(c *cobra.Command, p *string) {
	c.Flags().StringVar(p, "approvals", "", "approval store (default $SHELLGUARD_APPROVALS or ~/.config/shellguard/approvals.json)")
}

// workDir returns --cwd, or else the working directory.
func (f *guardFlags) workDir() string {
	if f.cwd != "" {
		return f.cwd
	}
	cwd, _ := os.Getwd()
	return cwd
}

func (f *guardFlags) load(source string) (*policy.Guard, error) {
	g, err := policy.Load(policy.Options{Cwd: f.cwd, ConfigFile: f.config, ApprovalsFile: f.approvals, Source: source})
	if err != nil {
		return nil, &exitError{code: exitUsage, err: err}
	}
	return g, nil
}

// dryRequest reads the command line from args, loads the guard as the
// CLI (source "cli") and returns the request that decides the line in
// --cwd without leaving a trace (DryRun): what the commands that only
// explain start with.
func (f *guardFlags) dryRequest(s *streams, args []string) (*policy.Guard, policy.Request, error) {
	line, err := commandLine(s, args)
	if err != nil {
		return nil, policy.Request{}, err
	}
	g, err := f.load("cli")
	if err != nil {
		return nil, policy.Request{}, err
	}
	return g, policy.Request{Command: line, Cwd: f.workDir(), DryRun: true}, nil
}

// output writes v to w as JSON when asJSON is set, else as print shows it.
func output[T any](w io.Writer, asJSON bool, v T, print func(io.Writer, T)) error {
	if asJSON {
		return writeJSON(w, v)
	}
	print(w, v)
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Exit codes of decide.
const (
	exitAllow = 0
	exitAsk   = 10
	exitDeny  = 11
)
