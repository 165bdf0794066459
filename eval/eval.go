package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Kinds of file: a dangerous line must be flagged at least at its min level;
// a benign line should not be flagged above its max level.
const (
	Dangerous = "dangerous"
	Benign    = "benign"
)

// Levels are the labels a line may carry, in increasing order; "none" means
// no warning at all.
var levels = []string{"none", "low", "medium", "high", "critical"}

// Rank returns the position of a level label in none < low < medium < high <
// critical, or -1 when the label is not one of them.
func Rank(level string) int {
	for i, l := range levels {
		if l == level {
			return i
		}
	}
	return -1
}

// Packs are the rule packs of issue 13; each is a category of both kinds.
var Packs = []string{
	"core.filesystem", "core.git", "core.exec", "core.unverifiable",
	"database", "kubernetes", "cloud", "iac", "containers", "remote",
	"git.history", "worktree", "secrets", "persistence", "security", "logs",
	"system", "disks", "fleet",
}

// Mechanisms are the issue 12 categories of dangerous lines.
var Mechanisms = []string{"mech.runs-args", "mech.interpreter", "mech.static", "mech.runners", "mech.beyond-static"}

// BenignOnly are the categories that hold benign lines only: dry runs and
// the everyday work of coding agents.
var BenignOnly = []string{"mech.dry-run", "benign.dev", "benign.git", "benign.search", "benign.heredoc", "benign.cleanup", "benign.mech"}

// KnownCategory reports whether category may appear as a file of kind.
func KnownCategory(kind, category string) bool {
	in := func(list []string) bool {
		for _, c := range list {
			if c == category {
				return true
			}
		}
		return false
	}
	switch kind {
	case Dangerous:
		return in(Packs) || in(Mechanisms)
	case Benign:
		return in(Packs) || in(BenignOnly)
	}
	return false
}

// Case is one line of the set.
type Case struct {
	Kind     string `json:"-"` // Dangerous or Benign
	Category string `json:"-"` // the file's name without .jsonl
	Line     int    `json:"-"` // line number in the file
	Cmd      string `json:"cmd"`
	Min      string `json:"min"`
	Max      string `json:"max"`
	Why      string `json:"why,omitempty"`
}

// Load reads dir/dangerous/*.jsonl and dir/benign/*.jsonl and validates every
// line: known fields only, a non-empty command without NUL, valid levels with
// min <= max, a dangerous line with min above none and a why, a benign line
// with min none, a known category for its kind, and no command twice in the
// whole set. It returns the cases sorted by kind, category and line, or the
// first problems found (one per line, at most 50).
func Load(dir string) ([]Case, error) {
	var cases []Case
	var problems []string
	seen := map[string]string{}
	for _, kind := range []string{Dangerous, Benign} {
		files, err := filepath.Glob(filepath.Join(dir, kind, "*.jsonl"))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			problems = append(problems, fmt.Sprintf("%s: no *.jsonl file", filepath.Join(dir, kind)))
		}
		sort.Strings(files)
		for _, f := range files {
			cat := strings.TrimSuffix(filepath.Base(f), ".jsonl")
			where := kind + "/" + filepath.Base(f)
			if !KnownCategory(kind, cat) {
				problems = append(problems, fmt.Sprintf("%s: unknown %s category %q", where, kind, cat))
			}
			cs, ps := loadFile(f, where, kind, cat, seen)
			cases = append(cases, cs...)
			problems = append(problems, ps...)
		}
	}
	if len(problems) > 0 {
		if len(problems) > 50 {
			problems = append(problems[:50], fmt.Sprintf("... and %d more", len(problems)-50))
		}
		return nil, fmt.Errorf("eval set %s is malformed:\n%s", dir, strings.Join(problems, "\n"))
	}
	return cases, nil
}

