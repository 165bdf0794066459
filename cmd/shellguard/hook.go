package main

import (
	"os"

	"github.com/shellguard/shellguard/internal/agents"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/internal/hook"
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
		Use:   "hook AGENT",
		Short: "Answer an agent's pre-execution hook (reads the hook JSON on stdin)",
		Long: `hook reads the JSON an agent sends to its pre-execution hook on standard
input and answers in that agent's protocol (` + agents.Names() + `;
see "shellguard install --help" and docs/agents.md).

Dangerous commands are denied with a reason for the model; commands that need a
person's approval get the agent's own prompt where its protocol can ask and a
person will see it, and are blocked with a reason elsewhere (agents whose hooks
cannot ask, and headless runs, unless unattended = "ask"); commands shellguard
approves are allowed where the protocol has an allow (for Codex, when Codex
would ask: its PermissionRequest hook); unknown commands are left to the
agent's own permission flow. Bad input or a configuration error never lets a
command through silently. The cwd in the hook input selects the project
configuration.

Install it with "shellguard install <agent>".`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: agents.NameList(),
		RunE: func(c *cobra.Command, args []string) error {
			o := cf.options("", "")
			decide := hook.PolicyDecider(o.ConfigFile, o.ApprovalsFile, "hook:"+args[0])
			if code := hook.Run(agents.Agent(args[0]), s.in, s.out, s.err, decide); code != 0 {
				return exitCode(code)
			}
			return nil
		},
	}
	cf.register(c)
	return c
}
