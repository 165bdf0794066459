package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/audit"
	"github.com/shellguard/shellguard/hook"
	"github.com/shellguard/shellguard/install"
	"github.com/shellguard/shellguard/policy"
)

// configFlags are the --config and --approvals flags (with their
// SHELLGUARD_CONFIG and SHELLGUARD_APPROVALS defaults) of the commands that
// load a Guard.
type configFlags struct {
	config, approvals string
}

func (f *configFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.config, "config", "", "extra configuration file (default $SHELLGUARD_CONFIG)")
	c.Flags().StringVar(&f.approvals, "approvals", "", "approval store (default $SHELLGUARD_APPROVALS)")
}

func (f *configFlags) options(cwd, source string) policy.Options {
	return policy.Options{
		Cwd:           cwd,
		Source:        source,
		ConfigFile:    firstSet(f.config, os.Getenv("SHELLGUARD_CONFIG")),
		ApprovalsFile: firstSet(f.approvals, os.Getenv("SHELLGUARD_APPROVALS")),
	}
}

// hookCommand is the command install writes: the lean shellguard-hook
// binary when it is installed next to this one (it starts several times
// faster, and agents run it before every command), else "<exe> hook AGENT".
func hookCommand(exe string, agent hook.Agent) string {
	lean := filepath.Join(filepath.Dir(exe), "shellguard-hook")
	if fi, err := os.Stat(lean); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
		return install.LeanHookCommand(lean, agent)
	}
	return install.HookCommand(exe, agent)
}

func firstSet(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

func newHookCmd(s *streams) *cobra.Command {
	var cf configFlags
	c := &cobra.Command{
		Use:   "hook claude|gemini|codex",
		Short: "Answer an agent's pre-execution hook (reads the hook JSON on stdin)",
		Long: `hook reads the JSON an agent sends to its pre-execution hook on standard
input and answers in that agent's protocol: Claude Code PreToolUse (Bash),
Gemini CLI BeforeTool (run_shell_command) or Codex PreToolUse (Bash).

Dangerous commands are denied with a reason for the model; commands that need a
person's approval are sent to Claude Code's permission prompt (Gemini CLI and
Codex cannot ask from a hook, so there they are blocked with a reason); commands
shellguard approves are allowed; unknown commands are left to the agent's own
permission flow. Bad input or a configuration error never lets a command
through silently. The cwd in the hook input selects the project configuration.

Install it with "shellguard install <agent>".`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"claude", "gemini", "codex"},
		RunE: func(c *cobra.Command, args []string) error {
			o := cf.options("", "")
			decide := hook.PolicyDecider(o.ConfigFile, o.ApprovalsFile, "hook:"+args[0])
			if code := hook.Run(hook.Agent(args[0]), s.in, s.out, s.err, decide); code != 0 {
				return exitCode(code)
			}
			return nil
		},
	}
	cf.register(c)
	return c
}

// installFlags are the flags shared by install and uninstall.
type installFlags struct {
	project, user, dryRun bool
	cwd, exe              string
}

func (f *installFlags) register(c *cobra.Command, verb string) {
	c.Flags().BoolVar(&f.project, "project", false, verb+" the project's settings (in --cwd)")
	c.Flags().BoolVar(&f.user, "user", false, verb+" the user's settings (the default)")
	c.Flags().BoolVar(&f.dryRun, "dry-run", false, "print the resulting file instead of writing it")
	c.Flags().StringVar(&f.cwd, "cwd", "", "project directory (default: the current directory)")
	c.MarkFlagsMutuallyExclusive("project", "user")
}

// installTarget is the settings file install or uninstall edits.
type installTarget struct {
	agent hook.Agent
	scope install.Scope
	env   install.Env
	path  string
}

func (f *installFlags) target(agentName string) (installTarget, error) {
	agent, err := hook.ParseAgent(agentName)
	if err != nil {
		return installTarget{}, &exitError{exitUsage, err}
	}
	env, err := install.FromProcess(f.cwd)
	if err != nil {
		return installTarget{}, &exitError{1, err}
	}
	scope := install.User
	if f.project {
		scope = install.Project
	}
	path, err := install.SettingsPath(agent, scope, env)
	if err != nil {
		return installTarget{}, &exitError{1, err}
	}
	return installTarget{agent: agent, scope: scope, env: env, path: path}, nil
}

