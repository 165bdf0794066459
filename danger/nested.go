package danger

import (
	"strings"

	"github.com/shellguard/shellguard/danger/internal/interp"
	"github.com/shellguard/shellguard/internal/programs"
	"github.com/shellguard/shellguard/internal/shquote"
	"github.com/shellguard/shellguard/shellparse"
)

// effective returns the name an invocation is matched by and the argv the
// rules read, after what the parser left in place: env's own options when
// the parser could not peel them (env - CMD, env -S 'A=1' CMD, env -P DIR
// CMD), and busybox APPLET.
func effective(inv *shellparse.Invocation) (string, []shellparse.Arg) {
	args := inv.Args
	if len(args) == 0 || args[0].Dynamic {
		return "", args
	}
	args = wrapperLeftovers(inv, args)
	if len(args) == 0 || args[0].Dynamic {
		return "", args
	}
	name := progName(baseName(args[0].Value))
	for guard := 0; guard < 8; guard++ {
		switch {
		case name == "-" && inv.HasWrapper("env"):
			args = args[1:]
		case name == "env":
			args = skipEnvOptions(args[1:])
		case name == "busybox" && len(args) > 1:
			args = args[1:]
		default:
			return name, args
		}
		if len(args) == 0 || args[0].Dynamic {
			return "", args
		}
		name = progName(baseName(args[0].Value))
	}
	return name, args
}

// wrapperLeftovers repairs argv when the last wrapper peeled took too
// little or too much: env -P DIR and BSD xargs -J STR take a value that is
// still in argv; GNU xargs --replace and -i take none, so the words after
// them are the command.
func wrapperLeftovers(inv *shellparse.Invocation, args []shellparse.Arg) []shellparse.Arg {
	if len(inv.Wrappers) == 0 {
		return args
	}
	w := inv.Wrappers[len(inv.Wrappers)-1]
	if len(w.Args) == 0 {
		return args
	}
	last := w.Args[len(w.Args)-1]
	switch w.Name {
	case "env":
		switch last {
		case "-P", "-u", "-C", "--unset", "--chdir":
			if len(args) > 1 {
				return args[1:]
			}
		case "-S", "--split-string":
			if len(args) > 1 {
				return append(splitEnvString(args[0].Value), args[1:]...)
			}
		}
	case "xargs":
		switch last {
		case "-J", "-R", "-S":
			if len(args) > 1 {
				return args[1:]
			}
		}
		for k, a := range w.Args {
			if (a == "--replace" || a == "-i" || a == "-e" || a == "-l" || a == "--eof") && k+1 < len(w.Args) && !strings.HasPrefix(w.Args[k+1], "-") {
				var out []shellparse.Arg
				for _, x := range w.Args[k+1:] {
					out = append(out, shellparse.Arg{Value: x, Raw: shquote.Quote(x)})
				}
				return append(out, args...)
			}
		}
	}
	return args
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 && i+1 < len(p) {
		return p[i+1:]
	}
	return p
}

// skipEnvOptions drops env's options and assignments; -S's string holds
// more of them.
func skipEnvOptions(args []shellparse.Arg) []shellparse.Arg {
	for len(args) > 0 {
		v := args[0].Value
		switch {
		case v == "--":
			return args[1:]
		case v == "-" || v == "-i" || v == "-0" || v == "-v" || v == "--ignore-environment" || v == "--null" || v == "--debug":
			args = args[1:]
		case v == "-u" || v == "-C" || v == "-P" || v == "--unset" || v == "--chdir":
			if len(args) < 2 {
				return nil
			}
			args = args[2:]
		case v == "-S" || v == "--split-string":
			if len(args) < 2 {
				return nil
			}
			words := splitEnvString(args[1].Value)
			args = append(words, args[2:]...)
		case strings.HasPrefix(v, "-S"):
			args = append(splitEnvString(v[2:]), args[1:]...)
		case strings.HasPrefix(v, "-") && len(v) > 1 || strings.HasPrefix(v, "--"):
			args = args[1:]
		case strings.IndexByte(v, '=') > 0:
			args = args[1:]
		default:
			return args
		}
	}
	return args
}

