package shellparse

import (
	"strings"

	"github.com/shellguard/shellguard/internal/textlex"
)

// awk runs shell commands in three places: system(cmd), print ... | cmd
// (and printf, and gawk's |&), and cmd | getline. awkCode finds them in a
// program's text and evaluates each cmd: a concatenation of string
// literals, numbers, variables given a literal value (by -v or one
// assignment in the program) and ENVIRON["NAME"] (which is $NAME) is
// known; fields ($1), other variables and function calls are known only
// at run time and stand as dynPlaceholder.

// awkTok is one token of an awk program.
type awkTok struct {
	// k: 's' string, 'n' name, '0' number, 'r' regex, ';' statement end
	// (; or a newline), 'p' punctuation.
	k byte
	v string
}

// awkKeywords are the names that are not operands.
func awkKeyword(s string) bool {
	switch s {
	case "BEGIN", "END", "BEGINFILE", "ENDFILE", "print", "printf", "return", "if", "else", "while", "for", "do",
		"in", "getline", "delete", "exit", "next", "nextfile", "break", "continue", "function", "func", "case",
		"default", "switch":
		return true
	}
	return false
}

// awkLex splits an awk program into tokens. It never fails: text it
// cannot read becomes punctuation.
func awkLex(src string) []awkTok {
	toks := make([]awkTok, 0, len(src)/3+1)
	operand := func() bool {
		if len(toks) == 0 {
			return false
		}
		t := toks[len(toks)-1]
		switch t.k {
		case 's', '0', 'r':
			return true
		case 'n':
			return !awkKeyword(t.v)
		case 'p':
			return t.v == ")" || t.v == "]" || t.v == "$" || t.v == "++" || t.v == "--"
		}
		return false
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r'):
			i += 2
		case c == '\n' || c == ';':
			toks = append(toks, awkTok{k: ';', v: string(c)})
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"':
			v, end := awkString(src, i)
			toks = append(toks, awkTok{k: 's', v: v})
			i = end
		case c == '/' && !operand():
			end := awkRegexEnd(src, i)
			if end < 0 {
				toks = append(toks, awkTok{k: 'p', v: "/"})
				i++
				continue
			}
			toks = append(toks, awkTok{k: 'r', v: src[i:end]})
			i = end
		case identStart(c):
			j := i
			for j < len(src) && identByte(src[j]) {
				j++
			}
			toks = append(toks, awkTok{k: 'n', v: src[i:j]})
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.' || src[j] == 'e' || src[j] == 'E' || src[j] == 'x' || src[j] == 'X' ||
				src[j] >= 'a' && src[j] <= 'f' || src[j] >= 'A' && src[j] <= 'F') {
				j++
			}
			toks = append(toks, awkTok{k: '0', v: src[i:j]})
			i = j
		default:
			if i+1 < len(src) {
				switch src[i : i+2] {
				case "||", "&&", "|&", "==", "!=", "<=", ">=", ">>", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "**":
					toks = append(toks, awkTok{k: 'p', v: src[i : i+2]})
					i += 2
					continue
				}
			}
			toks = append(toks, awkTok{k: 'p', v: string(c)})
			i++
		}
	}
	return toks
}

// awkString reads the string literal at src[i] and returns its value and
// the index after it (an unterminated string ends at the line's end).
func awkString(src string, i int) (string, int) {
	var b strings.Builder
	j := i + 1
	for j < len(src) {
		c := src[j]
		switch {
		case c == '"':
			return b.String(), j + 1
		case c == '\n':
			return b.String(), j
		case c == '\\' && j+1 < len(src):
			j++
			e := src[j]
			switch ce, isC := textlex.CEscape(e); {
			case isC:
				b.WriteByte(ce)
			case e == '\n':
				// A continued line.
			case e >= '0' && e <= '7':
				n, k := 0, 0
				for k < 3 && j < len(src) && src[j] >= '0' && src[j] <= '7' {
					n = n*8 + int(src[j]-'0')
					j++
					k++
				}
				b.WriteByte(byte(n))
				continue
			default:
				b.WriteByte(e)
			}
			j++
		default:
			b.WriteByte(c)
			j++
		}
	}
	return b.String(), j
}

// awkRegexEnd returns the index after the regex literal at src[i], or -1
// when it does not end on its line.
func awkRegexEnd(src string, i int) int {
	bracket := false
	for j := i + 1; j < len(src); j++ {
		switch c := src[j]; {
		case c == '\n':
			return -1
		case c == '\\':
			j++
		case c == '[':
			bracket = true
		case c == ']':
			bracket = false
		case c == '/' && !bracket:
			return j + 1
		}
	}
	return -1
}

