package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/policy"
	"github.com/shellguard/shellguard/shellparse"
)

// approvalsPath returns the store to use: --approvals, then
// $SHELLGUARD_APPROVALS, then the user's store.
func approvalsPath(flag string) (string, error) {
	if p := firstSet(flag, os.Getenv(policy.EnvApprovals)); p != "" {
		return p, nil
	}
	p, err := approval.DefaultPath()
	if err != nil {
		return "", &exitError{code: exitUsage, err: err}
	}
	return p, nil
}

func newAllowCmd(s *streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "allow",
		Short: "Add, list and remove remembered approvals",
		Long: `allow manages the approvals shellguard remembers ("always" scope), kept in
~/.config/shellguard/approvals.json (or $XDG_CONFIG_HOME/shellguard), in the
file given with --approvals, or in $SHELLGUARD_APPROVALS.

A prefix approval ("git checkout *") covers every later invocation with that
exact prefix, unless it carries a widening option (git -c, curl -o, sed -i,
LD_PRELOAD=..., ...). An exact approval covers one command line, as written.
Dangerous commands are refused whatever their approvals.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return &exitError{code: exitUsage, err: errors.New("allow needs a subcommand: add, list or remove")}
		},
	}
	c.AddCommand(newAllowAddCmd(s), newAllowListCmd(s), newAllowRemoveCmd(s))
	return c
}

func newAllowAddCmd(s *streams) *cobra.Command {
	var (
		exact     bool
		approvals string
	)
	c := &cobra.Command{
		Use:   "add [--exact] [--approvals FILE] [--] COMMAND...",
		Short: "Approve a command line: its prefixes, or --exact the line itself",
		Long: `add records the approval of a command line. By default it records the prefix
of each program the line runs (one entry per invocation: "git checkout *"), and
refuses a line prefix approvals cannot cover, saying why. With --exact it
records the line itself (which must parse completely).

The words after the flags, joined by single spaces, are the command line; "-"
alone reads it from standard input.

Exit status: 0 recorded (or already present), 1 refused, 2 usage or store
error.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			line, err := commandLine(s, args)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			path, err := approvalsPath(approvals)
			if err != nil {
				return err
			}
			cl := approval.ClassifyCommand(shellparse.New(shellparse.Limits{}), line)
			var entries []approval.Entry
			if exact {
				if !cl.Parsed || strings.TrimSpace(line) == "" || len(cl.Invocations) == 0 {
					reason := cl.Reason
					if reason == "" {
						reason = "the command line is empty"
					}
					return &exitError{code: 1, err: fmt.Errorf("cannot approve this line exactly: %s", reason)}
				}
				entries = []approval.Entry{{Kind: approval.Exact, Pattern: strings.TrimSpace(line), Scope: approval.Always,
					GrantedVia: "cli", Command: strings.TrimSpace(line)}}
			} else {
				if !cl.Approvable {
					hint := ""
					if cl.Parsed && len(cl.Invocations) > 0 {
						hint = " (use --exact to approve this very line)"
					}
					return &exitError{code: 1, err: fmt.Errorf("cannot approve this line by prefix: %s%s", cl.Reason, hint)}
				}
				for _, e := range approval.PrefixEntries(cl) {
					e.Scope, e.GrantedVia = approval.Always, "cli"
					entries = append(entries, e)
				}
			}
			res, err := approval.NewStore(path).Add(entries...)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			for _, n := range res.Notices() {
				fmt.Fprintln(s.err, "shellguard:", n)
			}
			for _, e := range res.Added {
				fmt.Fprintf(s.out, "approved: %s\n", e.Display())
			}
			for _, e := range res.AlreadyPresent {
				fmt.Fprintf(s.out, "already approved: %s\n", e.Display())
			}
			return nil
		},
	}
	c.Flags().BoolVar(&exact, "exact", false, "approve this exact command line rather than its prefixes")
	c.Flags().StringVar(&approvals, "approvals", "", "approval store (default $SHELLGUARD_APPROVALS or ~/.config/shellguard/approvals.json)")
	c.Flags().SetInterspersed(false)
	return c
}

// allowListJSON is what allow list --json prints.
type allowListJSON struct {
	Path    string           `json:"path"`
	Trusted bool             `json:"trusted"`
	Missing bool             `json:"missing"`
	Problem *string          `json:"problem"`
	Entries []allowEntryJSON `json:"entries"`
}

