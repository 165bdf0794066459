package policy

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/internal/programs"
	"github.com/shellguard/shellguard/internal/xdg"
	"github.com/shellguard/shellguard/shellparse"
)

// The guard guards itself. A line that comes through an agent (a hook or
// the MCP server: see agentSource) may not change shellguard: run
// "shellguard allow", "allow-once", "install" or "uninstall", or write,
// move or delete shellguard's configuration files, approvals, allow-once
// codes, audit log or binaries, or the hook settings of the agents
// shellguard installs into. Such a line is denied with a reason (a person
// runs it in their own terminal); no approval, code or shadow mode lifts
// it.
//
// What counts, per invocation (every invocation of the line, nested ones
// included):
//
//   - shellguard itself with a subcommand that changes approvals or hooks
//     (or one that cannot be known statically);
//   - every redirection that writes (">", ">>", "<>", "&>", ...) to a
//     protected file, or into a protected folder;
//   - the operands (and --opt=value values) of every program that is not
//     a known reader, resolved against the working directory, every
//     folder a cd, pushd or git -C in the line may have moved to, "~" and
//     the variables HOME, XDG_CONFIG_HOME, XDG_STATE_HOME, CODEX_HOME,
//     CLAUDE_CONFIG_DIR and PWD: a protected file, or a path inside a
//     protected folder; for programs that delete or move (rm, rmdir, mv's
//     sources, find -delete, chmod -R, git clean, ...) also a folder that
//     holds one (rm -rf ~/.config);
//   - cp, mv, ln and install into a folder: the file each source would
//     become there (cp settings.json ~/.claude/);
//   - interpreter code (python -c, node -e, perl -e, a heredoc fed to an
//     interpreter, ...) that names a protected path.
//
// Paths are compared as written and with symbolic links resolved. What
// cannot be expanded statically ($(...) in a path) is compared by its
// text. Readers (cat, grep, ls, diff, git status, sed without -i, ...) may
// read anything.

// agentSource reports whether src is an agent's entry point: a hook
// ("hook:claude", "hook:gemini", "hook:codex", ...) or the MCP server
// ("mcp").
func agentSource(src string) bool {
	return strings.HasPrefix(src, "hook:") || src == "mcp" || strings.HasPrefix(src, "mcp:")
}

// selfCache holds what the self-guard works out once per Guard: the
// binaries, and the protected paths with the text and names that lead to
// them (they depend on the configuration and the environment only).
type selfCache struct {
	once     sync.Once
	binaries []string

	buildOnce sync.Once
	prot      []protected
	frags     []string
	names     map[string]bool
}

// agentSettings are the agents' hook settings, relative to a home
// folder and to a project: a line may never write them (shellguard
// installs its hook there, and an agent could take it out).
var agentSettings = []string{
	".claude/settings.json",
	".claude/settings.local.json",
	".gemini/settings.json",
	".codex/hooks.json",
	".codex/config.toml",
	".cursor/hooks.json",
	".qwen/settings.json",
	".windsurf/hooks.json",
	".codeium/windsurf/hooks.json",
}

// systemAgentSettings are system-wide (managed) agent settings.
var systemAgentSettings = []string{
	"/etc/claude-code/managed-settings.json",
	"/etc/gemini-cli/settings.json",
	"/etc/codex/config.toml",
	"/etc/codex/hooks.json",
}

// reader reports a program that never writes the files its operands
// name.
func reader(name string) bool {
	switch name {
	case "cat", "tac", "head", "tail", "less", "more", "most",
		"grep", "egrep", "fgrep", "rg", "ag", "ack",
		"ls", "dir", "vdir", "stat", "file", "wc", "diff", "cmp",
		"md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "b2sum",
		"jq", "bat", "batcat", "echo", "test", "[", "realpath",
		"readlink", "basename", "dirname", "which", "type", "du",
		"df", "nl", "od", "hexdump", "xxd", "strings", "column",
		"cut", "pwd", "true", "false", "cd", "pushd", "popd",
		"command", "printenv", "lsattr", "getfacl", "namei":
		return true
	}
	return false
}

// gitReader reports a git subcommand that does not change files in the
// work tree.
func gitReader(name string) bool {
	switch name {
	case "status", "log", "diff", "show", "blame", "ls-files",
		"ls-tree", "cat-file", "grep", "rev-parse", "describe",
		"shortlog", "branch", "tag", "remote", "config", "fetch",
		"add", "commit", "push", "reflog", "rev-list", "show-ref",
		"for-each-ref", "merge-base", "name-rev", "whatchanged", "var",
		"help", "version", "init", "clone", "notes", "bisect":
		return true
	}
	return false
}