// awkVars returns the variables awk's -v options set to literal values.
func awkVars(s *scanned) map[string]string {
	if s == nil {
		return nil
	}
	var m map[string]string
	for _, o := range s.opts {
		if o.name != "-v" && o.name != "--assign" || !o.has || o.val.Dynamic {
			continue
		}
		name, val, ok := strings.Cut(o.val.Value, "=")
		if !ok || !isName(name) {
			continue
		}
		if m == nil {
			m = map[string]string{}
		}
		m[name], _ = awkString("\""+strings.ReplaceAll(val, `"`, `\"`)+"\"", 0)
	}
	return m
}

// awkCode records the commands an awk program runs. vars holds the
// variables set on the command line (-v).
func awkCode(prog string, vars map[string]string, f *foundCode) {
	if strings.IndexByte(prog, '|') < 0 && !strings.Contains(prog, "system") {
		return // most programs: no place that runs a command
	}
	toks := awkLex(prog)
	known := awkKnownVars(toks, vars)
	for i := 0; i < len(toks) && !f.over; i++ {
		t := toks[i]
		switch {
		case t.k == 'n' && t.v == "system" && i+1 < len(toks) && toks[i+1].v == "(":
			end := awkMatch(toks, i+1)
			awkSink(f, "system()", toks[i+2:end], known)
			i = end
		case t.k == 'p' && (t.v == "|" || t.v == "|&"):
			if i+1 < len(toks) && toks[i+1].k == 'n' && toks[i+1].v == "getline" {
				start := awkOperandStart(toks, i)
				awkSink(f, t.v+" getline", toks[start:i], known)
				continue
			}
			end := awkOperandEnd(toks, i+1)
			target, dyn := awkEval(toks[i+1:end], known, 0)
			if !dyn && shellReadsInput(target) {
				// print ... | "sh": what is printed is the script.
				if start := awkPrintStart(toks, i); start >= 0 {
					awkSink(f, "print | "+strings.TrimSpace(target), toks[start:i], known)
				}
			}
			awkSink(f, "print "+t.v, toks[i+1:end], known)
			i = max(end-1, i)
		}
	}
}

// awkSink records the command the expression toks builds.
func awkSink(f *foundCode, what string, toks []awkTok, known map[string]string) {
	text, dyn := awkEval(toks, known, 0)
	if dyn {
		f.dynShell(what, text)
		return
	}
	f.shell(what, text)
}

// awkMatch returns the index of the token that closes the bracket at
// toks[i], or len(toks).
func awkMatch(toks []awkTok, i int) int {
	open, closeBy := toks[i].v, ")"
	if open == "[" {
		closeBy = "]"
	}
	depth := 0
	for j := i; j < len(toks); j++ {
		switch toks[j].v {
		case open:
			if toks[j].k == 'p' {
				depth++
			}
		case closeBy:
			if toks[j].k == 'p' {
				depth--
				if depth == 0 {
					return j
				}
			}
		}
	}
	return len(toks)
}