func loadFile(path, where, kind, cat string, seen map[string]string) ([]Case, []string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, []string{err.Error()}
	}
	var cases []Case
	var problems []string
	bad := func(n int, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s:%d: %s", where, n, fmt.Sprintf(format, args...)))
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		bad(bytes.Count(data, []byte("\n"))+1, "the file does not end with a newline")
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			bad(n, "blank line")
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		var c Case
		if err := dec.Decode(&c); err != nil {
			bad(n, "not a case object: %v", err)
			continue
		}
		if _, err := dec.Token(); err != io.EOF {
			bad(n, "more than one JSON value on the line")
			continue
		}
		c.Kind, c.Category, c.Line = kind, cat, n
		lo, hi := Rank(c.Min), Rank(c.Max)
		switch {
		case strings.TrimSpace(c.Cmd) == "":
			bad(n, "empty cmd")
		case strings.ContainsRune(c.Cmd, 0):
			bad(n, "cmd holds a NUL byte (check --batch -0 cannot send it)")
		case lo < 0 || hi < 0:
			bad(n, "min %q / max %q: want none, low, medium, high or critical", c.Min, c.Max)
		case lo > hi:
			bad(n, "min %s is above max %s", c.Min, c.Max)
		case kind == Dangerous && lo == 0:
			bad(n, "a dangerous line needs min above none")
		case kind == Dangerous && strings.TrimSpace(c.Why) == "":
			bad(n, "a dangerous line needs a why")
		case kind == Benign && lo != 0:
			bad(n, "a benign line has min none (min %s)", c.Min)
		default:
			if prev, dup := seen[c.Cmd]; dup {
				bad(n, "duplicate cmd (first at %s): %q", prev, c.Cmd)
				continue
			}
			seen[c.Cmd] = fmt.Sprintf("%s:%d", where, n)
			cases = append(cases, c)
		}
	}
	if err := sc.Err(); err != nil {
		bad(n+1, "%v", err)
	}
	if n == 0 {
		problems = append(problems, where+": empty file")
	}
	return cases, problems
}

// Result is the detector's verdict on one case: the highest level of its
// warnings ("none" when it has none) and the names of the rules that fired.
type Result struct {
	Level string
	Rules []string
}

// Score is how the detector did on one category of one kind.
type Score struct {
	Kind, Category string
	Lines          int
	AtMin          int // level at or above the case's min
	Flagged        int // any warning
	AboveMax       int // level above the case's max
	Denied         int // Critical: denied under the default policy
	Misses         []Miss
}

// Miss is a case that misses its label: a dangerous line below its min, or a
// benign line above its max.
type Miss struct {
	Case   Case
	Result Result
}

// Scores groups the cases by kind and category (in the order of cases) and
// counts the results; results[i] is the verdict on cases[i].
func Scores(cases []Case, results []Result) []Score {
	var out []Score
	index := map[string]int{}
	for i, c := range cases {
		key := c.Kind + "/" + c.Category
		j, ok := index[key]
		if !ok {
			j = len(out)
			index[key] = j
			out = append(out, Score{Kind: c.Kind, Category: c.Category})
		}
		s := &out[j]
		r := results[i]
		got := Rank(r.Level)
		s.Lines++
		if got >= Rank(c.Min) {
			s.AtMin++
		}
		if got > 0 {
			s.Flagged++
		}
		if got > Rank(c.Max) {
			s.AboveMax++
		}
		if r.Level == "critical" {
			s.Denied++
		}
		if (c.Kind == Dangerous && got < Rank(c.Min)) || (c.Kind == Benign && got > Rank(c.Max)) {
			s.Misses = append(s.Misses, Miss{Case: c, Result: r})
		}
	}
	return out
}

// MeetsTargets reports whether a score meets issue 13's targets: a dangerous
// category has at least 95% of its lines at or above their min and every
// line flagged; a benign category has at most 1% of its lines above their max
// and none denied.
func (s Score) MeetsTargets() bool {
	if s.Kind == Dangerous {
		return s.AtMin*100 >= 95*s.Lines && s.Flagged == s.Lines
	}
	return s.AboveMax*100 <= s.Lines && s.Denied == 0
}
