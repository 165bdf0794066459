package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/shellguard/shellguard/danger"
	"github.com/spf13/cobra"
)

// maxInput bounds a command line read from standard input.
const maxInput = 1<<20 + 1

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
				return err
			}
			res := checkResult(line, det.Check(line), min)
			if err := output(s.out, asJSON, res, printWarnings); err != nil {
				return err
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
