package eval

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/policy"
)

// enforceTargets turns the detection targets (95% of dangerous lines at or
// above their min, all flagged; at most 1% of benign lines above their max,
// none denied) into test failures. It is off while the rules that meet them
// are written; TestScores only logs the scores until then.
const enforceTargets = false

func TestSetIsWellFormed(t *testing.T) {
	cases, err := Load(".")
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, c := range cases {
		count[c.Kind+"/"+c.Category]++
	}
	sum := func(kind string, cats []string) int {
		n := 0
		for _, c := range cats {
			n += count[kind+"/"+c]
		}
		return n
	}
	// The sizes issues 12 and 13 ask for.
	if n := sum(Dangerous, Mechanisms); n < 200 {
		t.Errorf("issue 12: %d dangerous mechanism lines, want at least 200", n)
	}
	if n := sum(Benign, BenignOnly); n < 200 {
		t.Errorf("issue 12: %d benign lines, want at least 200", n)
	}
	if n := sum(Dangerous, Packs); n < 300 {
		t.Errorf("issue 13: %d dangerous pack lines, want at least 300", n)
	}
	if n := sum(Benign, Packs); n < 200 {
		t.Errorf("issue 13: %d benign pack lines, want at least 200", n)
	}
	for _, p := range Packs {
		if strings.HasPrefix(p, "core.") {
			continue // the core packs are measured by the shared corpora
		}
		if n := count[Dangerous+"/"+p]; n < 15 {
			t.Errorf("pack %s: %d dangerous lines, want at least 15", p, n)
		}
		if n := count[Benign+"/"+p]; n < 10 {
			t.Errorf("pack %s: %d benign lines, want at least 10", p, n)
		}
	}
	for _, m := range Mechanisms {
		if count[Dangerous+"/"+m] == 0 {
			t.Errorf("mechanism %s has no dangerous line", m)
		}
	}
}

