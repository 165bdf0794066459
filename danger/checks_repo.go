package danger

import (
	"path"
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
)

// The checks of the remote and git.history packs: shapes of git push and
// git gc that argv alone cannot describe (which branch a push rewrites,
// where it sends the code, what else the line does to the reflog).

// checkPushBranchUnknown: git push whose refspecs do not name the branch
// it updates on the remote: no refspec (the current branch, by
// push.default), HEAD or @, or a word computed at run time. Pushes of
// every branch or tag (--all, --branches, --mirror, --tags) are named.
func checkPushBranchUnknown(sc *scan, i int) bool {
	a := sc.argv(i)
	if a.subMatch("push") < 0 || a.hasFlag("--all") || a.hasFlag("--branches") || a.hasFlag("--mirror") || a.hasFlag("--tags") {
		return false
	}
	remote, refspecs := pushOperands(a)
	if remote == "" && len(refspecs) == 0 {
		return !a.hasFlag("--repo")
	}
	if len(refspecs) == 0 {
		return true
	}
	for _, r := range refspecs {
		dst := strings.TrimPrefix(r, "+")
		if k := strings.LastIndexByte(dst, ':'); k >= 0 {
			dst = dst[k+1:]
		}
		if dst == "HEAD" || dst == "@" || strings.ContainsAny(dst, "$`") {
			return true
		}
	}
	return false
}

// checkPushCodeElsewhere: git push of every branch, tag or ref (--all,
// --branches, --mirror, --tags) to a remote given as a URL, or to a remote
// the same line adds or points elsewhere (git remote add/set-url NAME
// URL): the whole repository leaves for a place nothing vouches for.
func checkPushCodeElsewhere(sc *scan, i int) bool {
	a := sc.argv(i)
	if a.subMatch("push") < 0 || !(a.hasFlag("--all") || a.hasFlag("--branches") || a.hasFlag("--mirror") || a.hasFlag("--tags")) {
		return false
	}
	remote, _ := pushOperands(a)
	for _, f := range a.flags {
		if f.name == "--repo" && f.has {
			remote = f.value
		}
	}
	if isGitURL(remote) {
		return true
	}
	if remote == "" {
		remote = "origin"
	}
	for j := range sc.res.Invocations {
		if j == i || sc.res.Invocations[j].NotRun || !isGitName(sc.name(j)) {
			continue
		}
		b := sc.argv(j)
		k := b.subMatch("remote add")
		if k < 0 {
			k = b.subMatch("remote set-url")
		}
		if k >= 0 && len(b.pos) > k+1 && b.pos[k] == remote {
			return true
		}
	}
	return false
}

// pushOperands returns a git push's remote (or "") and refspecs.
func pushOperands(a *argv) (remote string, refspecs []string) {
	k := a.subMatch("push")
	if k < 0 || k >= len(a.pos) {
		return "", nil
	}
	return a.pos[k], a.pos[k+1:]
}

// isGitURL reports a remote written as a URL or an scp-like address
// (host:path, user@host:path) rather than a remote's name.
func isGitURL(s string) bool {
	if strings.Contains(s, "://") {
		return true
	}
	at := strings.IndexByte(s, '@')
	colon := strings.IndexByte(s, ':')
	return colon > 0 && (at >= 0 && at < colon || strings.IndexByte(s[:colon], '.') > 0) && !strings.ContainsAny(s[:colon], "/$")
}

// checkReflogPurge: git gc --prune=now|all or git prune in a line that
// also expires the reflog now (git reflog expire --expire=now, or gc's
// own -c gc.reflogExpire=now): together they delete every commit that no
// branch holds, the last copy of lost work.
func checkReflogPurge(sc *scan, i int) bool {
	a := sc.argv(i)
	switch {
	case a.subMatch("prune") >= 0:
		if v, ok := flagValue(a, "--expire"); ok && !expiresNow(v) {
			return false
		}
	case a.subMatch("gc") >= 0:
		v, ok := flagValue(a, "--prune")
		if !ok || !expiresNow(v) {
			return false
		}
	default:
		return false
	}
	// gc's own configuration: git -c gc.reflogExpire=now gc --prune=now.
	for _, f := range a.flags {
		if f.name == "-c" && f.has {
			k, v, _ := strings.Cut(strings.ToLower(f.value), "=")
			if (k == "gc.reflogexpire" || k == "gc.reflogexpireunreachable") && expiresNow(v) {
				return true
			}
		}
	}
	for j := range sc.res.Invocations {
		if j == i || sc.res.Invocations[j].NotRun || !isGitName(sc.name(j)) {
			continue
		}
		b := sc.argv(j)
		if b.dry || b.subMatch("reflog expire") < 0 {
			continue
		}
		for _, opt := range []string{"--expire", "--expire-unreachable"} {
			if v, ok := flagValue(b, opt); ok && expiresNow(v) {
				return true
			}
		}
	}
	return false
}

// flagValue returns the value of the last occurrence of the option.
func flagValue(a *argv, name string) (string, bool) {
	v, ok := "", false
	for _, f := range a.flags {
		if f.name == name && f.has {
			v, ok = f.value, true
		}
	}
	return v, ok
}

