package doctor

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/internal/audit"
	"github.com/shellguard/shellguard/internal/install"
	"github.com/shellguard/shellguard/internal/xdg"
	"github.com/shellguard/shellguard/policy"
)

// Options say whose setup to check.
type Options struct {
	// Env is the user's home, the project directory (doctor's working
	// directory) and the environment.
	Env install.Env
	// Policy selects the configuration to load (Cwd is the project).
	Policy policy.Options
	// Exe is the running shellguard binary: its own hook command counts as
	// shellguard's even if it is not called shellguard. "" for none.
	Exe string
}

// report writes doctor's lines and remembers whether one needs attention.
type report struct {
	w         io.Writer
	attention bool
	installed int
	// quiet reports that every file looked at was absent (agent).
	quiet bool
}

func (r *report) printf(format string, a ...any) { fmt.Fprintf(r.w, format, a...) }

func (r *report) problem(indent, format string, a ...any) {
	r.attention, r.quiet = true, false
	fmt.Fprintf(r.w, indent+"PROBLEM: "+format+"\n", a...)
}

// Run writes the report to w and returns whether something needs
// attention.
func Run(w io.Writer, o Options) (attention bool) {
	r := &report{w: w}
	var absent []string
	for _, spec := range agents.Specs() {
		// Each agent's lines are written apart, so that an agent with no
		// settings file at all takes one line at the end, not one per
		// file.
		var buf bytes.Buffer
		a := &report{w: &buf}
		a.agent(o, spec)
		if a.quiet {
			absent = append(absent, fmt.Sprintf("%s (`shellguard install %s`)", spec.Title, spec.Name))
			continue
		}
		r.printf("%s\n%s", spec.Title, buf.Bytes())
		r.attention = r.attention || a.attention
		r.installed += a.installed
	}
	if len(absent) > 0 {
		r.printf("Not installed (none of their settings files exists):\n")
		for _, x := range absent {
			r.printf("  %s\n", x)
		}
	}
	if r.installed == 0 {
		r.problem("", "shellguard's hook is installed for no agent; run `shellguard install %s` (or %s)",
			agents.Agents()[0], strings.Join(names()[1:], ", "))
	}
	r.configuration(o)
	if r.attention {
		r.printf("Something needs attention (see PROBLEM above).\n")
	} else {
		r.printf("All good.\n")
	}
	return r.attention
}

// agent reports on one agent's settings files; quiet is left true when
// none of them exists and nothing needs attention.
func (r *report) agent(o Options, spec agents.Spec) {
	r.quiet = true
	own := ""
	if o.Exe != "" {
		own = install.HookCommandFor(o.Exe, spec.Name)
	}
	if spec.Name == agents.Codex {
		r.codex(o.Env, spec, own)
		return
	}
	found := false
	for _, scope := range []install.Scope{install.User, install.Project} {
		in := r.settings(spec, install.Inspect(spec.Name, scope, o.Env, own))
		found = in || found
		if in && scope == install.Project && spec.ProjectTrust {
			r.copilotFolder(o.Env, spec)
		}
	}
	if found && spec.FolderTrust {
		r.geminiFolder(o.Env)
	}
}

func names() []string {
	var out []string
	for _, a := range agents.Agents() {
		out = append(out, string(a))
	}
	return out
}

// settings reports on one JSON settings file and returns whether it holds
// shellguard's hook.
func (r *report) settings(spec agents.Spec, st install.Status) bool {
	r.printf("  %-8s %s: ", st.Scope, st.Path)
	switch {
	case st.Err != nil:
		r.problem("", "%v", st.Err)
		return false
	case !st.Exists:
		r.printf("no file\n")
		return false
	}
	r.quiet = false
	switch {
	case st.Foreign:
		r.printf("a file shellguard did not write (shellguard leaves it alone)\n")
		return false
	case len(st.Commands) == 0:
		r.printf("no shellguard hook\n")
		return false
	}
	r.printf("hook installed\n")
	for _, cmd := range st.Commands {
		r.command(spec, cmd, "    ", "")
	}
	if n := count(st.Hooks, func(h install.Hook) bool { return h.Event == spec.Event }); n > 1 {
		r.printf("    note: the hook is there %d times; `shellguard uninstall %s` removes every copy\n", n, spec.Name)
	}
	r.registrations(spec, st.Hooks, "    ")
	return true
}

