package shellparse

import (
	"strings"

	"github.com/shellguard/shellguard/internal/textlex"
)

// dynPlaceholder stands, in a command found in code, for a part known only
// at run time (an awk field, a sed match, a variable of the code): the
// command is re-parsed with it, so its program and literal words are
// still checked, and the invocation is marked as running something that
// cannot be verified.
const dynPlaceholder = "${_sg_dynamic}"

// found is one command found in a program's code.
type found struct {
	// what names what runs it in the code: "system()", ":!",
	// "shell-command".
	what string
	// shell is a shell command line; argv, when not nil, a program and
	// its arguments instead.
	shell string
	argv  []string
	// remote: it runs on another machine (expect's send after spawn
	// ssh).
	remote bool
	// dynamic: built at run time; shell or argv hold dynPlaceholder where
	// they are unknown, or are empty when nothing is known.
	dynamic bool
}

// foundCode collects what a reader finds, within bounds.
type foundCode struct {
	list []found
	// over: more than maxFound commands; the rest were not read.
	over bool
}

// maxFound bounds the commands one reader reports for one text.
const maxFound = 64

// maxCodeText bounds the text of one command built from code (awk's
// concatenations, xargs's replacements): past it the command is unknown.
const maxCodeText = 64 << 10

// maxCodeDepth bounds how deep readers follow code inside code (vim
// :execute, gdb python gdb.execute(...), make $(shell $(shell ...))).
const maxCodeDepth = 4

func (f *foundCode) add(x found) {
	if len(f.list) >= maxFound {
		f.over = true
		return
	}
	f.list = append(f.list, x)
}

// shell records a literal shell command line.
func (f *foundCode) shell(what, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	f.add(found{what: what, shell: text})
}

// dynShell records a shell command line built at run time; text holds
// dynPlaceholder where it is unknown.
func (f *foundCode) dynShell(what, text string) {
	f.add(found{what: what, shell: text, dynamic: true})
}

// argv records a program and its arguments.
func (f *foundCode) argv(what string, words []string, dynamic bool) {
	if len(words) == 0 {
		if dynamic {
			f.unknown(what)
		}
		return
	}
	f.add(found{what: what, argv: words, dynamic: dynamic})
}

// unknown records that the code runs something that cannot be read.
func (f *foundCode) unknown(what string) { f.add(found{what: what, dynamic: true}) }

// tooDeep reports code nested past maxCodeDepth, which a reader does not
// follow: it records what as unknown.
func (f *foundCode) tooDeep(depth int, what string) bool {
	if depth > maxCodeDepth {
		f.unknown(what)
		return true
	}
	return false
}

// sinkKind says what a function that runs commands takes.
type sinkKind uint8

const (
	// sinkShell: a string is a shell command line; a list, an argv.
	sinkShell sinkKind = iota + 1
	// sinkArgv: a list is an argv; a string, a program name.
	sinkArgv
	// sinkVim: a string of vim Ex commands.
	sinkVim
	// sinkGdb: a string of gdb commands.
	sinkGdb
	// sinkLldb: a string of lldb commands.
	sinkLldb
)

// callSink returns what the function called name (as written, dotted:
// "os.execute", "vim.fn.system") runs, in the code of vim, Lua, Python
// and C that editors and debuggers run.
func callSink(name string) (sinkKind, bool) {
	switch name {
	case "system", "systemlist", "popen", "os.execute", "io.popen", "os.system", "os.popen",
		"subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output",
		"subprocess.Popen", "subprocess.getoutput", "subprocess.getstatusoutput", "commands.getoutput",
		"job_start", "jobstart", "termopen", "term_start", "vim.fn.system", "vim.fn.systemlist",
		"vim.fn.jobstart", "vim.fn.termopen", "vim.fn.job_start", "vim.call", "vim.fn.execute",
		"pty.spawn", "os.spawnlp", "os.spawnvp":
		return sinkShell, true
	case "vim.system", "vim.loop.spawn", "vim.uv.spawn", "os.execvp", "os.execv", "os.execl", "os.execlp":
		return sinkArgv, true
	case "execute", "vim.cmd", "vim.api.nvim_command", "vim.api.nvim_exec", "vim.api.nvim_exec2",
		"vim.command", "vim.eval", "nvim_command", "nvim_exec", "nvim_exec2":
		return sinkVim, true
	case "gdb.execute":
		return sinkGdb, true
	case "lldb.debugger.HandleCommand", "debugger.HandleCommand", "HandleCommand":
		return sinkLldb, true
	}
	return 0, false
}

