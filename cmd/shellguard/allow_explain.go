package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/policy"
)

func newAllowExplainCmd(s *streams) *cobra.Command {
	var gf guardFlags
	c := &cobra.Command{
		Use:   "explain [--config FILE] [--approvals FILE] [--cwd DIR] [--] COMMAND...",
		Short: "Say which approval would approve a command line, or why none does",
		Long: `explain decides the line as "decide" would, without leaving a trace (no code,
no refusal kept, no audit record), and says, for each program it runs, what
approves it (an approval, an allow rule, the read-only list) or why nothing
does: no approval with its prefix, an approval that has expired, a widening
option a prefix approval never covers, an untrusted approvals file; and which
danger warnings no approval lifts.

Exit status: 0 the line would be allowed, 1 it would not, 2 usage or
configuration error.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			g, req, err := gf.dryRequest(s, args)
			if err != nil {
				return err
			}
			d := g.Decide(req)
			var sn approval.Snapshot
			if st := g.Store(); st != nil {
				sn = st.Load()
			}
			explainApproval(s, g, d, sn)
			if d.Verdict == policy.Allow {
				return nil
			}
			return exitCode(1)
		},
	}
	gf.add(c, true)
	c.Flags().SetInterspersed(false)
	return c
}

func explainApproval(s *streams, g *policy.Guard, d policy.Decision, sn approval.Snapshot) {
	w := s.out
	now := time.Now()
	fmt.Fprintf(w, "command: %s\n", shownLine(d.Command, false))
	fmt.Fprintf(w, "decision: %s: %s\n", d.Verdict, d.Reason)
	line := strings.TrimSpace(d.Command)
	for _, e := range sn.Entries {
		if e.Kind == approval.Exact && e.Pattern == line && e.Expired(now) {
			fmt.Fprintf(w, "  an exact approval of this line expired at %s\n", e.Expires.Local().Format("2006-01-02 15:04"))
		}
	}
	for _, ir := range d.Invocations {
		fmt.Fprintf(w, "  %s\n", ir.Command)
		if ir.Prefix != "" {
			fmt.Fprintf(w, "    prefix: %s *\n", ir.Prefix)
		}
		switch {
		case ir.Approved:
			fmt.Fprintf(w, "    approved by %s\n", ir.ApprovedBy)
		case ir.Reason != "":
			fmt.Fprintf(w, "    no prefix approval can cover it: %s (an exact approval of the whole line can)\n", ir.Reason)
		default:
			why := fmt.Sprintf("no approval %q", ir.Prefix+" *")
			for _, e := range sn.Entries {
				if e.Kind == approval.Prefix && e.Pattern == ir.Prefix && e.Expired(now) {
					why = fmt.Sprintf("the approval %q expired at %s (shellguard allow prune removes it)", e.Display(), e.Expires.Local().Format("2006-01-02 15:04"))
				}
			}
			fmt.Fprintf(w, "    not approved: %s\n", why)
		}
	}
	var held []string
	for _, wn := range d.Warnings {
		if !g.Config().IsExempt(wn.Pattern.Name) {
			held = append(held, fmt.Sprintf("%s (%s)", wn.Pattern.Name, wn.Level))
		}
	}
	if len(held) > 0 {
		fmt.Fprintf(w, "danger warnings no approval lifts (unless your configuration exempts the rule): %s\n", strings.Join(held, ", "))
	}
	for _, r := range d.Rules {
		fmt.Fprintf(w, "rule: %s\n", r)
	}
	switch {
	case sn.Path == "":
		fmt.Fprintln(w, "approvals file: none configured")
	case sn.Problem != nil:
		fmt.Fprintf(w, "approvals file: %s approves nothing: %v\n", sn.Path, sn.Problem)
	case sn.Missing:
		fmt.Fprintf(w, "approvals file: %s (not created yet)\n", sn.Path)
	default:
		fmt.Fprintf(w, "approvals file: %s (%d approvals)\n", sn.Path, len(sn.Entries))
	}
}