// count returns how many of list match.
func count[E any](list []E, match func(E) bool) int {
	n := 0
	for _, e := range list {
		if match(e) {
			n++
		}
	}
	return n
}

// command checks one installed hook command: the program it runs, and
// that it blocks when that program is missing.
func (r *report) command(spec agents.Spec, cmd, indent, where string) bool {
	if where != "" {
		where = " (" + where + ")"
	}
	r.installed++ // installed, even if it needs attention
	if err := install.CheckCommand(cmd); err != nil {
		r.problem(indent, "%s%s: %v; run `shellguard install %s` again from where shellguard is now", cmd, where, err, spec.Name)
		return false
	}
	if !install.FailsClosed(cmd, spec.Name) {
		r.problem(indent, "%s%s: if this program is moved or deleted, %s runs every command unchecked (a hook that cannot run is not a block there); run `shellguard install %s` again to install the form that blocks then", cmd, where, spec.Title, spec.Name)
		return false
	}
	switch err := install.Probe(cmd, spec.Name); {
	case errors.Is(err, install.ErrNotProbed):
		r.printf("%sok: %s%s\n%snote: not started to check it: %v\n", indent, cmd, where, indent+"  ", err)
	case err != nil:
		r.problem(indent, "%s%s: the hook program does not answer as the %s hook: %v; run `shellguard install %s` again from the shellguard you use now", cmd, where, spec.Title, err, spec.Name)
		return false
	default:
		r.printf("%sok: %s%s (it runs and answers)\n", indent, cmd, where)
	}
	return true
}

// copilotFolder reports whether Copilot CLI trusts the project folder:
// it loads a repository's hooks only in a trusted folder.
func (r *report) copilotFolder(env install.Env, spec agents.Spec) {
	ft := install.CopilotFolderTrust(env, env.Dir)
	switch {
	case ft.Err != nil:
		r.problem("    ", "%s: cannot read its trusted folders (%s: %v)", spec.Title, ft.File, ft.Err)
	case !ft.Trusted:
		r.problem("    ", "%s loads this project's hooks only in a folder you trusted, and %s is not trusted: %s. Trust it when %s asks on start (or run it once with --trust-folder), or use `shellguard install %s` without --project",
			spec.Title, env.Dir, ft.Why, spec.Title, spec.Name)
	default:
		r.printf("    folder %s: trusted (%s)\n", env.Dir, ft.Why)
	}
}

// registrations notes hook entries of the current release that are
// missing or differ (an install by an older shellguard).
func (r *report) registrations(spec agents.Spec, hooks []install.Hook, indent string) {
	for _, reg := range spec.Registrations() {
		var match *install.Hook
		for i := range hooks {
			if hooks[i].Event == reg.Event {
				match = &hooks[i]
			}
		}
		switch {
		case match == nil && reg.Event == spec.PermissionEvent:
			r.printf("%snote: no %s hook: %s asks you about commands shellguard already approved; `shellguard install %s` adds it\n", indent, reg.Event, spec.Title, spec.Name)
		case match == nil:
			r.problem(indent, "no %s hook; run `shellguard install %s` again", reg.Event, spec.Name)
		case match.Matcher != nil && *match.Matcher != reg.Matcher:
			r.printf("%snote: the %s matcher is %q, not %q; `shellguard install %s` updates it\n", indent, reg.Event, *match.Matcher, reg.Matcher, spec.Name)
		}
	}
}