// codexConfigTOML reads the config.toml of the Codex layer that install or
// uninstall edits. Codex also loads hooks written inline there, so a file
// that does not parse is an error: shellguard cannot tell whether its hook
// is already there.
func codexConfigTOML(t installTarget, own string) (path string, cfg install.CodexConfig, err error) {
	l := install.InspectCodex(t.scope, t.env, own)
	if l.TOMLErr != nil {
		why := l.TOMLErr
		var te *install.TOMLError
		if errors.As(why, &te) {
			why = te
		}
		return l.TOMLPath, cfg, &exitError{1, fmt.Errorf("%s: %w; Codex also reads hooks from this file, so shellguard cannot tell whether its hook is already configured there: fix the file first (shellguard changed nothing)", l.TOMLPath, why)}
	}
	return l.TOMLPath, l.TOML, nil
}

func where(path string, h install.InlineHook) string {
	if h.Line > 0 {
		return fmt.Sprintf("%s:%d", path, h.Line)
	}
	return path
}

func newInstallCmd(s *streams) *cobra.Command {
	var f installFlags
	c := &cobra.Command{
		Use:   "install claude|gemini|codex [--project|--user] [--dry-run]",
		Short: "Add shellguard's hook to an agent's settings",
		Long: `install adds "<this binary> hook <agent>" to the agent's hook settings:

  claude   ~/.claude/settings.json   or <project>/.claude/settings.json
  gemini   ~/.gemini/settings.json   or <project>/.gemini/settings.json
  codex    ~/.codex/hooks.json       or <project>/.codex/hooks.json

Installing twice changes nothing. Every other setting is kept as it is; the
previous file is kept as <file>.shellguard-bak-<timestamp>. A file that is not
valid JSON is not touched (exit status 1).

Codex also reads hooks written inline in config.toml next to hooks.json.
shellguard never edits config.toml, but reads it: when shellguard's hook is
already there, install codex adds nothing (exit status 0); when config.toml
does not parse, it refuses (exit status 1).`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"claude", "gemini", "codex"},
		RunE: func(c *cobra.Command, args []string) error {
			t, err := f.target(args[0])
			if err != nil {
				return err
			}
			agent := t.agent
			exe := f.exe
			if exe == "" {
				if exe, err = os.Executable(); err != nil {
					return &exitError{1, fmt.Errorf("cannot find this program's path: %w", err)}
				}
			}
			if exe, err = filepath.Abs(exe); err != nil {
				return &exitError{1, err}
			}
			command := hookCommand(exe, agent)
			var tomlPath string
			var inline install.CodexConfig
			if agent == hook.Codex {
				if tomlPath, inline, err = codexConfigTOML(t, command); err != nil {
					return err
				}
				if sg := inline.Shellguard(); len(sg) > 0 {
					// Codex runs every hook it finds; a second copy in
					// hooks.json would run shellguard twice per command.
					for _, h := range sg {
						fmt.Fprintf(s.out, "The shellguard hook for Codex is already configured inline in %s: %s\n", where(tomlPath, h), h.Command)
						if !h.RunsForShell() {
							fmt.Fprintf(s.out, "  PROBLEM: it is a %s hook with matcher %q, so Codex does not run it before shell commands; fix it there.\n", h.Event, h.Matcher)
						} else if err := install.CheckCommand(h.Command); err != nil {
							fmt.Fprintf(s.out, "  PROBLEM: %v; fix the command there (shellguard does not edit config.toml).\n", err)
						} else if h.Command != command {
							fmt.Fprintf(s.out, "  note: it runs %s, not this program's %s.\n", h.Command, command)
						}
					}
					fmt.Fprintf(s.out, "Nothing added to %s (Codex would run a second copy); `shellguard doctor` checks the inline hook.\n", t.path)
					return nil
				}
			}
			res, err := install.Install(t.path, agent, command, install.Options{DryRun: f.dryRun})
			if err != nil {
				return &exitError{1, err}
			}
			report(s.out, "install", agent, res, f.dryRun)
			if res.Changed && !f.dryRun {
				switch agent {
				case hook.Codex:
					fmt.Fprintln(s.out, "Codex runs a new hook only after you trust it: open /hooks in Codex and trust it once.")
					if f.project {
						fmt.Fprintln(s.out, "Codex loads project hooks only for trusted projects.")
					}
				case hook.Gemini:
					fmt.Fprintln(s.out, `If your Gemini CLI release does not run hooks by default, set "hooksConfig": {"enabled": true} in its settings.`)
				}
			}
			if agent == hook.Codex {
				if n := len(inline.Others()); n > 0 {
					fmt.Fprintf(s.out, "note: %s also holds %d inline hook(s). Codex loads hooks.json and config.toml of the same layer both, runs both and warns at startup (\"prefer a single representation for this layer\"). To keep your hooks in config.toml only, run `shellguard uninstall codex%s` and append this to %s instead (shellguard recognises it there):\n\n%s\n",
						tomlPath, n, projectFlag(t.scope), tomlPath, install.TOMLSnippet(command))
				}
				if inline.HooksDisabled {
					fmt.Fprintf(s.out, "PROBLEM: %s sets [features] hooks = false: Codex runs no hooks at all until you remove it.\n", tomlPath)
				}
			}
			return nil
		},
	}
	f.register(c, "edit")
	c.Flags().StringVar(&f.exe, "exe", "", "shellguard binary the hook runs (default: this program)")
	return c
}

