package shellparse

import "strings"

// xargs fed a known input (echo / | xargs rm -rf) runs its command with
// the words of that input: the parser adds them, marked Resolved.

// xargsRuns returns the argv of each command xargs runs for the input
// text: cmd followed by the input's items, or, with -I, cmd with the
// replacement string replaced by each input line. plain reports one run
// with every item, in which the positions of the items are known (no
// option that splits the input into several runs). ok is false for an
// input or an option the parser does not read (-a FILE, -E, an
// unterminated quote).
func xargsRuns(opts []string, cmd []Arg, text string) (runs [][]Arg, plain, ok bool) {
	delim := -1 // a byte, or -1 for blanks and quotes
	replace := ""
	noEmpty := false
	plain = true
	for i := 0; i < len(opts); i++ {
		o := opts[i]
		val := func(short string) (string, bool) {
			if v, cut := strings.CutPrefix(o, short); cut && v != "" {
				return v, true
			}
			if i+1 < len(opts) {
				i++
				return opts[i], true
			}
			return "", false
		}
		switch {
		case o == "--":
		case o == "-0" || o == "--null":
			delim = 0
		case strings.HasPrefix(o, "--delimiter="):
			d, ok := xargsDelim(strings.TrimPrefix(o, "--delimiter="))
			if !ok {
				return nil, false, false
			}
			delim = d
		case o == "--delimiter" || strings.HasPrefix(o, "-d"):
			v, ok := val("-d")
			if o == "--delimiter" {
				v, ok = val("--delimiter")
			}
			d, dok := xargsDelim(v)
			if !ok || !dok {
				return nil, false, false
			}
			delim = d
		case strings.HasPrefix(o, "--replace"):
			replace = "{}"
			if v, cut := strings.CutPrefix(o, "--replace="); cut {
				replace = v
			}
			plain = false
		case strings.HasPrefix(o, "-I"):
			v, ok := val("-I")
			if !ok {
				return nil, false, false
			}
			replace, plain = v, false
		case strings.HasPrefix(o, "-i"):
			replace, plain = "{}", false
			if len(o) > 2 {
				replace = o[2:]
			}
		case o == "-r" || o == "--no-run-if-empty":
			noEmpty = true
		case o == "-t" || o == "--verbose" || o == "-x" || o == "--exit" || o == "-p" || o == "--interactive" ||
			o == "-o" || o == "--open-tty":
		case strings.HasPrefix(o, "-n") || strings.HasPrefix(o, "-L") || strings.HasPrefix(o, "-s") ||
			strings.HasPrefix(o, "-P") || strings.HasPrefix(o, "--max-") || o == "-l" || strings.HasPrefix(o, "-l"):
			// Split the input into several runs: every item still runs.
			plain = false
			if len(o) == 2 && o != "-l" {
				i++
			}
		default:
			// -a FILE, -E EOF, --process-slot-var, ...: not read here.
			return nil, false, false
		}
	}
	var items []string
	switch {
	case replace != "":
		// Each line is one item; blanks at its start are dropped.
		for line := range strings.SplitSeq(strings.TrimSuffix(text, "\n"), "\n") {
			if delim >= 0 {
				return nil, false, false
			}
			if line = strings.TrimLeft(line, " \t"); line != "" {
				items = append(items, line)
			}
		}
	case delim >= 0:
		for item := range strings.SplitSeq(strings.TrimSuffix(text, string(rune(delim))), string(rune(delim))) {
			items = append(items, item)
		}
		if text == "" {
			items = nil
		}
	default:
		var ok bool
		if items, ok = xargsItems(text); !ok {
			return nil, false, false
		}
	}
	if len(items) > maxForksPerCall*4 {
		return nil, false, false
	}
	if replace != "" {
		for _, item := range items {
			run := make([]Arg, len(cmd))
			for k, a := range cmd {
				run[k] = a
				if !a.Dynamic && strings.Contains(a.Value, replace) {
					run[k] = Arg{Value: strings.ReplaceAll(a.Value, replace, item), Raw: a.Raw, Resolved: true}
				}
			}
			runs = append(runs, run)
		}
		return runs, false, true
	}
	if len(items) == 0 && noEmpty {
		return nil, plain, true
	}
	run := append([]Arg(nil), cmd...)
	for _, item := range items {
		run = append(run, Arg{Value: item, Raw: item, Resolved: true})
	}
	return [][]Arg{run}, plain, true
}

// xargsDelim reads the delimiter of -d: one character or an escape.
func xargsDelim(v string) (int, bool) {
	switch v {
	case `\n`:
		return '\n', true
	case `\t`:
		return '\t', true
	case `\0`:
		return 0, true
	case `\\`:
		return '\\', true
	}
	if len(v) == 1 {
		return int(v[0]), true
	}
	return 0, false
}

// xargsItems splits input as xargs does by default: items separated by
// blanks and newlines, with '...', "..." and backslash quoting.
func xargsItems(text string) ([]string, bool) {
	var items []string
	var b strings.Builder
	in := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				items = append(items, b.String())
				b.Reset()
				in = false
			}
		case c == '\'' || c == '"':
			j := strings.IndexByte(text[i+1:], c)
			if j < 0 || strings.IndexByte(text[i+1:i+1+j], '\n') >= 0 {
				return nil, false // unmatched quote: xargs fails
			}
			b.WriteString(text[i+1 : i+1+j])
			i += j + 1
			in = true
		case c == '\\' && i+1 < len(text):
			i++
			b.WriteByte(text[i])
			in = true
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		items = append(items, b.String())
	}
	return items, true
}