// gitDeleters are git subcommands that delete files they are pointed at
// (or, without a path, the whole work tree's untracked files).
var gitDeleters = map[string]bool{"clean": true, "rm": true}

// shellguardWriters are shellguard's subcommands that change approvals or
// hooks.
var shellguardWriters = map[string]bool{"allow": true, "allow-once": true, "install": true, "uninstall": true}

// interpreter reports a program that runs code given in an argument or
// on standard input.
func interpreter(name string) bool {
	switch name {
	case "python", "python2", "python3", "pypy", "pypy3", "node",
		"nodejs", "deno", "bun", "perl", "ruby", "php", "lua",
		"luajit", "Rscript", "tclsh", "osascript", "pwsh", "powershell",
		"awk", "gawk", "mawk", "nawk", "jshell", "groovy", "julia":
		return true
	}
	return false
}

// protected is one protected file or folder.
type protected struct {
	path string
	what string
	dir  bool
	// real is path with its symbolic links resolved ("" when it is the
	// same or cannot be resolved).
	real string
}

// selfGuard is the view of one request the checks need.
type selfGuard struct {
	g      *Guard
	env    func(string) string
	home   string
	cwds   []string
	prot   []protected
	frags  []string
	binary func() []string
	// names are the file and folder names on the way to a protected
	// path: only a path with one of them is worth resolving links for.
	names map[string]bool
	// built says build ran.
	built bool
	// project lists the project's agent settings that exist (see
	// projectProt); projectDone says it was computed.
	project     []protected
	projectDone bool
}

// projectProt returns the agent settings of the project (the working
// folder and the project root) that exist, so that deleting the folder
// holding them counts. It is computed once, when a delete needs it.
func (sg *selfGuard) projectProt() []protected {
	if sg.projectDone {
		return sg.project
	}
	sg.projectDone = true
	if len(sg.cwds) == 0 {
		return nil
	}
	cwd := sg.cwds[0]
	dirs := []string{cwd}
	if root := projectRoot(cwd); root != cwd {
		dirs = append(dirs, root)
	}
	for _, dir := range dirs {
		for _, rel := range agentSettings {
			p := filepath.Join(dir, rel)
			if _, err := os.Lstat(p); err == nil {
				sg.project = append(sg.project, protected{path: p, what: "this project's agent hook settings"})
			}
		}
	}
	return sg.project
}

// worthResolving reports whether p names a file or folder on the way to
// a protected path, so that links on its way matter.
func (sg *selfGuard) worthResolving(p string) bool {
	for d := p; d != "/" && d != "."; d = filepath.Dir(d) {
		if sg.names[filepath.Base(d)] {
			return true
		}
	}
	return false
}

// guardSelf denies, from an agent, a line that would change shellguard.
// It reports whether it did (d is then the deny).
func (g *Guard) guardSelf(req Request, res *shellparse.Result, d *Decision) bool {
	if !agentSource(g.sourceOf(req)) {
		return false
	}
	sg := g.newSelfGuard(req)
	// The check reads the file system (links, the project's settings):
	// on the caller's goroutine it runs under the deadline (see
	// Request.watched).
	why, done := "", true
	if req.watched {
		why = sg.check(res)
	} else {
		why, done = run(g.watch, g.deadline(req), func() string { return sg.check(res) })
	}
	if !done {
		d.Verdict, d.Problem = Ask, ProblemOverBudget
		d.Reason = "shellguard could not finish checking whether this command changes shellguard itself within its budget; asking instead"
		g.fillLevel(d)
		return true
	}
	if why == "" {
		return false
	}
	d.Verdict = Deny
	d.SelfGuard = true
	d.Rules = append(d.Rules, "self-guard: "+why)
	d.Reason = "shellguard does not let an agent change shellguard itself: the command would " + why +
		". This protects the user's safety settings; only the user may do it, by running the command in their own terminal"
	g.fillLevel(d)
	return true
}

func (g *Guard) getenv(k string) string {
	if g.env != nil {
		return g.env(k)
	}
	return os.Getenv(k)
}

func (g *Guard) newSelfGuard(req Request) *selfGuard {
	sg := &selfGuard{g: g, env: g.getenv}
	sg.home = sg.env("HOME")
	if sg.home == "" && g.env == nil {
		sg.home, _ = os.UserHomeDir()
	}
	cwd := req.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	cwd = approval.CleanCwd(cwd)
	if cwd != "" {
		sg.cwds = []string{cwd}
	}
	sg.binary = func() []string {
		g.self.once.Do(func() { g.self.binaries = shellguardBinaries() })
		return g.self.binaries
	}
	return sg
}

