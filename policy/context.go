package policy

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/shellparse"
)

// The context rule: a recursive delete whose every target is, at decision
// time, a build or cache folder inside the current project gets no
// warning. "Inside the project" means below the project root (the
// outermost folder above the working directory that holds a .git, or the
// working directory itself without one), never the root itself and never
// in .git. Each target must be written plainly — no variable, glob,
// substitution, "~" or ".." component — and resolve, one component at a
// time with lstat, through real folders only (a symbolic link anywhere on
// the way, a missing target or a file that is not a folder keeps the
// warning). One of its components, below the root, must be a safe name:
// safeDeleteNames or a name in safe_delete, or it must be one of the
// safe_delete paths relative to the root (or below one). Nothing before
// the delete in the line may change the folders: every earlier
// invocation is read-only (and not cd), or another delete this rule
// accepts. A delete run elsewhere (ssh host rm, xargs rm, find -exec rm)
// keeps its warning.

// safeDeleteNames are the build and cache folders the context rule knows
// (shell patterns, matched against one path component).
var safeDeleteNames = []string{
	"node_modules", "dist", "build", "target", ".next", ".turbo", "coverage",
	"__pycache__", ".pytest_cache", ".venv", "*.egg-info",
}

// contextRules are the danger rules a safe delete drops: the ones about
// deleting a tree as such, not about where (a delete of "/" or "~" warns
// by other rules, which stay).
var contextRules = map[string]bool{"rm_recursive": true}

// contextRule removes, from ws, the warnings of contextRules on deletes
// the context rule accepts.
func (g *Guard) contextRule(req Request, res *shellparse.Result, ws []danger.Warning) []danger.Warning {
	found := false
	for _, w := range ws {
		found = found || contextRules[w.Pattern.Name]
	}
	if !found || !res.OK() {
		return ws
	}
	cwd := req.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	if cwd == "" || !filepath.IsAbs(cwd) {
		return ws
	}
	// The rule reads the file system: on the caller's goroutine it runs
	// under the deadline (see Request.watched); unfinished, every warning
	// stays.
	var safe map[string]bool
	if req.watched {
		safe = g.safeDeletes(res, cwd)
	} else {
		var done bool
		if safe, done = run(g.watch, g.deadline(req), func() map[string]bool { return g.safeDeletes(res, cwd) }); !done {
			return ws
		}
	}
	out := ws[:0:0]
	for _, w := range ws {
		if contextRules[w.Pattern.Name] && safe[w.Invocation] {
			continue
		}
		out = append(out, w)
	}
	return out
}

// safeDeletes maps the text of each rm invocation of res to whether the
// context rule accepts every occurrence of it.
func (g *Guard) safeDeletes(res *shellparse.Result, cwd string) map[string]bool {
	real, err := filepath.EvalSymlinks(cwd)
	if err != nil {
		return nil
	}
	root := projectRoot(real)
	safe := map[string]bool{}
	benign := true
	for i := range res.Invocations {
		inv := &res.Invocations[i]
		ok := false
		if inv.Name == "rm" {
			ok = benign && g.safeDelete(inv, real, root)
			key := inv.String()
			if prev, seen := safe[key]; seen {
				ok = ok && prev
			}
			safe[key] = ok
		}
		switch {
		case ok:
		case inv.RunsShellInput && !inv.StdinUnknown && !inv.Dynamic():
			// bash -c '...': what it runs is judged one by one.
		case inv.Name == "cd" || inv.Name == "pushd" || inv.Name == "popd":
			benign = false
		case !readOnly(inv):
			benign = false
		}
	}
	return safe
}

// safeDelete reports whether the rm invocation deletes only build or
// cache folders inside the project.
func (g *Guard) safeDelete(inv *shellparse.Invocation, cwd, root string) bool {
	if inv.ArgsFromInput || inv.Where.Has(shellparse.FrameRemote) || inv.Where.Has(shellparse.FrameExec) ||
		inv.Where.Has(shellparse.FrameBackground) || inv.StdinUnknown {
		return false
	}
	var ops []shellparse.Arg
	endOpts := false
	for _, a := range inv.Args[1:] {
		switch {
		case a.Dynamic || a.Glob:
			return false
		case endOpts:
			ops = append(ops, a)
		case a.Value == "--":
			endOpts = true
		case strings.HasPrefix(a.Value, "-") && a.Value != "-":
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) == 0 {
		return false
	}
	for _, a := range ops {
		if !g.safeTarget(a.Value, cwd, root) {
			return false
		}
	}
	return true
}

// safeTarget reports whether the operand p names a build or cache folder
// inside the project, through real folders only.
func (g *Guard) safeTarget(p, cwd, root string) bool {
	if p == "" || strings.HasPrefix(p, "~") || strings.ContainsRune(p, 0) {
		return false
	}
	for _, c := range strings.Split(p, "/") {
		if c == ".." {
			return false
		}
	}
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(cwd, p)
	}
	abs = filepath.Clean(abs)
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
		return false
	}
	comps := strings.Split(rel, "/")
	named := false
	for i, c := range comps {
		if c == ".git" || c == "." || c == "" {
			return false
		}
		if g.safeName(c) || g.safePath(strings.Join(comps[:i+1], "/")) {
			named = true
		}
	}
	if !named {
		return false
	}
	// Every component, from the root down, is a real folder.
	dir := root
	for _, c := range comps {
		dir = filepath.Join(dir, c)
		fi, err := os.Lstat(dir)
		if err != nil || fi.Mode()&os.ModeSymlink != 0 || !fi.IsDir() {
			return false
		}
	}
	return true
}

// safeName reports whether one path component is a safe build or cache
// folder name.
func (g *Guard) safeName(c string) bool {
	for _, n := range safeDeleteNames {
		if ok, _ := filepath.Match(n, c); ok {
			return true
		}
	}
	for _, n := range g.cfg.SafeDelete {
		if !strings.Contains(n, "/") {
			if ok, _ := filepath.Match(n, c); ok {
				return true
			}
		}
	}
	return false
}

// safePath reports whether rel (relative to the root) is a safe_delete
// path.
func (g *Guard) safePath(rel string) bool {
	for _, n := range g.cfg.SafeDelete {
		if strings.Contains(n, "/") {
			if ok, _ := filepath.Match(n, rel); ok {
				return true
			}
		}
	}
	return false
}