// callSinks finds calls of functions that run commands (callSink) in code
// and records what they run: a string literal or a list of string literals
// as its first argument is read; anything else is unknown.
func callSinks(code string, f *foundCode, depth int) {
	if f.tooDeep(depth, "code") {
		return
	}
	for i := 0; i < len(code); i++ {
		c := code[i]
		if !identStart(c) || i > 0 && (identByte(code[i-1]) || code[i-1] == '.') {
			continue
		}
		j := i
		for j < len(code) && (identByte(code[j]) || code[j] == '.' && j+1 < len(code) && identStart(code[j+1])) {
			j++
		}
		name := code[i:j]
		i = j - 1
		kind, ok := callSink(name)
		if !ok {
			continue
		}
		k := skipBlanks(code, j)
		paren := k < len(code) && code[k] == '('
		if paren {
			k = skipBlanks(code, k+1)
		} else if k >= len(code) || code[k] != '"' && code[k] != '\'' && code[k] != '[' {
			// Not a call (a variable named system, a Lua call without
			// parentheses takes a string or a table).
			if !(k < len(code) && code[k] == '{') {
				continue
			}
		}
		what := name + "()"
		if k >= len(code) {
			f.unknown(what)
			return
		}
		switch code[k] {
		case '"', '\'':
			lit, end, ok := codeLiteral(code, k)
			next := skipBlanks(code, end)
			if !ok || next < len(code) && paren && code[next] != ')' && code[next] != ',' {
				f.unknown(what)
				continue
			}
			switch kind {
			case sinkShell:
				f.shell(what, lit)
			case sinkArgv:
				f.argv(what, []string{lit}, false)
			case sinkVim:
				vimCodeDepth(lit, f, depth+1)
			case sinkGdb:
				gdbCodeDepth(lit, f, depth+1)
			case sinkLldb:
				lldbCodeDepth(lit, f, depth+1)
			}
		case '[', '{':
			words, ok := literalList(code, k)
			if !ok || kind == sinkVim || kind == sinkGdb || kind == sinkLldb {
				f.unknown(what)
				continue
			}
			f.argv(what, words, false)
		default:
			f.unknown(what)
		}
	}
}

func identStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func identByte(c byte) bool  { return identStart(c) || c >= '0' && c <= '9' }

// blockTo returns the lines from lines[from] up to the first whose text,
// blanks trimmed, is marker (a block of gdb's python ... end, vim's
// :lua << EOF ... EOF), each with its newline, and the index of the
// marker's line (len(lines) when there is none).
func blockTo(lines []string, from int, marker string) (string, int) {
	var body strings.Builder
	i := from
	for ; i < len(lines) && strings.TrimSpace(lines[i]) != marker; i++ {
		body.WriteString(lines[i])
		body.WriteByte('\n')
	}
	return body.String(), i
}

// endWord appends the word b holds, if any, to out and empties b: a
// splitter calls it at each separator and at the end of its text.
func endWord(out []string, b *strings.Builder) []string {
	if b.Len() > 0 {
		out = append(out, b.String())
		b.Reset()
	}
	return out
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// codeLiteral reads the string literal at s[i] ('...' or "..." with
// backslash escapes, Lua's [[...]]) and returns its value and the index
// after it; ok is false when it does not end.
func codeLiteral(s string, i int) (val string, end int, ok bool) {
	q := s[i]
	var b strings.Builder
	for j := i + 1; j < len(s); j++ {
		c := s[j]
		switch {
		case c == q:
			return b.String(), j + 1, true
		case c == '\\' && j+1 < len(s):
			j++
			e := s[j]
			if c, ok := textlex.CEscapeAmong(e, "ntr"); ok {
				e = c
			} else if e == '0' {
				e = 0
			}
			b.WriteByte(e)
		case c == '\n':
			return "", j, false
		default:
			b.WriteByte(c)
		}
	}
	return "", len(s), false
}

// literalList reads a list of string literals ([ 'a', "b" ] or { 'a',
// 'b' }) at s[i]; ok is false when an element is not a literal.
func literalList(s string, i int) ([]string, bool) {
	closeBy := byte(']')
	if s[i] == '{' {
		closeBy = '}'
	}
	var out []string
	j := skipBlanks(s, i+1)
	for j < len(s) {
		switch s[j] {
		case closeBy:
			return out, len(out) > 0
		case '"', '\'':
			lit, end, ok := codeLiteral(s, j)
			if !ok {
				return nil, false
			}
			out = append(out, lit)
			j = skipBlanks(s, end)
			if j < len(s) && s[j] == ',' {
				j = skipBlanks(s, j+1)
			}
		default:
			return nil, false
		}
		if len(out) > 256 {
			return nil, false
		}
	}
	return nil, false
}
