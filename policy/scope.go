package policy

import (
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
	"github.com/shellguard/shellguard/shellparse"
)

// The read-only list vouches for what a program does, not for what it
// reads. An agent's own permission check asks before a command reads files
// outside the working directories or prints the environment, so that a
// hook answering allow must not be looser (issue 14 §2): here the list is
// narrowed to the request's context.
//
//   - Programs that print the environment of the command (printenv, env,
//     set, jq with env or $ENV) are read-only only where the request says the
//     environment is shellguard's minimal one (Request.MinimalEnv); programs
//     that print other processes' environments (ps e, ps -E) never are.
//   - Every file a read-only program reads (its operands, option values and
//     input redirections, globs expanded, symbolic links followed) must be
//     inside Request.Root, or in a system folder that holds no secrets and
//     that anyone may read (/usr, /etc less its secrets, a few files of
//     /proc and /dev), and never a credential store or secret (secretStores,
//     secretNames, secretSystem). A program that walks folders (grep -r, rg,
//     find, du, tree, ls -R, diff -r) may not walk a folder that holds a home
//     folder or a system secret.
//   - A path that cannot be known statically (~user, cd -, a glob that
//     matches too much, a relative path after a cd whose target is unknown)
//     is not read-only.
//
// See docs/policy.md, "What read-only may read".

// secretStores are credential stores and secrets, named by the path
// elements that lead to them from a home folder. They are matched
// anywhere in a path (so also in another user's home, or under a HOME
// set elsewhere): the store and everything in it is secret, except the
// names its except list gives.
var secretStores = []struct {
	path   string
	except []string
}{
	{".ssh", []string{"*.pub", "known_hosts", "known_hosts.old", "authorized_keys"}},
	{".gnupg", nil},
	{".aws", nil},
	{".azure", nil},
	{".kube", nil},
	{".docker/config.json", nil},
	{".config/containers/auth.json", nil},
	{".config/gh", nil},
	{".config/hub", nil},
	{".config/gcloud", nil},
	{".config/doctl", nil},
	{".config/hcloud", nil},
	{".config/op", nil},
	{".config/rclone", nil},
	{".config/sops", nil},
	{".config/git/credentials", nil},
	{".config/composer/auth.json", nil},
	{".composer/auth.json", nil},
	{".claude/.credentials.json", nil},
	{".codex/auth.json", nil},
	{".gemini/oauth_creds.json", nil},
	{".terraform.d/credentials.tfrc.json", nil},
	{".cargo/credentials", nil},
	{".cargo/credentials.toml", nil},
	{".gem/credentials", nil},
	{".m2/settings.xml", nil},
	{".gradle/gradle.properties", nil},
	{".huggingface/token", nil},
	{".cache/huggingface/token", nil},
	{".kaggle/kaggle.json", nil},
	{".password-store", nil},
	{".local/share/keyrings", nil},
	{".fly", nil},
	{".s3cfg", nil},
	{".boto", nil},
	{".bash_history", nil},
	{".zsh_history", nil},
	{".history", nil},
	{".python_history", nil},
	{".node_repl_history", nil},
	{".psql_history", nil},
	{".mysql_history", nil},
	{".sqlite_history", nil},
	{".local/share/fish/fish_history", nil},
	// Browser and mail profiles: cookies, saved passwords, tokens.
	{".mozilla", nil},
	{".thunderbird", nil},
	{".config/google-chrome", nil},
	{".config/chromium", nil},
	{".config/BraveSoftware", nil},
	{".config/microsoft-edge", nil},
	{".config/vivaldi", nil},
	{".config/opera", nil},
	{"Library/Application Support/Google/Chrome", nil},
	{"Library/Application Support/Chromium", nil},
	{"Library/Application Support/BraveSoftware", nil},
	{"Library/Application Support/Microsoft Edge", nil},
	{"Library/Application Support/Firefox", nil},
	{"Library/Safari", nil},
	{"Library/Cookies", nil},
	{"Library/Keychains", nil},
}

// secretNames are names that are secret wherever they are, as a file or a
// folder (path.Match patterns over one path element).
var secretNames = []string{
	".env*", // .env, .env.local, .envrc, ...
	".netrc", "_netrc", ".git-credentials", ".pgpass", ".my.cnf", ".vault-token",
	".npmrc", ".pypirc", ".yarnrc.yml",
	"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", "*.ppk",
}

