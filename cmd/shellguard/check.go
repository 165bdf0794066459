package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/policy"
	"github.com/shellguard/shellguard/shellparse"
	"github.com/spf13/cobra"
)

// maxInput bounds a command line read from standard input.
const maxInput = 1<<20 + 1

// commandLine returns the command line given as words (joined by single
// spaces), or read whole from standard input when the only word is "-".
func commandLine(s *streams, args []string) (string, error) {
	if len(args) == 0 {
		return "", fmt.Errorf("no command given (pass it after --, or - to read standard input)")
	}
	if len(args) == 1 && args[0] == "-" {
		b, err := io.ReadAll(io.LimitReader(s.in, maxInput+1))
		if err != nil {
			return "", fmt.Errorf("reading standard input: %w", err)
		}
		line := string(b)
		// One trailing newline is how lines end, not part of the command.
		line = strings.TrimSuffix(line, "\n")
		return line, nil
	}
	return strings.Join(args, " "), nil
}

// guardFlags are the flags every deciding command shares.
type guardFlags struct {
	config, approvals, cwd string
}

func (f *guardFlags) add(c *cobra.Command, withApprovals bool) {
	c.Flags().StringVar(&f.config, "config", "", "extra configuration file, applied last (default $SHELLGUARD_CONFIG)")
	c.Flags().StringVar(&f.cwd, "cwd", "", "working directory that selects the project configuration (default: current)")
	if withApprovals {
		c.Flags().StringVar(&f.approvals, "approvals", "", "approval store (default $SHELLGUARD_APPROVALS or ~/.config/shellguard/approvals.json)")
	}
}

func (f *guardFlags) load(source string) (*policy.Guard, error) {
	g, err := policy.Load(policy.Options{Cwd: f.cwd, ConfigFile: f.config, ApprovalsFile: f.approvals, Source: source})
	if err != nil {
		return nil, &exitError{code: exitUsage, err: err}
	}
	return g, nil
}

type checkJSON struct {
	Command   string           `json:"command"`
	Dangerous bool             `json:"dangerous"`
	Level     *danger.Level    `json:"level"`
	Warnings  []danger.Warning `json:"warnings"`
}

func checkResult(command string, ws []danger.Warning, min danger.Level) checkJSON {
	out := checkJSON{Command: command, Warnings: []danger.Warning{}}
	for _, w := range ws {
		if w.Level >= min {
			out.Warnings = append(out.Warnings, w)
		}
	}
	if lvl, ok := danger.MaxLevel(out.Warnings); ok {
		out.Dangerous = true
		out.Level = &lvl
	}
	return out
}