func newUninstallCmd(s *streams) *cobra.Command {
	var f installFlags
	c := &cobra.Command{
		Use:   "uninstall claude|gemini|codex [--project|--user] [--dry-run]",
		Short: "Remove shellguard's hook from an agent's settings",
		Long: `uninstall removes exactly what install added: shellguard's hook entry (a
command that mentions shellguard and runs "hook <agent>"), and the lists and
"hooks" object that are left empty by its removal. A file left holding only an
empty object is removed. The previous file is kept as
<file>.shellguard-bak-<timestamp>.

For Codex, a shellguard hook written by hand inline in config.toml is not
removed (shellguard never edits that file): uninstall prints where it is and
exits with status 1.`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"claude", "gemini", "codex"},
		RunE: func(c *cobra.Command, args []string) error {
			t, err := f.target(args[0])
			if err != nil {
				return err
			}
			// This binary's own hook command counts as shellguard's even
			// if the binary is not called shellguard.
			var own string
			if exe, err := os.Executable(); err == nil {
				own = hookCommand(exe, t.agent)
			}
			res, err := install.Uninstall(t.path, t.agent, own, install.Options{DryRun: f.dryRun})
			if err != nil {
				return &exitError{1, err}
			}
			report(s.out, "uninstall", t.agent, res, f.dryRun)
			if t.agent != hook.Codex {
				return nil
			}
			// install never writes config.toml, but a hook written there by
			// hand still runs: say where, and do not claim success.
			tomlPath, inline, err := codexConfigTOML(t, own)
			if err != nil {
				fmt.Fprintf(s.out, "note: %v\n", err)
				return exitCode(1)
			}
			if sg := inline.Shellguard(); len(sg) > 0 {
				for _, h := range sg {
					fmt.Fprintf(s.out, "The shellguard hook for Codex is still configured inline in %s: %s\n", where(tomlPath, h), h.Command)
				}
				fmt.Fprintln(s.out, "shellguard does not edit config.toml (Codex rewrites that file itself); remove that [[hooks.PreToolUse.hooks]] entry (and its [[hooks.PreToolUse]] group if it is left empty) by hand.")
				return exitCode(1)
			}
			return nil
		},
	}
	f.register(c, "edit")
	return c
}

func projectFlag(scope install.Scope) string {
	if scope == install.Project {
		return " --project"
	}
	return ""
}

func report(w io.Writer, verb string, agent hook.Agent, res install.Result, dryRun bool) {
	switch {
	case !res.Changed && verb == "install":
		fmt.Fprintf(w, "The shellguard hook for %s is already in %s.\n", agent.Title(), res.Path)
	case !res.Changed:
		fmt.Fprintf(w, "There is no shellguard hook for %s in %s.\n", agent.Title(), res.Path)
	case dryRun && res.Removed:
		fmt.Fprintf(w, "Would remove %s (nothing else would be left in it).\n", res.Path)
	case dryRun:
		fmt.Fprintf(w, "Would write %s:\n", res.Path)
		w.Write(res.After)
		if len(res.After) > 0 && res.After[len(res.After)-1] != '\n' {
			fmt.Fprintln(w)
		}
	default:
		what := "Installed the shellguard hook for %s in %s"
		if verb == "uninstall" {
			what = "Removed the shellguard hook for %s from %s"
		}
		fmt.Fprintf(w, what, agent.Title(), res.Path)
		if res.Removed {
			fmt.Fprint(w, " (the file was left empty and is removed)")
		}
		if res.Backup != "" {
			fmt.Fprintf(w, "; the previous file is %s", res.Backup)
		}
		fmt.Fprintln(w, ".")
	}
}