// build lists the protected paths, the text fragments that name them and
// the names on their way. It runs once, when an invocation needs them (a
// line of readers never does).
func (sg *selfGuard) build() {
	if sg.built {
		return
	}
	sg.built = true
	c := &sg.g.self
	c.buildOnce.Do(func() {
		b := &selfGuard{g: sg.g, env: sg.env, home: sg.home}
		b.buildProtected()
		c.prot, c.frags, c.names = b.prot, b.frags, b.names
	})
	// A copy: resolved links are filled in per request.
	sg.prot = append([]protected(nil), c.prot...)
	sg.frags, sg.names = c.frags, c.names
}

func (sg *selfGuard) buildProtected() {
	g := sg.g
	// Sized for the names the paths below lead through (about 40).
	sg.names = make(map[string]bool, 64)
	sg.names["shellguard"], sg.names["shellguard-hook"] = true, true
	for _, rel := range agentSettings {
		for c := range strings.SplitSeq(rel, "/") {
			sg.names[c] = true
		}
	}
	add := func(path, what string, dir bool) {
		if path == "" || !filepath.IsAbs(path) {
			return
		}
		sg.prot = append(sg.prot, protected{path: filepath.Clean(path), what: what, dir: dir})
	}
	add(xdg.Config(g.env, ""), "shellguard's configuration and approvals", true)
	add(xdg.State(g.env, ""), "shellguard's audit log", true)
	add(config.DefaultManagedDir, "shellguard's managed configuration", true)
	if log := g.cfg.AuditLog; log != "" {
		for _, p := range []string{log, log + ".1", lockOf(log), filepath.Join(filepath.Dir(log), "."+filepath.Base(log)+".shellguard-failed")} {
			add(p, "shellguard's audit log", false)
		}
	}
	if g.store != nil {
		p := g.store.Path()
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		add(p, "shellguard's approvals", false)
		add(lockOf(p), "shellguard's approvals", false)
	}
	if g.refusals != nil {
		add(g.refusals.Path(), "shellguard's allow-once codes", false)
		add(lockOf(g.refusals.Path()), "shellguard's allow-once codes", false)
	}
	for _, f := range g.cfg.Files {
		add(f.File, "shellguard's configuration ("+f.Layer+" file)", false)
	}
	homes := []string{sg.home}
	if d := sg.env("CLAUDE_CONFIG_DIR"); d != "" {
		add(filepath.Join(d, "settings.json"), "Claude Code's settings (where shellguard's hook is)", false)
		add(filepath.Join(d, "settings.local.json"), "Claude Code's settings (where shellguard's hook is)", false)
	}
	if d := sg.env("CODEX_HOME"); d != "" {
		add(filepath.Join(d, "hooks.json"), "Codex's hooks (where shellguard's hook is)", false)
		add(filepath.Join(d, "config.toml"), "Codex's configuration (where its hooks are)", false)
	}
	for _, h := range homes {
		if h == "" {
			continue
		}
		for _, rel := range agentSettings {
			add(filepath.Join(h, rel), "an agent's hook settings", false)
		}
	}
	for _, p := range systemAgentSettings {
		add(p, "an agent's managed settings", false)
	}
	sg.frags = append(sg.frags, agentSettings...)
	sg.frags = append(sg.frags, "shellguard/config.toml", "shellguard/approvals.json", "shellguard/"+approval.RefusalsFileName,
		"shellguard/audit.jsonl", config.DefaultManagedDir, "disableAllHooks")
	for _, p := range sg.prot {
		sg.frags = append(sg.frags, p.path)
		if sg.home != "" && strings.HasPrefix(p.path, sg.home+"/") {
			sg.frags = append(sg.frags, "~"+strings.TrimPrefix(p.path, sg.home), "$HOME"+strings.TrimPrefix(p.path, sg.home))
		}
	}
	// Every protected path is absolute and clean (add): its folders are
	// its prefixes up to a slash (parent), its names what follows one.
	for _, p := range sg.prot {
		for d := p.path; d != "/" && d != sg.home; d = parent(d) {
			sg.names[d[strings.LastIndexByte(d, '/')+1:]] = true
		}
	}
}

// lockOf returns the lock file shellguard keeps beside path.
func lockOf(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".shellguard-lock")
}

