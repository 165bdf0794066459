package programs

import "strings"

// SedCommand is one command of a GNU sed script, as SedScript reads it.
type SedCommand struct {
	// Name is the command's letter: 'e', 's', 'w', 'a', 'b', '=', ...
	Name byte
	// Arg is the rest of the command: e's command line, the file of r, R,
	// w and W (and of s's w flag), the label of :, b, t, T and v, the text
	// of a, i and c (the lines a\ continues included).
	Arg string
	// Repl is the replacement of s, as written.
	Repl string
	// Flags are the flags of s, in order, up to and including a w flag
	// (whose file is Arg).
	Flags string
}

// SedScript reads the GNU sed script s and calls visit with each command,
// in order, while visit returns true. It reports false when it cannot read
// the script (an unknown command, an unterminated regex or s command):
// such a script is one sed rejects before it runs anything, and one a
// caller cannot vouch for.
func SedScript(s string, visit func(SedCommand) bool) bool {
	i, n := 0, len(s)
	// skipDelim skips past the next unescaped delim and reports whether
	// there was one on this line.
	skipDelim := func(delim byte) bool {
		for i < n {
			c := s[i]
			i++
			if c == '\\' {
				i++
				continue
			}
			if c == delim {
				return true
			}
			if c == '\n' && delim != '\n' {
				return false
			}
		}
		return false
	}
	// toEOL returns the text up to the end of the line and moves past it.
	toEOL := func() string {
		start := i
		for i < n && s[i] != '\n' {
			i++
		}
		return s[start:i]
	}
	// regexFlags skips the I and M flags of an address.
	regexFlags := func() {
		for i < n && (s[i] == 'I' || s[i] == 'M') {
			i++
		}
	}
	for guard := 0; i < n && guard <= n; guard++ {
		c := s[i]
		// Separators, blanks, blocks, negation, addresses and comments.
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '{' || c == '}' || c == '!' || c == ',' ||
			c == '$' || c == '~' || c == '+' || c >= '0' && c <= '9':
			i++
			continue
		case c == '/':
			i++
			if !skipDelim('/') {
				return false
			}
			regexFlags()
			continue
		case c == '\\':
			if i+1 >= n {
				return false
			}
			d := s[i+1]
			i += 2
			if !skipDelim(d) {
				return false
			}
			regexFlags()
			continue
		case c == '#':
			toEOL()
			continue
		}
		i++
		cmd := SedCommand{Name: c}
		switch c {
		case 'e', 'r', 'R', 'w', 'W':
			cmd.Arg = toEOL()
		case 'a', 'i', 'c':
			// Text to the end of the line; a\ continues on the lines
			// after, each ending in a backslash but the last.
			start := i
			for i < n {
				line := toEOL()
				if !strings.HasSuffix(line, "\\") || strings.HasSuffix(line, "\\\\") || i >= n {
					break
				}
				i++
			}
			cmd.Arg = s[start:i]
		case ':', 'b', 't', 'T', 'v':
			// A label ends at a newline, ';' or '}' (GNU sed).
			start := i
			for i < n && s[i] != '\n' && s[i] != ';' && s[i] != '}' {
				i++
			}
			cmd.Arg = s[start:i]
		case 'q', 'Q', 'l', 'L':
			for i < n && (s[i] == ' ' || s[i] >= '0' && s[i] <= '9') {
				i++
			}
		case 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F', '=':
		case 'y', 's':
			// y/source/replacement/ and s/regex/replacement/flags.
			if i >= n || s[i] == '\n' || s[i] == '\\' {
				return false
			}
			d := s[i]
			i++
			if !skipDelim(d) {
				return false
			}
			start := i
			if !skipDelim(d) {
				return false
			}
			if c == 'y' {
				break
			}
			cmd.Repl = s[start : i-1]
			start = i
			for i < n {
				f := s[i]
				if f == 'e' || f == 'g' || f == 'p' || f == 'i' || f == 'I' || f == 'm' || f == 'M' || f >= '0' && f <= '9' {
					i++
					continue
				}
				if f == 'w' {
					i++
					cmd.Flags = s[start:i]
					cmd.Arg = toEOL()
				}
				break
			}
			if cmd.Flags == "" {
				cmd.Flags = s[start:i]
			}
		default:
			return false
		}
		if !visit(cmd) {
			return true
		}
	}
	return true
}
