package approval

import (
	"github.com/shellguard/shellguard/internal/programs"
	"github.com/shellguard/shellguard/shellparse"
)

// widening returns the first option, operand or environment assignment of
// inv that changes what runs or where data goes, and why; ("", "") when
// there is none. Such an invocation never rides on a prefix approval: the
// person who approved "git log *" did not approve "git -c core.pager=sh
// log".
//
// The rules are program facts (internal/programs/data: each program's
// widen rules, interpreters' code options, and named extractors for sed
// scripts, awk programs, docker, trap and export); environment assignments
// are checked for every program, and the options of each peeled wrapper
// (sudo -E, env -S, strace -o) by the wrapper's own rules.
func widening(inv *shellparse.Invocation) (flag, why string) {
	for _, a := range inv.Assigns {
		if programs.EnvWidens(a.Name) {
			return a.Name, "sets an environment variable that changes what programs run or load"
		}
	}
	for _, w := range inv.Wrappers {
		if f, y := programs.Widening(w.Name, w.Args); f != "" {
			return f, y
		}
	}
	if len(inv.Args) == 0 {
		return "", ""
	}
	// argv's values, on the stack for short lines (nothing keeps them).
	var buf [16]string
	argv := buf[:0]
	if len(inv.Args) > len(buf) {
		argv = make([]string, 0, len(inv.Args))
	}
	for _, a := range inv.Args {
		argv = append(argv, a.Value)
	}
	return programs.Widening(inv.Name, argv[1:])
}