// secretSystem are secrets of the system, as absolute path.Match
// patterns (one element per pattern element); what lies under them is
// secret too.
var secretSystem = []string{
	"/etc/shadow*", "/etc/gshadow*", "/etc/master.passwd", "/etc/spwd.db",
	"/etc/sudoers", "/etc/sudoers.d",
	"/etc/ssh/ssh_host_*_key", "/etc/ssl/private", "/etc/pki/tls/private", "/etc/pki/CA/private",
	"/etc/security/opasswd", "/etc/krb5.keytab",
	"/etc/NetworkManager/system-connections", "/etc/wpa_supplicant", "/etc/ppp/*-secrets", "/etc/ipsec.secrets",
	"/etc/letsencrypt", "/etc/openvpn", "/etc/wireguard", "/etc/mysql/debian.cnf",
	"/etc/kubernetes", "/etc/rancher", "/etc/docker/key.json",
	"/proc/*/environ", "/proc/*/mem", "/proc/kcore",
}

// systemRoots are folders of the system that anyone may read and that
// hold no secrets except secretSystem (and files only their owner may
// read, which are refused by their mode).
var systemRoots = []string{"/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/sys", "/System"}

// systemFiles are the files of /proc and /dev that may be read (the rest
// of /proc describes processes: their environment, their memory, ...).
var systemFiles = map[string][]string{
	"/proc": {"cpuinfo", "meminfo", "version", "loadavg", "uptime", "stat", "filesystems", "partitions", "swaps",
		"cmdline", "devices", "diskstats", "interrupts", "modules", "vmstat", "zoneinfo", "buddyinfo", "crypto",
		"sys", "pressure"},
	"/dev": {"null", "zero", "random", "urandom", "full"},
}

// Bounds on the file system work of one line.
const (
	maxGlobEntries = 10000 // folder entries read to expand globs
	maxGlobMatches = 256   // paths globs expand to
	maxCwds        = 16    // directories the line may be in after cd
	maxElements    = 128   // elements of one path
)

// envKind says whose environment an invocation prints.
type envKind int

const (
	envNone   envKind = iota
	envOwn            // the command's own (printenv, env, set, jq env)
	envOthers         // other processes' (ps e)
)

func envOf(inv *shellparse.Invocation) envKind {
	if inv.Name == "" || len(inv.Args) == 0 {
		return envNone
	}
	args := inv.Args[1:]
	switch inv.Name {
	case "printenv", "env", "set":
		return envOwn
	case "jq":
		for _, a := range args {
			if strings.Contains(a.Value, "env") || strings.Contains(a.Value, "ENV") {
				return envOwn
			}
		}
	case "ps":
		for _, a := range args {
			v := a.Value
			switch {
			case strings.HasPrefix(v, "--"):
			case strings.HasPrefix(v, "-"):
				if strings.ContainsRune(v, 'E') { // BSD and macOS: -E
					return envOthers
				}
			case strings.ContainsRune(v, 'e'): // procps BSD syntax: ps e, ps auxe
				return envOthers
			}
		}
	}
	return envNone
}

// bareSet reports a plain `set`, which prints the shell's variables.
func bareSet(inv *shellparse.Invocation) bool {
	if inv.Name != "set" || inv.Program != "set" || len(inv.Args) != 1 || len(inv.Wrappers) > 0 || len(inv.Assigns) > 0 ||
		inv.Dynamic() || inv.RunsShellInput || inv.StdinUnknown {
		return false
	}
	for _, r := range inv.Redirs {
		if r.Writes() && r.Target != "/dev/null" {
			return false
		}
	}
	return true
}

// readOnlyHere returns, for each invocation of res, whether the read-only
// list vouches for it in the context of req (see the comment at the top of
// this file). The file system is looked at under the deadline of req: on
// the goroutine Decide already watches, or else on one of its own, given
// up at the deadline (then nothing that reads files is read-only).
func (g *Guard) readOnlyHere(req Request, res *shellparse.Result) []bool {
	out := make([]bool, len(res.Invocations))
	var pending []int
	for i := range res.Invocations {
		inv := &res.Invocations[i]
		switch envOf(inv) {
		case envOwn:
			out[i] = req.MinimalEnv && (readOnly(inv) || bareSet(inv))
			if inv.Name != "jq" || !out[i] {
				continue
			}
			// jq also reads files: check them below.
			out[i] = false
		case envOthers:
			continue
		}
		if readOnly(inv) {
			pending = append(pending, i)
		}
	}
	if len(pending) == 0 {
		return out
	}
	home := g.home
	if home == "" {
		home = os.Getenv("HOME")
	}
	check := func() []bool {
		sc := newScope(req, res, home)
		r := make([]bool, len(pending))
		for k, i := range pending {
			r[k] = sc.allows(&res.Invocations[i])
		}
		return r
	}
	ok, done := []bool(nil), false
	if req.watched {
		ok, done = check(), true
	} else {
		ok, done = run(g.watch, g.deadline(req), check)
	}
	if done {
		for k, i := range pending {
			out[i] = ok[k]
		}
	}
	return out
}

