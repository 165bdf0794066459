package interp

import (
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
	"github.com/shellguard/shellguard/internal/textlex"
)

// vkind is what the analyser knows of a value.
type vkind uint8

const (
	vDyn  vkind = iota // computed at run time
	vStr               // a string; Mark stands for unknown parts
	vNum               // a number, boolean or nil: s is its text, b its truth
	vList              // el are the elements (alt: one of them, a loop variable)
	vObj               // keys and el: an object, dict, hash or keyword arguments
	vName              // s is a qualified name: a module, function or attribute chain
	vMeth              // s is a method of the value el[0]
)

// flag is what a value carries with it.
type flag uint16

const (
	fNet     flag = 1 << iota // downloaded
	fSecret                   // read from a secret file or the environment
	fSock                     // a network socket
	fPath                     // a path object (pathlib.Path, Pathname, Bun.file)
	fDecoded                  // decoded from base64, hex, rot13, ...
	fFile                     // an open file
	fClient                   // an HTTP client object (WebClient, requests.Session)
	fEndless                  // an endless iterator (itertools.count())
	fFunc                     // a function or lambda value
	fProc                     // a child process
	fBytes                    // decoded bytes: NUL is data, not Mark
)

type val struct {
	k    vkind
	f    flag
	b    bool
	alt  bool
	s    string
	el   []val
	keys []string
	why  string // fSecret: which secret
}

func dyn(f flag) val    { return val{k: vDyn, f: f &^ (fPath | fFunc | fClient | fEndless)} }
func str(s string) val  { return val{k: vStr, s: capStr(s)} }
func name(s string) val { return val{k: vName, s: s} }
func boolean(b bool) val {
	if b {
		return val{k: vNum, b: true, s: "true"}
	}
	return val{k: vNum, s: "false"}
}
func list(el []val) val { return val{k: vList, el: el} }
func method(r val, m string) val {
	return val{k: vMeth, s: m, el: []val{r}, f: r.f & (fNet | fSecret | fSock | fFile | fClient | fProc)}
}

func capStr(s string) string {
	if len(s) > maxStr {
		return s[:maxStr] + Mark
	}
	return s
}

// known reports a string with no unknown part.
func (v val) known() bool {
	return v.k == vStr && (v.f&fBytes != 0 || !strings.Contains(v.s, Mark)) || v.k == vNum
}

// text returns the value as text: a string's text, a number's literal,
// Mark for what is unknown.
func (v val) text() string {
	switch v.k {
	case vStr, vNum:
		return v.s
	}
	return Mark
}

// truthy reports a constant that is true (True, 1, "x").
func (v val) truthy() bool {
	switch v.k {
	case vNum:
		return v.b
	case vStr:
		return v.s != "" && !strings.Contains(v.s, Mark)
	}
	return false
}

// taint is what flows from a value into what is computed from it.
func (v val) taint() flag {
	f := v.f & (fNet | fSecret | fDecoded | fSock | fBytes)
	for _, e := range v.el {
		if e.k != vMeth {
			f |= e.f & (fNet | fSecret | fDecoded)
		}
	}
	return f
}

// why returns the secret a value holds, if any.
func (v val) secret() string {
	if v.f&fSecret != 0 {
		if v.why == "" {
			return "a secret"
		}
		return v.why
	}
	for _, e := range v.el {
		if s := e.secret(); s != "" {
			return s
		}
	}
	return ""
}

// concat joins two values as strings; unknown parts become Mark. A loop
// variable's alternatives give one string each.
func concat(a, b val) val {
	if (a.alt || b.alt) && len(a.alts())*len(b.alts()) <= maxAlts {
		var el []val
		for _, x := range a.alts() {
			for _, y := range b.alts() {
				el = append(el, concat(x, y))
			}
		}
		return val{k: vList, alt: true, el: el}
	}
	at, bt := a.text(), b.text()
	var v val
	switch {
	case len(at) > maxStr:
		v = str(at) // already cut to the cap, ending with Mark
	case len(at)+len(bt) > maxStr:
		v = str(at + bt[:min(len(bt), maxStr+1-len(at))])
	default:
		v = str(at + bt)
	}
	v.f = a.taint() | b.taint()
	v.why = a.why + b.why
	if a.f&fPath != 0 {
		v.f |= fPath
	}
	return v
}

// words flattens a value into argument words: a list's elements, one
// word for anything else.
func (v val) words() []Word {
	if v.k == vList {
		var out []Word
		for _, e := range v.el {
			if e.k == vList {
				out = append(out, e.words()...)
				continue
			}
			out = append(out, e.word())
		}
		return out
	}
	return []Word{v.word()}
}

func (v val) word() Word {
	t := v.text()
	if v.k == vStr {
		t = normPathText(t)
	}
	return Word{Text: t, Dynamic: strings.Contains(t, Mark)}
}

// alts returns the values a value may be: a loop variable's alternatives,
// or the value itself.
func (v val) alts() []val {
	if v.k == vList && v.alt {
		return v.el
	}
	return []val{v}
}

// get returns an object's member.
func (v val) get(key string) (val, bool) {
	if v.k != vObj {
		return val{}, false
	}
	for i, k := range v.keys {
		if k == key && i < len(v.el) {
			return v.el[i], true
		}
	}
	return val{}, false
}

