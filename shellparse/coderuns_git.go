package shellparse

import "strings"

// gitKey says what a git configuration value is.
type gitKey uint8

const (
	// gitShell: a shell command line.
	gitShell gitKey = iota + 1
	// gitBoolOrShell: true/false, or a shell command line (core.fsmonitor,
	// pager.<cmd>).
	gitBoolOrShell
	// gitBang: a helper name, or "!" and a shell command line
	// (credential.helper, submodule.<name>.update).
	gitBang
	// gitAlias: alias.<name>: "!" and a shell command line, or git
	// arguments.
	gitAlias
	// gitUnknown: a file or folder whose content runs (core.hooksPath,
	// include.path, init.templateDir).
	gitUnknown
	// gitURL: a URL, which may be ext::CMD.
	gitURL
)

// gitConfigKeys lists the git configuration keys that hold commands, in
// lower case with * for a subsection (git-config(1)).
var gitConfigKeys = [...]struct {
	key  string
	kind gitKey
}{
	{"core.pager", gitShell},
	{"core.editor", gitShell},
	{"core.sshcommand", gitShell},
	{"core.askpass", gitShell},
	{"core.gitproxy", gitShell},
	{"core.alternaterefscommand", gitShell},
	{"core.fsmonitor", gitBoolOrShell},
	{"core.hookspath", gitUnknown},
	{"sequence.editor", gitShell},
	{"pager.*", gitBoolOrShell},
	{"alias.*", gitAlias},
	{"diff.external", gitShell},
	{"diff.*.command", gitShell},
	{"diff.*.textconv", gitShell},
	{"difftool.*.cmd", gitShell},
	{"merge.*.driver", gitShell},
	{"mergetool.*.cmd", gitShell},
	{"filter.*.clean", gitShell},
	{"filter.*.smudge", gitShell},
	{"filter.*.process", gitShell},
	{"credential.helper", gitBang},
	{"credential.*.helper", gitBang},
	{"submodule.*.update", gitBang},
	{"gpg.program", gitShell},
	{"gpg.*.program", gitShell},
	{"gpg.ssh.defaultkeycommand", gitShell},
	{"sendemail.sendmailcmd", gitShell},
	{"sendemail.tocmd", gitShell},
	{"sendemail.cccmd", gitShell},
	{"sendemail.headercmd", gitShell},
	{"uploadpack.packobjectshook", gitShell},
	{"remote.*.uploadpack", gitShell},
	{"remote.*.receivepack", gitShell},
	{"remote.*.url", gitURL},
	{"remote.*.pushurl", gitURL},
	{"url.*.insteadof", gitUnknown},
	{"browser.*.cmd", gitShell},
	{"browser.*.path", gitShell},
	{"man.*.cmd", gitShell},
	{"man.*.path", gitShell},
	{"instaweb.httpd", gitShell},
	{"imap.tunnel", gitShell},
	{"interactive.difffilter", gitShell},
	{"trailer.*.command", gitShell},
	{"trailer.*.cmd", gitShell},
	{"init.templatedir", gitUnknown},
	{"include.path", gitUnknown},
	{"includeif.*.path", gitUnknown},
}

// gitKeyKind returns what the configuration key holds, or 0.
func gitKeyKind(key string) gitKey {
	k := strings.ToLower(key)
	section, rest, ok := strings.Cut(k, ".")
	if !ok {
		return 0
	}
	sub, name := "", rest
	if j := strings.LastIndexByte(rest, '.'); j >= 0 {
		sub, name = rest[:j], rest[j+1:]
	}
	for _, e := range gitConfigKeys {
		es, erest, _ := strings.Cut(e.key, ".")
		if es != section {
			continue
		}
		esub, ename := "", erest
		if j := strings.LastIndexByte(erest, '.'); j >= 0 {
			esub, ename = erest[:j], erest[j+1:]
		}
		switch {
		case ename == "*" && sub == "" && esub == "":
			return e.kind // alias.NAME, pager.CMD
		case ename == name && (esub == sub || esub == "*" && sub != ""):
			return e.kind
		}
	}
	return 0
}

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
	case gitShell:
		f.shell(what, val)
	case gitBoolOrShell:
		if !gitBool(val) {
			f.shell(what, val)
		}
	case gitBang:
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(val), "!"); ok {
			f.shell(what, cmd)
		} else if strings.Contains(val, "/") || strings.Contains(val, " ") {
			f.shell(what, val)
		}
	case gitAlias:
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
	case gitUnknown:
		f.unknown(what)
	case gitURL:
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
			if b.Len() > 0 {
				out = append(out, b.String())
				b.Reset()
			}
		default:
			b.WriteByte(c)
		}
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out, len(out) > 0
}

// splitQuoted splits s into words at blanks, with '...' and "..." quoting
// and backslash escapes (as git splits an alias, xargs its input).
func splitQuoted(s string) []string {
	var out []string
	var b strings.Builder
	in := false
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else if c == '\\' && q == '"' && i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			} else {
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			q, in = c, true
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}

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