func newDoctorCmd(s *streams) *cobra.Command {
	var cf configFlags
	var cwd string
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check the agent hooks and the configuration in effect",
		Long: `doctor reports, for Claude Code, Gemini CLI and Codex, whether shellguard's
hook is in the user's and the project's settings and whether the program it
names exists and is executable (it runs nothing), then which configuration and
approval files are in effect. For Codex it also reads config.toml: hooks
written inline there, [features] hooks = false, hooks disabled in /hooks, and
layers with hooks in both hooks.json and config.toml.

Exit status: 0 when all is well, 1 when something needs attention (no hook
installed anywhere, a hook naming a missing program, a settings file that does
not parse, a configuration error).`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			env, err := install.FromProcess(cwd)
			if err != nil {
				return &exitError{1, err}
			}
			if doctor(s.out, env, cf.options(env.Dir, "doctor")) {
				return exitCode(1)
			}
			return nil
		},
	}
	c.Flags().StringVar(&cwd, "cwd", "", "project directory (default: the current directory)")
	cf.register(c)
	return c
}

// doctorSettings reports on one JSON settings file: how many shellguard
// hooks it holds and whether something needs attention.
func doctorSettings(w io.Writer, st install.Status) (installed int, attention bool) {
	fmt.Fprintf(w, "  %-8s %s: ", st.Scope, st.Path)
	switch {
	case st.Err != nil:
		fmt.Fprintf(w, "PROBLEM: %v\n", st.Err)
		attention = true
	case !st.Exists:
		fmt.Fprintln(w, "no file")
	case len(st.Commands) == 0:
		fmt.Fprintln(w, "no shellguard hook")
	default:
		fmt.Fprintln(w, "hook installed")
		for _, cmd := range st.Commands {
			installed++
			if err := install.CheckCommand(cmd); err != nil {
				fmt.Fprintf(w, "    PROBLEM: %s: %v\n", cmd, err)
				attention = true
			} else {
				fmt.Fprintf(w, "    ok: %s\n", cmd)
			}
		}
		if len(st.Commands) > 1 {
			fmt.Fprintln(w, "    note: the hook is there more than once; `shellguard uninstall` removes every copy")
		}
	}
	return installed, attention
}

// doctorCodex reports on both Codex layers, each with its hooks.json and
// the inline hooks of its config.toml (read only; see install/codex.go for
// the Codex behaviour this relies on).
func doctorCodex(w io.Writer, env install.Env, own string) (installed int, attention bool) {
	layers := []install.CodexLayer{install.InspectCodex(install.User, env, own), install.InspectCodex(install.Project, env, own)}
	// Codex keeps per-hook state (disabled, trusted) in the user's
	// config.toml only.
	state := layers[0].TOML.State
	for _, l := range layers {
		n, a := doctorSettings(w, l.JSON)
		installed += n
		attention = attention || a
		for i := range l.JSON.Commands {
			if i < len(l.JSONGroups) {
				attention = codexHookState(w, state, l.JSON.Path, l.JSONGroups[i], l.JSONHandlers[i]) || attention
			}
		}
		fmt.Fprintf(w, "  %-8s %s: ", l.Scope, l.TOMLPath)
		switch {
		case l.TOMLErr != nil:
			fmt.Fprintf(w, "PROBLEM: %v\n", l.TOMLErr)
			attention = true
			continue
		case !l.TOMLExists:
			fmt.Fprintln(w, "no file")
			continue
		}
		sg, others := l.TOML.Shellguard(), len(l.TOML.Others())
		switch {
		case len(sg) > 0:
			fmt.Fprintln(w, "hook configured inline")
		case others > 0:
			fmt.Fprintf(w, "no shellguard hook (%d other inline hook(s))\n", others)
		default:
			fmt.Fprintln(w, "no inline hooks")
		}
		if l.TOML.HooksErr != nil {
			fmt.Fprintf(w, "    PROBLEM: Codex cannot load the [hooks] here and skips all of them: %v\n", l.TOML.HooksErr)
			attention = true
		}
		if l.TOML.HooksDisabled {
			fmt.Fprintln(w, "    PROBLEM: [features] hooks = false: Codex runs no hooks at all, shellguard's included")
			attention = true
		}
		for _, h := range sg {
			switch err := install.CheckCommand(h.Command); {
			case !h.RunsForShell():
				fmt.Fprintf(w, "    PROBLEM: %s: a %s hook with matcher %q does not run before shell commands (want PreToolUse, matcher \"^Bash$\")\n", where(l.TOMLPath, h), h.Event, h.Matcher)
				attention = true
			case err != nil:
				fmt.Fprintf(w, "    PROBLEM: %s: %s: %v\n", where(l.TOMLPath, h), h.Command, err)
				attention = true
			default:
				installed++
				fmt.Fprintf(w, "    ok: %s (%s)\n", h.Command, where(l.TOMLPath, h))
				attention = codexHookState(w, state, l.TOMLPath, h.Group, h.Handler) || attention
			}
		}
		if len(sg) > 1 {
			fmt.Fprintln(w, "    note: the hook is there more than once; Codex runs every copy")
		}
		if l.BothRepresentations() {
			fmt.Fprintf(w, "    note: this layer has hooks in both %s and %s; Codex loads and runs both and warns at startup (\"prefer a single representation for this layer\")\n",
				filepath.Base(l.JSON.Path), filepath.Base(l.TOMLPath))
			if len(sg) > 0 && len(l.JSON.Commands) > 0 {
				fmt.Fprintln(w, "    note: shellguard's hook is in both files, so Codex runs it twice per command; `shellguard uninstall codex` removes the hooks.json copy")
			}
		}
	}
	return installed, attention
}

