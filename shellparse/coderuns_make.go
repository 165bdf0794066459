package shellparse

import "strings"

// makeCode records the shell commands a makefile's text runs: every recipe
// line (after a tab, or after the ; of a rule), every $(shell ...) and
// VAR != cmd. Make's own expansions in a recipe ($(CC), $@, $*) become
// shell parameters (${CC}, ${_make_var}): values that the makefile or the
// environment gives, like a shell variable's. $$ is a $. A makefile that
// changes the shell (SHELL = ...) or includes another is recorded as
// unknown.
func makeCode(text string, f *foundCode) { makeCodeDepth(text, f, 0) }

func makeCodeDepth(text string, f *foundCode, depth int) {
	if f.tooDeep(depth, "make") {
		return
	}
	lines := makeLines(text)
	inRule := false
	for _, line := range lines {
		if f.over {
			return
		}
		if strings.HasPrefix(line, "\t") {
			if inRule {
				makeRecipe(line[1:], f, depth)
				continue
			}
		}
		t := strings.TrimSpace(makeStripComment(line))
		if t == "" {
			continue
		}
		makeShellCalls(t, f, depth)
		word, _ := cutWord(t)
		switch word {
		case "include", "-include", "sinclude":
			f.unknown("include")
			continue
		case "define", "endef", "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "export", "unexport",
			"override", "private", "vpath", "undefine":
			if word != "export" && word != "override" || !strings.ContainsAny(t, "=:") {
				continue
			}
		}
		if name, op, val, ok := makeAssign(t); ok {
			inRule = false
			switch {
			case op == "!=":
				f.shell("!=", makeToShell(val))
			case name == "SHELL" || name == ".SHELLFLAGS" || name == "MAKESHELL":
				f.unknown(name)
			}
			continue
		}
		colon := makeTopLevel(t, ':')
		if colon < 0 {
			continue
		}
		inRule = true
		after := t[colon+1:]
		after = strings.TrimLeft(after, ":&")
		if k := makeTopLevel(after, ';'); k >= 0 {
			makeRecipe(after[k+1:], f, depth)
		}
	}
}

// makeLines splits a makefile into logical lines: a backslash at the end
// of a line continues it (recipe continuations keep their newline, as
// make hands them to the shell; other lines are joined by a space).
func makeLines(text string) []string {
	raw := strings.Split(text, "\n")
	var out []string
	for i := 0; i < len(raw); i++ {
		line := strings.TrimSuffix(raw[i], "\r")
		if !continued(line) || i+1 >= len(raw) {
			out = append(out, line)
			continue
		}
		recipe := strings.HasPrefix(line, "\t")
		var b strings.Builder
		cur := line
		for continued(cur) && i+1 < len(raw) {
			if recipe {
				b.WriteString(cur)
				b.WriteByte('\n')
			} else {
				b.WriteString(strings.TrimSuffix(cur, "\\"))
				b.WriteByte(' ')
			}
			i++
			cur = strings.TrimSuffix(raw[i], "\r")
			if recipe {
				cur = strings.TrimPrefix(cur, "\t")
			} else {
				cur = strings.TrimLeft(cur, " \t")
			}
		}
		b.WriteString(cur)
		out = append(out, b.String())
	}
	return out
}

// continued reports a line that ends in a backslash (not an escaped one).
func continued(line string) bool {
	return strings.HasSuffix(line, "\\") && !strings.HasSuffix(line, "\\\\")
}

func makeStripComment(s string) string {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '#':
			return s[:i]
		}
	}
	return s
}

// makeAssign reads a variable assignment (NAME = v, :=, ::=, :::=, ?=, +=,
// !=).
func makeAssign(s string) (name, op, val string, ok bool) {
	for _, p := range []string{"export ", "override ", "private "} {
		s = strings.TrimPrefix(s, p)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '$' {
			return "", "", "", false
		}
		if c == ';' || c == '\t' {
			return "", "", "", false
		}
		if c == ':' && !strings.HasPrefix(s[i:], ":=") && !strings.HasPrefix(s[i:], "::=") && !strings.HasPrefix(s[i:], ":::=") {
			return "", "", "", false // a rule
		}
		if c == '=' {
			j := i
			for j > 0 && strings.IndexByte(":?+!", s[j-1]) >= 0 {
				j--
			}
			return strings.TrimSpace(s[:j]), s[j : i+1], strings.TrimSpace(s[i+1:]), true
		}
	}
	return "", "", "", false
}

// makeTopLevel returns the index of the first c in s outside $(...) and
// ${...}, or -1: the colon that separates a rule's targets from its
// prerequisites, or the ; that starts a rule's recipe on its line.
func makeTopLevel(s string, c byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '$':
			if i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{') {
				depth++
				i++
			}
		case ')', '}':
			if depth > 0 {
				depth--
			}
		case c:
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// makeRecipe records a recipe line: its prefixes (@, -, +) removed, make's
// expansions rendered for the shell.
func makeRecipe(r string, f *foundCode, depth int) {
	r = strings.TrimLeft(r, " \t@-+")
	makeShellCalls(r, f, depth)
	f.shell("recipe", makeToShell(r))
}

// makeShellCalls records the commands of $(shell ...) in s.
func makeShellCalls(s string, f *foundCode, depth int) {
	if f.tooDeep(depth, "$(shell)") {
		return
	}
	for i := 0; i+8 <= len(s) && !f.over; i++ {
		if s[i] != '$' || s[i+1] != '(' && s[i+1] != '{' || !strings.HasPrefix(s[i+2:], "shell ") {
			continue
		}
		end := makeRefEnd(s, i)
		inner := s[i+8 : max(end-1, i+8)]
		if strings.Contains(inner, "$(") || strings.Contains(inner, "${") {
			makeShellCalls(inner, f, depth+1)
		}
		f.shell("$(shell)", makeToShell(inner))
		i = end - 1
	}
}

// makeRefEnd returns the index after the $(...) or ${...} at s[i] (make
// has no escapes).
func makeRefEnd(s string, i int) int { return bracketEnd(s, i+1, false) }

// makeToShell renders make's expansions for the shell: $$ is $, $(NAME)
// and ${NAME} are ${NAME}, automatic variables and function calls are
// ${_make_var}.
func makeToShell(s string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		n := s[i+1]
		switch {
		case n == '$':
			b.WriteByte('$')
			i++
		case n == '(' || n == '{':
			end := makeRefEnd(s, i)
			inner := s[i+2 : max(end-1, i+2)]
			if isName(inner) {
				b.WriteString("${" + inner + "}")
			} else {
				b.WriteString("${_make_var}")
			}
			i = end - 1
		default:
			b.WriteString("${_make_var}")
			i++
		}
	}
	return b.String()
}
