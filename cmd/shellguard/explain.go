package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/policy"
	"github.com/shellguard/shellguard/shellparse"
	"github.com/spf13/cobra"
)

type explainInvocation struct {
	Index     int                   `json:"index"`
	Command   string                `json:"command"`
	Program   string                `json:"program"`
	Name      string                `json:"name"`
	Argv      []string              `json:"argv"`
	Dynamic   []string              `json:"dynamic,omitempty"`
	Wrappers  []shellparse.Wrapper  `json:"wrappers,omitempty"`
	Assigns   []shellparse.Assign   `json:"assigns,omitempty"`
	Redirects []shellparse.Redirect `json:"redirects,omitempty"`
	Where     string                `json:"where"`
	RunBy     *int                  `json:"run_by,omitempty"`
	Notes     []string              `json:"notes,omitempty"`
}

type explainJSON struct {
	Command     string               `json:"command"`
	Problems    []shellparse.Problem `json:"problems"`
	Invocations []explainInvocation  `json:"invocations"`
	Warnings    []danger.Warning     `json:"warnings"`
	Decision    policy.Decision      `json:"decision"`
}

// explain is what explain shows of the dry-run request req.
func explain(g *policy.Guard, req policy.Request) explainJSON {
	res := g.Parser().Parse(req.Command)
	out := explainJSON{Command: req.Command, Problems: res.Problems, Warnings: g.DangerDetector().CheckParsed(res)}
	if out.Problems == nil {
		out.Problems = []shellparse.Problem{}
	}
	if out.Warnings == nil {
		out.Warnings = []danger.Warning{}
	}
	for i := range res.Invocations {
		inv := &res.Invocations[i]
		ei := explainInvocation{Index: i, Command: inv.String(), Program: inv.Program, Name: inv.Name, Argv: inv.Argv(),
			Wrappers: inv.Wrappers, Assigns: inv.Assigns, Redirects: inv.Redirs, Where: inv.Where.Path()}
		for _, a := range inv.Args {
			if a.Dynamic {
				ei.Dynamic = append(ei.Dynamic, a.Raw)
			}
		}
		if inv.Parent >= 0 {
			p := inv.Parent
			ei.RunBy = &p
		}
		if inv.NameDynamic() && len(inv.Args) > 0 {
			ei.Notes = append(ei.Notes, "the program name is only known at run time")
		}
		if len(inv.Args) == 0 {
			ei.Notes = append(ei.Notes, "assignments or redirections only")
		}
		if inv.StdinUnknown {
			ei.Notes = append(ei.Notes, "runs shell code that is only known at run time")
		}
		if inv.ArgsFromInput {
			ei.Notes = append(ei.Notes, "more arguments come from standard input at run time")
		}
		if inv.NotRun {
			ei.Notes = append(ei.Notes, "looks the program up without running it")
		}
		out.Invocations = append(out.Invocations, ei)
	}
	if out.Invocations == nil {
		out.Invocations = []explainInvocation{}
	}
	out.Decision = g.Decide(req)
	return out
}

func newExplainCmd(s *streams) *cobra.Command {
	var (
		asJSON bool
		gf     guardFlags
	)
	c := &cobra.Command{
		Use:   "explain [--json] [--] COMMAND...",
		Short: "Show what the parser saw, which rules matched, and the decision path",
		Long: `explain shows each invocation the command line would run (its program,
argv, wrappers, assignments, redirections and where it sits), what could not be
known statically, which danger rule matched which part, and how the decision
was reached. Exit status: 0, or 2 on usage or configuration errors.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			g, req, err := gf.dryRequest(s, args)
			if err != nil {
				return err
			}
			return output(s.out, asJSON, explain(g, req), printExplain)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	gf.add(c, true)
	return c
}

func printExplain(w io.Writer, ex explainJSON) {
	fmt.Fprintf(w, "Command: %s\n", ex.Command)
	for _, p := range ex.Problems {
		fmt.Fprintf(w, "Problem (%s): %s\n", p.Kind, p.Message)
	}
	fmt.Fprintf(w, "\nInvocations (%d):\n", len(ex.Invocations))
	for i, inv := range ex.Invocations {
		fmt.Fprintf(w, "  [%d] %s\n", inv.Index, inv.Command)
		fmt.Fprintf(w, "      where: %s\n", inv.Where)
		if inv.Program != inv.Name && inv.Name != "" {
			fmt.Fprintf(w, "      program: %s (matched as %s)\n", inv.Program, inv.Name)
		}
		for _, wr := range inv.Wrappers {
			fmt.Fprintf(w, "      wrapper: %s %s\n", wr.Name, strings.Join(wr.Args, " "))
		}
		for _, a := range inv.Assigns {
			fmt.Fprintf(w, "      environment: %s=%s\n", a.Name, a.Value)
		}
		for _, r := range inv.Redirects {
			fmt.Fprintf(w, "      redirect: %s%s %s\n", r.Fd, r.Op, r.Target)
		}
		if len(inv.Dynamic) > 0 {
			fmt.Fprintf(w, "      unknown until run time: %s\n", strings.Join(inv.Dynamic, " "))
		}
		if inv.RunBy != nil {
			fmt.Fprintf(w, "      run by: [%d]\n", *inv.RunBy)
		}
		for _, n := range inv.Notes {
			fmt.Fprintf(w, "      note: %s\n", n)
		}
		if i < len(ex.Decision.Invocations) {
			ir := ex.Decision.Invocations[i]
			switch {
			case ir.Approved:
				fmt.Fprintf(w, "      approved by: %s\n", ir.ApprovedBy)
			case ir.Prefix != "":
				fmt.Fprintf(w, "      approval prefix: %s * (not approved)\n", ir.Prefix)
			case ir.Reason != "":
				fmt.Fprintf(w, "      not approvable: %s\n", ir.Reason)
			}
		}
	}
	fmt.Fprintf(w, "\nWarnings (%d):\n", len(ex.Warnings))
	for _, x := range ex.Warnings {
		fmt.Fprintf(w, "  %s\n      rule %s matched: %s\n", x.Message, x.Pattern.Name, x.Invocation)
	}
	d := ex.Decision
	fmt.Fprintf(w, "\nDecision: %s\n  %s\n", d.Verdict, d.Reason)
	for _, r := range d.Rules {
		fmt.Fprintf(w, "  rule: %s\n", r)
	}
}