// codexHookState reports what Codex recorded for a shellguard hook in
// [hooks.state] of the user's config.toml; it returns true when the hook
// is switched off there.
func codexHookState(w io.Writer, state map[string]install.HookState, source string, group, handler int) bool {
	keys := []string{install.StateKey(source, group, handler)}
	if real, err := filepath.EvalSymlinks(source); err == nil && real != source {
		keys = append(keys, install.StateKey(real, group, handler))
	}
	for _, k := range keys {
		st, ok := state[k]
		if !ok {
			continue
		}
		if st.Enabled != nil && !*st.Enabled {
			fmt.Fprintf(w, "    PROBLEM: the hook is disabled in Codex's /hooks view ([hooks.state] %q); enable it there\n", k)
			return true
		}
		if st.TrustedHash != "" {
			return false
		}
	}
	fmt.Fprintln(w, "    note: Codex has no record that you trusted this hook; it skips untrusted hooks, so open /hooks in Codex and trust it once")
	return false
}

// doctor writes the report and returns whether something needs attention.
func doctor(w io.Writer, env install.Env, opts policy.Options) (attention bool) {
	installed := 0
	exe, _ := os.Executable()
	for _, agent := range hook.Agents() {
		fmt.Fprintf(w, "%s\n", agent.Title())
		var own string
		if exe != "" {
			own = hookCommand(exe, agent)
		}
		if agent == hook.Codex {
			n, a := doctorCodex(w, env, own)
			installed += n
			attention = attention || a
			continue
		}
		for _, scope := range []install.Scope{install.User, install.Project} {
			n, a := doctorSettings(w, install.Inspect(agent, scope, env, own))
			installed += n
			attention = attention || a
		}
	}
	if installed == 0 {
		fmt.Fprintln(w, "PROBLEM: shellguard's hook is installed for no agent; run `shellguard install claude` (or gemini, codex)")
		attention = true
	}

	fmt.Fprintln(w, "Configuration")
	cfgDir := os.Getenv("XDG_CONFIG_HOME")
	if cfgDir == "" && env.Home != "" {
		cfgDir = filepath.Join(env.Home, ".config")
	}
	files := []struct{ what, path string }{
		{"user configuration", filepath.Join(cfgDir, "shellguard", "config.toml")},
		{"approvals", firstSet(opts.ApprovalsFile, filepath.Join(cfgDir, "shellguard", "approvals.json"))},
	}
	if opts.ConfigFile != "" {
		files = append(files, struct{ what, path string }{"extra configuration", opts.ConfigFile})
	}
	for _, f := range files {
		state := "exists"
		if _, err := os.Stat(f.path); errors.Is(err, os.ErrNotExist) {
			state = "absent (built-in defaults)"
		} else if err != nil {
			state = "PROBLEM: " + err.Error()
			attention = true
		}
		fmt.Fprintf(w, "  %-20s %s: %s\n", f.what, f.path, state)
	}
	g, err := policy.Load(opts)
	if err != nil {
		fmt.Fprintf(w, "  PROBLEM: loading the configuration for %s: %v\n", opts.Cwd, err)
		return true
	}
	fmt.Fprintf(w, "  configuration for %s loads\n", opts.Cwd)
	for _, n := range g.Notices() {
		fmt.Fprintf(w, "  notice: %s\n", strings.TrimSpace(n))
	}
	if log := g.Config().AuditLog; log != "" {
		// A failed write is recorded beside the log (audit.Check).
		if err := audit.Check(log); err != nil {
			effect := "decisions are not recorded"
			if g.Config().AuditRequired {
				effect = "audit_required is set, so commands that would be allowed are asked"
			}
			fmt.Fprintf(w, "  PROBLEM: %v; %s\n", err, effect)
			attention = true
		} else {
			fmt.Fprintf(w, "  audit log %s: ok\n", log)
		}
	}
	if attention {
		fmt.Fprintln(w, "Something needs attention (see PROBLEM above).")
	} else {
		fmt.Fprintln(w, "All good.")
	}
	return attention
}
