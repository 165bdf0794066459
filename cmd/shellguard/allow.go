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
		Short: "Approve commands: once by code, the last refusal, or for good (add, list, remove, ...)",
		Long: `allow manages the approvals shellguard remembers ("always" scope), kept in
~/.config/shellguard/approvals.json (or $XDG_CONFIG_HOME/shellguard), in the
file given with --approvals, or in $SHELLGUARD_APPROVALS.

A prefix approval ("git checkout *") covers every later invocation with that
exact prefix, unless it carries a widening option (git -c, curl -o, sed -i,
LD_PRELOAD=..., ...). An exact approval covers one command line, as written.
Dangerous commands are refused whatever their approvals. An approval may
expire (add --expires 8h); an expired one approves nothing until "allow
prune" removes it.

Every ask or deny carries an allow-once code: "allow once CODE" lets that
exact line run once, in its folder. "allow last" approves one of the recent
refusals. "allow explain CMD" says which approval covers a line, or why none
does. From an agent (a hook or the MCP server), every "shellguard allow"
is refused: these commands are for a person at a terminal.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return &exitError{code: exitUsage, err: errors.New("allow needs a subcommand: once, last, add, list, remove, prune or explain")}
		},
	}
	c.AddCommand(newAllowOnceCmd(s, "once"), newAllowLastCmd(s), newAllowAddCmd(s), newAllowListCmd(s),
		newAllowRemoveCmd(s), newAllowPruneCmd(s), newAllowExplainCmd(s))
	return c
}

// parseExpires reads --expires: a duration from now ("8h", "30m", "2d",
// "1w"), a date ("2026-12-31": until the end of that day, local time) or
// an RFC 3339 time. It must be in the future.
func parseExpires(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	var t time.Time
	if d, err := parseDays(s); err == nil {
		t = now.Add(d)
	} else if d, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		t = d.AddDate(0, 0, 1)
	} else if d, err := time.Parse(time.RFC3339, s); err == nil {
		t = d
	} else {
		return time.Time{}, fmt.Errorf("--expires %q: want a duration (8h, 30m, 2d, 1w), a date (2026-12-31) or an RFC 3339 time", s)
	}
	if !t.After(now) {
		return time.Time{}, fmt.Errorf("--expires %q is in the past", s)
	}
	return t.UTC().Truncate(time.Second), nil
}

// parseDays is time.ParseDuration that also reads days ("2d") and weeks
// ("1w").
func parseDays(s string) (time.Duration, error) {
	for _, u := range []struct {
		suffix string
		d      time.Duration
	}{{"d", 24 * time.Hour}, {"w", 7 * 24 * time.Hour}} {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			var v int
			if _, err := fmt.Sscanf(n, "%d", &v); err == nil && fmt.Sprint(v) == n && v > 0 && v < 10000 {
				return time.Duration(v) * u.d, nil
			}
			return 0, fmt.Errorf("bad duration %q", s)
		}
	}
	d, err := time.ParseDuration(s)
	if err == nil && d <= 0 {
		return 0, fmt.Errorf("bad duration %q", s)
	}
	return d, err
}

// expiryText describes an entry's expiry for people.
func expiryText(e approval.Entry, now time.Time) string {
	switch {
	case e.Expires.IsZero():
		return ""
	case e.Expired(now):
		return "EXPIRED " + e.Expires.Local().Format("2006-01-02 15:04")
	}
	return "expires " + e.Expires.Local().Format("2006-01-02 15:04")
}

func newAllowAddCmd(s *streams) *cobra.Command {
	var (
		exact     bool
		approvals string
		expires   string
	)
	c := &cobra.Command{
		Use:   "add [--exact] [--expires WHEN] [--approvals FILE] [--] COMMAND...",
		Short: "Approve a command line: its prefixes, or --exact the line itself",
		Long: `add records the approval of a command line. By default it records the prefix
of each program the line runs (one entry per invocation: "git checkout *"), and
refuses a line prefix approvals cannot cover, saying why. With --exact it
records the line itself (which must parse completely).

The words after the flags, joined by single spaces, are the command line; "-"
alone reads it from standard input.

--expires limits the approval: a duration (8h, 30m, 2d, 1w), a date
(2026-12-31: until the end of that day) or an RFC 3339 time. After it, the
approval approves nothing ("allow list" shows it EXPIRED until "allow
prune"). Adding an approval that exists with another expiry (or none)
replaces its expiry.

Exit status: 0 recorded (or already present), 1 refused, 2 usage or store
error.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			line, err := commandLine(s, args)
			if err != nil {
				return err
			}
			path, err := approvalsPath(approvals)
			if err != nil {
				return err
			}
			until, err := parseExpires(expires, time.Now())
			if err != nil {
				return &exitError{code: exitUsage, err: err}
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
			for i := range entries {
				entries[i].Expires = until
			}
			return addEntries(s, path, entries)
		},
	}
	c.Flags().BoolVar(&exact, "exact", false, "approve this exact command line rather than its prefixes")
	c.Flags().StringVar(&expires, "expires", "", "the approval lapses after WHEN: 8h, 2d, 2026-12-31 or an RFC 3339 time")
	addApprovalsFlag(c, &approvals)
	c.Flags().SetInterspersed(false)
	return c
}