// shellguardBinaries returns the installed binaries: the running one,
// its siblings and those on $PATH, with links resolved.
func shellguardBinaries() []string {
	var out []string
	add := func(p string) {
		if p == "" {
			return
		}
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		for _, x := range out {
			if x == p {
				return
			}
		}
		out = append(out, p)
	}
	if exe, err := os.Executable(); err == nil {
		add(exe)
		for _, n := range []string{"shellguard", "shellguard-hook"} {
			s := filepath.Join(filepath.Dir(exe), n)
			if _, err := os.Stat(s); err == nil {
				add(s)
			}
		}
	}
	for _, n := range []string{"shellguard", "shellguard-hook"} {
		if p, err := exec.LookPath(n); err == nil {
			if abs, err := filepath.Abs(p); err == nil {
				add(abs)
			}
		}
	}
	return out
}

// projectRoot returns the outermost folder at or above dir that holds a
// .git, or dir.
func projectRoot(dir string) string {
	root := dir
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			root = d
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return root
}

// How an operand is used.
type use int

const (
	writes  use = iota + 1 // the file is written (or created)
	deletes                // the file or the tree below it is deleted, moved or changed
)

// check returns what the line would do to shellguard, or "".
func (sg *selfGuard) check(res *shellparse.Result) string {
	for i := range res.Invocations {
		inv := &res.Invocations[i]
		if why := sg.invocation(res, inv); why != "" {
			return why
		}
	}
	return ""
}

func (sg *selfGuard) invocation(res *shellparse.Result, inv *shellparse.Invocation) string {
	name := inv.Name
	args := inv.Args
	if len(args) > 0 {
		args = args[1:]
	}
	cwds := sg.cwds
	// Redirections that write, whatever the program.
	for _, r := range inv.Redirs {
		if !r.Writes() {
			continue
		}
		if why := sg.target(r.Target, r.Dynamic, r.Target, writes, cwds); why != "" {
			return "write to " + why
		}
	}
	if inv.NameDynamic() {
		// $EDITOR FILE: a program that cannot be known may write.
		return sg.operands(args, writes, cwds, "write")
	}
	switch name {
	case "cd", "pushd":
		sg.chdir(args)
		return ""
	case "shellguard":
		sub, dynamic := subcommand(args)
		if dynamic {
			return "run shellguard with a subcommand that cannot be known before it runs"
		}
		if shellguardWriters[sub] {
			return "run `shellguard " + sub + "`, which changes what shellguard approves or where its hooks are"
		}
		return ""
	}
	if interpreter(name) {
		if why := sg.code(res, inv); why != "" {
			return why
		}
	}
	if reader(name) {
		return ""
	}
	switch name {
	case "sed":
		if !sedInPlace(args) && !sg.mentions(sedScripts(args)) {
			return ""
		}
	case "find":
		if !findWrites(args) {
			return ""
		}
		return sg.operands(findStarts(args), sg.findUse(args), cwds, "delete or change")
	case "git":
		return sg.git(args)
	case "cp", "install", "rsync", "scp":
		return sg.copyLike(args, false)
	case "tar", "bsdtar", "gtar", "unzip", "7z", "7za", "cpio", "pax":
		// Extracting into a folder may overwrite anything below it.
		return sg.operands(args, deletes, cwds, "unpack into")
	case "mv":
		return sg.copyLike(args, true)
	case "ln":
		return sg.link(args)
	case "dd":
		for _, a := range args {
			if v, ok := strings.CutPrefix(a.Value, "of="); ok && !a.Dynamic {
				if why := sg.target(v, false, a.Raw, writes, cwds); why != "" {
					return "write " + why
				}
			}
		}
		return ""
	case "rm", "rmdir", "unlink", "shred", "srm", "trash", "trash-put", "gio":
		return sg.operands(args, deletes, cwds, "delete")
	case "chmod", "chown", "chgrp", "chattr", "setfacl", "touch", "truncate":
		u := writes
		if recursive(args) {
			u = deletes
		}
		return sg.operands(args, u, cwds, "change")
	}
	return sg.operands(args, writes, cwds, "write")
}

// subcommand returns the first operand of shellguard's argv.
func subcommand(args []shellparse.Arg) (string, bool) {
	for _, a := range args {
		if a.Dynamic || a.Glob {
			return "", true
		}
		if strings.HasPrefix(a.Value, "-") {
			continue
		}
		return a.Value, false
	}
	return "", false
}

