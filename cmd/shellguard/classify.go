package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/shellparse"
)

// classifyJSON is what classify --json prints.
// Of the line's own fields, Prefix, Pattern and Widening are set for a
// line of one invocation that has a prefix, null otherwise (always null
// for several invocations); Reason says why prefix approvals cannot cover
// the line, null when they can.
type classifyJSON struct {
	classifyInvocationJSON
	Approvable  bool                     `json:"approvable"`
	Invocations []classifyInvocationJSON `json:"invocations"`
}

// classifyInvocationJSON is one invocation's classification.
type classifyInvocationJSON struct {
	Command  string  `json:"command"`
	Prefix   *string `json:"prefix"`
	Pattern  *string `json:"pattern"`
	Reason   *string `json:"reason"`
	Widening *string `json:"widening"`
}

func classifyInvocation(ic approval.InvocationClass) classifyInvocationJSON {
	return classifyInvocationJSON{
		Command:  ic.Command,
		Prefix:   strOrNull(ic.Prefix),
		Pattern:  strOrNull(ic.Pattern),
		Reason:   strOrNull(ic.Reason),
		Widening: strOrNull(ic.Widening),
	}
}

func strOrNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func classifyResult(c approval.Classification) classifyJSON {
	out := classifyJSON{
		classifyInvocationJSON: classifyInvocationJSON{Command: c.Command, Reason: strOrNull(c.Reason)},
		Approvable:             c.Approvable,
		Invocations:            make([]classifyInvocationJSON, 0, len(c.Invocations)),
	}
	for _, ic := range c.Invocations {
		out.Invocations = append(out.Invocations, classifyInvocation(ic))
	}
	// The top-level prefix is the single invocation's, unless the line
	// itself (not that invocation) is what cannot be classified.
	if ic := c.Invocations; len(ic) == 1 && (c.Approvable || c.Reason == ic[0].Reason) {
		one := out.Invocations[0]
		out.Prefix, out.Pattern, out.Widening = one.Prefix, one.Pattern, one.Widening
	}
	return out
}

func newClassifyCmd(s *streams) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "classify [--json] [--] COMMAND...",
		Short: "Show the approval prefix of a command line (git checkout *)",
		Long: `classify shows how approvals see a command line: the prefix of each program
it runs (the program, as written, with the subcommands that matter, wrappers
such as sudo or timeout included: "sudo apt-get install"), the pattern an
"always" approval would record ("sudo apt-get install *"), and why prefix
approvals cannot cover it, if they cannot (something decided when the line
runs, a redirection to a file, a widening option such as git -c).

The words after the flags, joined by single spaces, are the command line; "-"
alone reads it from standard input. With several invocations (pipes, &&, ;,
newlines) the top-level prefix and pattern are null and each invocation is
listed under "invocations".

Exit status: 0 prefix approvals can cover the line, 1 they cannot (reason
given), 2 usage error.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			line, err := commandLine(s, args)
			if err != nil {
				return err
			}
			cl := approval.ClassifyCommand(shellparse.New(shellparse.Limits{}), line)
			if err := output(s.out, asJSON, classifyResult(cl), func(w io.Writer, _ classifyJSON) { printClassification(w, cl) }); err != nil {
				return err
			}
			if !cl.Approvable {
				return exitCode(1)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	c.Flags().SetInterspersed(false)
	return c
}

func printClassification(w io.Writer, c approval.Classification) {
	for _, ic := range c.Invocations {
		switch {
		case ic.Prefix == "":
			fmt.Fprintf(w, "%s\n  unclassifiable: %s\n", ic.Command, ic.Reason)
		case ic.Reason != "":
			fmt.Fprintf(w, "%s\n  prefix: %s (pattern %s)\n  not covered by prefix approvals: %s\n", ic.Command, ic.Prefix, ic.Pattern, ic.Reason)
		default:
			fmt.Fprintf(w, "%s\n  prefix: %s (pattern %s)\n", ic.Command, ic.Prefix, ic.Pattern)
		}
	}
	if c.Approvable {
		return
	}
	fmt.Fprintf(w, "prefix approvals cannot cover this line: %s\n", c.Reason)
}