// addEntries stores entries and says what happened.
func addEntries(s *streams, path string, entries []approval.Entry) error {
	res, err := approval.NewStore(path).Add(entries...)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	for _, n := range res.Notices() {
		fmt.Fprintln(s.err, "shellguard:", n)
	}
	now := time.Now()
	suffix := func(e approval.Entry) string {
		if t := expiryText(e, now); t != "" {
			return " (" + t + ")"
		}
		return ""
	}
	for _, e := range res.Added {
		fmt.Fprintf(s.out, "approved: %s%s\n", e.Display(), suffix(e))
	}
	for _, e := range res.Renewed {
		fmt.Fprintf(s.out, "approved again: %s%s\n", e.Display(), suffix(e))
	}
	for _, e := range res.AlreadyPresent {
		fmt.Fprintf(s.out, "already approved: %s%s\n", e.Display(), suffix(e))
	}
	return nil
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
	// Index is the entry's number in the list (1-based), which allow
	// remove accepts.
	Index int `json:"index"`
	approval.Entry
	Display string `json:"display"`
	// Expired reports an entry whose Expires has passed: it approves
	// nothing.
	Expired bool `json:"expired"`
}

func newAllowListCmd(s *streams) *cobra.Command {
	var (
		asJSON    bool
		approvals string
	)
	c := &cobra.Command{
		Use:   "list [--json] [--approvals FILE]",
		Short: "List remembered approvals, numbered, with expiry and the store's trust status",
		Long: `list shows the approvals in the store, numbered (allow remove N removes one),
with when each expires, and whether the store may grant them: a file another
user could write, or a corrupt one, approves nothing. An expired approval is
shown EXPIRED and approves nothing. --json prints one object: {"path",
"trusted", "missing", "problem", "entries": [{"index", "kind", "pattern",
"scope", "granted_at", "granted_via", "command", "expires", "display",
"expired"}]}.

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
			now := time.Now()
			for i, e := range sn.Entries {
				out.Entries = append(out.Entries, allowEntryJSON{Index: i + 1, Entry: e, Display: e.Display(), Expired: e.Expired(now)})
			}
			if err := output(s.out, asJSON, out, printAllowList); err != nil {
				return err
			}
			if sn.Problem != nil {
				return exitCode(1)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	addApprovalsFlag(c, &approvals)
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
	now := time.Now()
	for _, e := range l.Entries {
		when := ""
		if !e.GrantedAt.IsZero() {
			when = " " + e.GrantedAt.Format(time.RFC3339)
		}
		via := ""
		if e.GrantedVia != "" {
			via = " via " + e.GrantedVia
		}
		exp := ""
		if t := expiryText(e.Entry, now); t != "" {
			exp = ", " + t
		}
		fmt.Fprintf(w, "  %3d  %-7s %s  (%s%s%s%s)\n", e.Index, e.Kind, e.Display, e.Scope, when, via, exp)
	}
}

func newAllowRemoveCmd(s *streams) *cobra.Command {
	var (
		approvals string
		byPattern bool
	)
	c := &cobra.Command{
		Use:   "remove [--approvals FILE] [--pattern] [--] N | PATTERN...",
		Short: "Remove an approval by its number in allow list, or as list shows it (git checkout *)",
		Long: `remove deletes one approval: by its number in "allow list" (allow remove 3),
or named as list displays it: "git checkout *" removes the prefix approval of
git checkout; anything else names an exact approval (when no exact approval
has that text, a prefix approval with it is removed instead). The words,
joined by single spaces, are the pattern; --pattern reads a lone number as a
pattern (an exact approval of the command "3").

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
			if n, ok := listIndex(pattern); ok && !byPattern {
				sn := st.Load()
				if sn.Problem != nil {
					return &exitError{code: exitUsage, err: sn.Problem}
				}
				if n > len(sn.Entries) {
					return &exitError{code: 1, err: fmt.Errorf("no approval number %d in %s (it holds %d; see shellguard allow list)", n, path, len(sn.Entries))}
				}
				e := sn.Entries[n-1]
				found, err := st.Remove(e.Kind, e.Pattern)
				if err != nil {
					return &exitError{code: exitUsage, err: err}
				}
				if !found {
					return &exitError{code: 1, err: fmt.Errorf("approval %d (%s) was removed meanwhile", n, e.Display())}
				}
				fmt.Fprintf(s.out, "removed: %s\n", e.Display())
				return nil
			}
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
	addApprovalsFlag(c, &approvals)
	c.Flags().BoolVar(&byPattern, "pattern", false, "read a lone number as a pattern, not as a number in allow list")
	c.Flags().SetInterspersed(false)
	return c
}

// listIndex reads "3" or "#3" as a number in allow list.
func listIndex(s string) (int, bool) {
	s = strings.TrimPrefix(s, "#")
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n > 0
}

func newAllowPruneCmd(s *streams) *cobra.Command {
	var approvals string
	c := &cobra.Command{
		Use:   "prune [--approvals FILE]",
		Short: "Remove the approvals that have expired",
		Long: `prune removes every approval whose expiry has passed (they approve nothing
already) and lists them.

Exit status: 0 done (even when nothing had expired), 2 usage or store error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := approvalsPath(approvals)
			if err != nil {
				return err
			}
			gone, err := approval.NewStore(path).Prune(time.Now())
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			if len(gone) == 0 {
				fmt.Fprintln(s.out, "no expired approvals")
			}
			for _, e := range gone {
				fmt.Fprintf(s.out, "pruned: %s (expired %s)\n", e.Display(), e.Expires.Local().Format("2006-01-02 15:04"))
			}
			return nil
		},
	}
	addApprovalsFlag(c, &approvals)
	return c
}
