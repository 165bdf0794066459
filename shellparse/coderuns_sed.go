package shellparse

import (
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
)

// sedCode records the commands a GNU sed script runs: the e command runs
// its argument (to the end of the line) or, alone, the pattern space; the
// e flag of s runs the pattern space after the substitution, whose shape
// the replacement gives (& and \1 stand for the text matched, known only
// at run time). A script the reader cannot follow is one sed rejects
// before it runs anything: nothing is recorded.
func sedCode(s string, f *foundCode) {
	if strings.IndexByte(s, 'e') < 0 {
		return // neither the e command nor the e flag
	}
	programs.SedScript(s, func(c programs.SedCommand) bool {
		switch c.Name {
		case 'e':
			if cmd := strings.TrimLeft(c.Arg, " \t"); strings.TrimSpace(cmd) == "" {
				f.unknown("e")
			} else {
				f.shell("e", cmd)
			}
		case 's':
			for range strings.Count(c.Flags, "e") {
				f.dynShell("s///e", sedReplacement(c.Repl))
			}
		}
		return true
	})
}

// sedReplacement renders the replacement of s///e as the command it makes:
// & and \N become dynPlaceholder, escapes are resolved.
func sedReplacement(repl string) string {
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		switch {
		case c == '&':
			b.WriteString(dynPlaceholder)
		case c == '\\' && i+1 < len(repl):
			i++
			switch e := repl[i]; {
			case e >= '0' && e <= '9':
				b.WriteString(dynPlaceholder)
			case e == 'n':
				b.WriteByte('\n')
			case e == 't':
				b.WriteByte('\t')
			case e == 'L', e == 'U', e == 'l', e == 'u', e == 'E':
				// Case conversion: the text stays the same command.
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
