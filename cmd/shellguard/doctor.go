package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/internal/doctor"
	"github.com/shellguard/shellguard/internal/install"
)

func newDoctorCmd(s *streams) *cobra.Command {
	var cf configFlags
	var cwd string
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check the agent hooks and the configuration in effect",
		Long: `doctor reports, for every supported agent, whether shellguard's hook (or the
plugin shellguard writes for it) is in the user's and the project's settings,
whether the program it names exists and is executable, whether the hook blocks
when that program goes missing, whether the program runs and answers as that
agent's hook (it is started once with a hook input about no command, so
nothing is decided or logged), and whether the agent will run it at all: for
Codex, that the hook is trusted in Codex's /hooks view with its current
definition (Codex skips an untrusted or changed hook without a word); for
Gemini CLI, that the folder is trusted (Gemini CLI loads no hooks in an
untrusted folder); for Copilot CLI, that a project's hooks are in a trusted
folder. For Codex it also reads config.toml: hooks written inline there,
[features] hooks = false, hooks disabled in /hooks, and layers with hooks in
both hooks.json and config.toml. Then it says which configuration and
approval files are in effect.

Exit status: 0 when all is well, 1 when something needs attention (no hook
installed anywhere, a hook naming a missing program, a hook program that does
not answer, a hook the agent will not run, a settings file that does not
parse, a configuration error).`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			env, err := install.FromProcess(cwd)
			if err != nil {
				return &exitError{1, err}
			}
			exe, _ := os.Executable()
			if doctor.Run(s.out, doctor.Options{Env: env, Policy: cf.options(env.Dir, "doctor"), Exe: exe}) {
				return exitCode(1)
			}
			return nil
		},
	}
	c.Flags().StringVar(&cwd, "cwd", "", "project directory (default: the current directory)")
	cf.register(c)
	return c
}
