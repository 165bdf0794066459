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

	"github.com/shellguard/shellguard/internal/mcpserver"
	"github.com/shellguard/shellguard/policy"
)

// newMCPCmd is `shellguard mcp`: an MCP server on standard input and
// output whose run_shell_command tool runs only what shellguard allows.
func newMCPCmd(s *streams) *cobra.Command {
	var f guardFlags
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

--cwd is where commands run when a call names no cwd (default: the current
directory), and the folder read-only commands may read without approval.
Each call is decided with the project configuration (.shellguard.toml) of
the directory it runs in. Commands get a minimal environment (PATH, HOME,
LANG, LC_*, TERM, USER, LOGNAME, SHELL, TMPDIR, TZ and what [mcp] env lists
in your configuration). Timeout: 60 s by default, at most 600 s; the command
and every process it started are killed. Output: stdout and stderr
combined, capped at 1 MiB. Session approvals last as long as the MCP
connection. See docs/mcp.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.cwd != "" {
				abs, err := filepath.Abs(f.cwd)
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
				f.cwd = abs
			}
			guard, err := f.load("mcp")
			if err != nil {
				return err
			}
			for _, n := range guard.Notices() {
				fmt.Fprintln(s.err, "shellguard:", n)
			}
			cwd := f.cwd
			if cwd == "" {
				if cwd, err = os.Getwd(); err != nil {
					return &exitError{code: exitUsage, err: err}
				}
			}
			// Each call is decided with the configuration of the directory
			// it runs in, as the hooks do.
			guards := mcpserver.NewGuards(policy.Options{ConfigFile: f.config, ApprovalsFile: f.approvals, Source: "mcp"},
				func(n string) { fmt.Fprintln(s.err, "shellguard:", n) })
			guards.Add(cwd, guard)
			ctx, stop := signal.NotifyContext(mcpContext(cmd), os.Interrupt, syscall.SIGTERM)
			defer stop()
			t := &mcp.IOTransport{Reader: io.NopCloser(s.in), Writer: mcpStdout{s.out}}
			approvals := f.approvals
			if approvals == "" {
				approvals = os.Getenv(policy.EnvApprovals)
			}
			opts := mcpserver.Options{
				Cwd:           cwd,
				Version:       mcpVersion(),
				ApprovalsFile: approvals,
				ExtraEnv:      guard.Config().MCPEnv,
				DeciderFor:    guards.For,
				Subreaper:     true,
			}
			if err := mcpserver.Run(ctx, guard, opts, t); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
				return &exitError{code: exitUsage, err: fmt.Errorf("mcp: %w", err)}
			}
			return nil
		},
	}
	f.add(cmd, true)
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
