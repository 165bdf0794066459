package programs

import (
	"sort"
	"strings"
)

// ReadOnlyPrograms lists the commands with a read-only form ("ls", "git
// status", ...), sorted. It returns a new slice on each call.
func ReadOnlyPrograms() []string {
	var out []string
	for i := range nPrograms {
		p := program(i)
		if p.Root.ReadOnly != nil && len(p.Root.ReadOnly.Globals) == 0 {
			out = append(out, p.Name)
		}
		for k := range p.Subs {
			if p.Subs[k].ReadOnly != nil {
				out = append(out, p.Name+" "+p.Subs[k].Path)
			}
		}
	}
	sort.Strings(out)
	return out
}

// IsReadOnly reports whether the program called name, given args (the
// words after it), is in its read-only form: it only reads and prints,
// runs nothing else and changes nothing. glob reports an unquoted pattern
// among args. The invocation's own shape (wrappers, assignments,
// redirections, dynamic words) is the caller's to check.
func IsReadOnly(name string, args []string, glob bool) bool {
	p := lookup(name)
	if p == nil {
		return false
	}
	ro := p.Root.ReadOnly
	if ro == nil {
		return false
	}
	if len(ro.Globals) > 0 {
		// Only subcommands are read-only: the options before them must
		// be among the allowed globals.
		i := 0
		for i < len(args) && strings.HasPrefix(args[i], "-") {
			if !ro.Globals.Has(args[i]) {
				return false
			}
			i++
		}
		if i >= len(args) {
			return false
		}
		n := p.Node(args[i])
		if n == nil || n.ReadOnly == nil {
			return false
		}
		return roCheck(n.ReadOnly, args[i+1:], glob) && !widens(name, args)
	}
	return roCheck(ro, args, glob) && !widens(name, args)
}

// widens reports options or operands that make the program run or load
// code (Widening). It is the costliest test, so it runs last.
func widens(name string, args []string) bool {
	f, _ := Widening(name, args)
	return f != ""
}

func roCheck(ro *ReadOnly, args []string, glob bool) bool {
	if ro.NoGlob && glob {
		return false
	}
	if ro.NoArgs && len(args) > 0 {
		return false
	}
	if ro.MaxOperands >= 0 && operands(args) > ro.MaxOperands {
		return false
	}
	if hasFlag(args, ro.Deny) {
		return false
	}
	if ro.Only != "" {
		for _, a := range args {
			if !allowed(a, ro.Only) {
				return false
			}
		}
	}
	switch ro.Extract {
	case "date":
		return dateReadOnly(args)
	}
	return true
}

// hasFlag reports whether args hold one of flags: as written, as
// --flag=value, as an abbreviation of a long flag (GNU getopt accepts any
// unambiguous prefix: --se for --set; every prefix counts), or a short
// flag inside a cluster (-o in -so).
func hasFlag(args []string, flags List) bool {
	for _, v := range args {
		hit := flags.Each(func(f string) bool {
			if v == f || strings.HasPrefix(f, "--") && len(v) > len(f) && strings.HasPrefix(v, f) && v[len(f)] == '=' {
				return true
			}
			if name, _, _ := strings.Cut(v, "="); strings.HasPrefix(f, "--") && len(name) > 2 && strings.HasPrefix(name, "--") && strings.HasPrefix(f, name) {
				return true
			}
			return len(f) == 2 && f[0] == '-' && f[1] != '-' && len(v) > 2 && v[0] == '-' && v[1] != '-' && strings.IndexByte(v[1:], f[1]) >= 0
		})
		if hit {
			return true
		}
	}
	return false
}

// allowed reports a word among only ("--sort" allows "--sort=x").
func allowed(a string, only List) bool {
	return only.Each(func(o string) bool {
		return a == o || strings.HasPrefix(o, "--") && len(a) > len(o) && strings.HasPrefix(a, o) && a[len(o)] == '='
	})
}

func operands(args []string) int {
	n := 0
	end := false
	for _, a := range args {
		if !end && a == "--" {
			end = true
			continue
		}
		if end || !strings.HasPrefix(a, "-") {
			n++
		}
	}
	return n
}

// dateReadOnly: an operand other than +FORMAT sets the clock (date
// MMDDhhmm), and so do -s and --set.
func dateReadOnly(args []string) bool {
	for i := 0; i < len(args); i++ {
		v := args[i]
		switch {
		case v == "-d" || v == "-r" || v == "-f":
			i++ // the value of --date, --reference, --file
		case strings.HasPrefix(v, "-"), strings.HasPrefix(v, "+"):
		default:
			return false
		}
	}
	return !hasFlag(args, "-s\x00--set")
}
