package danger

import (
	"path"
	"strings"

	"github.com/shellguard/shellguard/shellparse"
)

// argv is an invocation's arguments in canonical form.
type argv struct {
	sub      string
	flags    []string
	operands []string
	joined   string
}

// hasFlag reports whether the canonical flag f is present; a trailing *
// in f matches any suffix ("--delete*").
func (a *argv) hasFlag(f string) bool {
	if strings.HasSuffix(f, "*") {
		p := f[:len(f)-1]
		for _, x := range a.flags {
			if strings.HasPrefix(x, p) {
				return true
			}
		}
		return false
	}
	for _, x := range a.flags {
		if x == f {
			return true
		}
	}
	return false
}

// progName is the name a program is matched by: the basename without a
// Windows directory or an .exe suffix, in lower case (a case-insensitive
// filesystem, as on macOS and Windows, runs GIT as git).
func progName(name string) string {
	plain := true
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '\\' || c == '.' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	if i := strings.LastIndexByte(name, '\\'); i >= 0 && i+1 < len(name) {
		name = name[i+1:]
	}
	if len(name) > 4 && strings.EqualFold(name[len(name)-4:], ".exe") {
		name = name[:len(name)-4]
	}
	return strings.ToLower(name)
}

// dashes are the Unicode hyphens and dashes that look like '-'.
func isLookalikeDash(r rune) bool {
	return r >= 0x2010 && r <= 0x2015 || r == 0x2212 || r == 0xFE58 || r == 0xFE63 || r == 0xFF0D
}

// normDashes turns a word's leading Unicode dashes into '-' ("‐‐hard" is
// "--hard", "–rf" is "-rf"): such a word is never harmless text to rely on.
func normDashes(v string) string {
	if len(v) < 3 || v[0] < 0xE2 {
		return v
	}
	i := 0
	var b strings.Builder
	for _, r := range v {
		if !isLookalikeDash(r) {
			break
		}
		b.WriteByte('-')
		i += len(string(r))
	}
	if i == 0 {
		return v
	}
	return b.String() + v[i:]
}

// flagAlias maps a program's flag spellings to one canonical spelling.
// It is code, not data, because it is argv semantics: which options are
// the same option.
func flagAlias(prog, flag string) string {
	switch prog {
	case "rm":
		switch flag {
		case "-R", "--recursive":
			return "-r"
		case "--force":
			return "-f"
		}
	case "chmod", "chown", "chgrp":
		if flag == "--recursive" {
			return "-R"
		}
	case "git":
		switch flag {
		case "--force":
			return "-f"
		case "--delete":
			return "-d"
		case "--hard", "--mirror":
			return flag
		}
	case "shred":
		switch flag {
		case "--remove":
			return "-u"
		case "--zero":
			return "-z"
		}
	case "crontab":
		if flag == "--remove" {
			return "-r"
		}
	case "nc", "ncat", "netcat":
		if flag == "--exec" || flag == "--sh-exec" {
			return "-e"
		}
	case "base64", "base32":
		if flag == "--decode" {
			return "-d"
		}
	case "xxd":
		if flag == "--revert" {
			return "-r"
		}
	case "wipefs":
		if flag == "--all" {
			return "-a"
		}
	}
	return flag
}

// clusterProgram reports whether a program's single-dash words are
// clusters of one-letter options (rm -rf) rather than long options
// spelled with one dash (find -delete, dd has none).
func clusterProgram(prog string) bool {
	switch prog {
	case "find", "dd", "java", "go", "openssl", "socat", "iptables", "kill", "killall", "pkill":
		return false
	}
	return true
}

// gitGlobalWithArg are git's global options that take the next word.
func gitGlobalWithArg(f string) bool {
	switch f {
	case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix", "--list-cmds":
		return true
	}
	return false
}