// scope is what a line may read: its root, the directories it may be in,
// the home folder.
type scope struct {
	home string // as given ($HOME); "" when unknown
	root string // resolved
	cwds []string
	// cwdsKnown is false when the directory cannot be known statically
	// (cd -, a dynamic cd, source): then relative paths are unknown.
	cwdsKnown bool
	entries   int // folder entries read so far
	matches   int // glob matches so far
	resolved  map[string]string
	homeDone  bool
	homeReal  string
}

// resolve is resolvePath, remembered for the line.
func (sc *scope) resolve(p string) string {
	if r, ok := sc.resolved[p]; ok {
		return r
	}
	r := resolvePath(p)
	sc.resolved[p] = r
	return r
}

// realHome returns the home folder resolved, or "".
func (sc *scope) realHome() string {
	if !sc.homeDone {
		sc.homeDone = true
		if sc.home != "" {
			sc.homeReal = sc.resolve(sc.home)
		}
	}
	return sc.homeReal
}

func newScope(req Request, res *shellparse.Result, home string) *scope {
	sc := &scope{resolved: map[string]string{}}
	if home != "" && filepath.IsAbs(home) {
		sc.home = filepath.Clean(home)
	}
	cwd, _ := filepath.Abs(req.Cwd) // "" is the process's directory
	root := req.Root
	if root == "" {
		root = cwd
	} else {
		root, _ = filepath.Abs(root)
	}
	if root != "" && filepath.IsAbs(root) {
		sc.root = sc.resolve(root)
	}
	if cwd != "" && filepath.IsAbs(cwd) {
		sc.cwds, sc.cwdsKnown = cwdCandidates(res, cwd, sc.home, sc.resolve)
	}
	return sc
}

// allows reports whether every file inv reads may be read without
// approval.
func (sc *scope) allows(inv *shellparse.Invocation) bool {
	if sc.root == "" {
		return false
	}
	ops, ok := operandsOf(inv)
	if !ok {
		return false
	}
	for _, op := range ops {
		paths, ok := sc.paths(op)
		if !ok {
			return false
		}
		for _, p := range paths {
			if op.secretOnly {
				if secret(p) {
					return false
				}
				continue
			}
			if !sc.pathOK(p, op.recursive) {
				return false
			}
		}
	}
	return true
}

// operand is a word that names a file an invocation reads.
type operand struct {
	value     string
	glob      bool
	recursive bool // the program walks it if it is a folder
	// secretOnly: only its name matters (git's REV:PATH names a file of
	// the repository, not of the file system).
	secretOnly bool
}

