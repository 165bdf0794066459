package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

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

func (f *installFlags) target(agentName string) (hook.Agent, string, error) {
	agent, err := hook.ParseAgent(agentName)
	if err != nil {
		return "", "", &exitError{exitUsage, err}
	}
	env, err := install.FromProcess(f.cwd)
	if err != nil {
		return "", "", &exitError{1, err}
	}
	scope := install.User
	if f.project {
		scope = install.Project
	}
	path, err := install.SettingsPath(agent, scope, env)
	if err != nil {
		return "", "", &exitError{1, err}
	}
	return agent, path, nil
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
valid JSON is not touched (exit status 1).`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"claude", "gemini", "codex"},
		RunE: func(c *cobra.Command, args []string) error {
			agent, path, err := f.target(args[0])
			if err != nil {
				return err
			}
			exe := f.exe
			if exe == "" {
				if exe, err = os.Executable(); err != nil {
					return &exitError{1, fmt.Errorf("cannot find this program's path: %w", err)}
				}
			}
			if exe, err = filepath.Abs(exe); err != nil {
				return &exitError{1, err}
			}
			res, err := install.Install(path, agent, hookCommand(exe, agent), install.Options{DryRun: f.dryRun})
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
<file>.shellguard-bak-<timestamp>.`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"claude", "gemini", "codex"},
		RunE: func(c *cobra.Command, args []string) error {
			agent, path, err := f.target(args[0])
			if err != nil {
				return err
			}
			// This binary's own hook command counts as shellguard's even
			// if the binary is not called shellguard.
			var own string
			if exe, err := os.Executable(); err == nil {
				own = hookCommand(exe, agent)
			}
			res, err := install.Uninstall(path, agent, own, install.Options{DryRun: f.dryRun})
			if err != nil {
				return &exitError{1, err}
			}
			report(s.out, "uninstall", agent, res, f.dryRun)
			return nil
		},
	}
	f.register(c, "edit")
	return c
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
approval files are in effect.

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

// doctor writes the report and returns whether something needs attention.
func doctor(w io.Writer, env install.Env, opts policy.Options) (attention bool) {
	installed := 0
	exe, _ := os.Executable()
	for _, agent := range hook.Agents() {
		fmt.Fprintf(w, "%s\n", agent.Title())
		for _, scope := range []install.Scope{install.User, install.Project} {
			var own string
			if exe != "" {
				own = hookCommand(exe, agent)
			}
			st := install.Inspect(agent, scope, env, own)
			fmt.Fprintf(w, "  %-8s %s: ", scope, st.Path)
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
	if attention {
		fmt.Fprintln(w, "Something needs attention (see PROBLEM above).")
	} else {
		fmt.Fprintln(w, "All good.")
	}
	return attention
}