// normPath canonicalises a path value: the home directory as "~"
// ($HOME, ${HOME}, $env:USERPROFILE, %USERPROFILE%), a Windows drive root
// as "/", backslashes as slashes in Windows paths.
func normPathText(p string) string {
	for _, h := range [...]string{"${HOME}", "$HOME", "$env:HOME", "$env:USERPROFILE", "${env:USERPROFILE}", "${env:HOME}", "%USERPROFILE%", "%HOMEPATH%", "$ENV{HOME}", "$env(HOME)"} {
		if len(p) >= len(h) && strings.EqualFold(p[:len(h)], h) && (len(p) == len(h) || p[len(h)] == '/' || p[len(h)] == '\\') {
			p = "~" + p[len(h):]
			break
		}
	}
	if len(p) >= 2 && p[1] == ':' && (p[0] >= 'A' && p[0] <= 'Z' || p[0] >= 'a' && p[0] <= 'z') && (len(p) == 2 || p[2] == '\\' || p[2] == '/') {
		// C:\ is the root of a Windows system; C:\Users the homes.
		p = "/" + strings.TrimLeft(strings.ReplaceAll(p[2:], `\`, "/"), "/")
		if strings.HasPrefix(strings.ToLower(p), "/users") {
			p = "/home" + p[len("/users"):]
		}
	}
	if strings.HasPrefix(p, `~\`) {
		p = "~/" + strings.ReplaceAll(p[2:], `\`, "/")
	}
	return p
}

// joinPath joins path segments as os.path.join does: an absolute segment
// starts over.
func joinPath(parts []val) val {
	out := val{k: vStr, f: fPath}
	for i, p := range parts {
		out.f |= p.taint()
		t := normPathText(p.text())
		if i > 0 && (strings.HasPrefix(t, "/") || strings.HasPrefix(t, "~")) {
			out.s = t
			continue
		}
		if out.s != "" && !strings.HasSuffix(out.s, "/") {
			out.s += "/"
		}
		out.s += t
	}
	out.s = capStr(out.s)
	return out
}

// envVar returns the value of an environment variable the code reads.
func envVar(n string) val {
	switch strings.ToUpper(n) {
	case "HOME", "USERPROFILE":
		return str("~")
	case "TMPDIR", "TEMP", "TMP":
		return str("/tmp")
	case "PWD":
		return str(".")
	}
	if secretEnv(n) {
		v := dyn(fSecret)
		v.why = "$" + n
		return v
	}
	return dyn(0)
}

// secretEnv reports an environment variable named like a secret.
func secretEnv(n string) bool {
	u := strings.ToUpper(n)
	for _, s := range [...]string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "PRIVATE_KEY", "ACCESS_KEY", "CREDENTIAL", "AUTH"} {
		if strings.Contains(u, s) {
			return true
		}
	}
	return false
}

func envAll() val {
	v := dyn(fSecret)
	v.why = "the environment"
	return v
}

// secretPath reports a path that holds keys or credentials: what a
// program reading it and sending it elsewhere leaks.
func secretPath(p string) bool {
	p = normPathText(p)
	for _, pre := range [...]string{"/root/", "/home/"} {
		if strings.HasPrefix(p, pre) {
			rest := p[len(pre):]
			if pre == "/home/" {
				if i := strings.IndexByte(rest, '/'); i >= 0 {
					rest = rest[i+1:]
				} else {
					rest = ""
				}
			}
			p = "~/" + rest
		}
	}
	base := p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		base = p[i+1:]
	}
	switch {
	case strings.HasPrefix(p, "~/.ssh/") && !strings.HasSuffix(p, ".pub") && base != "known_hosts" && base != "config":
		return true
	case strings.HasPrefix(p, "~/.gnupg/"), strings.HasPrefix(p, "~/.password-store"):
		return true
	}
	switch p {
	case "~/.aws/credentials", "~/.aws/config", "~/.docker/config.json", "~/.netrc", "~/.git-credentials", "~/.pgpass",
		"~/.kube/config", "~/.config/gh/hosts.yml", "~/.npmrc", "~/.pypirc", "~/.config/gcloud/credentials.db",
		"~/.azure/accessTokens.json", "~/.bash_history", "~/.zsh_history", "/etc/shadow", "/etc/gshadow",
		"/etc/sudoers", "/etc/master.passwd":
		return true
	}
	if strings.HasPrefix(p, "/etc/ssh/ssh_host_") && strings.HasSuffix(p, "_key") {
		return true
	}
	switch base {
	case ".env", ".env.local", ".env.production", "id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "credentials.json", "secrets.json", "secrets.yml", "secrets.yaml":
		return true
	}
	return strings.HasSuffix(base, ".pem") || strings.HasSuffix(base, ".key") || strings.HasSuffix(base, ".p12") || strings.HasSuffix(base, ".pfx")
}

// isShellProgram reports a program that is an interactive shell or a
// command interpreter (the shells and command_shell programs of
// internal/programs), named by a Unix or Windows path, with or without
// .exe.
func isShellProgram(p string) bool {
	p = strings.ToLower(p)
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		p = p[i+1:]
	}
	return programs.StartsShell(strings.TrimSuffix(p, ".exe"))
}

// isDownloader reports a shell command line that downloads (its output
// is remote content).
func isDownloader(cmd string) bool {
	w, _, _ := strings.Cut(strings.TrimSpace(cmd), " ")
	if i := strings.LastIndexByte(w, '/'); i >= 0 {
		w = w[i+1:]
	}
	switch w {
	case "curl", "wget", "fetch", "http", "https", "aria2c":
		return true
	}
	return false
}

// shellWords splits a command line into words as a shell would for
// literal text (quotes, backslashes), for shlex.split and the like.
func shellWords(s string) []val {
	words := textlex.SplitQuoted(s, maxList)
	if len(words) == 0 {
		return nil
	}
	out := make([]val, len(words))
	for i, w := range words {
		out[i] = str(w)
	}
	return out
}