// awkOperandStart returns where the concatenation that ends just before
// toks[i] starts (the command of "cmd" | getline).
func awkOperandStart(toks []awkTok, i int) int {
	j := i - 1
	for j >= 0 {
		t := toks[j]
		switch {
		case t.k == 's' || t.k == '0':
			j--
		case t.k == 'n' && !awkKeyword(t.v):
			j--
		case t.k == 'p' && t.v == "$":
			j--
		case t.k == 'p' && (t.v == ")" || t.v == "]"):
			open := "("
			if t.v == "]" {
				open = "["
			}
			depth := 0
			k := j
			for ; k >= 0; k-- {
				if toks[k].k != 'p' {
					continue
				}
				if toks[k].v == t.v {
					depth++
				} else if toks[k].v == open {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if k < 0 {
				return j + 1
			}
			j = k - 1
			if j >= 0 && toks[j].k == 'n' && !awkKeyword(toks[j].v) {
				j-- // a function call or an array element
			}
		default:
			return j + 1
		}
	}
	return 0
}

// awkOperandEnd returns where the concatenation that starts at toks[i]
// ends (the command of print ... | "cmd").
func awkOperandEnd(toks []awkTok, i int) int {
	j := i
	for j < len(toks) {
		t := toks[j]
		switch {
		case t.k == 's' || t.k == '0':
			j++
		case t.k == 'n' && !awkKeyword(t.v):
			j++
		case t.k == 'p' && t.v == "$":
			j++
		case t.k == 'p' && (t.v == "(" || t.v == "["):
			j = awkMatch(toks, j) + 1
		default:
			return min(j, len(toks))
		}
	}
	return min(j, len(toks))
}

// awkKnownVars returns the variables whose value is a literal: set by -v
// and never assigned in the program, or assigned exactly once, a
// concatenation of literals.
func awkKnownVars(toks []awkTok, vars map[string]string) map[string]string {
	var count map[string]int
	var lit map[string]string
	assign := func(name string) {
		if count == nil {
			count = map[string]int{}
		}
		count[name]++
	}
	for i, t := range toks {
		if t.k != 'n' || awkKeyword(t.v) {
			if t.k == 'n' && t.v == "getline" && i+1 < len(toks) && toks[i+1].k == 'n' {
				assign(toks[i+1].v)
			}
			continue
		}
		if i+1 < len(toks) && toks[i+1].k == 'p' {
			switch toks[i+1].v {
			case "=":
				assign(t.v)
				end := i + 2
				ok := true
				var b strings.Builder
				for end < len(toks) && toks[end].k != ';' && toks[end].v != "}" {
					if toks[end].k != 's' && toks[end].k != '0' || b.Len() > maxCodeText {
						ok = false
						break
					}
					b.WriteString(toks[end].v)
					end++
				}
				if ok && end > i+2 {
					if lit == nil {
						lit = map[string]string{}
					}
					lit[t.v] = b.String()
				}
				continue
			case "+=", "-=", "*=", "/=", "%=", "^=", "++", "--", "[":
				assign(t.v)
				continue
			}
		}
		if i > 0 && toks[i-1].k == 'p' && (toks[i-1].v == "++" || toks[i-1].v == "--") {
			assign(t.v)
		}
		if i+2 < len(toks) && toks[i+1].k == 'n' && toks[i+1].v == "in" {
			assign(t.v) // for (k in array)
		}
	}
	if len(vars) == 0 && len(lit) == 0 {
		return nil
	}
	known := map[string]string{}
	for k, v := range vars {
		if count[k] == 0 {
			known[k] = v
		}
	}
	for k, v := range lit {
		if count[k] == 1 && vars[k] == "" {
			known[k] = v
		}
	}
	return known
}

// awkEval evaluates a concatenation: literal parts as they are, parts
// known only at run time as dynPlaceholder (dyn reports one).
func awkEval(toks []awkTok, known map[string]string, depth int) (text string, dyn bool) {
	if depth > 16 {
		return dynPlaceholder, true
	}
	var b strings.Builder
	place := func() {
		dyn = true
		if !strings.HasSuffix(b.String(), dynPlaceholder) {
			b.WriteString(dynPlaceholder)
		}
	}
	for i := 0; i < len(toks); i++ {
		if b.Len() > maxCodeText {
			return dynPlaceholder, true
		}
		t := toks[i]
		switch {
		case t.k == 's' || t.k == '0':
			b.WriteString(t.v)
		case t.k == 'n' && t.v == "ENVIRON" && i+3 < len(toks) && toks[i+1].v == "[" && toks[i+2].k == 's' && toks[i+3].v == "]":
			if isName(toks[i+2].v) {
				b.WriteString("${" + toks[i+2].v + "}")
			} else {
				place()
			}
			i += 3
		case t.k == 'n' && i+1 < len(toks) && (toks[i+1].v == "(" || toks[i+1].v == "[") && toks[i+1].k == 'p':
			// A function call or an array element.
			place()
			i = awkMatch(toks, i+1)
		case t.k == 'n' && !awkKeyword(t.v):
			if v, ok := known[t.v]; ok {
				b.WriteString(v)
			} else {
				place()
			}
		case t.k == 'p' && t.v == "$":
			place()
			if i+1 < len(toks) {
				if toks[i+1].v == "(" {
					i = awkMatch(toks, i+1)
				} else {
					i++
				}
			}
		case t.k == 'p' && t.v == "(":
			end := awkMatch(toks, i)
			inner, d := awkEval(toks[i+1:min(end, len(toks))], known, depth+1)
			b.WriteString(inner)
			dyn = dyn || d
			i = end
		case t.k == ';':
		case t.k == 'p' && t.v == ",":
			b.WriteByte(' ') // print a, b: separated by OFS
		default:
			place()
		}
	}
	return b.String(), dyn
}

// awkPrintStart returns the index after the print or printf keyword of
// the statement whose output goes through the pipe at toks[i], or -1.
func awkPrintStart(toks []awkTok, i int) int {
	for j := i - 1; j >= 0; j-- {
		t := toks[j]
		if t.k == ';' || t.k == 'p' && (t.v == "{" || t.v == "}") {
			return -1
		}
		if t.k == 'n' && (t.v == "print" || t.v == "printf") {
			return j + 1
		}
	}
	return -1
}

// shellReadsInput reports a command line that is a shell reading its
// commands from standard input (sh, bash -s, sudo sh).
func shellReadsInput(cmd string) bool {
	words := strings.Fields(cmd)
	for len(words) > 0 && (words[0] == "sudo" || words[0] == "env" || words[0] == "exec" || words[0] == "command") {
		words = words[1:]
	}
	if len(words) == 0 {
		return false
	}
	name := words[0]
	if k := strings.LastIndexByte(name, '/'); k >= 0 {
		name = name[k+1:]
	}
	if !isShell(name) {
		return false
	}
	for _, w := range words[1:] {
		if len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.IndexByte(w, 'c') > 0 {
			return false
		}
		if w != "" && w[0] != '-' {
			return false // a script file
		}
	}
	return true
}
