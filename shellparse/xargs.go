package shellparse

import (
	"strconv"
	"strings"
)

// xargs fed a known input (echo / | xargs rm -rf) runs its command with
// the items of that input: the parser adds them, marked Resolved. The
// options and the input are read as GNU xargs reads them; an option or an
// input it does not read leaves the items unknown (ArgsFromInput).

// xargsOpts are the options of xargs that decide which commands it runs.
type xargsOpts struct {
	// delim is the byte that ends an item (-0, -d), or -1: items are
	// separated by blanks and newlines, with quotes and backslashes.
	delim int
	// replace is the string -I (-i, --replace) replaces by each item;
	// items are then whole lines.
	replace string
	// eof is the item that ends the input (-E, -e, --eof); -0 and -d
	// ignore it.
	eof     string
	noEmpty bool // -r: nothing runs for an empty input
	// plain: one run with every item (no option splits the input into
	// several runs).
	plain bool
	// argFile: the items come from a file (-a), not standard input.
	argFile bool
}

// xargsValue says how an option of xargs takes a value.
type xargsValue uint8

const (
	xargsFlag     xargsValue = iota // none
	xargsAttached                   // only attached: -i[R], --replace[=R]
	xargsRequired                   // attached or in the next word
)

// xargsLong returns how xargs's long option name takes a value; ok is
// false for one it does not read (--help, --version, an abbreviation).
func xargsLong(name string) (v xargsValue, ok bool) {
	switch name {
	case "null", "no-run-if-empty", "verbose", "exit", "interactive", "open-tty", "show-limits":
		return xargsFlag, true
	case "replace", "eof", "max-lines":
		return xargsAttached, true
	case "arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var":
		return xargsRequired, true
	}
	return 0, false
}

// xargsGetopt is GNU xargs's getopt string: a letter followed by ":"
// takes a value (attached or in the next word), by "::" a value only
// when attached.
const xargsGetopt = "0a:E:e::i::I:l::L:n:oprs:txP:d:"

// xargsShort returns how xargs's short option c takes a value; ok is
// false for one xargs does not have.
func xargsShort(c byte) (v xargsValue, ok bool) {
	k := strings.IndexByte(xargsGetopt, c)
	switch {
	case k < 0 || c == ':':
		return 0, false
	case strings.HasPrefix(xargsGetopt[k+1:], "::"):
		return xargsAttached, true
	case strings.HasPrefix(xargsGetopt[k+1:], ":"):
		return xargsRequired, true
	}
	return xargsFlag, true
}

// set applies option opt (a long name, or a short option's letter) with
// its value, taken as v says; ok is false for a value xargs does not
// read.
func (x *xargsOpts) set(opt, val string, v xargsValue) bool {
	switch opt {
	case "null", "0":
		x.delim = 0
	case "no-run-if-empty", "r":
		x.noEmpty = true
	case "replace", "i", "I":
		if val == "" && v == xargsAttached {
			val = "{}" // -i, --replace: the default; -I keeps an empty value
		}
		x.replace, x.plain = val, false
	case "eof", "e", "E":
		x.eof = val
	case "max-lines", "max-args", "max-procs", "max-chars", "l", "L", "n", "P", "s":
		x.plain = false
	case "arg-file", "a":
		x.argFile = true
	case "delimiter", "d":
		d, ok := xargsDelim(val)
		if !ok {
			return false
		}
		x.delim = d
	}
	return true
}

// xargsOptions reads xargs's options (its wrapper's words), as GNU
// xargs's getopt does: clusters (-0rI{}), values attached or in the next
// word, --long=value. ok is false for an option it does not know.
func xargsOptions(opts []string) (x xargsOpts, ok bool) {
	x = xargsOpts{delim: -1, plain: true}
	for i := 0; i < len(opts); i++ {
		o := opts[i]
		next := func() (string, bool) {
			if i+1 < len(opts) {
				i++
				return opts[i], true
			}
			return "", false
		}
		if o == "--" {
			break
		}
		if name, ok := strings.CutPrefix(o, "--"); ok {
			name, val, hasVal := strings.Cut(name, "=")
			v, ok := xargsLong(name)
			if !ok {
				return x, false
			}
			if v == xargsRequired && !hasVal {
				if val, hasVal = next(); !hasVal {
					return x, false
				}
			}
			if !x.set(name, val, v) {
				return x, false
			}
			continue
		}
		if len(o) < 2 || o[0] != '-' {
			return x, false
		}
		for j := 1; j < len(o); j++ {
			v, ok := xargsShort(o[j])
			if !ok {
				return x, false
			}
			name := o[j : j+1]
			if v == xargsFlag {
				x.set(name, "", v)
				continue
			}
			val := o[j+1:]
			if v == xargsRequired && val == "" {
				if val, ok = next(); !ok {
					return x, false
				}
			}
			if !x.set(name, val, v) {
				return x, false
			}
			break // the value ends the cluster
		}
	}
	return x, true
}