// expiresNow reports an expiry date that keeps nothing: now, all, 0, or
// a few seconds or minutes ago.
func expiresNow(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	switch v {
	case "now", "all", "0", "@0":
		return true
	}
	num := strings.TrimLeft(v, "0123456789")
	if len(num) == len(v) {
		return false
	}
	num = strings.TrimPrefix(num, ".")
	num = strings.TrimPrefix(num, " ")
	for _, u := range []string{"second", "minute"} {
		if strings.HasPrefix(num, u) {
			return true
		}
	}
	return false
}

// isGitName reports git and its git-NAME programs.
func isGitName(name string) bool { return name == "git" || strings.HasPrefix(name, "git-") }

// checkOverwriteRedirect: the invocation writes a file through a
// redirection that empties it first (>, >|, &>, >&FILE), not one that
// appends (>>): the file's earlier contents are gone.
func checkOverwriteRedirect(sc *scan, i int) bool {
	for _, r := range sc.res.Invocations[i].Redirs {
		if r.Writes() && r.Op != ">>" && r.Op != "&>>" && r.Op != "&>>|" && r.Op != "<>" {
			return true
		}
	}
	return false
}

// checkFindDeletesAll: find whose actions delete every file they are
// given and whose expression has no test that selects which files (a
// name, a path, a time, a size, an owner, ...): -delete (unless -type d
// limits it to directories, which -delete removes only when empty), or
// -exec/-execdir of rm, unlink or shred on {} itself (not {}.bak). -ok
// and -okdir ask first. -type f, -mindepth, -maxdepth, -xdev select
// nothing; -type l (or any type without f) selects.
func checkFindDeletesAll(sc *scan, i int) bool {
	args := sc.args(i)
	dirsOnly, del, execDel, starts := false, false, false, true
	for k := 1; k < len(args); k++ {
		v := args[k].Value
		if starts && (args[k].Dynamic || !strings.HasPrefix(v, "-") && v != "(" && v != "!") {
			continue // a starting point
		}
		starts = false
		// A test computed at run time may select anything.
		if args[k].Dynamic || findSelects(v) {
			return false
		}
		switch v {
		case "-type":
			// -type d: -delete removes empty folders only; a type
			// without f (symbolic links, pipes, sockets, devices)
			// selects some files.
			if k+1 < len(args) {
				t := args[k+1].Value
				if !args[k+1].Dynamic && !strings.Contains(t, "f") && t != "d" {
					return false
				}
				dirsOnly = dirsOnly || t == "d"
			}
		case "-delete":
			del = true
		case "-exec", "-execdir", "-ok", "-okdir":
			// The command's words, up to ; or +, are its own (-exec
			// echo -delete + prints "-delete").
			end := k + 1
			for end < len(args) && args[end].Value != ";" && args[end].Value != "+" {
				end++
			}
			if (v == "-exec" || v == "-execdir") && k+1 < end && !args[k+1].Dynamic && (findDeleter(args[k+1].Value) || shellDeletes(sc, i, args[k+1].Value)) {
				for m := k + 2; m < end; m++ {
					execDel = execDel || args[m].Value == "{}"
				}
			}
			k = end
		}
	}
	return execDel || del && !dirsOnly
}

// findSelects reports a find test that selects some files among those
// visited (-name, -path, -mtime, -size, -user, -newer..., -empty, ...).
func findSelects(w string) bool {
	if len(w) < 3 || w[0] != '-' {
		return false
	}
	switch w {
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-mtime", "-mmin", "-atime", "-amin",
		"-ctime", "-cmin", "-size", "-empty", "-user", "-group", "-perm", "-links", "-inum", "-samefile", "-lname", "-ilname", "-used",
		"-nouser", "-nogroup", "-uid", "-gid", "-readable", "-writable", "-executable", "-fstype", "-xtype", "-context", "-anewer",
		"-cnewer", "-prune":
		return true
	}
	return strings.HasPrefix(w, "-newer")
}

// findDeleter reports a program that deletes the files it is given.
// shellDeletes reports a shell that find's -exec runs and that runs a
// deleter (find . -exec sh -c 'rm -f "$@"' sh {} +): execThroughShell
// named it among find's canonical flags.
func shellDeletes(sc *scan, i int, prog string) bool {
	if !programs.IsShell(progName(path.Base(prog))) {
		return false
	}
	a := sc.argv(i)
	for _, d := range []string{"rm", "unlink", "shred", "srm"} {
		if a.hasFlag("-exec=" + d) {
			return true
		}
	}
	return false
}

func findDeleter(prog string) bool {
	switch progName(path.Base(prog)) {
	case "rm", "unlink", "shred", "rimraf":
		return true
	}
	return false
}

// checkFindSelectsGit: find selects .git directories by name or path
// (-name .git, -path '*/.git'), not negated (! -name .git, -not -path
// .git select everything else).
func checkFindSelectsGit(sc *scan, i int) bool {
	args := sc.args(i)
	for k := 1; k+1 < len(args); k++ {
		switch args[k].Value {
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
		default:
			continue
		}
		v := strings.TrimPrefix(strings.TrimPrefix(args[k+1].Value, "*/"), "./")
		if v != ".git" {
			continue
		}
		if p := args[k-1].Value; p != "!" && p != "-not" {
			return true
		}
	}
	return false
}