// canonical computes into a the canonical argv of an invocation whose
// program is matched by the name prog (see progName) and whose argv is
// args. a.joined is left empty (see joinValues).
func canonical(a *argv, prog string, args []shellparse.Arg, scr *scratch) {
	*a = argv{}
	if len(args) > 0 {
		args = args[1:]
	}
	if strings.HasPrefix(prog, "git-") && len(prog) > 4 {
		a.sub = prog[4:]
		prog = "git"
	}
	// One piece of scratch holds both lists: operands never outnumber
	// args; flags rarely outnumber twice as many (a cluster -rf is two),
	// and append moves them out should they.
	if n := len(args); n > 0 {
		buf := scr.take(3 * n)
		a.operands = buf[:0:n]
		a.flags = buf[n:n]
	}
	i := 0
	if prog == "git" && a.sub == "" {
		for i < len(args) {
			v := args[i].Value
			if !strings.HasPrefix(v, "-") || v == "-" {
				break
			}
			i++
			if gitGlobalWithArg(v) {
				i++
			}
		}
		if i < len(args) {
			a.sub = strings.ToLower(args[i].Value)
			i++
		}
	}
	cluster := clusterProgram(prog)
	endOfFlags := false
	for ; i < len(args); i++ {
		x := args[i]
		v := x.Value
		if x.Dynamic {
			a.operands = append(a.operands, dynShape(x.Raw))
			continue
		}
		if !endOfFlags {
			v = normDashes(v)
		}
		if endOfFlags || len(v) < 2 || v[0] != '-' {
			a.operands = append(a.operands, cleanOperand(v))
			continue
		}
		if v == "--" {
			// Recorded as a flag: git checkout -- FILE names files.
			a.flags = append(a.flags, "--")
			endOfFlags = true
			continue
		}
		if strings.HasPrefix(v, "--") {
			name := v
			if eq := strings.IndexByte(v, '='); eq > 0 {
				name = v[:eq]
			}
			if prog == "git" {
				name = strings.ToLower(name)
			}
			a.flags = append(a.flags, flagAlias(prog, name))
			continue
		}
		if !cluster || isNumber(v[1:]) {
			a.flags = append(a.flags, flagAlias(prog, v))
			continue
		}
		for j := 1; j < len(v); j++ {
			a.flags = append(a.flags, flagAlias(prog, "-"+v[j:j+1]))
		}
	}
	if prog == "find" {
		findCanonical(args, a)
	}
}

// joinValues joins the values of argv after the program by single spaces.
func joinValues(args []shellparse.Arg) string {
	if len(args) < 2 {
		return ""
	}
	args = args[1:]
	if len(args) == 1 {
		return args[0].Value
	}
	n := len(args) - 1
	for _, x := range args {
		n += len(x.Value)
	}
	var b strings.Builder
	b.Grow(n)
	for i, x := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x.Value)
	}
	return b.String()
}

// findCanonical rewrites find's argv: operands are the starting points
// (before the first expression word), and -exec/-execdir/-ok/-okdir also
// appear as "-exec=PROGRAM".
func findCanonical(args []shellparse.Arg, a *argv) {
	a.operands = a.operands[:0]
	a.flags = a.flags[:0]
	starts := true
	for i := 0; i < len(args); i++ {
		x := args[i]
		v := x.Value
		if starts && !x.Dynamic && (strings.HasPrefix(v, "-") || v == "(" || v == "!") {
			starts = false
		}
		if starts {
			if x.Dynamic {
				a.operands = append(a.operands, dynShape(x.Raw))
			} else {
				a.operands = append(a.operands, cleanOperand(v))
			}
			continue
		}
		if !strings.HasPrefix(v, "-") {
			continue
		}
		a.flags = append(a.flags, v)
		switch v {
		case "-exec", "-execdir", "-ok", "-okdir":
			if i+1 < len(args) {
				p := args[i+1].Value
				if args[i+1].Dynamic {
					p = "$"
				}
				a.flags = append(a.flags, v+"="+progName(path.Base(p)))
			}
		}
	}
	if starts && len(a.operands) == 0 {
		a.operands = append(a.operands, ".")
	}
}

func isNumber(s string) bool { return isDigits(s) }

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// cleanOperand cleans path-like operands: "/etc/" -> "/etc", "//" -> "/",
// "~/" -> "~", "/./*" -> "/*", "/tmp/../.." -> "/", ten "../" -> "/".
func cleanOperand(v string) string { return shellparse.CleanPath(v) }

// dynShape is how a dynamic word is compared: as written, without quotes
// or the braces of ${...}, and cleaned like a path.
func dynShape(raw string) string {
	s := raw
	if strings.ContainsAny(s, `"{}`) {
		s = strings.Map(func(r rune) rune {
			if r == '"' || r == '{' || r == '}' {
				return -1
			}
			return r
		}, s)
	}
	if strings.HasPrefix(s, "$") && strings.Contains(s, "/") {
		head, tail, _ := strings.Cut(s, "/")
		// Cleaned relative to the variable, so that climbing out of it
		// stays visible: "$TMPDIR/../etc" is "$TMPDIR/../etc".
		c := path.Clean(tail)
		if c == "." {
			return head
		}
		return head + "/" + c
	}
	return s
}