// xargsRuns returns the argv of each command xargs runs for the input
// text: cmd followed by the input's items, or, with -I, cmd with the
// replacement string replaced by each item. plain reports one run with
// every item, in which the positions of the items are known (no option
// that splits the input into several runs). ok is false for an input or
// an option the parser does not read (-a FILE, an unterminated quote,
// more items than it follows); over reports that the words built would
// hold more than budget bytes.
func xargsRuns(opts []string, cmd []Arg, text string, budget int) (runs [][]Arg, plain, ok, over bool) {
	x, ok := xargsOptions(opts)
	if !ok || x.argFile {
		return nil, false, false, false
	}
	items, ok := xargsSplit(text, x)
	if !ok || len(items) > maxForksPerCall*4 {
		return nil, false, false, false
	}
	if x.replace != "" {
		itemBytes := 0
		for _, item := range items {
			itemBytes += len(item)
		}
		size := 0
		for _, a := range cmd {
			size += len(items) * len(a.Value)
			if !a.Dynamic {
				size += strings.Count(a.Value, x.replace) * itemBytes
			}
		}
		if size > budget {
			return nil, false, false, true
		}
		for _, item := range items {
			run := make([]Arg, len(cmd))
			for k, a := range cmd {
				run[k] = a
				if !a.Dynamic && strings.Contains(a.Value, x.replace) {
					run[k] = Arg{Value: strings.ReplaceAll(a.Value, x.replace, item), Raw: a.Raw, Resolved: true}
				}
			}
			runs = append(runs, run)
		}
		return runs, false, true, false
	}
	if len(items) == 0 && x.noEmpty {
		return nil, x.plain, true, false
	}
	size := 0
	for _, item := range items {
		size += len(item)
	}
	if size > budget {
		return nil, false, false, true
	}
	run := append([]Arg(nil), cmd...)
	for _, item := range items {
		run = append(run, Arg{Value: item, Raw: item, Resolved: true})
	}
	return [][]Arg{run}, x.plain, true, false
}

// xargsDelim reads the delimiter of -d: one character, or an escape (\n,
// \t, \0, \\, ... \xHH, \NNN octal).
func xargsDelim(v string) (int, bool) {
	if len(v) == 1 {
		return int(v[0]), true
	}
	if len(v) < 2 || v[0] != '\\' {
		return 0, false
	}
	if i := strings.IndexByte(`abfnrtv\`, v[1]); i >= 0 && len(v) == 2 {
		return int("\a\b\f\n\r\t\v\\"[i]), true
	}
	base, digits := 8, v[1:]
	if v[1] == 'x' {
		base, digits = 16, v[2:]
	}
	n, err := strconv.ParseUint(digits, base, 8)
	if err != nil {
		return 0, false
	}
	return int(n), true
}

// xargsSplit splits xargs's input into its items: at the delimiter of -0
// or -d (a last delimiter ends the last item; empty items count);
// otherwise at blanks and newlines, or, with -I, at newlines only (the
// blanks that start a line dropped, empty lines skipped), with quotes and
// backslashes read, up to the item that -E names. ok is false when xargs
// would stop on the input (an unterminated quote).
func xargsSplit(text string, x xargsOpts) ([]string, bool) {
	if x.delim >= 0 {
		if text == "" {
			return nil, true
		}
		d := string([]byte{byte(x.delim)})
		return strings.Split(strings.TrimSuffix(text, d), d), true
	}
	lines := x.replace != ""
	var items []string
	var b strings.Builder
	in := false // an item was started (quotes start an empty one)
	end := func() bool {
		item := b.String()
		b.Reset()
		in = false
		if x.eof != "" && item == x.eof {
			return true
		}
		items = append(items, item)
		return false
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\n' || (c == ' ' || c == '\t') && !lines:
			if in && end() {
				return items, true
			}
		case (c == ' ' || c == '\t') && !in:
			// The blanks that start a line of -I.
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
		end()
	}
	return items, true
}