// geminiFolder reports whether Gemini CLI trusts the project folder:
// it loads no settings hooks in a folder the user did not trust.
func (r *report) geminiFolder(env install.Env) {
	ft := install.GeminiFolderTrust(env, env.Dir)
	switch {
	case ft.Err != nil:
		r.problem("  ", "Gemini CLI cannot read its trusted folders (%s: %v): it refuses to start until the file is fixed", ft.File, ft.Err)
	case !ft.Trusted:
		r.problem("  ", "Gemini CLI does not trust %s: %s. So it loads no hooks there, shellguard's included, and a headless run refuses to start. "+
			"Trust the folder when Gemini CLI asks you (or with /permissions in it), or add it to trustedFolders.json as TRUST_FOLDER", env.Dir, ft.Why)
	default:
		r.printf("  folder %s: trusted (%s)\n", env.Dir, ft.Why)
	}
}

// codex reports on both Codex layers, each with its hooks.json and the
// inline hooks of its config.toml (read only; see install/codex.go), and
// on the trust Codex recorded for each of shellguard's hooks.
func (r *report) codex(env install.Env, spec agents.Spec, own string) {
	layers := []install.CodexLayer{install.InspectCodex(install.User, env, own), install.InspectCodex(install.Project, env, own)}
	// Codex keeps per-hook state (disabled, trusted) in the user's
	// config.toml only.
	state := layers[0].TOML.State
	for _, l := range layers {
		if r.settings(spec, l.JSON) {
			r.trust(spec, state, l.JSON.Path, l.JSON.Hooks, "    ")
		}
		r.printf("  %-8s %s: ", l.Scope, l.TOMLPath)
		switch {
		case l.TOMLErr != nil:
			r.problem("", "%v", l.TOMLErr)
			continue
		case !l.TOMLExists:
			r.printf("no file\n")
			continue
		}
		r.quiet = false
		sg, others := l.TOML.Shellguard(), len(l.TOML.Others())
		switch {
		case len(sg) > 0:
			r.printf("hook configured inline\n")
		case others > 0:
			r.printf("no shellguard hook (%d other inline hook(s))\n", others)
		default:
			r.printf("no inline hooks\n")
		}
		if l.TOML.HooksErr != nil {
			r.problem("    ", "Codex cannot load the [hooks] here and skips all of them: %v", l.TOML.HooksErr)
		}
		if l.TOML.HooksDisabled {
			r.problem("    ", "[features] hooks = false: Codex runs no hooks at all, shellguard's included")
		}
		var inline []install.Hook
		for _, h := range sg {
			where := install.Where(l.TOMLPath, h)
			switch {
			case h.Event == spec.Event && !h.RunsForShell():
				r.problem("    ", "%s: a %s hook with matcher %q does not run before shell commands (want PreToolUse, matcher \"^Bash$\")", where, h.Event, h.Matcher)
			case h.Event == spec.Event || h.Event == spec.PermissionEvent:
				if r.command(spec, h.Command, "    ", where) {
					inline = append(inline, h.HookOf())
				}
			}
		}
		r.trust(spec, state, l.TOMLPath, inline, "    ")
		if n := count(sg, func(h install.InlineHook) bool { return h.Event == spec.Event }); n > 1 {
			r.printf("    note: the hook is there %d times; Codex runs every copy\n", n)
		}
		if l.BothRepresentations() {
			r.printf("    note: this layer has hooks in both %s and %s; Codex loads and runs both and warns at startup (\"prefer a single representation for this layer\")\n",
				filepath.Base(l.JSON.Path), filepath.Base(l.TOMLPath))
			if len(sg) > 0 && len(l.JSON.Commands) > 0 {
				r.printf("    note: shellguard's hook is in both files, so Codex runs it twice per command; `shellguard uninstall codex` removes the hooks.json copy\n")
			}
		}
	}
}

