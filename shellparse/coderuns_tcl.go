package shellparse

import (
	"strings"

	"github.com/shellguard/shellguard/internal/textlex"
)

// tclCode records what an expect (Tcl) script runs: spawn PROG ARGS (an
// argv), exec PROG ARGS (an argv; | separates the commands of a pipeline),
// system ARGS (a shell command line), open "|PROG ARGS", and the text that
// send types into a spawned shell, ssh, su or sudo (a shell command line,
// run on the other machine for ssh). Braced words are scripts too (the
// bodies of expect, if, while, proc): they are read the same way. Words
// with $variables or [commands] are known only at run time.
func tclCode(script string, f *foundCode) {
	t := tclState{}
	t.script(script, f, 0)
}

type tclState struct {
	// spawned is the program the last spawn started ("" before any).
	spawned string
}

// tclWord is one word of a Tcl command: its value, and whether it holds
// a substitution known only at run time; braced words are kept as written
// (they may be scripts).
type tclWord struct {
	val    string
	dyn    bool
	braced bool
}

func (t *tclState) script(s string, f *foundCode, depth int) {
	if depth > 8 || f.over {
		if depth > 8 {
			f.unknown("tcl")
		}
		return
	}
	i := 0
	for i < len(s) && !f.over {
		var words []tclWord
		words, i = tclCommand(s, i, f, t, depth)
		if len(words) > 0 {
			t.command(words, f, depth)
		}
	}
}

// tclCommand reads the words of the command starting at s[i], up to a
// newline or ; outside quotes and braces, and returns them and the index
// after the command. Bracketed command substitutions are read as scripts.
func tclCommand(s string, i int, f *foundCode, t *tclState, depth int) ([]tclWord, int) {
	var words []tclWord
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i += 2
			continue
		case c == '\n' || c == ';':
			return words, i + 1
		case c == '#' && len(words) == 0:
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		}
		var w tclWord
		switch c {
		case '{':
			end := bracketEnd(s, i, true)
			w = tclWord{val: s[i+1 : max(end-1, i+1)], braced: true}
			i = end
		case '"':
			w, i = tclQuoted(s, i+1, '"', f, t, depth)
		default:
			w, i = tclQuoted(s, i, 0, f, t, depth)
		}
		words = append(words, w)
		if len(words) > 256 {
			break
		}
	}
	return words, i
}

// tclQuoted reads a word up to the closing quote q (or, for q == 0, a
// blank or the end of the command), resolving backslashes; $var and [cmd]
// make it dynamic ([cmd] is read as a script).
func tclQuoted(s string, i int, q byte, f *foundCode, t *tclState, depth int) (tclWord, int) {
	var b strings.Builder
	w := tclWord{}
	for i < len(s) {
		c := s[i]
		if q != 0 && c == q {
			i++
			break
		}
		if q == 0 && (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '\r') {
			break
		}
		switch c {
		case '\\':
			if i+1 < len(s) {
				i++
				e := s[i]
				if c, ok := textlex.CEscapeAmong(e, "nrt"); ok {
					e = c
				} else if e == '\n' {
					e = ' ' // a continued line
				}
				b.WriteByte(e)
			}
			i++
		case '$':
			w.dyn = true
			b.WriteString(dynPlaceholder)
			i++
			if i < len(s) && s[i] == '{' {
				i = bracketEnd(s, i, true)
				continue
			}
			for i < len(s) && (identByte(s[i]) || s[i] == ':') {
				i++
			}
			if i < len(s) && s[i] == '(' {
				if k := strings.IndexByte(s[i:], ')'); k >= 0 {
					i += k + 1
				}
			}
		case '[':
			end := bracketEnd(s, i, true)
			inner := s[i+1 : max(end-1, i+1)]
			t.script(inner, f, depth+1)
			w.dyn = true
			b.WriteString(dynPlaceholder)
			i = end
		default:
			b.WriteByte(c)
			i++
		}
	}
	w.val = b.String()
	return w, i
}

