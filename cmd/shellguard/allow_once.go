package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/approval"
)

// Exit codes of allow once.
const (
	exitOnceDeclined = 1 // declined at the prompt, or a deny's code without --yes off a terminal
	exitOnceUnknown  = 3 // malformed or unknown code
	exitOnceExpired  = 4
	exitOnceUsed     = 5
	exitOnceMoved    = 6
)

// newAllowOnceCmd is "allow once CODE" (use "once") and the top-level
// "allow-once CODE" (use "allow-once").
func newAllowOnceCmd(s *streams, use string) *cobra.Command {
	var (
		approvals string
		yes       bool
	)
	c := &cobra.Command{
		Use:   use + " [--approvals FILE] [--yes] CODE",
		Short: "Let a refused command run once, by the code its refusal carried",
		Long: `Every ask or deny answer shellguard gives carries a code (8 characters, such
as K7QM3XHP), tied to that exact command line and the folder it was to run in.
"shellguard allow once CODE", typed by a person in their own terminal, lets
that line run once in that folder: the next time it is decided (the agent's
retry), it is allowed, and the approval is used up; after that the line is
asked about again. The code must be approved within 10 minutes of the
refusal, and the run must follow within 10 minutes of the approval.

It shows the command and the folder before approving. A code from a deny
(a Critical warning or a deny rule) asks "Allow it once? [y/N]" on a
terminal; elsewhere it needs --yes.

An expired, used, moved (the folder is gone or is another folder now),
unknown or malformed code approves nothing, and the message says which. An
agent cannot run this command: from a hook or the MCP server, shellguard
denies every "shellguard allow".

Exit status: 0 approved (or already approved and not used yet), 1 declined,
2 usage or file error, 3 unknown or malformed code, 4 expired, 5 already
used, 6 moved.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := approvalsPath(approvals)
			if err != nil {
				return err
			}
			rf := approval.NewRefusals(approval.RefusalsPath(path))
			r, err := rf.Lookup(args[0])
			if err != nil {
				return onceError(err)
			}
			fmt.Fprintf(s.out, "code %s: %s\n  in %s\n", r.Code, shownLine(r.Command, r.Truncated), r.Cwd)
			fmt.Fprintf(s.out, "  refused (%s) %s ago via %s: %s\n", r.Verdict, ago(r.Time), orUnknown(r.Source), r.Reason)
			if r.Verdict == "deny" && r.Used.IsZero() {
				switch {
				case yes:
				case interactive(s):
					if !confirm(s, "This command was denied. Allow it to run once?") {
						return &exitError{code: exitOnceDeclined, err: errors.New("not approved")}
					}
				default:
					return &exitError{code: exitOnceDeclined, err: errors.New("this code is for a denied command: confirm with --yes (or run this in a terminal)")}
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			r, err = rf.Approve(ctx, args[0], time.Now(), 0)
			if err != nil {
				return onceError(err)
			}
			fmt.Fprintf(s.out, "approved once: run it in %s before %s; it runs once, then shellguard asks again\n",
				r.Cwd, r.ApprovedUntil.Local().Format("15:04"))
			return nil
		},
	}
	c.Flags().StringVar(&approvals, "approvals", "", "approval store whose refusals hold the code (default $SHELLGUARD_APPROVALS or ~/.config/shellguard/approvals.json)")
	c.Flags().BoolVarP(&yes, "yes", "y", false, "approve a denied command's code without asking")
	return c
}

// onceError maps a code problem to its exit status.
func onceError(err error) error {
	var ce *approval.CodeError
	if !errors.As(err, &ce) {
		return &exitError{code: exitUsage, err: err}
	}
	code, ok := map[approval.CodeProblem]int{
		approval.CodeExpired: exitOnceExpired, approval.CodeUsed: exitOnceUsed, approval.CodeMoved: exitOnceMoved,
	}[ce.Problem]
	if !ok {
		code = exitOnceUnknown
	}
	msg := ce.Error()
	if ce.Refusal.Command != "" {
		msg += " (it was for " + shownLine(ce.Refusal.Command, ce.Refusal.Truncated) + " in " + ce.Refusal.Cwd + ")"
	}
	return &exitError{code: code, err: errors.New(msg)}
}

// shownLine quotes a command line for people, shortened when long.
func shownLine(line string, truncated bool) string {
	line = strings.TrimSpace(line)
	if len(line) > 300 {
		cut := 300
		for cut > 0 && line[cut]&0xC0 == 0x80 {
			cut--
		}
		line, truncated = line[:cut], true
	}
	if truncated {
		line += "…"
	}
	return "`" + line + "`"
}

// ago says how long ago t was, roughly.
func ago(t time.Time) string {
	d := time.Since(t)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown entry point"
	}
	return s
}
