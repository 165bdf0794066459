package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/internal/audit"
	"github.com/shellguard/shellguard/policy"
)

// counts are decisions by verdict.
type counts struct {
	Allow int `json:"allow"`
	Ask   int `json:"ask"`
	Deny  int `json:"deny"`
}

func (c *counts) add(verdict string) {
	switch verdict {
	case "allow":
		c.Allow++
	case "ask":
		c.Ask++
	case "deny":
		c.Deny++
	}
}

func (c counts) total() int { return c.Allow + c.Ask + c.Deny }

// named is a count under a name.
type named struct {
	Name string `json:"name"`
	counts
}

// statsJSON is what stats --json prints.
type statsJSON struct {
	Files     []string  `json:"files"`
	From      time.Time `json:"from,omitzero"`
	To        time.Time `json:"to,omitzero"`
	Decisions counts    `json:"decisions"`
	// Shadow counts the decisions shadow mode did not enforce, by what
	// enforcement would have answered.
	Shadow    counts  `json:"shadow"`
	ByRule    []named `json:"by_rule"`
	ByProgram []named `json:"by_program"`
	BySource  []named `json:"by_source"`
	// TopAsked are the approval prefixes of the lines asked about most.
	TopAsked []named `json:"top_asked"`
	// Codes counts allow-once codes issued and lines allowed once.
	CodesIssued int `json:"codes_issued"`
	AllowedOnce int `json:"allowed_once"`
}

func newStatsCmd(s *streams) *cobra.Command {
	var (
		hf  historyFlags
		top int
	)
	c := &cobra.Command{
		Use:   "stats [--since 1h] [--top N] [--json] [--log FILE]",
		Short: "Summarise the audit log: decisions by rule, program and entry point, top asked prefixes",
		Long: `stats reads the audit log and counts the decisions: allow, ask and deny in
all, by danger rule or configuration rule, by program, by entry point, and the
approval prefixes asked about most (candidates for an approval: see
"shellguard suggest"). In shadow mode (mode = "warn") it also says what
enforcement would have done: how many lines would have been asked about or
denied, though none was blocked.

Exit status: 0, 2 usage or unreadable log.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			st := statsJSON{}
			rules, progs, srcs, asked := map[string]*counts{}, map[string]*counts{}, map[string]*counts{}, map[string]*counts{}
			bump := func(m map[string]*counts, k, v string) {
				if m[k] == nil {
					m[k] = &counts{}
				}
				m[k].add(v)
			}
			path, _, res, err := hf.scan(s, func(r audit.Record) error {
				if st.From.IsZero() || r.Time.Before(st.From) {
					st.From = r.Time
				}
				if r.Time.After(st.To) {
					st.To = r.Time
				}
				st.Decisions.add(r.Verdict)
				if r.Shadow {
					st.Shadow.add(r.Verdict)
				}
				if r.Code != "" {
					st.CodesIssued++
				}
				for _, text := range r.ApprovedBy {
					var a policy.Approver
					if a.UnmarshalText([]byte(text)) == nil && a.Kind == policy.ByOnce {
						st.AllowedOnce++
						break
					}
				}
				seen := map[string]bool{}
				for _, w := range r.Warnings {
					name, _, _ := strings.Cut(w, ":")
					if !seen[name] {
						seen[name] = true
						bump(rules, name, r.Verdict)
					}
				}
				for _, x := range r.Rules {
					if !seen[x] {
						seen[x] = true
						bump(rules, x, r.Verdict)
					}
				}
				if r.Problem != "" {
					bump(rules, "problem: "+r.Problem, r.Verdict)
				}
				for _, p := range r.Programs {
					bump(progs, p, r.Verdict)
				}
				bump(srcs, dash(r.Source), r.Verdict)
				if r.Verdict == "ask" {
					for _, p := range r.Prefixes {
						bump(asked, p, r.Verdict)
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
			st.Files = append([]string{}, res.Files...)
			st.ByRule, st.ByProgram, st.BySource = sorted(rules, 0), sorted(progs, top), sorted(srcs, 0)
			st.TopAsked = sorted(asked, top)
			return output(s.out, hf.asJSON, st, func(w io.Writer, st statsJSON) { printStats(w, st, path) })
		},
	}
	hf.add(c)
	c.Flags().IntVar(&top, "top", 10, "how many programs and prefixes to list (0: all)")
	return c
}

// sorted returns m by total count, largest first (then by name), at most
// n (0: all).
func sorted(m map[string]*counts, n int) []named {
	out := make([]named, 0, len(m))
	for k, v := range m {
		out = append(out, named{k, *v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].total() != out[j].total() {
			return out[i].total() > out[j].total()
		}
		return out[i].Name < out[j].Name
	})
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

func printStats(w io.Writer, st statsJSON, path string) {
	total := st.Decisions.total()
	if len(st.Files) == 0 {
		fmt.Fprintf(w, "audit log %s: no records yet\n", path)
		return
	}
	fmt.Fprintf(w, "audit log %s: %d decisions", strings.Join(st.Files, " + "), total)
	if total > 0 {
		fmt.Fprintf(w, " from %s to %s", st.From.Local().Format("2006-01-02 15:04"), st.To.Local().Format("2006-01-02 15:04"))
	}
	fmt.Fprintln(w)
	if total == 0 {
		return
	}
	pct := func(n int) string { return fmt.Sprintf("%d (%d%%)", n, n*100/total) }
	fmt.Fprintf(w, "decisions: allow %s, ask %s, deny %s\n", pct(st.Decisions.Allow), pct(st.Decisions.Ask), pct(st.Decisions.Deny))
	if n := st.Shadow.total(); n > 0 {
		fmt.Fprintf(w, "shadow mode (mode = \"warn\"): %d decisions were not enforced; enforcement would have asked about %d and denied %d\n",
			n, st.Shadow.Ask, st.Shadow.Deny)
	}
	if st.CodesIssued > 0 || st.AllowedOnce > 0 {
		fmt.Fprintf(w, "allow-once codes: %d answers carried one, %d lines ran once by one\n", st.CodesIssued, st.AllowedOnce)
	}
	table := func(title string, rows []named) {
		if len(rows) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		for _, r := range rows {
			fmt.Fprintf(w, "  %-32s allow %5d  ask %5d  deny %5d\n", r.Name, r.Allow, r.Ask, r.Deny)
		}
	}
	table("by rule", st.ByRule)
	table("by program", st.ByProgram)
	table("by entry point", st.BySource)
	if len(st.TopAsked) > 0 {
		fmt.Fprintln(w, "\ntop asked prefixes (see shellguard suggest):")
		for _, r := range st.TopAsked {
			fmt.Fprintf(w, "  %-32s %5d\n", r.Name+" *", r.Ask)
		}
	}
}
