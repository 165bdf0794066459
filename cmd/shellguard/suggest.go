package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/internal/audit"
)

// suggestion is one proposal of suggest.
type suggestion struct {
	// Kind is "approval" (a prefix to approve) or "exempt" (a danger rule
	// to list in exempt).
	Kind   string `json:"kind"`
	Prefix string `json:"prefix,omitempty"`
	Rule   string `json:"rule,omitempty"`
	// Asked is how many asks it would have spared, Last the latest.
	Asked int       `json:"asked"`
	Last  time.Time `json:"last"`
	// Example is one of the command lines (redacted, as logged).
	Example string `json:"example"`
	// Do is what to run or write to accept it.
	Do string `json:"do"`
	// Warned lists the danger rules that also asked about these lines:
	// an approval covers them only once they are exempt.
	Warned []string `json:"warned,omitempty"`
}

func newSuggestCmd(s *streams) *cobra.Command {
	var (
		hf        historyFlags
		min       int
		approvals string
	)
	c := &cobra.Command{
		Use:   "suggest [--since 7d] [--min N] [--json] [--log FILE]",
		Short: "Propose approvals (or exempt entries) for what you are asked about most",
		Long: `suggest reads the audit log and proposes, for the approval prefixes that were
asked about at least --min times (3 by default), the "shellguard allow add"
that would stop the asking, and for the danger rules behind those asks, the
exempt entry that lets an approval cover them. It never proposes anything for
a prefix or a rule that was ever part of a decision with a warning at High or
above, nor for asks that came from your own ask rules or from shellguard's
problems, nor what is approved already. It writes nothing: you copy what you
agree with.

Exit status: 0, 2 usage or unreadable log.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			type acc struct {
				n       int
				last    time.Time
				example string
				warned  map[string]bool
			}
			prefixes, rules := map[string]*acc{}, map[string]*acc{}
			bannedP, bannedR := map[string]bool{}, map[string]bool{}
			_, cfg, _, err := hf.scan(s, func(r audit.Record) error {
				if r.Level == "high" || r.Level == "critical" {
					for _, p := range r.Prefixes {
						bannedP[p] = true
					}
				}
				for _, w := range r.Warnings {
					name, lvl, _ := strings.Cut(w, ":")
					if lvl == "high" || lvl == "critical" {
						bannedR[name] = true
					}
				}
				if r.Verdict != "ask" || r.Problem != "" || userRule(r.Rules) {
					return nil
				}
				var warned []string
				for _, w := range r.Warnings {
					name, _, _ := strings.Cut(w, ":")
					warned = append(warned, name)
					a := rules[name]
					if a == nil {
						a = &acc{}
						rules[name] = a
					}
					a.n++
					if r.Time.After(a.last) {
						a.last, a.example = r.Time, r.Command
					}
				}
				for _, p := range r.Prefixes {
					a := prefixes[p]
					if a == nil {
						a = &acc{warned: map[string]bool{}}
						prefixes[p] = a
					}
					a.n++
					if r.Time.After(a.last) {
						a.last, a.example = r.Time, r.Command
					}
					for _, w := range warned {
						a.warned[w] = true
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
			approved := map[string]bool{}
			if p, err := approvalsPath(approvals); err == nil {
				now := time.Now()
				for _, e := range approval.NewStore(p).Load().Active() {
					if e.Kind == approval.Prefix && !e.Expired(now) {
						approved[e.Pattern] = true
					}
				}
			}
			var out []suggestion
			for p, a := range prefixes {
				if a.n < min || bannedP[p] || approved[p] {
					continue
				}
				sg := suggestion{Kind: "approval", Prefix: p, Asked: a.n, Last: a.last, Example: a.example,
					Do: "shellguard allow add -- " + p}
				for w := range a.warned {
					if !cfg.IsExempt(w) {
						sg.Warned = append(sg.Warned, w)
					}
				}
				sort.Strings(sg.Warned)
				banned := false
				for _, w := range sg.Warned {
					banned = banned || bannedR[w] || cfg.Managed.ApprovalForbidden(w, danger.PackOf(w))
				}
				if banned {
					continue
				}
				out = append(out, sg)
			}
			for name, a := range rules {
				if a.n < min || bannedR[name] || cfg.IsExempt(name) || cfg.Managed.ApprovalForbidden(name, danger.PackOf(name)) {
					continue
				}
				out = append(out, suggestion{Kind: "exempt", Rule: name, Asked: a.n, Last: a.last, Example: a.example,
					Do: fmt.Sprintf("exempt = [%q]  # in %s", name, userConfigHint())})
			}
			sort.Slice(out, func(i, j int) bool {
				if out[i].Asked != out[j].Asked {
					return out[i].Asked > out[j].Asked
				}
				return out[i].Prefix+out[i].Rule < out[j].Prefix+out[j].Rule
			})
			if out == nil {
				out = []suggestion{}
			}
			return output(s.out, hf.asJSON, out, func(w io.Writer, out []suggestion) { printSuggestions(w, out, min) })
		},
	}
	hf.add(c)
	c.Flags().IntVar(&min, "min", 3, "propose only what was asked about at least N times")
	c.Flags().StringVar(&approvals, "approvals", "", "approval store, to leave out what is approved already (default $SHELLGUARD_APPROVALS or ~/.config/shellguard/approvals.json)")
	return c
}

// printSuggestions writes the suggestions for people; min is --min.
func printSuggestions(w io.Writer, out []suggestion, min int) {
	if len(out) == 0 {
		fmt.Fprintf(w, "nothing to suggest: no prefix was asked about %d times or more without a High or Critical warning\n", min)
		return
	}
	for _, sg := range out {
		switch sg.Kind {
		case "approval":
			fmt.Fprintf(w, "%s\n    # asked %d times, last %s ago, e.g. %s\n", sg.Do, sg.Asked, ago(sg.Last), shownLine(sg.Example, false))
			if len(sg.Warned) > 0 {
				fmt.Fprintf(w, "    # these lines also had a warning (%s): the approval covers them only once the rule is exempt\n", strings.Join(sg.Warned, ", "))
			}
		case "exempt":
			fmt.Fprintf(w, "%s\n    # rule %s asked %d times, never at High or above, e.g. %s\n", sg.Do, sg.Rule, sg.Asked, shownLine(sg.Example, false))
		}
	}
}

// userRule reports an ask that came from a configuration rule, a self-
// guard or a deny rule: an approval would not stop it.
func userRule(rules []string) bool {
	for _, r := range rules {
		if strings.HasPrefix(r, "ask: ") || strings.HasPrefix(r, "deny: ") || strings.HasPrefix(r, "self-guard") {
			return true
		}
	}
	return false
}

func userConfigHint() string {
	return "~/.config/shellguard/config.toml"
}