// trust reports what Codex recorded for shellguard's hooks in source: a
// hook Codex has not been told to trust, or whose definition changed
// since, is skipped without a word (codex exec included).
func (r *report) trust(spec agents.Spec, state map[string]install.HookState, source string, hooks []install.Hook, indent string) {
	if !spec.Trust {
		return
	}
	real, _ := filepath.EvalSymlinks(source)
	for _, h := range hooks {
		if h.Event != spec.Event && h.Event != spec.PermissionEvent {
			continue
		}
		c := install.CheckCodexTrust(state, source, real, h)
		essential := h.Event == spec.Event
		what := "shellguard's " + h.Event + " hook"
		fix := "open /hooks in Codex, select " + what + " and trust it (t); `shellguard doctor` then says it is trusted"
		switch {
		case c.Disabled:
			r.problemOrNote(essential, indent, "%s is disabled in Codex's /hooks view ([hooks.state] %q); enable it there", what, c.Key)
		case c.Trusted():
			r.printf("%sok: %s is trusted in /hooks\n", indent, what)
		case c.Stale():
			r.problemOrNote(essential, indent, "%s changed since you trusted it (shellguard was installed again with another command), so Codex skips it without a word: %s", what, fix)
		default:
			r.problemOrNote(essential, indent, "Codex has no record that you trusted %s, so it skips it without a word (codex exec too): %s", what, fix)
		}
	}
}

func (r *report) problemOrNote(problem bool, indent, format string, a ...any) {
	if problem {
		r.problem(indent, format, a...)
		return
	}
	r.printf(indent+"note: "+format+"\n", a...)
}

// configuration reports the configuration and approval files and whether
// the configuration loads.
func (r *report) configuration(o Options) {
	r.printf("Configuration\n")
	// The files the Guard reads: its approval store when it loads, else
	// where policy.Load would look (--approvals, $SHELLGUARD_APPROVALS,
	// then internal/xdg's default), from the environment it is given.
	g, loadErr := policy.Load(o.Policy)
	getenv := o.Policy.Env
	if getenv == nil {
		getenv = os.Getenv
	}
	approvals := firstSet(o.Policy.ApprovalsFile, getenv(policy.EnvApprovals), xdg.Config(o.Policy.Env, "approvals.json"))
	if loadErr == nil && g.Store() != nil {
		approvals = g.Store().Path()
	}
	files := []struct{ what, path string }{
		{"user configuration", config.LoadOptions{Env: o.Policy.Env}.UserPath()},
		{"approvals", approvals},
	}
	if o.Policy.ConfigFile != "" {
		files = append(files, struct{ what, path string }{"extra configuration", o.Policy.ConfigFile})
	}
	for _, f := range files {
		state := "exists"
		if f.path == "" {
			f.path, state = "?", "unknown: neither $XDG_CONFIG_HOME nor $HOME is an absolute path"
		} else if _, err := os.Stat(f.path); errors.Is(err, os.ErrNotExist) {
			state = "absent (built-in defaults)"
		} else if err != nil {
			state = "PROBLEM: " + err.Error()
			r.attention = true
		}
		r.printf("  %-20s %s: %s\n", f.what, f.path, state)
	}
	if loadErr != nil {
		r.problem("  ", "loading the configuration for %s: %v", o.Policy.Cwd, loadErr)
		return
	}
	r.printf("  configuration for %s loads\n", o.Policy.Cwd)
	for _, n := range g.Notices() {
		r.printf("  notice: %s\n", strings.TrimSpace(n))
	}
	r.printf("  unattended = %q: where no person will see a prompt, an ask is %s\n", g.Config().Unattended,
		map[bool]string{true: "kept (the agent refuses it)", false: "denied with its reason"}[g.Config().Unattended == "ask"])
	if log := g.Config().AuditLog; log != "" {
		// A failed write is recorded beside the log (audit.Check).
		if err := audit.Check(log); err != nil {
			effect := "decisions are not recorded"
			if g.Config().AuditRequired {
				effect = "audit_required is set, so commands that would be allowed are asked"
			}
			r.problem("  ", "%v; %s", err, effect)
		} else {
			r.printf("  audit log %s: ok\n", log)
		}
	}
}

func firstSet(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