func splitEnvString(s string) []shellparse.Arg {
	var out []shellparse.Arg
	for _, f := range strings.Fields(s) {
		out = append(out, shellparse.Arg{Value: f, Raw: f})
	}
	return out
}

// nestedCommands returns the command lines an invocation runs that the
// parser did not re-parse: what interpreter code does, as shell command
// lines (the commands it hands to a shell or runs with an argument list,
// each deletion as "rm -rf -- PATH" or "rm -f -- PATH", each overwrite as
// ": > PATH"; see package interp), code that is itself a shell command
// (perl -e "rm -rf /"), the shell strings a runner is given (npx -c
// 'CMD'), and GNU parallel's commands.
func nestedCommands(sc *scan, i int) []string {
	name, args := sc.name(i), sc.args(i)
	if name == "" || len(args) == 0 {
		return nil
	}
	if name == "parallel" {
		if len(args) < 2 {
			return nil
		}
		return parallelCommands(args[1:])
	}
	p := sc.invs[i].prog
	lang := interp.LangOf(name)
	runs := p.Has(programs.Runs) && len(args) > 1
	if lang == interp.NoLang && !runs {
		return nil
	}
	var out []string
	if runs {
		vals, dyn := argWords(args[1:])
		out = programs.RunShell(p, vals, dyn)
	}
	if lang == interp.NoLang {
		return out
	}
	for _, f := range sc.code(i) {
		if c := f.Command(); c != "" {
			out = append(out, c)
		}
	}
	for _, src := range interp.Sources(name, args[1:]) {
		if looksLikeShell(src.Code) {
			out = append(out, src.Code)
		}
	}
	return out
}

// code returns what the code on invocation i's command line does, if it is
// an interpreter (computed once per check).
func (s *scan) code(i int) []interp.Finding {
	v := &s.invs[i]
	if !v.codeDone {
		v.codeDone = true
		if len(v.args) > 0 && interp.LangOf(v.name) != interp.NoLang {
			v.code = interp.Invocation(v.name, v.args[1:])
			// Code read from standard input when the line gives it:
			// python3 - <<'EOF', node <<< '...', echo '...' | perl.
			if inv := &s.res.Invocations[i]; inv.StdinKnown {
				v.code = append(v.code, interp.Stdin(v.name, v.args[1:], inv.Stdin)...)
			}
		}
	}
	return v.code
}

// interpreter names the language of a program whose code the detector
// reads (package interp), or "".
func interpreter(name string) string { return interp.LangOf(name).String() }

// looksLikeShell reports code that is a shell command rather than code
// of the language (perl -e "rm -rf /"): its first word is a program the
// registry knows as destructive.
func looksLikeShell(code string) bool {
	code = strings.TrimSpace(code)
	w, _, _ := strings.Cut(code, " ")
	switch w {
	case "rm", "find", "git", "dd", "mkfs", "shred", "chmod", "chown", "mv", "sudo", "bash", "sh", "wipefs", "rsync", "kill":
		return strings.Contains(code, " ")
	}
	return false
}

// parallelCommands reads GNU parallel's argv: the command (before :::)
// with each argument after ::: appended (or put in place of {}), or each
// argument as a command when there is no command. parallel joins the
// command's words with spaces and runs them through a shell (parallel
// 'curl -s {} | sh' ::: URL runs curl -s URL | sh), unless -q quotes
// them: both readings are checked when they differ (parallel bash -c 'rm
// -rf {}' ::: / means rm -rf / to whoever wrote it). The arguments are
// quoted.
func parallelCommands(args []shellparse.Arg) []string {
	i := parallelSkipOptions(args)
	var cmd, quoted, inputs []string
	sep := false
	for ; i < len(args); i++ {
		v := args[i].Value
		if v == ":::" || v == "::::" || v == ":::+" {
			sep = true
			continue
		}
		if sep {
			inputs = append(inputs, v)
		} else {
			cmd = append(cmd, v)
			quoted = append(quoted, shquote.Quote(v))
		}
	}
	if len(cmd) == 0 {
		return inputs
	}
	lines := []string{strings.Join(cmd, " ")}
	if q := strings.Join(quoted, " "); len(cmd) > 1 && q != lines[0] {
		lines = append(lines, q)
	}
	if len(inputs) == 0 {
		return lines
	}
	out := make([]string, 0, len(inputs)*len(lines))
	for _, line := range lines {
		for _, in := range inputs {
			if strings.Contains(line, "{}") {
				out = append(out, strings.ReplaceAll(line, "{}", shquote.Quote(in)))
			} else {
				out = append(out, line+" "+shquote.Quote(in))
			}
		}
	}
	return out
}