func newCheckCmd(s *streams) *cobra.Command {
	var (
		asJSON, batch, nul bool
		minLevel           string
		gf                 guardFlags
	)
	c := &cobra.Command{
		Use:   "check [--json] [--min-level L] [--] COMMAND...",
		Short: "Say how dangerous a command line is and why",
		Long: `check reads a command line the way the shell will and lists every danger
warning it raises. The words after the flags, joined by single spaces, are the
command line; "-" alone reads the whole line (newlines included) from standard
input. --batch reads many lines from standard input (one per line, or
NUL-separated with -0) and writes one JSON object per line, in order.

Exit status: 0 no warning at or above --min-level, 1 warnings, 2 usage or
internal error (configuration errors included).`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			min := danger.Low
			if minLevel != "" {
				l, err := danger.ParseLevel(minLevel)
				if err != nil {
					return &exitError{code: exitUsage, err: err}
				}
				min = l
			}
			g, err := gf.load("cli")
			if err != nil {
				return err
			}
			det := g.DangerDetector()
			if batch {
				if len(args) > 0 {
					return &exitError{code: exitUsage, err: fmt.Errorf("--batch reads standard input; no command arguments allowed")}
				}
				return runBatch(s, det, min, nul)
			}
			line, err := commandLine(s, args)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			res := checkResult(line, det.Check(line), min)
			if asJSON {
				if err := writeJSON(s.out, res); err != nil {
					return err
				}
			} else {
				printWarnings(s.out, res)
			}
			if res.Dangerous {
				return exitCode(1)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	c.Flags().StringVar(&minLevel, "min-level", "", "ignore warnings below this level (low, medium, high, critical)")
	c.Flags().BoolVar(&batch, "batch", false, "read many command lines from standard input, write JSON lines")
	c.Flags().BoolVarP(&nul, "null", "0", false, "with --batch: lines are NUL-separated")
	gf.add(c, false)
	return c
}

func printWarnings(w io.Writer, res checkJSON) {
	if !res.Dangerous {
		fmt.Fprintln(w, "No danger found.")
		return
	}
	n := len(res.Warnings)
	plural := "s"
	if n == 1 {
		plural = ""
	}
	fmt.Fprintf(w, "%d warning%s (highest: %s)\n", n, plural, res.Level)
	for _, x := range res.Warnings {
		fmt.Fprintf(w, "  %s\n", x.Message)
		fmt.Fprintf(w, "      rule %s, in: %s\n", x.Pattern.Name, x.Invocation)
	}
}

func runBatch(s *streams, det *danger.Detector, min danger.Level, nul bool) error {
	sc := bufio.NewScanner(s.in)
	sc.Buffer(make([]byte, 64*1024), maxInput+1)
	if nul {
		sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
			if i := bytes.IndexByte(data, 0); i >= 0 {
				return i + 1, data[:i], nil
			}
			if atEOF && len(data) > 0 {
				return len(data), data, nil
			}
			return 0, nil, nil
		})
	}
	out := bufio.NewWriter(s.out)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for sc.Scan() {
		line := sc.Text()
		if err := enc.Encode(checkResult(line, det.Check(line), min)); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("reading standard input: %w", err)}
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Exit codes of decide.
const (
	exitAllow = 0
	exitAsk   = 10
	exitDeny  = 11
)

func newDecideCmd(s *streams) *cobra.Command {
	var (
		asJSON bool
		gf     guardFlags
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

Exit status: 0 allow, 10 ask, 11 deny, 2 usage or configuration error.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			line, err := commandLine(s, args)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			cwd := gf.cwd
			if cwd == "" {
				cwd, _ = os.Getwd()
			}
			deadline := time.Now().Add(policy.DefaultBudget)
			var d policy.Decision
			g, err := policy.LoadBy(policy.Options{Cwd: gf.cwd, ConfigFile: gf.config, ApprovalsFile: gf.approvals, Source: "cli"}, deadline)
			switch {
			case errors.Is(err, policy.ErrOverBudget):
				d = policy.BudgetExceeded(line, policy.DefaultBudget, "loading its configuration")
			case err != nil:
				return &exitError{code: exitUsage, err: err}
			default:
				d = g.Decide(policy.Request{Command: line, Cwd: cwd, Deadline: deadline})
				// After deciding: Notices reads the approval store, which
				// Decide read within the budget.
				for _, n := range g.Notices() {
					fmt.Fprintln(s.err, "shellguard: note:", n)
				}
			}
			if asJSON {
				if err := writeJSON(s.out, d); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(s.out, "%s: %s\n", d.Verdict, d.Reason)
				for _, w := range d.Warnings {
					fmt.Fprintf(s.out, "  %s\n", w.Message)
				}
			}
			switch d.Verdict {
			case policy.Allow:
				return nil
			case policy.Deny:
				return exitCode(exitDeny)
			}
			return exitCode(exitAsk)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the decision as JSON")
	gf.add(c, true)
	return c
}

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

func explain(g *policy.Guard, line, cwd string) explainJSON {
	res := g.Parser().Parse(line)
	out := explainJSON{Command: line, Problems: res.Problems, Warnings: g.DangerDetector().CheckParsed(res)}
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
	out.Decision = g.Decide(policy.Request{Command: line, Cwd: cwd})
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
			line, err := commandLine(s, args)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			g, err := gf.load("cli")
			if err != nil {
				return err
			}
			cwd := gf.cwd
			if cwd == "" {
				cwd, _ = os.Getwd()
			}
			ex := explain(g, line, cwd)
			if asJSON {
				return writeJSON(s.out, ex)
			}
			printExplain(s.out, ex)
			return nil
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
