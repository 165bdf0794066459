package danger

import (
	"strings"

	"github.com/shellguard/shellguard/shellparse"
)

// Check "env_slice": a word cut out of a variable by substring
// (${v:off:len}) or pattern replacement (${v/pat/rep}, ${v//pat/rep},
// ${v/#pat/rep}, ${v/%pat/rep}) spells text that is not written in the
// command: cat ${HOME:0:1}etc${HOME:0:1}passwd is cat /etc/passwd, and
// with test=/ehhh/hmtc/pahhh/hmsswd set earlier, cat ${test//hhh\/hm/} is
// cat /etc/passwd too (PayloadsAllTheThings).
//
// Which variables count (decided against the benign corpora, where such
// cuts are rare: about 20 of 41,000 lines, nearly all of them renaming
// loops over a variable the line sets itself):
//
//   - the environment variables of envSliceVar (HOME, PATH, IFS, ...),
//     whose values everybody knows;
//   - a variable the line assigns a literal to (test=/ehhh...; cat
//     ${test//hhh/}): the only reason to cut a constant is to spell what
//     was not written;
//   - a variable the line does not set at all: its value comes from the
//     environment or an earlier command, which shellguard never sees.
//
// A variable the line binds at run time is not flagged: a loop variable
// (for f in *.txt; do mv "$f" "${f// /_}"; done), one read by read,
// mapfile or getopts, one assigned a computed value, and the positional
// parameters ($1, $@: bash -c '...' _ {} renaming what find found).
// Suffix and prefix removal (${f%.txt}, ${f##*/}), defaults (${v:-x},
// ${v:=x}, ${v:?}, ${v:+x}), case changes, lengths and zsh's modifiers
// (${f:h}) are not cuts and are never flagged.
func envSliceWord(res *shellparse.Result, raw string) bool {
	for i := 0; i+2 < len(raw); i++ {
		if raw[i] != '$' || raw[i+1] != '{' {
			continue
		}
		name, cut := expansionCut(raw[i+2:])
		if !cut {
			continue
		}
		if envSliceVar(name) || !boundAtRunTime(res, name) {
			return true
		}
	}
	return false
}

// expansionCut reads the inside of a ${...} expansion and returns the
// parameter's name and whether the operator cuts a substring or replaces
// a pattern.
func expansionCut(s string) (name string, cut bool) {
	if s == "" || s[0] == '#' || s[0] == '!' {
		return "", false // length, indirection
	}
	n := 0
	switch {
	case s[0] >= '0' && s[0] <= '9':
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
	case s[0] == '@' || s[0] == '*':
		n = 1
	default:
		for n < len(s) && (s[n] == '_' || s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z' || n > 0 && s[n] >= '0' && s[n] <= '9') {
			n++
		}
	}
	if n == 0 {
		return "", false
	}
	name, rest := s[:n], s[n:]
	if strings.HasPrefix(rest, "[") {
		// arr[@], arr[i]: the array's name counts.
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return "", false
		}
		rest = rest[end+1:]
	}
	if len(rest) < 2 {
		return name, false
	}
	switch rest[0] {
	case '/':
		return name, true
	case ':':
		// An offset: a number, a space before a negative one, an
		// arithmetic group or a variable. Not :- := :? :+ (defaults),
		// nor zsh's modifiers (${f:h}, ${f:u}, ${v:s/a/b/}).
		return name, rest[1] >= '0' && rest[1] <= '9' || rest[1] == ' ' || rest[1] == '(' || rest[1] == '$'
	}
	return name, false
}

// envSliceVar reports the environment variables whose values are known
// to everybody, so that a cut of them spells a path or a command.
func envSliceVar(name string) bool {
	switch name {
	case "HOME", "PATH", "PWD", "OLDPWD", "SHELL", "IFS", "USER", "LS_COLORS", "PS1", "PS2", "PS4", "BASH", "TMPDIR":
		return true
	}
	return false
}

// boundAtRunTime reports whether the line itself gives the variable name a
// value computed at run time (see envSliceWord). A variable the line
// assigns only literals to is not bound at run time.
func boundAtRunTime(res *shellparse.Result, name string) bool {
	if name[0] >= '0' && name[0] <= '9' || name == "@" || name == "*" {
		return true // positional parameters
	}
	for k := range res.Invocations {
		inv := &res.Invocations[k]
		for _, a := range inv.Assigns {
			if a.Name == name && (a.Dynamic || strings.Contains(a.Value, "{}")) {
				// {}: find -exec bash -c 'f="{}"; ...' gets find's path.
				return true
			}
		}
		if len(inv.Args) < 2 || inv.Args[0].Dynamic {
			continue
		}
		switch inv.Args[0].Value {
		case "read", "mapfile", "readarray", "getopts", "select":
			for _, a := range inv.Args[1:] {
				if a.Value == name {
					return true
				}
			}
		case "export", "declare", "typeset", "local", "readonly":
			for _, a := range inv.Args[1:] {
				if v, ok := strings.CutPrefix(a.Value, name+"="); ok && (a.Dynamic || strings.Contains(v, "{}")) {
					return true
				}
			}
		}
	}
	return loopVariable(res.Source, name)
}

// loopVariable reports a for or select loop over name in the line's source
// (the parser does not keep loop variables). It may find one in a string
// that is never run: the variable then counts as bound, which only
// leaves a cut unflagged as it was before any variable counted.
func loopVariable(src, name string) bool {
	for _, kw := range []string{"for", "select"} {
		for rest := src; ; {
			i := strings.Index(rest, kw)
			if i < 0 {
				break
			}
			before := i == 0 || !isWordByte(rest[i-1])
			rest = rest[i+len(kw):]
			if !before || rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
				continue
			}
			v := strings.TrimLeft(rest, " \t")
			if strings.HasPrefix(v, name) && (len(v) == len(name) || !isWordByte(v[len(name)])) {
				return true
			}
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