type allowEntryJSON struct {
	approval.Entry
	Display string `json:"display"`
}

func newAllowListCmd(s *streams) *cobra.Command {
	var (
		asJSON    bool
		approvals string
	)
	c := &cobra.Command{
		Use:   "list [--json] [--approvals FILE]",
		Short: "List remembered approvals, with the store's trust status",
		Long: `list shows the approvals in the store and whether the store may grant them: a
file another user could write, or a corrupt one, approves nothing.

Exit status: 0 the store is usable, 1 it has a problem (shown), 2 usage error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := approvalsPath(approvals)
			if err != nil {
				return err
			}
			sn := approval.NewStore(path).Load()
			out := allowListJSON{Path: sn.Path, Trusted: sn.Trusted, Missing: sn.Missing, Entries: []allowEntryJSON{}}
			if sn.Problem != nil {
				out.Problem = strOrNull(sn.Problem.Error())
			}
			for _, e := range sn.Entries {
				out.Entries = append(out.Entries, allowEntryJSON{Entry: e, Display: e.Display()})
			}
			if asJSON {
				if err := writeJSON(s.out, out); err != nil {
					return err
				}
			} else {
				printAllowList(s.out, out)
			}
			if sn.Problem != nil {
				return exitCode(1)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	c.Flags().StringVar(&approvals, "approvals", "", "approval store (default $SHELLGUARD_APPROVALS or ~/.config/shellguard/approvals.json)")
	return c
}

func printAllowList(w io.Writer, l allowListJSON) {
	status := "trusted"
	switch {
	case l.Missing:
		status = "not created yet"
	case !l.Trusted:
		status = "NOT trusted: it approves nothing"
	}
	fmt.Fprintf(w, "approvals file: %s (%s)\n", l.Path, status)
	if l.Problem != nil {
		fmt.Fprintf(w, "problem: %s\n", *l.Problem)
	}
	if len(l.Entries) == 0 {
		fmt.Fprintln(w, "no approvals")
		return
	}
	for _, e := range l.Entries {
		when := ""
		if !e.GrantedAt.IsZero() {
			when = " " + e.GrantedAt.Format(time.RFC3339)
		}
		via := ""
		if e.GrantedVia != "" {
			via = " via " + e.GrantedVia
		}
		fmt.Fprintf(w, "  %-7s %s  (%s%s%s)\n", e.Kind, e.Display, e.Scope, when, via)
	}
}

func newAllowRemoveCmd(s *streams) *cobra.Command {
	var approvals string
	c := &cobra.Command{
		Use:   "remove [--approvals FILE] [--] PATTERN...",
		Short: "Remove an approval, as list shows it (git checkout *)",
		Long: `remove deletes one approval, named as list displays it: "git checkout *"
removes the prefix approval of git checkout; anything else names an exact
approval (when no exact approval has that text, a prefix approval with it is
removed instead). The words, joined by single spaces, are the pattern.

Exit status: 0 removed, 1 no such approval, 2 usage or store error.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pattern := strings.TrimSpace(strings.Join(args, " "))
			if pattern == "" {
				return &exitError{code: exitUsage, err: errors.New("empty pattern")}
			}
			path, err := approvalsPath(approvals)
			if err != nil {
				return err
			}
			st := approval.NewStore(path)
			order := []approval.Kind{approval.Exact, approval.Prefix}
			if strings.HasSuffix(pattern, " *") || pattern == "*" {
				order = []approval.Kind{approval.Prefix, approval.Exact}
			}
			for _, k := range order {
				found, err := st.Remove(k, pattern)
				if err != nil {
					return &exitError{code: exitUsage, err: err}
				}
				if found {
					e := approval.Entry{Kind: k, Pattern: pattern}
					if k == approval.Prefix {
						e.Pattern = strings.TrimSpace(strings.TrimSuffix(pattern, " *"))
					}
					fmt.Fprintf(s.out, "removed: %s\n", e.Display())
					return nil
				}
			}
			return &exitError{code: 1, err: fmt.Errorf("no approval %q in %s", pattern, path)}
		},
	}
	c.Flags().StringVar(&approvals, "approvals", "", "approval store (default $SHELLGUARD_APPROVALS or ~/.config/shellguard/approvals.json)")
	c.Flags().SetInterspersed(false)
	return c
}
