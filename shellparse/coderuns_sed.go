package shellparse

import "strings"

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
	i, n := 0, len(s)
	// skipDelim skips past the next unescaped delim and reports whether
	// there was one.
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
	for guard := 0; i < n && guard <= n; guard++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '{' || c == '}' || c == '!' || c == ',' ||
			c == '$' || c == '~' || c == '+' || c >= '0' && c <= '9':
			i++
			continue
		case c == '/':
			i++
			if !skipDelim('/') {
				return
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
			continue
		case c == '\\':
			if i+1 >= n {
				return
			}
			d := s[i+1]
			i += 2
			if !skipDelim(d) {
				return
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
			continue
		case c == '#':
			toEOL()
			continue
		}
		i++
		switch c {
		case 'e':
			cmd := strings.TrimLeft(toEOL(), " \t")
			if strings.TrimSpace(cmd) == "" {
				f.unknown("e")
			} else {
				f.shell("e", cmd)
			}
		case 'r', 'R', 'w', 'W', ':':
			toEOL()
		case 'a', 'i', 'c':
			// Text to the end of the line; a\ continues on the lines
			// after, each ending in a backslash but the last.
			for i < n {
				line := toEOL()
				if i < n {
					i++
				}
				if !strings.HasSuffix(line, "\\") || strings.HasSuffix(line, "\\\\") {
					break
				}
			}
		case 'b', 't', 'T', 'v':
			for i < n && s[i] != '\n' && s[i] != ';' && s[i] != '}' {
				i++
			}
		case 'q', 'Q', 'l', 'L':
			for i < n && (s[i] == ' ' || s[i] >= '0' && s[i] <= '9') {
				i++
			}
		case 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F', '=':
		case 'y', 's':
			// y/source/replacement/ and s/regex/replacement/flags.
			if i >= n || s[i] == '\n' || s[i] == '\\' {
				return
			}
			d := s[i]
			i++
			if !skipDelim(d) {
				return
			}
			start := i
			if !skipDelim(d) {
				return
			}
			if c == 'y' {
				break
			}
			repl := s[start : i-1]
			for i < n {
				fl := s[i]
				if fl == 'e' {
					f.dynShell("s///e", sedReplacement(repl))
					i++
					continue
				}
				if fl == 'w' {
					toEOL()
					break
				}
				if fl == 'g' || fl == 'p' || fl == 'i' || fl == 'I' || fl == 'm' || fl == 'M' || fl >= '0' && fl <= '9' {
					i++
					continue
				}
				break
			}
		default:
			return
		}
	}
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