// operandsOf returns the files inv reads; false when one cannot be known.
// What each program's words name is program data (files in
// internal/programs/data/files.toml: programs whose arguments name no
// file, file-list options, when a program walks folders or reads ".",
// pattern operands and options); the code here reads argv with it, and
// knows what the data cannot say: cd's operand, jq's modules, git's
// REV:PATH and find's paths before its expression.
func operandsOf(inv *shellparse.Invocation) ([]operand, bool) {
	if len(inv.Args) == 0 {
		return nil, false
	}
	args := inv.Args[1:]
	p := programs.Lookup(inv.Name)
	var f *programs.Files
	if p != nil {
		f = p.Files
	}
	if f != nil && f.Lists != "" && flagged(args, f.Lists.Words()...) {
		// sort --files0-from=LIST reads the files LIST names: what
		// those are cannot be known statically.
		return nil, false
	}
	var ops []operand
	for _, r := range inv.Redirs {
		if r.Op == "<" || r.Op == "<&" && !r.DuplicatesFd() {
			ops = append(ops, operand{value: r.Target, glob: strings.ContainsAny(r.Target, "*?[")})
		}
	}
	if f != nil && f.None {
		return ops, true
	}
	recursive := f.Walking(func(opts ...string) bool { return flagged(args, opts...) },
		func(opt string) string { return optionValue(args, opt) })
	// skipFirst: the first operand is a pattern or a filter.
	skipFirst := f != nil && f.Pattern && !(f.PatternUnless != "" && flagged(args, f.PatternUnless.Words()...))
	implicitDot := f != nil && (f.Dot == programs.DotAlways || f.Dot == programs.DotWalking && recursive)
	switch inv.Name {
	case "cd":
		var words []shellparse.Arg
		end := false
		for _, a := range args {
			switch v := a.Value; {
			case !end && v == "--":
				end = true
			case !end && len(v) > 1 && v[0] == '-':
				// -L, -P, -e, -@
			default:
				words = append(words, a)
			}
		}
		if len(words) == 0 {
			return append(ops, operand{value: "~"}), true
		}
		if words[0].Value == "-" {
			return nil, false // $OLDPWD
		}
		return append(ops, operand{value: words[0].Value, glob: words[0].Glob}), true
	case "jq":
		for _, a := range args {
			if strings.Contains(a.Value, "include") || strings.Contains(a.Value, "import") || strings.Contains(a.Value, "input_filename") {
				return nil, false // jq modules are read from search paths
			}
		}
	case "find":
		// find's paths come before its expression.
		implicitDot = len(args) == 0 || strings.HasPrefix(args[0].Value, "-") || args[0].Value == "(" || args[0].Value == "!"
	case "git":
		ops = append(ops, operand{value: "."})
	}
	found := false // an operand (not an option's value) names a path
	add := func(v string, glob, isOperand bool) {
		if v == "" || v == "-" {
			return
		}
		found = found || isOperand
		ops = append(ops, operand{value: v, glob: glob, recursive: recursive})
		if inv.Name == "git" {
			if _, p, ok := strings.Cut(v, ":"); ok && p != "" {
				ops = append(ops, operand{value: p, glob: glob, secretOnly: true})
			}
		}
	}
	// patterns: the program has options whose value is a pattern (grep
	// -e, rg --regexp); its clusters are then read with its value options.
	patterns := f != nil && f.PatternOptions != ""
	patternOpt := func(v string) bool {
		if f.PatternOptions.Has(v) {
			return true
		}
		// A GNU abbreviation of at least three letters (--reg).
		return p.Has(programs.Abbrev) && len(v) >= 5 && strings.HasPrefix(v, "--") &&
			f.PatternOptions.Each(func(o string) bool { return strings.HasPrefix(o, v) })
	}
	end, skipNext, valueNext := false, false, false
	for _, a := range args {
		v := a.Value
		switch {
		case skipNext:
			skipNext = false // the value of -e: a pattern
		case valueNext:
			valueNext = false // the value of another option: checked, not the pattern
			add(v, a.Glob, false)
		case end || v == "-" || !strings.HasPrefix(v, "-"):
			if skipFirst {
				skipFirst = false
				continue
			}
			add(v, a.Glob, true)
		case v == "--":
			end = true
		case patterns && patternOpt(v):
			skipNext = true
		case patterns && strings.HasPrefix(v, "--") && strings.Contains(v, "=") && f.PatternOptions.Has(v[:strings.IndexByte(v, '=')]):
		case strings.HasPrefix(v, "--"):
			if _, val, ok := strings.Cut(v, "="); ok {
				add(val, a.Glob, false)
			}
		case patterns:
			// A cluster: flags, then at most one option that takes the
			// rest of the word or the next word as its value (-ie PAT,
			// -fFILE, -fe FILE: -f takes "e").
			opt, rest := clusterValue(p, v)
			switch {
			case opt == "":
			case patternOpt(opt) && rest == "":
				skipNext = true
			case patternOpt(opt):
				// -ePATTERN
			case rest == "":
				valueNext = true
			default:
				add(rest, a.Glob, false)
			}
		default:
			// -fFILE, -if/etc/x: the value of a short option, after
			// any flags; or only flags (-la), which name no file outside
			// the directory. Every suffix that starts like a path is a
			// candidate.
			vals, ok := shortValues(v)
			if !ok {
				return nil, false
			}
			for _, val := range vals {
				add(val, a.Glob, false)
			}
		}
	}
	if implicitDot && !found {
		ops = append(ops, operand{value: ".", recursive: recursive})
	}
	return ops, true
}

// clusterValue returns the first option of a short option cluster (-rnf)
// that takes a value in p's data ("-f"), and what follows it in the word,
// or "".
func clusterValue(p *programs.Program, v string) (string, string) {
	var opt [2]byte
	opt[0] = '-'
	for i := 1; i < len(v); i++ {
		opt[1] = v[i]
		if o := string(opt[:]); p.TakesValueAt("", o) {
			return o, v[i+1:]
		}
	}
	return "", ""
}

