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
		Long: `init prints shell code that checks each interactive command line with
` + "`shellguard check`" + ` when Enter is pressed. A flagged line shows its warnings and
asks "Proceed? [y/N]"; any key but y keeps it from running. Add to ~/.bashrc:

  eval "$(shellguard init bash)"

or to ~/.zshrc:

  eval "$(shellguard init zsh)"

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