// command records what one Tcl command runs.
func (t *tclState) command(words []tclWord, f *foundCode, depth int) {
	name := words[0].val
	args := words[1:]
	switch name {
	case "spawn":
		for len(args) > 0 && strings.HasPrefix(args[0].val, "-") && !args[0].braced {
			if args[0].val == "-ignore" && len(args) > 1 {
				args = args[1:]
			}
			args = args[1:]
		}
		words, dyn := tclArgv(args)
		f.argv("spawn", words, dyn)
		if len(words) > 0 {
			t.spawned = words[0]
			if k := strings.LastIndexByte(t.spawned, '/'); k >= 0 {
				t.spawned = t.spawned[k+1:]
			}
		}
		return
	case "exec":
		for len(args) > 0 && strings.HasPrefix(args[0].val, "-") {
			stop := args[0].val == "--"
			args = args[1:]
			if stop {
				break
			}
		}
		var cmd []tclWord
		for k := 0; k <= len(args); k++ {
			if k == len(args) || args[k].val == "|" || args[k].val == "|&" {
				words, dyn := tclArgv(tclNoRedirects(cmd))
				f.argv("exec", words, dyn)
				cmd = nil
				continue
			}
			cmd = append(cmd, args[k])
		}
		return
	case "system":
		words, dyn := tclArgv(args)
		if dyn {
			f.dynShell("system", strings.Join(words, " "))
		} else {
			f.shell("system", strings.Join(words, " "))
		}
		return
	case "open":
		if len(args) > 0 && strings.HasPrefix(args[0].val, "|") {
			text := strings.TrimPrefix(args[0].val, "|")
			if args[0].dyn {
				f.dynShell("open |", text)
			} else {
				f.shell("open |", text)
			}
		}
		return
	case "send":
		for len(args) > 1 && strings.HasPrefix(args[0].val, "-") && !args[0].braced {
			opt := args[0].val
			args = args[1:]
			if opt == "--" {
				break
			}
			if opt == "-i" && len(args) > 1 {
				args = args[1:]
			}
		}
		if len(args) == 0 || t.spawned == "" {
			return
		}
		remote := false
		switch t.spawned {
		case "ssh", "telnet", "rsh", "mosh", "docker", "kubectl", "podman":
			remote = true
		case "su", "sudo", "doas", "runuser":
		default:
			if !isShell(t.spawned) {
				return
			}
		}
		text := strings.ReplaceAll(args[len(args)-1].val, "\r", "\n")
		if strings.TrimSpace(strings.ReplaceAll(text, dynPlaceholder, "")) == "" {
			if args[len(args)-1].dyn {
				f.unknown("send")
			}
			return
		}
		f.add(found{what: "send", shell: text, remote: remote, dynamic: args[len(args)-1].dyn})
		return
	case "proc":
		// proc name args body
		if len(args) == 3 {
			t.script(args[2].val, f, depth+1)
		}
		return
	case "eval", "uplevel":
		for _, a := range args {
			if a.dyn {
				f.unknown(name)
			}
			t.script(a.val, f, depth+1)
		}
		return
	}
	// Braced words may be scripts: bodies of expect, if, while, for,
	// foreach, catch, after, interact.
	for _, a := range args {
		if a.braced {
			t.script(a.val, f, depth+1)
		}
	}
}

// tclArgv returns the values of words, and whether one is dynamic.
func tclArgv(words []tclWord) ([]string, bool) {
	out := make([]string, 0, len(words))
	dyn := false
	for _, w := range words {
		out = append(out, w.val)
		dyn = dyn || w.dyn
	}
	return out, dyn
}

// tclNoRedirects drops exec's redirections (> file, 2>@1, < file) from a
// command's words.
func tclNoRedirects(words []tclWord) []tclWord {
	var out []tclWord
	for k := 0; k < len(words); k++ {
		v := words[k].val
		switch v {
		case ">", ">>", "<", "2>", "2>>", ">&", ">>&", "<<", "<@", ">@", "2>@", ">&@":
			k++
			continue
		case "&", "2>@1":
			continue
		}
		if strings.HasPrefix(v, ">") || strings.HasPrefix(v, "<") || strings.HasPrefix(v, "2>") {
			continue
		}
		out = append(out, words[k])
	}
	return out
}