// maxShortValues bounds the candidates shortValues returns for one word.
const maxShortValues = 8

// shortValues returns what a short option cluster (-la, -fFILE,
// -if/etc/x) may give an option as its value: the text after its first
// letter, and every suffix after that which starts like a path (/ . ~).
// false when there are too many.
func shortValues(v string) ([]string, bool) {
	out := []string{v[2:]}
	for k := 3; k < len(v); k++ {
		if strings.IndexByte("/.~", v[k]) >= 0 && strings.IndexByte("/.~", v[k-1]) < 0 {
			out = append(out, v[k:])
			if len(out) > maxShortValues {
				return nil, false
			}
		}
	}
	return out, true
}

// flagged reports whether args hold one of flags: exactly, as a GNU
// abbreviation of a long option (with or without =value), or a short
// flag inside a cluster (-rn holds -r). Only options before "--" count.
func flagged(args []shellparse.Arg, flags ...string) bool {
	for _, a := range args {
		v := a.Value
		if v == "--" {
			return false
		}
		if !strings.HasPrefix(v, "-") || v == "-" {
			continue
		}
		name, _, _ := strings.Cut(v, "=")
		for _, f := range flags {
			switch {
			case v == f:
				return true
			case strings.HasPrefix(f, "--") && strings.HasPrefix(name, "--") && len(name) > 2 && strings.HasPrefix(f, name):
				return true
			case len(f) == 2 && !strings.HasPrefix(v, "--") && strings.IndexByte(v[1:], f[1]) >= 0:
				return true
			}
		}
	}
	return false
}

// optionValue returns the value given to an option: -d VALUE, -dVALUE for
// a short one, --directories=VALUE, --directories VALUE for a long one;
// or "".
func optionValue(args []shellparse.Arg, opt string) string {
	long := strings.HasPrefix(opt, "--")
	for i, a := range args {
		v := a.Value
		switch {
		case v == opt:
			if i+1 < len(args) {
				return args[i+1].Value
			}
		case long && strings.HasPrefix(v, opt+"="):
			return v[len(opt)+1:]
		case !long && strings.HasPrefix(v, opt) && len(v) > len(opt) && !strings.HasPrefix(v, "--"):
			return v[len(opt):]
		}
	}
	return ""
}

// cwdCandidates returns every directory the line's commands may run in:
// start, and what cd, pushd and popd may lead to from there, each both as
// the shell sees it (cd -L, the default, removes "dir/.." without
// looking) and as the system does. The cds are applied in the order of
// the line, each to every directory found so far (a cd may or may not
// run); a cd that may run more than once or out of order (in a loop, a
// function, a re-parsed string) is applied until nothing new comes. false
// when a directory cannot be known, or there are too many.
func cwdCandidates(res *shellparse.Result, start, home string, resolve func(string) string) ([]string, bool) {
	cands := []string{filepath.Clean(start)}
	if r := resolve(start); r != cands[0] {
		cands = append(cands, r)
	}
	var targets []string
	repeat := false
	for i := range res.Invocations {
		inv := &res.Invocations[i]
		switch inv.Name {
		case "source", ".":
			return nil, false
		case "cd", "pushd", "popd":
		default:
			continue
		}
		if len(inv.Assigns) > 0 { // CDPATH=... cd x
			return nil, false
		}
		if inv.Depth > 0 || inv.Where.Has(shellparse.FrameFunction) || inLoop(inv.Where) {
			repeat = true
		}
		end := false
		var word *shellparse.Arg
		for k := 1; k < len(inv.Args); k++ {
			a := &inv.Args[k]
			switch v := a.Value; {
			case a.Dynamic || a.Glob:
				return nil, false
			case !end && v == "--":
				end = true
			case !end && len(v) > 1 && (v[0] == '-' || v[0] == '+' && inv.Name != "cd"):
				// Options, and pushd/popd +N/-N (a directory already
				// visited).
			default:
				if word == nil {
					word = a
				}
			}
		}
		switch {
		case inv.Name == "popd":
			// Back to a directory already visited.
		case word == nil && inv.Name == "cd":
			if home == "" {
				return nil, false
			}
			targets = append(targets, home)
		case word == nil:
			// pushd alone swaps the two top directories: already visited.
		case word.Value == "-":
			return nil, false // $OLDPWD, from the environment
		case word.Value == "~" || strings.HasPrefix(word.Value, "~/"):
			if home == "" {
				return nil, false
			}
			targets = append(targets, home+word.Value[1:])
		case strings.HasPrefix(word.Value, "~"):
			return nil, false
		default:
			targets = append(targets, word.Value)
		}
	}
	apply := func(t string) bool {
		added := false
		for _, c := range cands {
			p := t
			if !filepath.IsAbs(t) {
				p = c + "/" + t
			}
			for _, d := range []string{filepath.Clean(p), resolve(p)} {
				if !slices.Contains(cands, d) {
					cands = append(cands, d)
					added = true
				}
			}
		}
		return added
	}
	for _, t := range targets {
		apply(t)
		if len(cands) > maxCwds {
			return nil, false
		}
	}
	for repeat {
		added := false
		for _, t := range targets {
			added = apply(t) || added
			if len(cands) > maxCwds {
				return nil, false
			}
		}
		if !added {
			break
		}
	}
	return cands, true
}

