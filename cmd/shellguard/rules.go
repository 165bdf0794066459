package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/danger"
)

// rulesPackJSON is one pack in `rules --json`.
type rulesPackJSON struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Default     bool            `json:"default"`
	On          bool            `json:"on"`
	Rules       []rulesRuleJSON `json:"rules"`
}

// rulesRuleJSON is one rule in `rules --json`.
type rulesRuleJSON struct {
	Name        string       `json:"name"`
	Level       danger.Level `json:"level"`
	Description string       `json:"description"`
	Disabled    bool         `json:"disabled,omitempty"`
	Relevel     danger.Level `json:"configured_level,omitempty"`
}

func newRulesCmd(s *streams) *cobra.Command {
	var (
		asJSON bool
		pack   string
		gf     guardFlags
	)
	c := &cobra.Command{
		Use:   "rules [--json] [--pack P]",
		Short: "List the built-in rule packs and their rules",
		Long: `rules lists the built-in rule packs (core.filesystem, core.git, ...) with
their description and whether the effective configuration has them on ([packs]
enable/disable; a project file may only enable), and under each its rules with
level and description. --pack lists one pack. "rules show NAME" prints one rule
with its examples. docs/rules.md says how rules are written.

Exit status: 0 listed, 2 usage (an unknown pack, a configuration error).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			g, err := gf.load("cli")
			if err != nil {
				return err
			}
			cfg := g.Config()
			var out []rulesPackJSON
			for _, p := range danger.Packs() {
				if pack != "" && p.Name != pack {
					continue
				}
				pj := rulesPackJSON{Name: p.Name, Description: p.Description, Default: p.Default, On: cfg.PackOn(p.Name)}
				ps, _ := danger.PackPatterns(p.Name)
				for _, r := range ps {
					rj := rulesRuleJSON{Name: r.Name, Level: r.Level, Description: r.Description}
					_, rj.Disabled = cfg.Disabled[r.Name]
					if o, ok := cfg.Relevel[r.Name]; ok {
						rj.Relevel = o.Level
					}
					pj.Rules = append(pj.Rules, rj)
				}
				out = append(out, pj)
			}
			if pack != "" && len(out) == 0 {
				return &exitError{code: exitUsage, err: fmt.Errorf("no rule pack is called %q", pack)}
			}
			if asJSON {
				if out == nil {
					out = []rulesPackJSON{}
				}
				return writeJSON(s.out, out)
			}
			tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
			for i, p := range out {
				if i > 0 {
					fmt.Fprintln(tw)
				}
				state := "on"
				if !p.On {
					state = "off"
				}
				if p.On != p.Default {
					state += " (configured)"
				} else if !p.Default {
					state += " (off by default)"
				}
				fmt.Fprintf(tw, "%s\t%s\t%d rules\t%s\n", p.Name, state, len(p.Rules), p.Description)
				for _, r := range p.Rules {
					level := r.Level.String()
					if r.Relevel != 0 {
						level = r.Relevel.String() + " (built-in " + r.Level.String() + ")"
					}
					if r.Disabled {
						level += ", disabled"
					}
					fmt.Fprintf(tw, "  %s\t%s\t%s\n", r.Name, level, r.Description)
				}
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "write JSON: [{name, description, default, on, rules: [{name, level, description}]}]")
	c.Flags().StringVar(&pack, "pack", "", "list only this pack")
	gf.add(c, false)
	c.AddCommand(newRulesShowCmd(s))
	return c
}

func newRulesShowCmd(s *streams) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "show [--json] NAME",
		Short: "Print one built-in rule: its pack, level, description, matcher and examples",
		Long: `show prints one built-in rule: its pack, level and description, what it
matches (the [pattern.match] fields), and its examples: the command lines it must
match (hit) and the nearest harmless forms it must not (miss).

Exit status: 0 shown, 2 usage (no such rule).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, ok := danger.BuiltinPattern(args[0])
			if !ok {
				return &exitError{code: exitUsage, err: fmt.Errorf("no built-in rule is called %q (shellguard rules lists them)", args[0])}
			}
			return output(s.out, asJSON, ruleShowJSON{danger.PackOf(p.Name), p}, printRule)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "write the rule as JSON, with its pack")
	return c
}

// ruleShowJSON is what rules show --json prints: the rule and its pack.
type ruleShowJSON struct {
	Pack string `json:"pack"`
	danger.Pattern
}

func printRule(w io.Writer, r ruleShowJSON) {
	p := r.Pattern
	fmt.Fprintf(w, "%s (pack %s, %s)\n  %s\n", p.Name, r.Pack, p.Level, p.Description)
	if p.Regex != "" {
		fmt.Fprintf(w, "regex: %s\n", p.Regex)
	}
	if m := p.Match; m != nil {
		fmt.Fprintln(w, "match:")
		writeSpec(w, "  ", m)
	}
	fmt.Fprintln(w, "hit (each gets this rule):")
	for _, l := range p.Hit {
		fmt.Fprintf(w, "  %s\n", indentLines(l, "    "))
	}
	fmt.Fprintln(w, "miss (none gets this rule):")
	for _, l := range p.Miss {
		fmt.Fprintf(w, "  %s\n", indentLines(l, "    "))
	}
}

// writeSpec writes a spec's fields that are set, one per line.
func writeSpec(w io.Writer, indent string, m *danger.Spec) {
	list := func(k string, v []string) {
		if len(v) > 0 {
			fmt.Fprintf(w, "%s%s = %s\n", indent, k, strings.Join(v, ", "))
		}
	}
	str := func(k, v string) {
		if v != "" {
			fmt.Fprintf(w, "%s%s = %s\n", indent, k, v)
		}
	}
	list("programs", m.Programs)
	list("subcommands", m.Subcommands)
	list("flags_all", m.FlagsAll)
	list("flags_any", m.FlagsAny)
	list("flags_none", m.FlagsNone)
	for _, v := range m.Values {
		fmt.Fprintf(w, "%svalues[%s] = %s\n", indent, v.Flag, v.Value)
	}
	if m.MinOperands > 0 {
		fmt.Fprintf(w, "%smin_operands = %d\n", indent, m.MinOperands)
	}
	str("operand", m.Operand)
	str("last_operand", m.LastOperand)
	str("args", m.Args)
	list("wrappers", m.Wrappers)
	list("feeds_into", m.FeedsInto)
	str("redirect", m.Redirect)
	str("reads", m.Reads)
	str("stdin", m.Stdin)
	list("except", m.Except)
	str("check", m.Check)
	for i := range m.Any {
		fmt.Fprintf(w, "%sany[%d]:\n", indent, i)
		writeSpec(w, indent+"  ", &m.Any[i])
	}
}

// indentLines indents the lines after the first of a multi-line example.
func indentLines(s, indent string) string { return strings.ReplaceAll(s, "\n", "\n"+indent) }
