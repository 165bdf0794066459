package policy

import (
	"github.com/shellguard/shellguard/internal/programs"
	"github.com/shellguard/shellguard/shellparse"
)

// The programs read-only by nature (the read_only setting, on by
// default) are those with a read-only form in the program data
// (internal/programs/data): programs ("ls") and subcommands ("git
// status"), with the options and operand shapes that would make them
// write, run another program or change the system ruled out, and anything
// that widens what they do (the same rules approvals use).

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
