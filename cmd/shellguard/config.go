package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/danger"
)

// exitConfigInvalid is what `config check` and `config show` return for a
// configuration that does not load.
const exitConfigInvalid = 1

// configBuiltinLevel returns the lookup that lets config check
// [builtin.NAME] tables and exempt names against the built-in danger
// rules (of every pack), and judge whether a project file raises a
// built-in's level.
func configBuiltinLevel() func(name string) (danger.Level, bool) { return danger.BuiltinLevel }

func newConfigCmd(s *streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show the effective configuration or check a configuration file",
		Long: `Configuration is read in layers, later wins: built-in defaults, the user file
($XDG_CONFIG_HOME/shellguard/config.toml, by default ~/.config/shellguard/config.toml),
the project file (.shellguard.toml in the working directory or a parent; it may only
tighten the policy), and the explicit file (--config FILE or $SHELLGUARD_CONFIG).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cmd.SetOut(s.err)
			_ = cmd.Help()
			return exitCode(exitUsage)
		},
	}
	cmd.AddCommand(newConfigShowCmd(s), newConfigCheckCmd(s))
	return cmd
}

func newConfigShowCmd(s *streams) *cobra.Command {
	var file, cwd string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show [--config FILE] [--cwd DIR] [--json]",
		Short: "Print every effective setting and the file and line it came from",
		Long: `Print the effective configuration: every setting, rule and pattern with the
layer, file and line it came from, and notices about project-file keys that were
ignored. Exit status: 0 shown, 1 a configuration file is invalid (the error names
file and line), 2 usage.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := config.Load(config.LoadOptions{
				Cwd:          cwd,
				Explicit:     file,
				BuiltinLevel: configBuiltinLevel(),
			})
			if err != nil {
				return &exitError{code: exitConfigInvalid, err: err}
			}
			if asJSON {
				err = c.ShowJSON(s.out)
			} else {
				err = c.Show(s.out)
			}
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&file, "config", "", "explicit configuration file, applied last (default $"+config.EnvConfig+")")
	cmd.Flags().StringVar(&cwd, "cwd", "", "directory whose project file (.shellguard.toml) applies (default: the working directory)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of annotated TOML")
	return cmd
}

func newConfigCheckCmd(s *streams) *cobra.Command {
	var layer string
	cmd := &cobra.Command{
		Use:   "check FILE",
		Short: "Validate a configuration file",
		Long: `Validate FILE: TOML syntax, known keys, value types, levels, regular expressions
and rules. A file named .shellguard.toml is checked as a project file, and the keys
a project file may not set are listed on standard error (--as changes this).
Exit status: 0 valid ("FILE: ok"), 1 invalid (the error names file and line), 2 usage.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			as := layer
			switch as {
			case "":
				as = config.LayerUser
				if filepath.Base(path) == config.ProjectFileName {
					as = config.LayerProject
				}
			case config.LayerUser, config.LayerProject, config.LayerExplicit:
			default:
				return &exitError{code: exitUsage, err: fmt.Errorf("--as %q: want user, project or explicit", layer)}
			}
			notices, err := config.CheckFileWith(path, as, config.LoadOptions{BuiltinLevel: configBuiltinLevel()})
			if err != nil {
				return &exitError{code: exitConfigInvalid, err: err}
			}
			for _, n := range notices {
				fmt.Fprintln(s.err, "note:", n)
			}
			fmt.Fprintf(s.out, "%s: ok\n", path)
			return nil
		},
	}
	cmd.Flags().StringVar(&layer, "as", "", "check as a user, project or explicit file (default: project for .shellguard.toml, else user)")
	return cmd
}
