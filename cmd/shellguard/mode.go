package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/config"
)

func newModeCmd(s *streams) *cobra.Command {
	var file, cwd string
	var verbose bool
	c := &cobra.Command{
		Use:   "mode [--config FILE] [--cwd DIR] [-v]",
		Short: `Print the mode in effect: "enforce", or "warn" (shadow mode)`,
		Long: `mode prints the mode in effect for the working folder: "enforce" (the
default) or "warn" (shadow mode: every entry point decides and logs, nothing is
blocked), as set by mode = "..." in your configuration (a project file cannot set
it; the managed configuration can forbid "warn"). -v adds where it was set. The
shell snippet asks it before letting a flagged line run without a question.

Exit status: 0, 2 configuration error (then nothing is in shadow mode).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := config.Load(config.LoadOptions{Cwd: cwd, Explicit: file, BuiltinLevel: configBuiltinLevel()})
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			if verbose {
				fmt.Fprintf(s.out, "%s\t# %s\n", c.Mode, c.Provenance["mode"])
				return nil
			}
			fmt.Fprintln(s.out, c.Mode)
			return nil
		},
	}
	c.Flags().StringVar(&file, "config", "", "explicit configuration file, applied last (default $"+config.EnvConfig+")")
	c.Flags().StringVar(&cwd, "cwd", "", "directory whose project file (.shellguard.toml) applies (default: the working directory)")
	c.Flags().BoolVarP(&verbose, "verbose", "v", false, "say where the mode was set")
	return c
}
