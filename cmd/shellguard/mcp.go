package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/mcpserver"
	"github.com/shellguard/shellguard/policy"
)

// newMCPCmd is `shellguard mcp`: an MCP server on standard input and
// output whose run_shell_command tool runs only what shellguard allows.
func newMCPCmd(s *streams) *cobra.Command {
	var configFile, approvalsFile, cwd string
	cmd := &cobra.Command{
		Use:   "mcp [--config FILE] [--approvals FILE] [--cwd DIR]",
		Short: "Serve MCP on stdin/stdout: run_shell_command and check_command, decided by shellguard",
		Long: `Serve the Model Context Protocol on standard input and output until
the client closes it. Tools:

  run_shell_command {command, cwd?, timeout_seconds?}
      decide the command; allow: run it with bash -c (/bin/sh -c without
      bash) and return {exit_code, output, truncated, timed_out}; ask: ask
      the user through MCP elicitation (once / session / always / deny), or
      when the client cannot, fail with the 'shellguard allow add' command
      that approves it; deny: fail with the reason.
  check_command {command, cwd?}
      the decision as JSON; nothing is run.

Timeout: 60 s by default, at most 600 s; the whole process group is killed.
Output: stdout and stderr combined, capped at 1 MiB. See docs/mcp.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if configFile == "" {
				configFile = os.Getenv("SHELLGUARD_CONFIG")
			}
			if approvalsFile == "" {
				approvalsFile = os.Getenv("SHELLGUARD_APPROVALS")
			}
			if cwd != "" {
				abs, err := filepath.Abs(cwd)
				if err != nil {
					return &exitError{code: exitUsage, err: err}
				}
				fi, err := os.Stat(abs)
				if err != nil {
					return &exitError{code: exitUsage, err: fmt.Errorf("--cwd: %w", err)}
				}
				if !fi.IsDir() {
					return &exitError{code: exitUsage, err: fmt.Errorf("--cwd %s is not a directory", abs)}
				}
				cwd = abs
			}
			guard, err := policy.Load(policy.Options{Cwd: cwd, ConfigFile: configFile, ApprovalsFile: approvalsFile})
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			for _, n := range guard.Notices() {
				fmt.Fprintln(s.err, "shellguard:", n)
			}
			server := mcpserver.New(guard, mcpserver.Options{Cwd: cwd, Version: mcpVersion()})

			ctx, stop := signal.NotifyContext(mcpContext(cmd), os.Interrupt, syscall.SIGTERM)
			defer stop()
			t := &mcp.IOTransport{Reader: io.NopCloser(s.in), Writer: mcpStdout{s.out}}
			if err := server.Run(ctx, t); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
				return &exitError{code: exitUsage, err: fmt.Errorf("mcp: %w", err)}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&configFile, "config", "", "extra configuration file, applied last (default $SHELLGUARD_CONFIG)")
	f.StringVar(&approvalsFile, "approvals", "", "approval store file (default $SHELLGUARD_APPROVALS, else the user's store)")
	f.StringVar(&cwd, "cwd", "", "directory commands run in by default; selects the project configuration (default: the current directory)")
	return cmd
}

func mcpContext(cmd *cobra.Command) context.Context {
	if ctx := cmd.Context(); ctx != nil {
		return ctx
	}
	return context.Background()
}

// mcpVersion is the main module's version, or "devel".
func mcpVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// mcpStdout lets the server write to stdout without closing it.
type mcpStdout struct{ io.Writer }

func (mcpStdout) Close() error { return nil }