// TestLoadRejectsMalformed: every kind of malformed file makes Load fail
// and say where.
func TestLoadRejectsMalformed(t *testing.T) {
	good := `{"cmd": "rm -rf ~", "min": "critical", "max": "critical", "why": "home"}` + "\n"
	benign := `{"cmd": "ls", "min": "none", "max": "none"}` + "\n"
	for _, tc := range []struct {
		name, file, content, want string
	}{
		{"unknown level", "dangerous/worktree.jsonl", `{"cmd": "x", "min": "severe", "max": "critical", "why": "w"}` + "\n", `min "severe"`},
		{"min above max", "dangerous/worktree.jsonl", `{"cmd": "x", "min": "critical", "max": "high", "why": "w"}` + "\n", "min critical is above max high"},
		{"dangerous min none", "dangerous/worktree.jsonl", `{"cmd": "x", "min": "none", "max": "low", "why": "w"}` + "\n", "needs min above none"},
		{"dangerous without why", "dangerous/worktree.jsonl", `{"cmd": "x", "min": "low", "max": "low"}` + "\n", "needs a why"},
		{"benign min above none", "benign/worktree.jsonl", `{"cmd": "x", "min": "low", "max": "low"}` + "\n", "benign line has min none"},
		{"unknown field", "dangerous/worktree.jsonl", `{"cmd": "x", "min": "low", "max": "low", "why": "w", "level": "low"}` + "\n", "unknown field"},
		{"not JSON", "dangerous/worktree.jsonl", "rm -rf /\n", "not a case object"},
		{"two values", "dangerous/worktree.jsonl", strings.TrimSuffix(good, "\n") + " {}\n", "more than one JSON value"},
		{"blank line", "dangerous/worktree.jsonl", good + "\n", "blank line"},
		{"no final newline", "dangerous/worktree.jsonl", strings.TrimSuffix(good, "\n"), "does not end with a newline"},
		{"empty cmd", "dangerous/worktree.jsonl", `{"cmd": " ", "min": "low", "max": "low", "why": "w"}` + "\n", "empty cmd"},
		{"NUL in cmd", "dangerous/worktree.jsonl", `{"cmd": "rm\u0000 -rf /", "min": "low", "max": "low", "why": "w"}` + "\n", "NUL"},
		{"duplicate", "dangerous/worktree.jsonl", good + good, "duplicate cmd"},
		{"duplicate across kinds", "benign/worktree.jsonl", `{"cmd": "rm -rf ~", "min": "none", "max": "none"}` + "\n", "duplicate cmd"},
		{"unknown category", "dangerous/filesystem.jsonl", good, `unknown dangerous category "filesystem"`},
		{"benign-only category in dangerous", "dangerous/mech.dry-run.jsonl", good, `unknown dangerous category "mech.dry-run"`},
		{"empty file", "dangerous/worktree.jsonl", "", "empty file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, k := range []string{Dangerous, Benign} {
				if err := os.MkdirAll(filepath.Join(dir, k), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			write := func(name, content string) {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("dangerous/secrets.jsonl", good)
			write("benign/secrets.jsonl", benign)
			write(tc.file, tc.content)
			_, err := Load(dir)
			if err == nil {
				t.Fatalf("Load accepted %s:\n%s", tc.file, tc.content)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not say %q", err, tc.want)
			}
		})
	}
	// And the well-formed pair alone loads.
	dir := t.TempDir()
	for k, c := range map[string]string{Dangerous: good, Benign: benign} {
		if err := os.MkdirAll(filepath.Join(dir, k), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, k, "secrets.jsonl"), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if cs, err := Load(dir); err != nil || len(cs) != 2 {
		t.Fatalf("Load(well-formed) = %d cases, %v", len(cs), err)
	}
}

// detector returns the built-in detector as `shellguard check` sees it with
// an empty home and no configuration (what scripts/eval.sh runs).
func detector(t *testing.T) *danger.Detector {
	t.Helper()
	home := t.TempDir()
	env := map[string]string{
		"HOME":                 home,
		"XDG_CONFIG_HOME":      filepath.Join(home, ".config"),
		"SHELLGUARD_APPROVALS": filepath.Join(home, "approvals.json"),
	}
	g, err := policy.Load(policy.Options{Cwd: t.TempDir(), Env: func(k string) string { return env[k] }, Source: "eval-test"})
	if err != nil {
		t.Fatal(err)
	}
	return g.DangerDetector()
}

func TestScores(t *testing.T) {
	cases, err := Load(".")
	if err != nil {
		t.Fatal(err)
	}
	det := detector(t)
	results := make([]Result, len(cases))
	for i, c := range cases {
		ws := det.Check(c.Cmd)
		r := Result{Level: "none"}
		if l, ok := danger.MaxLevel(ws); ok {
			r.Level = strings.ToLower(l.String())
		}
		for _, w := range ws {
			r.Rules = append(r.Rules, w.Pattern.Name)
		}
		results[i] = r
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-10s %-20s %6s %8s %8s %9s %7s  %s\n", "kind", "category", "lines", ">=min", "flagged", ">max", "denied", "targets")
	for _, s := range Scores(cases, results) {
		// Rounded down to 0.1%, as scripts/eval.sh does.
		pct := func(k int) string { return fmt.Sprintf("%.1f%%", math.Floor(float64(k)*1000/float64(s.Lines))/10) }
		atMin, denied := pct(s.AtMin), "-"
		if s.Kind == Benign {
			atMin, denied = "-", fmt.Sprint(s.Denied) // min is none: every benign line is at or above it
		}
		met := "met"
		if !s.MeetsTargets() {
			met = "missed"
		}
		fmt.Fprintf(&b, "%-10s %-20s %6d %8s %8s %9s %7s  %s\n", s.Kind, s.Category, s.Lines, atMin, pct(s.Flagged), pct(s.AboveMax), denied, met)
		if enforceTargets && !s.MeetsTargets() {
			for _, m := range s.Misses {
				t.Errorf("%s/%s.jsonl:%d: got %s, want %s..%s: %s", s.Kind, s.Category, m.Case.Line, m.Result.Level, m.Case.Min, m.Case.Max, m.Case.Cmd)
			}
		}
	}
	t.Log(b.String())
}
