package shellparse

import "strings"

// gdbCode records the shell commands gdb commands run: shell CMD and !CMD,
// pipe and | (the part after the last |), target remote | CMD, and calls
// that run commands in the expressions of call/print and in python code
// (system(), os.system(), gdb.execute("shell ..."), ...). One command per
// line.
func gdbCode(text string, f *foundCode) { gdbCodeDepth(text, f, 0) }

func gdbCodeDepth(text string, f *foundCode, depth int) {
	if f.tooDeep(depth, "gdb") {
		return
	}
	lines := strings.Split(text, "\n")
	for li := 0; li < len(lines) && !f.over; li++ {
		line := strings.TrimSpace(lines[li])
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '!' {
			f.shell("!", line[1:])
			continue
		}
		if line[0] == '|' {
			gdbPipe(line[1:], '|', f)
			continue
		}
		word, rest := cutWord(line)
		switch {
		case len(word) >= 3 && strings.HasPrefix("shell", word):
			f.shell("shell", rest)
		case word == "pipe":
			delim := byte('|')
			if r, ok := strings.CutPrefix(rest, "-d "); ok {
				r = strings.TrimLeft(r, " ")
				if r != "" {
					delim = r[0]
					rest = r[1:]
				}
			}
			gdbPipe(rest, delim, f)
		case word == "target" || word == "tar":
			kind, arg := cutWord(rest)
			if strings.HasPrefix(kind, "remote") || strings.HasPrefix(kind, "extended-remote") {
				if cmd, ok := strings.CutPrefix(strings.TrimSpace(arg), "|"); ok {
					f.shell("target remote |", strings.TrimSpace(cmd))
				}
			}
		case word == "python" || word == "py" || word == "python-interactive" || word == "pi" || word == "guile" || word == "gu":
			if rest == "" {
				// A block up to "end".
				rest, li = blockTo(lines, li+1, "end")
			}
			callSinks(rest, f, depth+1)
		case word == "eval":
			f.unknown("eval") // a command built by a format
		default:
			callSinks(rest, f, depth+1)
		}
	}
}

// gdbPipe records the shell command of gdb's pipe: the text after the
// delimiter, or all of it when there is none (the last command repeated).
func gdbPipe(s string, delim byte, f *foundCode) {
	if k := strings.IndexByte(s, delim); k >= 0 {
		s = s[k+1:]
	}
	f.shell("pipe", strings.TrimSpace(s))
}

// cutWord splits s into its first blank-separated word and the rest,
// trimmed.
func cutWord(s string) (string, string) {
	s = strings.TrimLeft(s, " \t")
	k := strings.IndexAny(s, " \t")
	if k < 0 {
		return s, ""
	}
	return s[:k], strings.TrimSpace(s[k:])
}

// lldbCode records the shell commands lldb commands run: platform shell
// CMD (and its alias shell), and calls that run commands in script
// (python) code and in expressions.
func lldbCode(text string, f *foundCode) { lldbCodeDepth(text, f, 0) }

func lldbCodeDepth(text string, f *foundCode, depth int) {
	if f.tooDeep(depth, "lldb") {
		return
	}
	for _, line := range strings.Split(text, "\n") {
		if f.over {
			return
		}
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		word, rest := cutWord(line)
		switch {
		case word == "platform":
			sub, arg := cutWord(rest)
			if len(sub) >= 2 && strings.HasPrefix("shell", sub) {
				f.shell("platform shell", lldbShellArgs(arg))
			}
		case word == "shell":
			f.shell("shell", lldbShellArgs(rest))
		default:
			callSinks(rest, f, depth+1)
		}
	}
}

// lldbShellArgs skips the options of platform shell (-h, -s SHELL, -t
// SECONDS, --) and returns the command.
func lldbShellArgs(s string) string {
	for {
		s = strings.TrimLeft(s, " \t")
		w, rest := cutWord(s)
		switch {
		case w == "--":
			return rest
		case w == "-h" || w == "--host":
			s = rest
		case w == "-s" || w == "-t" || w == "--shell" || w == "--timeout":
			_, s = cutWord(rest)
		default:
			return s
		}
	}
}