// inLoop reports whether a loop encloses an invocation.
func inLoop(f *shellparse.Frame) bool {
	for ; f != nil; f = f.Parent {
		if f.Kind == shellparse.FrameControl {
			switch f.Detail {
			case "while", "until", "for", "select":
				return true
			}
		}
	}
	return false
}

// paths returns the resolved paths op may name, from every directory the
// line may be in; false when they cannot be known.
func (sc *scope) paths(op operand) ([]string, bool) {
	v := op.value
	if strings.Count(v, "/") > maxElements || op.glob && strings.ContainsAny(v, "()|") {
		return nil, false // too deep; extglob: @(a|b), !(x), ...
	}
	// Each base is a folder already resolved and a path from it.
	type based struct{ dir, rel string }
	var bases []based
	switch {
	case v == "~" || strings.HasPrefix(v, "~/"):
		if sc.realHome() == "" {
			return nil, false
		}
		bases = []based{{sc.realHome(), "." + v[1:]}}
	case strings.HasPrefix(v, "~"):
		return nil, false // ~user, ~+, ~-
	case strings.HasPrefix(v, "/"):
		bases = []based{{"/", v}}
	default:
		if !sc.cwdsKnown {
			return nil, false
		}
		for _, c := range sc.cwds {
			bases = append(bases, based{sc.resolve(c), v})
		}
	}
	var out []string
	for _, b := range bases {
		if !op.glob {
			links := 0
			out = append(out, resolveFrom(b.dir, b.rel, &links))
			continue
		}
		ms, ok := sc.glob(joinPath(b.dir, strings.TrimPrefix(b.rel, "/")))
		if !ok {
			return nil, false
		}
		for _, m := range ms {
			out = append(out, sc.resolve(m))
		}
	}
	return out, true
}

