package policy

import (
	"github.com/shellguard/shellguard/internal/programs"
	"github.com/shellguard/shellguard/shellparse"
)

// ReadOnlyPrograms lists the commands shellguard allows without an
// approval when they are used read-only (the read_only setting, on by
// default): programs ("ls") and subcommands ("git status"). Each has a
// read-only form in the program data (internal/programs/data): the
// options and operand shapes that would make it write, run another
// program or change the system disqualify it, and so does anything that
// widens what it does (the same rules approvals use).
//
// It returns a new slice on each call.
func ReadOnlyPrograms() []string { return programs.ReadOnlyPrograms() }

// readOnly reports whether inv is read-only by nature.
func readOnly(inv *shellparse.Invocation) bool {
	if inv.Name == "" || len(inv.Wrappers) > 0 || len(inv.Assigns) > 0 || inv.Dynamic() ||
		inv.RunsShellInput || inv.StdinUnknown || inv.Program != inv.Name {
		// A path-qualified program (./ls, /tmp/ls) may be anything.
		return false
	}
	for _, r := range inv.Redirs {
		if r.Writes() && r.Target != "/dev/null" {
			return false
		}
	}
	// Options that write or run may hide behind a glob (a file called
	// "--output=x" in the folder): the program data says which programs
	// a glob disqualifies.
	var buf [16]string
	args := buf[:0]
	glob := false
	for _, a := range inv.Args[1:] {
		args = append(args, a.Value)
		glob = glob || a.Glob
	}
	return programs.IsReadOnly(inv.Name, args, glob)
}
