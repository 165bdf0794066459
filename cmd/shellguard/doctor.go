package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/shellguard/shellguard/internal/agents"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/internal/audit"
	"github.com/shellguard/shellguard/internal/install"
	"github.com/shellguard/shellguard/policy"
)

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
	for _, agent := range agents.Agents() {
		fmt.Fprintf(w, "%s\n", agent.Title())
		var own string
		if exe != "" {
			own = hookCommand(exe, agent)
		}
		if agent == agents.Codex {
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
