package danger

import (
	"regexp"
	"strings"
	"sync"

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
// parser did not re-parse: the shell commands an interpreter one-liner
// hands to a shell (os.system, subprocess, execSync, system, backticks),
// each deletion it makes as "rm -rf -- PATH", code that is itself a shell
// command (perl -e "rm -rf /"), the shell strings a runner is given (npx
// -c 'CMD'), and GNU parallel's commands.
func nestedCommands(p *programs.Program, name string, args []shellparse.Arg) []string {
	if name == "" || len(args) < 2 {
		return nil
	}
	if name == "parallel" {
		return parallelCommands(args[1:])
	}
	lang := interpreter(p)
	if lang == "" && !p.Has(programs.Runs) {
		return nil
	}
	var out []string
	vals, dyn := argWords(args[1:])
	if p.Has(programs.Runs) {
		out = programs.RunShell(p, vals, dyn)
	}
	if lang == "" {
		return out
	}
	for _, code := range programs.CodeValues(p, vals, dyn) {
		shells, _ := shellOuts(lang, code)
		out = append(out, shells...)
		paths, _ := deletions(code)
		for _, path := range paths {
			out = append(out, "rm -rf -- "+shquote.Quote(path))
		}
		if looksLikeShell(code) {
			out = append(out, code)
		}
	}
	return out
}

// interpreter names the language family of a program whose code options
// the detector reads (python -c, node -e, perl -e, ruby -e, php -r), or
// "".
func interpreter(p *programs.Program) string {
	if p == nil {
		return ""
	}
	switch p.Lang {
	case "python", "node", "perl", "ruby", "php":
		return p.Lang
	}
	return ""
}

// A string literal in Python, JavaScript, Perl, Ruby or PHP.
const literal = `(?:[rbfuRBFU]{0,2}"((?:[^"\\]|\\.)*)"|[rbfuRBFU]{0,2}'((?:[^'\\]|\\.)*)')`

// codeRegexps are compiled on first use: only a line that runs an
// interpreter pays for them.
type codeRegexps struct {
	shellOutCall, firstLiteral, anyLiteral, backticks, deleteCall *regexp.Regexp
}

var codeRE = sync.OnceValue(func() *codeRegexps {
	return &codeRegexps{
		// A call that hands a command to a shell or runs a program, up
		// to its opening.
		shellOutCall: regexp.MustCompile(`\b(?:os\.system|os\.popen|os\.exec[lv]p?e?|os\.spawn[lv]p?e?|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|commands\.getoutput|pty\.spawn|execSync|execFileSync|spawnSync|exec|execFile|spawn|system|popen|IO\.popen|Open3\.\w+|Kernel\.(?:system|exec|spawn)|shell_exec|passthru|proc_open)\s*(?:\(|\s)\s*`),
		firstLiteral: regexp.MustCompile(`^` + literal),
		anyLiteral:   regexp.MustCompile(literal),
		// Backticks, %x() and qx() run a shell command in Perl, Ruby and
		// PHP.
		backticks: regexp.MustCompile("`([^`]*)`|%x[({\\[]([^)}\\]]*)[)}\\]]|\\bqx[({\\[/]([^)}\\]/]*)[)}\\]/]"),
		// A call that deletes files or trees, up to its opening.
		deleteCall: regexp.MustCompile(`\b(?:shutil\.rmtree|os\.(?:remove|unlink|rmdir|removedirs)|rmtree|remove_tree|(?:fs\.|fsp\.|promises\.)?(?:rmSync|rmdirSync|unlinkSync)|fs\.(?:rm|rmdir|unlink)|fsp\.(?:rm|rmdir|unlink)|FileUtils\.(?:rm_rf|rm_r|rm_f|rm|remove_dir|remove_entry|remove_entry_secure|rmtree|remove)|File\.(?:delete|unlink)|Dir\.(?:delete|rmdir|unlink)|unlink|rmdir|Deno\.remove)\s*(?:\(|\s)\s*`),
	}
})

// shellOuts returns the literal shell commands code hands to a shell, and
// whether it hands over anything that is not a literal.
func shellOuts(lang, code string) (cmds []string, dynamic bool) {
	re := codeRE()
	for _, m := range re.shellOutCall.FindAllStringIndex(code, 16) {
		rest := code[m[1]:]
		if lit, ok := leadingLiteral(rest); ok {
			cmds = append(cmds, lit)
			continue
		}
		// An argv list: subprocess.run(["rm", "-rf", "/"]).
		if strings.HasPrefix(rest, "[") {
			end := strings.IndexByte(rest, ']')
			if end > 0 {
				var words []string
				for _, w := range re.anyLiteral.FindAllStringSubmatch(rest[:end], 64) {
					words = append(words, shquote.Quote(unescape(w[1]+w[2])))
				}
				if len(words) > 0 && !strings.Contains(stripLiterals(rest[1:end]), "[") {
					cmds = append(cmds, strings.Join(words, " "))
					if !onlyLiterals(rest[1:end]) {
						dynamic = true
					}
					continue
				}
			}
		}
		dynamic = true
	}
	if lang == "perl" || lang == "ruby" || lang == "php" {
		for _, m := range re.backticks.FindAllStringSubmatch(code, 16) {
			cmds = append(cmds, m[1]+m[2]+m[3])
		}
	}
	return cmds, dynamic
}

// deletions returns the literal paths code deletes, and whether it also
// deletes something it computes.
func deletions(code string) (paths []string, dynamic bool) {
	for _, m := range codeRE().deleteCall.FindAllStringIndex(code, 16) {
		if lit, ok := leadingLiteral(code[m[1]:]); ok {
			paths = append(paths, lit)
			continue
		}
		dynamic = true
	}
	return paths, dynamic
}

func leadingLiteral(s string) (string, bool) {
	m := codeRE().firstLiteral.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	return unescape(m[1] + m[2]), true
}

func stripLiterals(s string) string { return codeRE().anyLiteral.ReplaceAllString(s, "") }

func onlyLiterals(s string) bool {
	return strings.Trim(stripLiterals(s), " ,\t") == ""
}

// unescape resolves a literal's backslash escapes of quotes and
// backslashes (enough for commands and paths).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '\\', '\'', '"':
				i++
			case 'n':
				b.WriteByte('\n')
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

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

// interpreterRuns reports what check "interpreter_shell_out" and
// "interpreter_delete" look for in an interpreter's code.
func interpreterRuns(check string, p *programs.Program, args []shellparse.Arg) bool {
	lang := interpreter(p)
	if lang == "" || len(args) < 2 {
		return false
	}
	vals, dyn := argWords(args[1:])
	for _, code := range programs.CodeValues(p, vals, dyn) {
		switch check {
		case "interpreter_shell_out":
			if _, dyn := shellOuts(lang, code); dyn {
				return true
			}
		case "interpreter_delete":
			p, dyn := deletions(code)
			if dyn || len(p) > 0 {
				return true
			}
		}
	}
	return false
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
	return strings.ContainsAny(raw, "'\"\\{")
}
