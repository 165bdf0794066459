package shellparse

import (
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
	"github.com/shellguard/shellguard/internal/textlex"
)

// gitKeyKind returns what the configuration key holds (read from git's
// config_code in internal/programs/data/coderuns.toml), or 0.
func gitKeyKind(key string) programs.ConfigKind { return programs.Lookup("git").ConfigKey(key) }

// gitBool reports a git boolean value.
func gitBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "true", "false", "yes", "no", "on", "off", "1", "0":
		return true
	}
	return false
}

// gitConfigCode records what the configuration key=value of git -c runs.
// sub is the subcommand git runs and subArgs its arguments: an alias of
// that name runs.
func gitConfigCode(kv, sub string, subArgs []Arg, f *foundCode) {
	key, val, ok := strings.Cut(kv, "=")
	if !ok {
		return // a key alone is true
	}
	what := key
	switch gitKeyKind(key) {
	case programs.ConfigShell:
		f.shell(what, val)
	case programs.ConfigBoolOrShell:
		if !gitBool(val) {
			f.shell(what, val)
		}
	case programs.ConfigBang:
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(val), "!"); ok {
			f.shell(what, cmd)
		} else if strings.Contains(val, "/") || strings.Contains(val, " ") {
			f.shell(what, val)
		}
	case programs.ConfigAlias:
		name := key[strings.IndexByte(key, '.')+1:]
		if !strings.EqualFold(name, sub) {
			return
		}
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(val), "!"); ok {
			f.shell(what, cmd)
			return
		}
		words := append([]string{"git"}, splitQuoted(val)...)
		dyn := false
		for _, a := range subArgs {
			words = append(words, a.Value)
			if a.Dynamic {
				dyn = true
			}
		}
		f.argv(what, words, dyn)
	case programs.ConfigUnknown:
		f.unknown(what)
	case programs.ConfigURL:
		if argv, ok := gitExtURL(val); ok {
			f.argv(what+" ext::", argv, false)
		}
	}
}

// gitConfigEnvCode reads git --config-env=key=ENVVAR: a key that holds a
// command takes it from the environment, unknown here.
func gitConfigEnvCode(kv string, f *foundCode) {
	key, _, ok := strings.Cut(kv, "=")
	if !ok {
		return
	}
	if kind := gitKeyKind(key); kind != 0 {
		f.unknown(key)
	}
}

// gitExtURL returns the command of an ext:: URL (git-remote-ext(1)):
// arguments are separated by spaces, "% " is a space within one, "%%" a
// percent sign, %s and %S the service.
func gitExtURL(u string) ([]string, bool) {
	rest, ok := strings.CutPrefix(u, "ext::")
	if !ok {
		return nil, false
	}
	var out []string
	var b strings.Builder
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case c == '%' && i+1 < len(rest):
			i++
			switch rest[i] {
			case ' ':
				b.WriteByte(' ')
			case '%':
				b.WriteByte('%')
			case 's':
				b.WriteString("upload-pack")
			case 'S':
				b.WriteString("git-upload-pack")
			default:
				b.WriteByte('%')
				b.WriteByte(rest[i])
			}
		case c == ' ':
			out = endWord(out, &b)
		default:
			b.WriteByte(c)
		}
	}
	out = endWord(out, &b)
	return out, len(out) > 0
}

// splitQuoted splits s into words at blanks, with '...' and "..." quoting
// and backslash escapes (as git splits an alias, xargs its input).
func splitQuoted(s string) []string { return textlex.SplitQuoted(s, 0) }

// gitSub returns the subcommand git runs (the first operand after git's
// own options), or "".
func gitSub(inv *Invocation) string {
	if inv.Name != "git" || len(inv.Args) < 2 {
		return ""
	}
	s := scanOptions(inv.Args[1:], syntaxFor("git"))
	if len(s.operands) == 0 || s.operands[0].Dynamic {
		return ""
	}
	return s.operands[0].Value
}

// gitSubArgs returns the arguments after git's subcommand.
func gitSubArgs(inv *Invocation) []Arg {
	if inv.Name != "git" || len(inv.Args) < 2 {
		return nil
	}
	s := scanOptions(inv.Args[1:], syntaxFor("git"))
	if s.first+2 > len(inv.Args) {
		return nil
	}
	return inv.Args[1+s.first+1:]
}