// glob returns what pattern (absolute) may expand to, over-approximated:
// every *, ? and [ counts as a wildcard (even where quoted), a leading *
// also matches names that start with a dot, .* also matches . and .., and
// the pattern itself is kept (bash passes an unmatched pattern as it is).
// false when the pattern is not one path.Match reads as bash does, or
// when it reads or matches too much.
func (sc *scope) glob(pattern string) ([]string, bool) {
	elems := strings.Split(pattern, "/")
	cur := []string{""}
	for i, e := range elems {
		if i == 0 {
			continue // the empty element before the leading /
		}
		if !strings.ContainsAny(e, "*?[") {
			for k := range cur {
				cur[k] += "/" + e
			}
			continue
		}
		if strings.ContainsAny(e, `()|\`) {
			return nil, false // extglob, escapes
		}
		pat := strings.ReplaceAll(e, "[!", "[^")
		if _, err := path.Match(pat, ""); err != nil {
			return nil, false
		}
		var next []string
		for _, dir := range cur {
			names, ok := sc.readDir(dir)
			if !ok {
				return nil, false
			}
			if strings.HasPrefix(e, ".") {
				names = append(names, ".", "..")
			}
			for _, n := range names {
				if m, _ := path.Match(pat, n); m {
					next = append(next, dir+"/"+n)
					sc.matches++
					if sc.matches > maxGlobMatches {
						return nil, false
					}
				}
			}
		}
		cur = next
	}
	return append(cur, pattern), true
}

// readDir returns the names in dir ("" is /), counting them against the
// bound; a folder that cannot be read has none.
func (sc *scope) readDir(dir string) ([]string, bool) {
	if dir == "" {
		dir = "/"
	}
	f, err := openDir(dir)
	if err != nil {
		return nil, true
	}
	defer f.Close()
	var names []string
	for {
		room := maxGlobEntries - sc.entries
		if room <= 0 {
			return nil, false
		}
		ns, err := f.Readdirnames(min(room, 256))
		sc.entries += len(ns)
		names = append(names, ns...)
		if err == io.EOF || len(ns) == 0 {
			return names, true
		}
		if err != nil {
			return names, true
		}
	}
}

// maxLinks bounds the symbolic links followed for one path (the
// system's own limit is 40).
const maxLinks = 40

// resolvePath returns the absolute path p leads to, symbolic links
// followed as the system follows them ("link/.." is the folder above the
// link's target). The part of p that does not exist (or cannot be looked
// at) is appended as written, cleaned.
func resolvePath(p string) string {
	links := 0
	return resolveFrom("/", p, &links)
}

// resolveFrom resolves rel (relative to base, or absolute) from base, a
// path already resolved: only the elements of rel are looked at.
func resolveFrom(base, rel string, links *int) string {
	cur := base
	if strings.HasPrefix(rel, "/") {
		cur = "/"
	}
	elems := strings.Split(rel, "/")
	for i, e := range elems {
		switch e {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := joinPath(cur, e)
		exists, link := lstatLink(next)
		if !exists {
			// Missing: the rest cannot be followed; the system would
			// fail there too.
			return filepath.Clean(next + "/" + strings.Join(elems[i+1:], "/"))
		}
		if !link {
			cur = next
			continue
		}
		*links++
		target, err := os.Readlink(next)
		if err != nil || *links > maxLinks {
			return filepath.Clean(next + "/" + strings.Join(elems[i+1:], "/"))
		}
		cur = resolveFrom(cur, target, links)
	}
	return cur
}

func joinPath(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// pathOK reports whether p (resolved) may be read without approval.
func (sc *scope) pathOK(p string, recursive bool) bool {
	if secret(p) || recursive && sc.secretBelow(p) {
		return false
	}
	if within(p, sc.root) {
		return true
	}
	return systemOK(p, recursive)
}

// within reports whether p is dir or lies under it.
func within(p, dir string) bool {
	return p == dir || dir == "/" || len(p) > len(dir) && p[len(dir)] == '/' && p[:len(dir)] == dir
}

// parent is filepath.Dir of a clean absolute path, without cleaning it
// again.
func parent(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "/"
}

// secret reports whether p is, or lies in, a credential store or secret.
// Names are compared without regard to case: on a file system that
// ignores it (macOS, Windows), .ENV is .env.
func secret(p string) bool {
	elems := strings.Split(strings.ToLower(strings.TrimPrefix(p, "/")), "/")
	for i, e := range elems {
		if secretName(e) {
			return true
		}
		for k := storesFrom[e]; k > 0; k = stores[k-1].next {
			store := stores[k-1].elems
			if i+len(store) > len(elems) || !matchElems(store, elems[i:i+len(store)]) {
				continue
			}
			if i+len(store) == len(elems) || !matchAny(stores[k-1].except, elems[len(elems)-1]) {
				return true
			}
		}
	}
	if len(elems) > 2 && elems[0] == "private" && elems[1] == "etc" { // macOS: /etc is a link to it
		elems = elems[1:]
	}
	if len(elems) == 0 || elems[0] != "etc" && elems[0] != "proc" {
		return false
	}
	for _, pat := range systemElems {
		if len(pat) <= len(elems) && matchElems(pat, elems[:len(pat)]) {
			return true
		}
	}
	return false
}

// secretName reports whether one path element is a secretNames name.
func secretName(e string) bool {
	if secretLiteral[e] {
		return true
	}
	return matchAny(secretNamePatterns, e)
}

// secretLiteral and secretNamePatterns are secretNames split into plain
// names and patterns.
var secretLiteral, secretNamePatterns = func() (map[string]bool, []string) {
	lit := map[string]bool{}
	var pats []string
	for _, n := range secretNames {
		n = strings.ToLower(n)
		if strings.ContainsAny(n, "*?[\\") {
			pats = append(pats, n)
		} else {
			lit[n] = true
		}
	}
	return lit, pats
}()

// store is a secretStores entry split into path elements, lower case;
// next is 1 + the index of the next store with the same first element (a
// literal name), or 0.
type store struct {
	elems, except []string
	next          int
}

// stores are secretStores split, storesFrom holds 1 + the index of the
// first store of each first element, and systemElems are secretSystem's
// patterns split into elements (lower case). All the elements share one
// array: this runs in every process that links policy.
var stores, storesFrom, systemElems = func() ([]store, map[string]int, [][]string) {
	n := 0
	for _, s := range secretStores {
		n += strings.Count(s.path, "/") + 1 + len(s.except)
	}
	for _, s := range secretSystem {
		n += strings.Count(s, "/")
	}
	all := make([]string, 0, n)
	split := func(p string) []string {
		start := len(all)
		p = strings.ToLower(p)
		for {
			e, rest, more := strings.Cut(p, "/")
			all = append(all, e)
			if !more {
				return all[start:len(all):len(all)]
			}
			p = rest
		}
	}
	st := make([]store, len(secretStores))
	for k, s := range secretStores {
		st[k].elems = split(s.path)
		start := len(all)
		for _, e := range s.except {
			all = append(all, strings.ToLower(e))
		}
		st[k].except = all[start:len(all):len(all)]
	}
	from := make(map[string]int, len(st))
	for k := len(st) - 1; k >= 0; k-- {
		e := st[k].elems[0]
		st[k].next, from[e] = from[e], k+1
	}
	sys := make([][]string, len(secretSystem))
	for k, s := range secretSystem {
		sys[k] = split(strings.TrimPrefix(s, "/"))
	}
	return st, from, sys
}()

// systemFirsts are the first elements of systemElems, each once: a walk
// reaches a system secret only from / or from inside one of them.
var systemFirsts = func() []string {
	var firsts []string
	for _, e := range systemElems {
		if !slices.Contains(firsts, e[0]) {
			firsts = append(firsts, e[0])
		}
	}
	return firsts
}()

func matchElems(pats, elems []string) bool {
	for i, pat := range pats {
		if !matchName(pat, elems[i]) {
			return false
		}
	}
	return true
}

func matchAny(pats []string, name string) bool {
	for _, pat := range pats {
		if matchName(pat, name) {
			return true
		}
	}
	return false
}

// matchName is path.Match of one element, comparing literals directly
// and reading a pattern whose only special character is one * at its
// start or end as a suffix or a prefix.
func matchName(pat, name string) bool {
	switch i := strings.IndexAny(pat, "*?[\\"); {
	case i < 0:
		return pat == name
	case i == len(pat)-1 && pat[i] == '*':
		return strings.HasPrefix(name, pat[:i]) && !strings.Contains(name[i:], "/")
	case i == 0 && pat[0] == '*' && !strings.ContainsAny(pat[1:], "*?[\\"):
		return strings.HasSuffix(name, pat[1:]) && !strings.Contains(name[:len(name)-len(pat)+1], "/")
	}
	m, _ := path.Match(pat, name)
	return m
}

// secretBelow reports whether a walk of folder p would reach a home
// folder, a system secret or the processes of /proc. (A secret name such
// as .env inside the project is not looked for: the walk may read it.)
func (sc *scope) secretBelow(p string) bool {
	for _, h := range []string{sc.realHome(), sc.home, "/home", "/root", "/Users", "/proc", "/private/etc"} {
		if h != "" && within(h, p) {
			return true
		}
	}
	// A system secret or its folder lies in p only when p is / or starts
	// with the secret's first element.
	if first := firstElem(p); p != "/" && !slices.ContainsFunc(systemFirsts, func(s string) bool { return strings.EqualFold(s, first) }) {
		return false
	}
	for _, s := range secretSystem {
		if within(s, p) || within(parent(s), p) {
			return true
		}
	}
	return false
}

// firstElem returns the first element of an absolute path.
func firstElem(p string) string {
	p = strings.TrimPrefix(p, "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return p
}

// systemOK reports whether p is a file of the system anyone may read
// that holds no secret.
func systemOK(p string, recursive bool) bool {
	if p == "/" {
		return !recursive
	}
	if strings.HasPrefix(p, "/private/etc/") || p == "/private/etc" {
		p = p[len("/private"):]
	}
	for dir, names := range systemFiles {
		if p == dir {
			return !recursive
		}
		if rest, ok := strings.CutPrefix(p, dir+"/"); ok {
			first, _, _ := strings.Cut(rest, "/")
			return slices.Contains(names, first) && worldReadable(p)
		}
	}
	for _, r := range systemRoots {
		if within(p, r) {
			return worldReadable(p)
		}
	}
	return false
}

// worldReadable reports whether anyone may read p (true when it does not
// exist: there is nothing to read).
func worldReadable(p string) bool {
	fi, err := os.Stat(p)
	if err != nil {
		return os.IsNotExist(err)
	}
	return fi.Mode().Perm()&0o004 != 0
}
