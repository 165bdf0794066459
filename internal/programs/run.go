package programs

import "strings"

// RunTarget finds the program a runner runs (npx rimraf ~, pnpm dlx
// prisma generate, uvx --from X tool): the index in args (the words after
// the runner) of the word that names it, and its name as a program
// (without a version, a package scope or a "npm:" prefix: "rimraf@5" is
// rimraf, "@scope/tool" is tool). ok is false when p runs no program here:
// it is not a runner, the node it reached has no Run, or no operand names
// a program.
func RunTarget(p *Program, args []string, dyn []bool) (k int, name string, ok bool) {
	if !p.Has(Runs) {
		return 0, "", false
	}
	s := NewScanner(p, args, dyn, "")
	skip := -1
	var run *Run
	for {
		it, more := s.Next()
		if !more {
			return 0, "", false
		}
		if it.Kind != Operand || it.Sub {
			continue
		}
		if run == nil {
			// The first operand after the subcommand words: the node
			// they reached must run programs.
			n := p.Node(s.Path())
			if n == nil || n.Run == nil || n.Run.DashDash {
				return 0, "", false
			}
			run, skip = n.Run, n.Run.Skip
		}
		if it.Dynamic {
			return 0, "", false
		}
		if skip > 0 {
			skip--
			continue
		}
		v := it.Value
		if run.Prefix != "" {
			if !strings.HasPrefix(v, run.Prefix) {
				return 0, "", false
			}
			v = v[len(run.Prefix):]
		}
		if run.Versioned && strings.LastIndexByte(v, '@') <= 0 {
			return 0, "", false
		}
		n := RunName(v)
		if n == "" {
			return 0, "", false
		}
		return it.Word, n, true
	}
}

// DashDashArgs returns the index after the "--" of a runner that builds
// the program it runs (cargo run -- ARGS), or -1.
func DashDashArgs(p *Program, args []string, dyn []bool) int {
	if !p.Has(Runs) {
		return -1
	}
	s := NewScanner(p, args, dyn, "")
	for {
		it, more := s.Next()
		if !more {
			return -1
		}
		if it.Kind == EndOfOptions {
			if n := p.Node(s.Path()); n != nil && n.Run != nil && n.Run.DashDash {
				return it.Word + 1
			}
			return -1
		}
	}
}

// RunName returns the program name a runner's operand stands for: the
// last path element, without a version (@1.2, ==1.2) or a package scope.
func RunName(v string) string {
	if at := strings.LastIndexByte(v, '@'); at > 0 {
		v = v[:at]
	}
	if eq := strings.Index(v, "=="); eq > 0 {
		v = v[:eq]
	}
	if sl := strings.LastIndexByte(v, '/'); sl >= 0 {
		v = v[sl+1:]
	}
	return v
}

// RunShell returns the values of the options whose value is a shell
// command line the runner runs (npx -c 'CMD', npm exec --call 'CMD').
func RunShell(p *Program, args []string, dyn []bool) []string {
	if !p.Has(Runs) {
		return nil
	}
	s := NewScanner(p, args, dyn, "")
	var out []string
	for {
		it, more := s.Next()
		if !more {
			return out
		}
		if it.Kind != Option || !it.HasValue {
			continue
		}
		var r *Run
		p.along(s.Path(), func(n *Node) bool {
			if n.Run != nil && p.hasOpt(n.Run.Shell, it.Name) {
				r = n.Run
				return true
			}
			return false
		})
		if r != nil {
			out = append(out, it.Value)
		}
	}
}
