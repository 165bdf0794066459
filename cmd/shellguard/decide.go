package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/shellguard/shellguard/policy"
	"github.com/spf13/cobra"
)

func newDecideCmd(s *streams) *cobra.Command {
	var (
		asJSON            bool
		gf                guardFlags
		source, sessionID string
		typed             bool
	)
	c := &cobra.Command{
		Use:   "decide [--json] [--config FILE] [--approvals FILE] [--cwd DIR] [--] COMMAND...",
		Short: "Answer allow, ask or deny for a command line",
		Long: `decide gives the verdict an agent integration would get: deny for a Critical
warning or a deny rule, ask for any other warning, an ask rule or anything not
approved, allow when every invocation is approved (by your approvals, an allow
rule or the read-only list) and nothing is flagged.

Loading the configuration and deciding share one budget (1.5 s, see
docs/robustness.md): past it the answer is ask (exit 10) with a reason, never
allow.

Every ask or deny carries an allow-once code (see "shellguard allow once").
In shadow mode (mode = "warn" in your configuration) nothing is enforced: the
answer says what enforcement would do, and the exit status is 0.

Exit status: 0 allow (or shadow mode), 10 ask, 11 deny, 2 usage or
configuration error.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			line, err := commandLine(s, args)
			if err != nil {
				return err
			}
			cwd := gf.workDir()
			deadline := time.Now().Add(policy.DefaultBudget)
			var d policy.Decision
			if source == "" {
				source = "cli"
			}
			g, err := policy.LoadBy(policy.Options{Cwd: gf.cwd, ConfigFile: gf.config, ApprovalsFile: gf.approvals, Source: source}, deadline)
			switch {
			case errors.Is(err, policy.ErrOverBudget):
				d = policy.BudgetExceeded(line, policy.DefaultBudget, "loading its configuration")
			case err != nil:
				return &exitError{code: exitUsage, err: err}
			default:
				d = g.Decide(policy.Request{Command: line, Cwd: cwd, Deadline: deadline, SessionID: sessionID, Typed: typed})
				// After deciding: Notices reads the approval store, which
				// Decide read within the budget.
				for _, n := range g.Notices() {
					fmt.Fprintln(s.err, "shellguard: note:", n)
				}
			}
			if err := output(s.out, asJSON, d, printDecision); err != nil {
				return err
			}
			// In shadow mode nothing is blocked: the exit status is the
			// enforced answer (0), the JSON keeps what enforcement would do.
			switch d.Enforced() {
			case policy.Allow:
				return nil
			case policy.Deny:
				return exitCode(exitDeny)
			}
			return exitCode(exitAsk)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the decision as JSON")
	c.Flags().StringVar(&source, "source", "", `decide as this entry point would: "hook:claude", "hook:gemini", "hook:codex", "mcp" (default "cli")`)
	c.Flags().BoolVar(&typed, "typed", false, "the line was typed by a person at their own terminal (the shell snippet): a line asked only because nothing approved it yet is allowed")
	c.Flags().StringVar(&sessionID, "session-id", "", "the agent session the line belongs to (as a hook's session_id)")
	gf.add(c, true)
	return c
}

func printDecision(w io.Writer, d policy.Decision) {
	if d.Shadow {
		fmt.Fprintf(w, "allow (shadow mode, mode = \"warn\": not enforced; enforcement would %s): %s\n", d.Verdict, d.Reason)
	} else {
		fmt.Fprintf(w, "%s: %s\n", d.Verdict, d.Reason)
	}
	for _, wn := range d.Warnings {
		fmt.Fprintf(w, "  %s\n", wn.Message)
	}
}
