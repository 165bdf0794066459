package main

import (
	"fmt"
	"os"

	"github.com/shellguard/shellguard/internal/agents"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/internal/install"
)

func newUninstallCmd(s *streams) *cobra.Command {
	var f installFlags
	return f.agentCommand(&cobra.Command{
		Use:   "uninstall AGENT [--project|--user] [--dry-run]",
		Short: "Remove shellguard's hook from an agent's settings",
		Long: `uninstall removes exactly what install added: shellguard's hook entry (a
command that mentions shellguard and runs "hook <agent>"), and the lists and
"hooks" object that are left empty by its removal. A file left holding only an
empty object is removed. The previous file is kept as <file>.shellguard-bak.
For agents that run shellguard's plugin, the plugin file is removed (a file
shellguard did not write is left alone). The agents are those of
"shellguard install --help".

For Codex, a shellguard hook written by hand inline in config.toml is not
removed (shellguard never edits that file): uninstall prints where it is and
exits with status 1.`,
	}, func(t installTarget) error {
		// This binary's own hook command counts as shellguard's even
		// if the binary is not called shellguard.
		var own string
		if exe, err := os.Executable(); err == nil {
			own = install.HookCommandFor(exe, t.agent)
		}
		res, err := install.Uninstall(t.path, t.agent, own, install.Options{DryRun: f.dryRun})
		if err != nil {
			return &exitError{1, err}
		}
		report(s.out, "uninstall", t.agent, res, f.dryRun)
		if t.agent != agents.Codex {
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
				fmt.Fprintf(s.out, "The shellguard hook for Codex is still configured inline in %s: %s\n", install.Where(tomlPath, h), h.Command)
			}
			fmt.Fprintln(s.out, "shellguard does not edit config.toml (Codex rewrites that file itself); remove those [[hooks.EVENT.hooks]] entries (and their [[hooks.EVENT]] groups if they are left empty) by hand.")
			return exitCode(1)
		}
		return nil
	})
}
