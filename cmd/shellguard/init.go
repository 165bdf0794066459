package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/internal/shellinit"
)

func newInitCmd(s *streams) *cobra.Command {
	return &cobra.Command{
		Use:   "init bash|zsh",
		Short: "Print a snippet for ~/.bashrc or ~/.zshrc that checks each command line before it runs",
		Long: `init prints shell code that decides each interactive command line with
` + "`shellguard decide`" + ` (the decision the agents' hooks get, for the current
directory) before it runs, on Enter and on every other key that runs a line.
Allow runs it; deny prints the reason and refuses it; ask prints the decision,
drops what was typed ahead, and asks "Proceed? [y/N]": any key but y keeps it
from running. Add to the end of ~/.bashrc (after your own key bindings):

  eval "$(shellguard init bash)"

or to ~/.zshrc:

  eval "$(shellguard init zsh)"

shellguard_status (a shell function) says whether every key that runs a line
goes through the guard; the snippet says so before the first prompt too.
The snippet runs this binary (its absolute path), or $SHELLGUARD_BIN when set.
It sees only what is typed at the prompt: not commands run by scripts,
functions or aliases, which are expanded later. See docs/shell.md.`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: shellinit.Shells(),
		RunE: func(cmd *cobra.Command, args []string) error {
			bin, err := shellinit.Binary()
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			snip, err := shellinit.Snippet(args[0], bin)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			_, err = fmt.Fprint(s.out, snip)
			return err
		},
	}
}