// chdir records the folders a cd may move to: every later relative path
// is checked against each of them too.
func (sg *selfGuard) chdir(args []shellparse.Arg) {
	var dest *shellparse.Arg
	for i := range args {
		if args[i].Value == "--" {
			continue
		}
		if strings.HasPrefix(args[i].Value, "-") && !args[i].Dynamic {
			continue
		}
		dest = &args[i]
		break
	}
	var paths []string
	if dest == nil {
		paths = []string{sg.home}
	} else {
		for _, p := range sg.expand(dest.Value, dest.Dynamic, dest.Raw) {
			if p != "" && p != "-" {
				paths = append(paths, p)
			}
		}
	}
	var next []string
	for _, p := range paths {
		if filepath.IsAbs(p) {
			next = append(next, filepath.Clean(p))
			continue
		}
		for _, c := range sg.cwds {
			next = append(next, filepath.Join(c, p))
		}
	}
	for _, n := range next {
		dup := false
		for _, c := range sg.cwds {
			dup = dup || c == n
		}
		if !dup && len(sg.cwds) < 64 {
			sg.cwds = append(sg.cwds, n)
		}
	}
}

// expand returns the paths a word may stand for: "~" and the known
// variables expanded. A word that cannot be expanded statically yields
// nothing (its text is still compared, see target).
func (sg *selfGuard) expand(value string, dynamic bool, raw string) []string {
	if !dynamic {
		if value == "~" {
			return []string{sg.home}
		}
		if rest, ok := strings.CutPrefix(value, "~/"); ok && sg.home != "" {
			return []string{filepath.Join(sg.home, rest)}
		}
		return []string{value}
	}
	if v, ok := sg.expandWord(raw); ok {
		return []string{v}
	}
	return nil
}

// knownVars are the variables a path may be spelt with.
var knownVars = map[string]bool{"HOME": true, "XDG_CONFIG_HOME": true, "XDG_STATE_HOME": true, "XDG_DATA_HOME": true,
	"CODEX_HOME": true, "CLAUDE_CONFIG_DIR": true, "PWD": true, "USER": true}

