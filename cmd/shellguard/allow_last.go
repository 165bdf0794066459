package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/approval"
)

func newAllowLastCmd(s *streams) *cobra.Command {
	var (
		approvals                string
		session, always          bool
		prefix, exact, list, yes bool
		expires                  string
	)
	c := &cobra.Command{
		Use:   "last [--session|--always] [--prefix|--exact] [--expires WHEN] [--list] [--yes] [N]",
		Short: "Approve one of the recent refusals (the last one by default)",
		Long: `last lists the recent refusals (every ask or deny shellguard answered, newest
first, kept beside the approvals file whether or not the audit log is on) and
approves refusal N (1, the newest, by default). Before it writes, it shows
exactly what will be approved, and asks "Approve? [y/N]" on a terminal;
elsewhere it needs --yes.

What is approved: the line's prefixes (--prefix, the default when prefix
approvals can cover the line: "git push *") or the exact line (--exact, the
default otherwise). For how long: --always (the default) writes the approvals
file, with --expires WHEN if given; --session approves it only for the agent
session the refusal came from (a hook's session), for at most 24 hours.

An approval does not silence a danger warning unless your configuration
exempts its rule; for a refusal with a warning, "allow once CODE" (the code
is listed) lets that one run through. --list only lists.

Exit status: 0 approved (or listed), 1 nothing to approve, declined, or no
--yes off a terminal, 2 usage or file error.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if session && always {
				return &exitError{code: exitUsage, err: errors.New("--session and --always exclude each other")}
			}
			if prefix && exact {
				return &exitError{code: exitUsage, err: errors.New("--prefix and --exact exclude each other")}
			}
			n := 1
			if len(args) == 1 {
				v, err := strconv.Atoi(strings.TrimPrefix(args[0], "#"))
				if err != nil || v < 1 {
					return &exitError{code: exitUsage, err: fmt.Errorf("the refusal number must be 1 (the newest) or more, not %q", args[0])}
				}
				n = v
			}
			path, err := approvalsPath(approvals)
			if err != nil {
				return err
			}
			now := time.Now()
			until, err := parseExpires(expires, now)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			rf := approval.NewRefusals(approval.RefusalsPath(path))
			refusals, _, err := rf.List()
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			if len(refusals) == 0 {
				return &exitError{code: 1, err: fmt.Errorf("no recent refusals beside %s", path)}
			}
			shown := max(10, n)
			if list {
				shown = len(refusals)
			}
			printRefusals(s.out, refusals, shown, now)
			if list {
				return nil
			}
			if n > len(refusals) {
				return &exitError{code: 1, err: fmt.Errorf("there are only %d recent refusals", len(refusals))}
			}
			r := refusals[n-1]
			if r.Locked {
				return &exitError{code: 1, err: fmt.Errorf("refusal %d cannot be approved: %s", n, lockedWhy(r))}
			}
			useExact := exact || (!prefix && len(r.Prefixes) == 0)
			var entries []approval.Entry
			if useExact {
				if r.Truncated {
					return &exitError{code: 1, err: fmt.Errorf("refusal %d is too long to approve exactly from here (use its code: shellguard allow once %s)", n, r.Code)}
				}
				line := strings.TrimSpace(r.Command)
				entries = []approval.Entry{{Kind: approval.Exact, Pattern: line, Command: line}}
			} else {
				if len(r.Prefixes) == 0 {
					return &exitError{code: 1, err: fmt.Errorf("refusal %d cannot be approved by prefix: %s (use --exact)", n, r.PrefixReason)}
				}
				for _, p := range r.Prefixes {
					entries = append(entries, approval.Entry{Kind: approval.Prefix, Pattern: p, Command: strings.TrimSpace(r.Command)})
				}
			}
			scope := "always"
			if session {
				scope = "session"
				if r.Session == "" {
					return &exitError{code: 1, err: fmt.Errorf("refusal %d came through %s, which names no agent session; approve it --always (or with its code)", n, orUnknown(r.Source))}
				}
			}
			fmt.Fprintf(s.out, "\nwill approve (%s, %s):\n", scope, map[bool]string{true: "exact line", false: "prefix"}[useExact])
			for _, e := range entries {
				fmt.Fprintf(s.out, "  %s\n", e.Display())
			}
			switch {
			case session:
				fmt.Fprintf(s.out, "  for session %s of %s, for at most 24 hours\n", r.Session, r.Source)
			case !until.IsZero():
				fmt.Fprintf(s.out, "  until %s\n", until.Local().Format("2006-01-02 15:04"))
			}
			if r.Level != "" {
				fmt.Fprintf(s.out, "note: this line had a danger warning (%s); an approval covers it only if your configuration exempts the rule. To let this one run, use its code: shellguard allow once %s\n",
					strings.Join(r.Rules, ", "), r.Code)
			}
			switch {
			case yes:
			case interactive(s):
				if !confirm(s, "Approve?") {
					return &exitError{code: 1, err: errors.New("not approved")}
				}
			default:
				return &exitError{code: 1, err: errors.New("nothing written: confirm with --yes (or run this in a terminal)")}
			}
			if session {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				gs, err := rf.GrantSession(ctx, r.Session, r.Source, entries, now, until)
				if err != nil {
					return &exitError{code: exitUsage, err: err}
				}
				for _, g := range gs {
					fmt.Fprintf(s.out, "approved for the session: %s (until %s)\n", g.Display(), g.Expires.Local().Format("2006-01-02 15:04"))
				}
				return nil
			}
			for i := range entries {
				entries[i].Scope, entries[i].GrantedVia, entries[i].Expires = approval.Always, "cli", until
			}
			return addEntries(s, path, entries)
		},
	}
	addApprovalsFlag(c, &approvals)
	c.Flags().BoolVar(&session, "session", false, "approve for the agent session the refusal came from only")
	c.Flags().BoolVar(&always, "always", false, "approve in the approvals file (the default)")
	c.Flags().BoolVar(&prefix, "prefix", false, "approve the line's prefixes (git push *)")
	c.Flags().BoolVar(&exact, "exact", false, "approve the exact line")
	c.Flags().StringVar(&expires, "expires", "", "the approval lapses after WHEN: 8h, 2d, 2026-12-31 or an RFC 3339 time")
	c.Flags().BoolVar(&list, "list", false, "only list the recent refusals")
	c.Flags().BoolVarP(&yes, "yes", "y", false, "approve without asking")
	return c
}

// printRefusals lists the first n refusals, numbered from 1 (newest).
func printRefusals(w io.Writer, rs []approval.Refusal, n int, now time.Time) {
	fmt.Fprintln(w, "recent refusals (newest first):")
	for i, r := range rs {
		if i >= n {
			fmt.Fprintf(w, "  ... %d more (--list shows all)\n", len(rs)-n)
			break
		}
		code := "no code"
		switch {
		case r.Locked:
			code = "no code: " + lockedWhy(r)
		case !r.Used.IsZero():
			code = "code " + r.Code + " used"
		case !r.Approved.IsZero() && now.Before(r.ApprovedUntil):
			code = "code " + r.Code + " approved, not used yet"
		case !r.Approved.IsZero() || !now.Before(r.Expires):
			code = "code " + r.Code + " expired"
		case r.Code != "":
			code = fmt.Sprintf("code %s, open %s more", r.Code, r.Expires.Sub(now).Round(time.Minute))
		}
		times := ""
		if r.Count > 1 {
			times = fmt.Sprintf(" (x%d)", r.Count)
		}
		fmt.Fprintf(w, "  %2d  %4s ago  %-4s  %-12s %s  %s%s  [%s]\n", i+1, ago(r.Time), r.Verdict, orUnknown(r.Source), r.Cwd,
			shownLine(r.Command, r.Truncated), times, code)
	}
}

func lockedWhy(r approval.Refusal) string {
	for _, x := range r.Rules {
		if strings.HasPrefix(x, "self-guard") {
			return "it would change shellguard itself (a person runs it in a terminal)"
		}
	}
	return "shellguard's configuration does not let it be approved (managed configuration or shadow mode)"
}
