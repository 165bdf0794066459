package danger

import (
	"strings"

	"github.com/shellguard/shellguard/internal/shquote"
)

// movedTreeCommand returns the command line a delete amounts to when an
// earlier mv of the line moved something to what it deletes (mv "$PWD"
// /tmp/x && rm -rf /tmp/x deletes the project): the delete with the moved
// paths in place of its target, checked as a command of its own; "" when
// there is none. A delete of the destination or of a folder holding it
// counts; mv -t (the destination as an option) is not read.
func movedTreeCommand(sc *scan, i int) string {
	switch sc.name(i) {
	case "rm", "shred", "unlink", "rmdir", "srm":
	default:
		return ""
	}
	args := sc.args(i)
	if len(args) < 2 {
		return ""
	}
	for j := i - 1; j >= 0; j-- {
		if sc.name(j) != "mv" || sc.res.Invocations[j].NotRun {
			continue
		}
		m := sc.argv(j)
		if len(m.pos) < 2 || m.hasFlag("-t") || m.hasFlag("--target-directory") {
			continue
		}
		dst := m.pos[len(m.pos)-1]
		srcs := m.pos[:len(m.pos)-1]
		var b strings.Builder
		replaced := false
		b.WriteString(args[0].Raw)
		for _, a := range args[1:] {
			b.WriteByte(' ')
			if t := cleanOperand(a.Value); !a.Dynamic && !strings.HasPrefix(t, "-") && (t == dst || strings.HasPrefix(dst, strings.TrimSuffix(t, "/")+"/")) {
				for k, s := range srcs {
					if k > 0 {
						b.WriteByte(' ')
					}
					b.WriteString(shquote.Path(s)) // a dynamic shape ($PWD) expands
				}
				replaced = true
				continue
			}
			b.WriteString(a.Raw)
		}
		if replaced {
			return b.String()
		}
	}
	return ""
}
