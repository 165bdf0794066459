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

	"github.com/shellguard/shellguard/internal/install"
)

// installFlags are the flags shared by install and uninstall.
type installFlags struct {
	project, user, dryRun bool
	cwd, exe              string
}

// agentCommand completes c, a command of one AGENT argument (install,
// uninstall): it registers the shared flags, and its RunE hands run the
// settings file that the argument and the flags name.
func (f *installFlags) agentCommand(c *cobra.Command, run func(installTarget) error) *cobra.Command {
	c.Args = cobra.ExactArgs(1)
	c.ValidArgs = agents.NameList()
	c.RunE = func(_ *cobra.Command, args []string) error {
		t, err := f.target(args[0])
		if err != nil {
			return err
		}
		return run(t)
	}
	c.Flags().BoolVar(&f.project, "project", false, "edit the project's settings (in --cwd)")
	c.Flags().BoolVar(&f.user, "user", false, "edit the user's settings (the default)")
	c.Flags().BoolVar(&f.dryRun, "dry-run", false, "print the resulting file instead of writing it")
	c.Flags().StringVar(&f.cwd, "cwd", "", "project directory (default: the current directory)")
	c.MarkFlagsMutuallyExclusive("project", "user")
	return c
}

// installTarget is the settings file install or uninstall edits.
type installTarget struct {
	agent agents.Agent
	scope install.Scope
	env   install.Env
	path  string
}

func (f *installFlags) target(agentName string) (installTarget, error) {
	agent, err := agents.ParseAgent(agentName)
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

func newInstallCmd(s *streams) *cobra.Command {
	var f installFlags
	c := f.agentCommand(&cobra.Command{
		Use:   "install AGENT [--project|--user] [--dry-run]",
		Short: "Add shellguard's hook to an agent's settings",
		Long: `install adds "<this binary> hook <agent>" (or the lean shellguard-hook next to
it) to the agent's hook settings, or for agents that run plugins instead,
writes shellguard's plugin:

` + agentTable() + `
For agents that run a command whose hook program is missing, the command is
written so that it blocks (exit 2) when the program cannot run; the plugins
block by themselves. For Codex it adds a PermissionRequest hook too.
Installing twice changes nothing; installing from another place updates the
command. Every other setting is kept as it is; the previous file is kept as
<file>.shellguard-bak (one per file). A file that is not valid JSON is not
touched (exit status 1), nor is a file of the user's where shellguard's
plugin would go.

Codex also reads hooks written inline in config.toml next to hooks.json.
shellguard never edits config.toml, but reads it: when shellguard's hook is
already there, install codex adds nothing (exit status 0); when config.toml
does not parse, it refuses (exit status 1). See docs/agents.md for what each
agent does with the hook's answers.`,
	}, func(t installTarget) error {
		agent := t.agent
		exe := f.exe
		var err error
		if exe == "" {
			if exe, err = os.Executable(); err != nil {
				return &exitError{1, fmt.Errorf("cannot find this program's path: %w", err)}
			}
		}
		if exe, err = filepath.Abs(exe); err != nil {
			return &exitError{1, err}
		}
		command := install.HookCommandFor(exe, agent)
		var tomlPath string
		var inline install.CodexConfig
		if agent == agents.Codex {
			if tomlPath, inline, err = codexConfigTOML(t, command); err != nil {
				return err
			}
			if sg := inline.Shellguard(); len(sg) > 0 {
				// Codex runs every hook it finds; a second copy in
				// hooks.json would run shellguard twice per command.
				for _, h := range sg {
					fmt.Fprintf(s.out, "The shellguard hook for Codex is already configured inline in %s: %s\n", install.Where(tomlPath, h), h.Command)
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
		spec := agent.Spec()
		if res.Changed && !f.dryRun {
			if spec.Trust {
				fmt.Fprintf(s.out, "%s will not run this hook until you trust it: the command it runs is new, so any trust you gave before no longer holds, and %s skips an untrusted hook without a word. Open /hooks in %s, select shellguard's hooks (%s) and trust them (t); `shellguard doctor` says when they are trusted.\n",
					spec.Title, spec.Title, spec.Title, strings.Join(spec.Events(), ", "))
				if f.project {
					fmt.Fprintln(s.out, "Codex loads project hooks only for trusted projects.")
				}
			}
			if spec.ProjectTrust && f.project {
				fmt.Fprintf(s.out, "%s loads a project's hooks only in a folder you trusted (it asks on start; --trust-folder trusts it for one run); `shellguard doctor` run here says whether it is trusted.\n", spec.Title)
			}
			if spec.FolderTrust {
				fmt.Fprintf(s.out, "%s loads no hooks in a folder you did not trust (trustedFolders.json); `shellguard doctor` run in a project says whether it is trusted.\n", spec.Title)
			}
		}
		if agent == agents.Codex {
			if n := len(inline.Others()); n > 0 {
				fmt.Fprintf(s.out, "note: %s also holds %d inline hook(s). Codex loads hooks.json and config.toml of the same layer both, runs both and warns at startup (\"prefer a single representation for this layer\"). To keep your hooks in config.toml only, run `shellguard uninstall codex%s` and append this to %s instead (shellguard recognises it there):\n\n%s\n",
					tomlPath, n, projectFlag(t.scope), tomlPath, install.TOMLSnippet(command))
			}
			if inline.HooksDisabled {
				fmt.Fprintf(s.out, "PROBLEM: %s sets [features] hooks = false: Codex runs no hooks at all until you remove it.\n", tomlPath)
			}
		}
		return nil
	})
	c.Flags().StringVar(&f.exe, "exe", "", "shellguard binary the hook runs (default: this program)")
	return c
}

// agentTable lists every agent with the file install edits for the user
// and for a project.
func agentTable() string {
	env := install.Env{Home: "~", Dir: "<project>"}
	var b strings.Builder
	for _, sp := range agents.Specs() {
		user, _ := install.SettingsPath(sp.Name, install.User, env)
		project, _ := install.SettingsPath(sp.Name, install.Project, env)
		kind := ""
		if sp.Layout == agents.LayoutFile {
			kind = " (shellguard's own file)"
		}
		fmt.Fprintf(&b, "  %-9s %s%s\n  %-9s %s\n", sp.Name, user, kind, "", project)
	}
	return b.String()
}

func projectFlag(scope install.Scope) string {
	if scope == install.Project {
		return " --project"
	}
	return ""
}

func report(w io.Writer, verb string, agent agents.Agent, res install.Result, dryRun bool) {
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
