package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/internal/audit"
)

// historyFlags are the flags of log, stats and suggest: which log, which
// records.
type historyFlags struct {
	config, log, since, cwd string
	asJSON                  bool
}

func (f *historyFlags) add(c *cobra.Command) {
	c.Flags().StringVar(&f.config, "config", "", "extra configuration file, applied last (default $SHELLGUARD_CONFIG)")
	c.Flags().StringVar(&f.cwd, "cwd", "", "working directory that selects the project configuration (default: current)")
	c.Flags().StringVar(&f.log, "log", "", "audit log to read (default: audit_log of the configuration)")
	c.Flags().StringVar(&f.since, "since", "", "only records from the last DURATION (1h, 2d) or since a date (2026-12-01) or RFC 3339 time")
	c.Flags().BoolVar(&f.asJSON, "json", false, "print JSON")
}

// path returns the audit log to read.
func (f *historyFlags) path() (string, *config.Config, error) {
	c, err := config.Load(config.LoadOptions{Cwd: f.cwd, Explicit: f.config, BuiltinLevel: configBuiltinLevel()})
	if err != nil {
		return "", nil, &exitError{code: exitUsage, err: err}
	}
	if f.log != "" {
		return f.log, c, nil
	}
	if c.AuditLog == "" {
		return "", c, &exitError{code: exitUsage, err: fmt.Errorf("the audit log is off (audit_log = \"\", %s); turn it on, or name one with --log", c.Provenance["audit_log"])}
	}
	return c.AuditLog, c, nil
}

// scan reads the records of the audit log that --since selects with fn,
// says on standard error what it skipped, and returns the log's path,
// the configuration that names it and what Scan read.
func (f *historyFlags) scan(s *streams, fn func(audit.Record) error) (string, *config.Config, audit.ScanResult, error) {
	path, c, err := f.path()
	if err != nil {
		return "", nil, audit.ScanResult{}, err
	}
	fl, err := f.filter()
	if err != nil {
		return "", nil, audit.ScanResult{}, err
	}
	res, err := audit.Scan(path, fl, fn)
	if err != nil {
		return "", nil, res, &exitError{code: exitUsage, err: err}
	}
	scanNote(s, res)
	return path, c, res, nil
}

// filter returns the record filter of --since (and verdicts).
func (f *historyFlags) filter(verdicts ...string) (audit.Filter, error) {
	fl := audit.Filter{Verdicts: verdicts}
	if f.since == "" {
		return fl, nil
	}
	now := time.Now()
	if d, err := parseDays(f.since); err == nil {
		fl.Since = now.Add(-d)
		return fl, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", f.since, time.Local); err == nil {
		fl.Since = t
		return fl, nil
	}
	if t, err := time.Parse(time.RFC3339, f.since); err == nil {
		fl.Since = t
		return fl, nil
	}
	return fl, &exitError{code: exitUsage, err: fmt.Errorf("--since %q: want a duration (1h, 2d), a date (2026-12-01) or an RFC 3339 time", f.since)}
}

// scanNote says what Scan skipped, on standard error.
func scanNote(s *streams, res audit.ScanResult) {
	if res.Skipped > 0 {
		fmt.Fprintf(s.err, "shellguard: note: %d lines of %s are not audit records and were skipped\n", res.Skipped, strings.Join(res.Files, " and "))
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