// expandWord expands a word made only of literal text, quotes, a leading
// ~ and $NAME or ${NAME} of knownVars.
func (sg *selfGuard) expandWord(raw string) (string, bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(": "+raw), "")
	if err != nil || len(f.Stmts) != 1 {
		return "", false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 2 || len(call.Assigns) > 0 || len(f.Stmts[0].Redirs) > 0 {
		return "", false
	}
	w := call.Args[1]
	var b strings.Builder
	var part func(p syntax.WordPart, quoted bool) bool
	part = func(p syntax.WordPart, quoted bool) bool {
		switch x := p.(type) {
		case *syntax.Lit:
			v := x.Value
			if strings.Contains(v, `\`) {
				return false
			}
			if !quoted && b.Len() == 0 && (v == "~" || strings.HasPrefix(v, "~/")) {
				if sg.home == "" {
					return false
				}
				v = sg.home + v[1:]
			}
			b.WriteString(v)
		case *syntax.SglQuoted:
			if x.Dollar {
				return false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if !part(q, true) {
					return false
				}
			}
		case *syntax.ParamExp:
			if x.Param == nil || !knownVars[x.Param.Value] || x.Excl || x.Length || x.Index != nil ||
				x.Slice != nil || x.Repl != nil || x.Exp != nil || x.Names != 0 || x.Width || x.IsSet || x.Flags != nil {
				return false
			}
			v := sg.env(x.Param.Value)
			if x.Param.Value == "PWD" && len(sg.cwds) > 0 {
				v = sg.cwds[0]
			}
			if v == "" {
				return false
			}
			b.WriteString(v)
		default:
			return false
		}
		return true
	}
	for _, p := range w.Parts {
		if !part(p, false) {
			return "", false
		}
	}
	return b.String(), true
}

// operands checks every operand and option value of args.
func (sg *selfGuard) operands(args []shellparse.Arg, u use, cwds []string, verb string) string {
	for _, a := range args {
		v := a.Value
		if !a.Dynamic && strings.HasPrefix(v, "-") {
			// --file=PATH, -oPATH: the value may be a path.
			if _, val, ok := strings.Cut(v, "="); ok {
				if why := sg.target(val, false, val, u, cwds); why != "" {
					return verb + " " + why
				}
			}
			continue
		}
		if why := sg.target(v, a.Dynamic, a.Raw, u, cwds); why != "" {
			return verb + " " + why
		}
	}
	return ""
}

// target checks one path operand used as u, relative to each of cwds.
func (sg *selfGuard) target(value string, dynamic bool, raw string, u use, cwds []string) string {
	sg.build()
	paths := sg.expand(value, dynamic, raw)
	if dynamic && len(paths) == 0 {
		// Unknown until it runs: compare the text.
		for _, f := range sg.frags {
			if strings.Contains(raw, f) {
				return raw + " (" + f + ")"
			}
		}
		return ""
	}
	for _, p := range paths {
		if p == "" {
			continue
		}
		cands := []string{p}
		if !filepath.IsAbs(p) {
			cands = cands[:0]
			for _, c := range cwds {
				cands = append(cands, filepath.Join(c, p))
			}
		}
		for _, c := range cands {
			if why := sg.match(filepath.Clean(c), u); why != "" {
				return why
			}
		}
	}
	return ""
}

// match compares one absolute, clean path with the protected ones.
func (sg *selfGuard) match(p string, u use) string {
	if why := sg.matchLexical(p, u); why != "" {
		return why
	}
	for _, rel := range agentSettings {
		if strings.HasSuffix(p, "/"+rel) {
			return p + " (an agent's hook settings)"
		}
	}
	if u == deletes {
		for _, pr := range sg.projectProt() {
			if sg.hit(p, pr.path, false, u) {
				return p + " (" + pr.what + ", " + pr.path + ")"
			}
		}
	}
	base := filepath.Base(p)
	if strings.HasPrefix(base, "shellguard") {
		rp := resolve(p)
		for _, b := range sg.binary() {
			if rp == b || p == b {
				return p + " (shellguard's program)"
			}
		}
	}
	if !sg.worthResolving(p) {
		return ""
	}
	// With symbolic links resolved, on both sides.
	rp := resolve(p)
	if rp != p {
		if why := sg.matchLexical(rp, u); why != "" {
			return why
		}
	}
	for i := range sg.prot {
		pr := &sg.prot[i]
		if pr.real == "" {
			pr.real = resolve(pr.path)
		}
		if pr.real == pr.path {
			continue
		}
		if sg.hit(rp, pr.real, pr.dir, u) {
			return p + " (" + pr.what + ", " + pr.path + ")"
		}
	}
	return ""
}

func (sg *selfGuard) matchLexical(p string, u use) string {
	for _, pr := range sg.prot {
		if sg.hit(p, pr.path, pr.dir, u) {
			if p == pr.path {
				return p + " (" + pr.what + ")"
			}
			return p + " (" + pr.what + ", " + pr.path + ")"
		}
	}
	return ""
}

// hit reports whether path p, used as u, touches the protected prot. A
// delete of the home folder or of anything above it (rm -rf ~, rm -rf /)
// deletes shellguard too, but it is not about shellguard: the danger
// rules judge it, and shadow mode treats it like any other line.
func (sg *selfGuard) hit(p, prot string, dir bool, u use) bool {
	switch {
	case p == prot:
		return true
	case dir && strings.HasPrefix(p, prot+"/"):
		return true
	case u == deletes && strings.HasPrefix(prot, p+"/"):
		return p != "/" && (sg.home == "" || !(p == sg.home || strings.HasPrefix(sg.home, p+"/")))
	}
	return false
}

// resolve returns p with the symbolic links of its longest existing
// prefix resolved.
func resolve(p string) string {
	rest := ""
	for cur := p; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// mentions reports whether an argument names a protected path.
func (sg *selfGuard) mentions(args []shellparse.Arg) bool {
	sg.build()
	for _, a := range args {
		for _, f := range sg.frags {
			if strings.Contains(a.Value, f) || strings.Contains(a.Raw, f) {
				return true
			}
		}
	}
	return false
}

// code checks interpreter code: its arguments, and the line's text when
// the code comes from a heredoc or here-string.
func (sg *selfGuard) code(res *shellparse.Result, inv *shellparse.Invocation) string {
	sg.build()
	for _, a := range inv.Args[1:] {
		for _, f := range sg.frags {
			if strings.Contains(a.Value, f) || strings.Contains(a.Raw, f) {
				return "run " + inv.Name + " code that names " + f
			}
		}
	}
	for _, r := range inv.Redirs {
		if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
			for _, f := range sg.frags {
				if strings.Contains(res.Source, f) {
					return "feed " + inv.Name + " code that names " + f
				}
			}
		}
	}
	return ""
}

// sedInPlace reports sed -i / --in-place.
func sedInPlace(args []shellparse.Arg) bool {
	for _, a := range args {
		v := a.Value
		if v == "--" {
			return false
		}
		if strings.HasPrefix(v, "--") {
			name, _, _ := strings.Cut(v, "=")
			if len(name) > 3 && strings.HasPrefix("--in-place", name) {
				return true
			}
			continue
		}
		if strings.HasPrefix(v, "-") && strings.ContainsRune(v[1:], 'i') {
			return true
		}
	}
	return false
}

// sedScripts returns sed's scripts: the values of -e/--expression (and
// -f files), or else its first operand.
func sedScripts(args []shellparse.Arg) []shellparse.Arg {
	var out []shellparse.Arg
	explicit := false
	var first *shellparse.Arg
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-e" || v == "--expression" || v == "-f" || v == "--file":
			explicit = true
			if i+1 < len(args) {
				out = append(out, args[i+1])
				i++
			}
		case strings.HasPrefix(v, "--expression=") || strings.HasPrefix(v, "--file="):
			explicit = true
			out = append(out, args[i])
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 2 && strings.ContainsAny(v[1:], "ef"):
			// -ne SCRIPT, or -e glued to its script.
			explicit = true
			out = append(out, args[i])
			if i+1 < len(args) && strings.IndexAny(v[1:], "ef") == len(v)-2 {
				out = append(out, args[i+1])
				i++
			}
		case !strings.HasPrefix(v, "-") && first == nil:
			first = &args[i]
		}
	}
	if !explicit && first != nil {
		out = append(out, *first)
	}
	return out
}

// findWrites reports find actions that delete, run or write.
func findWrites(args []shellparse.Arg) bool {
	for _, a := range args {
		switch a.Value {
		case "-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls":
			return true
		}
	}
	return false
}

// findUse says how find's starting points are used: a find that selects
// by name or path (find . -name '*.pyc' -delete) deletes only what
// matches, so a folder that merely holds a protected file is not enough,
// unless a pattern matches a protected file's name.
func (sg *selfGuard) findUse(args []shellparse.Arg) use {
	sg.build()
	filtered := false
	for i, a := range args {
		switch a.Value {
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex":
			if i+1 >= len(args) || args[i+1].Dynamic {
				return deletes
			}
			pat := args[i+1].Value
			for _, p := range sg.prot {
				if ok, _ := filepath.Match(pat, filepath.Base(p.path)); ok || strings.Contains(pat, filepath.Base(p.path)) {
					return deletes
				}
			}
			for _, rel := range agentSettings {
				if ok, _ := filepath.Match(pat, filepath.Base(rel)); ok {
					return deletes
				}
			}
			filtered = true
		}
	}
	if filtered {
		return writes
	}
	return deletes
}

// findStarts returns find's starting points: the operands before the
// first expression.
func findStarts(args []shellparse.Arg) []shellparse.Arg {
	var out []shellparse.Arg
	for _, a := range args {
		v := a.Value
		if v == "-H" || v == "-L" || v == "-P" {
			continue
		}
		if strings.HasPrefix(v, "-") || v == "(" || v == "!" {
			break
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		out = []shellparse.Arg{{Value: ".", Raw: "."}}
	}
	return out
}

// recursive reports -R / -r / --recursive.
func recursive(args []shellparse.Arg) bool {
	for _, a := range args {
		v := a.Value
		if v == "--recursive" {
			return true
		}
		if strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v[1:], "Rr") {
			return true
		}
	}
	return false
}

// git checks git's subcommands that change the work tree.
func (sg *selfGuard) git(args []shellparse.Arg) string {
	cwds := sg.cwds
	i := 0
	for i < len(args) {
		v := args[i].Value
		switch {
		case v == "-C" && i+1 < len(args):
			d := args[i+1]
			var extra []string
			for _, p := range sg.expand(d.Value, d.Dynamic, d.Raw) {
				for _, c := range sg.cwds {
					if filepath.IsAbs(p) {
						extra = append(extra, filepath.Clean(p))
						break
					}
					extra = append(extra, filepath.Join(c, p))
				}
			}
			cwds = append(append([]string(nil), cwds...), extra...)
			i += 2
			continue
		case programs.TakesValue("git", v):
			// git's other global options that take a value (-c,
			// --git-dir, ...: internal/programs/data/git.toml).
			i += 2
			continue
		case strings.HasPrefix(v, "-"):
			i++
			continue
		}
		break
	}
	if i >= len(args) {
		return ""
	}
	sub := args[i].Value
	rest := args[i+1:]
	if args[i].Dynamic {
		return sg.operands(rest, writes, cwds, "change")
	}
	if gitReader(sub) {
		return ""
	}
	if gitDeleters[sub] {
		var ops []shellparse.Arg
		for _, a := range rest {
			if !strings.HasPrefix(a.Value, "-") || a.Dynamic {
				ops = append(ops, a)
			}
		}
		if sub == "clean" && len(ops) == 0 {
			ops = []shellparse.Arg{{Value: ".", Raw: "."}}
		}
		return sg.operands(ops, deletes, cwds, "delete")
	}
	return sg.operands(rest, writes, cwds, "change")
}

// copyLike checks cp, install, rsync, scp and (move) mv: the destination,
// what each source becomes inside a destination folder, and for mv the
// sources, which disappear.
func (sg *selfGuard) copyLike(args []shellparse.Arg, move bool) string {
	srcs, dest, hasDest := splitDest(args)
	verb := "overwrite"
	if move {
		verb = "move"
		if why := sg.operands(srcs, deletes, sg.cwds, "move"); why != "" {
			return why
		}
	}
	if !hasDest {
		return ""
	}
	// A folder copied into a folder (cp -r, rsync) may overwrite anything
	// below the destination, and rsync --delete deletes there.
	destUse := writes
	if recursive(args) || len(args) > 0 && args[0].Value != "" && hasRsyncTree(args) {
		destUse = deletes
	}
	if why := sg.target(dest.Value, dest.Dynamic, dest.Raw, destUse, sg.cwds); why != "" {
		return verb + " " + why
	}
	for _, s := range srcs {
		if s.Dynamic {
			continue
		}
		base := filepath.Base(strings.TrimRight(s.Value, "/"))
		if base == "." || base == "/" || base == "" {
			continue
		}
		for _, d := range sg.expand(dest.Value, dest.Dynamic, dest.Raw) {
			if why := sg.target(filepath.Join(d, base), false, "", writes, sg.cwds); why != "" {
				return verb + " " + why
			}
		}
	}
	return ""
}

// link checks ln: the link it creates (the last operand, or a source's
// name in the destination folder or in the working directory).
func (sg *selfGuard) link(args []shellparse.Arg) string {
	srcs, dest, hasDest := splitDest(args)
	if !hasDest {
		return ""
	}
	if len(srcs) == 0 {
		// ln TARGET: a link named like it, here.
		srcs = []shellparse.Arg{dest}
		dest = shellparse.Arg{Value: ".", Raw: "."}
	}
	if why := sg.target(dest.Value, dest.Dynamic, dest.Raw, writes, sg.cwds); why != "" {
		return "replace " + why
	}
	for _, s := range srcs {
		if s.Dynamic {
			continue
		}
		base := filepath.Base(s.Value)
		for _, d := range sg.expand(dest.Value, dest.Dynamic, dest.Raw) {
			if why := sg.target(filepath.Join(d, base), false, "", writes, sg.cwds); why != "" {
				return "replace " + why
			}
		}
	}
	// A link pointing into a protected folder is a way in later.
	return sg.operands(srcs, deletes, sg.cwds, "link to")
}

// hasRsyncTree reports rsync's archive and delete options (-a, --archive,
// --delete*), which copy or remove whole trees.
func hasRsyncTree(args []shellparse.Arg) bool {
	for _, a := range args {
		v := a.Value
		if v == "--archive" || strings.HasPrefix(v, "--delete") || strings.HasPrefix(v, "--remove") {
			return true
		}
		if strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsRune(v[1:], 'a') {
			return true
		}
	}
	return false
}

// splitDest splits the operands of cp/mv/ln/install into sources and a
// destination (the last operand, or -t DIR / --target-directory=DIR).
func splitDest(args []shellparse.Arg) (srcs []shellparse.Arg, dest shellparse.Arg, ok bool) {
	var ops []shellparse.Arg
	endOpts := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case endOpts || a.Dynamic || !strings.HasPrefix(v, "-") || v == "-":
			ops = append(ops, a)
		case v == "--":
			endOpts = true
		case v == "-t" && i+1 < len(args):
			dest, ok = args[i+1], true
			i++
		case strings.HasPrefix(v, "--target-directory="):
			dest, ok = shellparse.Arg{Value: strings.TrimPrefix(v, "--target-directory="), Raw: v}, true
		case strings.HasPrefix(v, "-t") && !strings.HasPrefix(v, "--") && len(v) > 2:
			dest, ok = shellparse.Arg{Value: v[2:], Raw: v}, true
		case v == "-S" || v == "--suffix" || v == "-m" || v == "--mode" || v == "-o" || v == "--owner" || v == "-g" || v == "--group":
			i++ // an option value
		}
	}
	if ok {
		return ops, dest, true
	}
	if len(ops) == 0 {
		return nil, shellparse.Arg{}, false
	}
	return ops[:len(ops)-1], ops[len(ops)-1], true
}
