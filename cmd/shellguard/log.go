package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/internal/audit"
)

func newLogCmd(s *streams) *cobra.Command {
	var (
		hf       historyFlags
		decision []string
		limit    int
	)
	c := &cobra.Command{
		Use:   "log [--since 1h] [--decision deny|ask|allow] [--limit N] [--json] [--log FILE]",
		Short: "Show the decisions in the audit log, oldest first",
		Long: `log prints the decisions recorded in the audit log (audit_log in your
configuration, by default $XDG_STATE_HOME/shellguard/audit.jsonl), its rotated
part first: time, verdict, entry point, folder, command and reason. Commands are
stored redacted. --since keeps the recent ones (1h, 2d, 2026-12-01), --decision
one or more verdicts (repeat it, or deny,ask), --limit the last N. --json prints
one JSON object per line, as stored. A decision shadow mode did not enforce is
marked "(shadow)".

Exit status: 0, 2 usage or unreadable log.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			path, _, err := hf.path()
			if err != nil {
				return err
			}
			var verdicts []string
			for _, d := range decision {
				for _, v := range strings.Split(d, ",") {
					v = strings.TrimSpace(v)
					if v != "allow" && v != "ask" && v != "deny" {
						return &exitError{code: exitUsage, err: fmt.Errorf("--decision %q: want allow, ask or deny", v)}
					}
					verdicts = append(verdicts, v)
				}
			}
			fl, err := hf.filter(verdicts...)
			if err != nil {
				return err
			}
			var keep []audit.Record
			res, err := audit.Scan(path, fl, func(r audit.Record) error {
				if limit > 0 {
					if len(keep) == limit {
						keep = keep[1:]
					}
					keep = append(keep, r)
					return nil
				}
				return printRecord(s, r, hf.asJSON)
			})
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			for _, r := range keep {
				if err := printRecord(s, r, hf.asJSON); err != nil {
					return err
				}
			}
			scanNote(s, res)
			return nil
		},
	}
	hf.add(c)
	c.Flags().StringSliceVar(&decision, "decision", nil, "only these verdicts: allow, ask, deny")
	c.Flags().IntVar(&limit, "limit", 0, "only the last N records")
	return c
}

func printRecord(s *streams, r audit.Record, asJSON bool) error {
	if asJSON {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(s.out, "%s\n", b)
		return err
	}
	verdict := r.Verdict
	if r.Shadow {
		verdict += " (shadow)"
	}
	extra := ""
	if r.Code != "" {
		extra = " [code " + r.Code + "]"
	}
	_, err := fmt.Fprintf(s.out, "%s  %-5s %-11s %s  %s  %s%s\n", r.Time.Local().Format("2006-01-02 15:04:05"), verdict,
		dash(r.Source), r.Cwd, shownLine(r.Command, false), r.Reason, extra)
	return err
}