// shellFromInput reports a shell whose -c command comes from input at run
// time: xargs bash -c, xargs -I{} sh -c {}, parallel bash -c {} with the
// arguments read from standard input.
func shellFromInput(inv *shellparse.Invocation, name string, args []shellparse.Arg) bool {
	if name == "parallel" && len(args) > 1 {
		cmd := parallelCommandWords(args[1:])
		for _, a := range args[1:] {
			if a.Value == ":::" || a.Value == "::::" {
				return false
			}
		}
		return len(cmd) > 0 && programs.IsShell(progName(baseName(cmd[0])))
	}
	if !inv.ArgsFromInput || !programs.IsShell(name) {
		return false
	}
	for _, a := range args[1:] {
		if len(a.Value) > 1 && a.Value[0] == '-' && a.Value[1] != '-' && strings.IndexByte(a.Value, 'c') > 0 {
			return true
		}
	}
	return false
}

func parallelCommandWords(args []shellparse.Arg) []string {
	i := parallelSkipOptions(args)
	var out []string
	for ; i < len(args); i++ {
		out = append(out, args[i].Value)
	}
	return out
}

// parallelSkipOptions returns the index of the first word after
// parallel's options (and their values, as its program data gives them).
func parallelSkipOptions(args []shellparse.Arg) int {
	vals, dyn := argWords(args)
	sc := programs.NewScanner(programs.Lookup("parallel"), vals, dyn, "")
	for {
		it, ok := sc.Next()
		if !ok {
			return len(args)
		}
		switch it.Kind {
		case programs.EndOfOptions:
			return it.Word + 1
		case programs.Operand:
			return it.Word
		}
	}
}

// obfuscatedWord reports a program name spelled so as to hide it: quotes,
// backslashes or braces inside the word (w'h'o'am'i, w\ho\am\i,
// {cat,/etc/passwd}). A name quoted whole ("rm") or behind one leading
// backslash (\rm, which skips aliases) is ordinary.
func obfuscatedWord(a shellparse.Arg) bool {
	raw, v := a.Raw, a.Value
	if a.Dynamic || raw == v || raw == `\`+v || raw == `'`+v+`'` || raw == `"`+v+`"` {
		return false
	}
	if a.Resolved {
		// Resolved by the parser from literal text and expansions
		// (who$(echo am)i, r$x): spelled to hide it. One expansion
		// ($p, "$(which rm)") is not.
		return !oneExpansion(raw)
	}
	return strings.ContainsAny(raw, "'\"\\{")
}

// oneExpansion reports a word that is a single expansion, quoted or not:
// $name, ${...}, $(...) or `...`.
func oneExpansion(raw string) bool {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		raw = raw[1 : len(raw)-1]
	}
	switch {
	case strings.HasPrefix(raw, "$("), strings.HasPrefix(raw, "${"):
		open, closing := raw[1], byte(')')
		if open == '{' {
			closing = '}'
		}
		depth := 0
		for i := 1; i < len(raw); i++ {
			switch raw[i] {
			case open:
				depth++
			case closing:
				depth--
				if depth == 0 {
					return i == len(raw)-1
				}
			}
		}
		return false
	case strings.HasPrefix(raw, "`"):
		return strings.IndexByte(raw[1:], '`') == len(raw)-2
	case len(raw) == 2 && raw[0] == '$' && strings.IndexByte("0123456789@*#?$!-", raw[1]) >= 0:
		return true // $0, $1, $@, ...
	case strings.HasPrefix(raw, "$") && len(raw) > 1:
		for i := 1; i < len(raw); i++ {
			c := raw[i]
			if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' && i > 1) {
				return false
			}
		}
		return true
	}
	return false
}
