package approval_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/internal/testbin"
	"github.com/shellguard/shellguard/shellparse"
)

func TestMain(m *testing.M) { os.Exit(testbin.Main(m)) }

// sharedDir finds /work/shared (the background material) by walking up
// from the package folder, or skips the test.
func sharedDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "shared", "reference")
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return filepath.Join(dir, "shared")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("shared/reference not found above the package folder")
		}
		dir = parent
	}
}

// classifyOut is what classify --json prints: the line's own fields,
// and each invocation's.
type classifyOut struct {
	invocationOut
	Approvable  bool            `json:"approvable"`
	Invocations []invocationOut `json:"invocations"`
}

// invocationOut is one invocation's classification in classify --json
// (and the line's own fields).
type invocationOut struct {
	Command  string  `json:"command"`
	Prefix   *string `json:"prefix"`
	Pattern  *string `json:"pattern"`
	Reason   *string `json:"reason"`
	Widening *string `json:"widening"`
}

// runClassify runs the real binary on line and checks its exit status
// agrees with its answer.
func runClassify(t *testing.T, line string) classifyOut {
	t.Helper()
	bin := testbin.Path(t, "shellguard")
	var cmd *exec.Cmd
	if strings.ContainsRune(line, 0) {
		cmd = exec.Command(bin, "classify", "--json", "-")
		cmd.Stdin = strings.NewReader(line + "\n")
	} else {
		cmd = exec.Command(bin, "classify", "--json", "--", line)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("classify %q: %v", line, err)
	}
	var out classifyOut
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("classify %q: exit %d, bad JSON %q (stderr %q): %v", line, code, stdout.String(), stderr.String(), err)
	}
	want := 1
	if out.Approvable {
		want = 0
	}
	if code != want {
		t.Errorf("classify %q: exit %d, want %d for approvable=%v", line, code, want, out.Approvable)
	}
	if len(out.Invocations) != 1 && out.Prefix != nil {
		t.Errorf("classify %q: top-level prefix %q with %d invocations", line, *out.Prefix, len(out.Invocations))
	}
	return out
}

// refCase is one case of a reference file.
type refCase struct {
	file, section string
	cols          []string // raw columns as written (JSON values)
	lineNo        int
}

// key identifies a case in the policy-differences fixture: its input
// columns, tab-separated, as written in the reference file.
func (c refCase) key(inputs ...int) string {
	var parts []string
	for _, i := range inputs {
		parts = append(parts, c.cols[i])
	}
	return strings.Join(parts, " ")
}

var sectionRE = regexp.MustCompile(`^#\s*\[([0-9A-Z]+)\]`)

func readCases(t *testing.T, path, file string) []refCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []refCase
	section := ""
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if m := sectionRE.FindStringSubmatch(line); m != nil {
			section = file + "[" + m[1] + "]"
			continue
		}
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		out = append(out, refCase{file: file, section: section, cols: strings.Split(line, "\t"), lineNo: n})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// difference is one entry of testdata/policy-differences.txt.
type difference struct {
	section, key, ours, reason string
	used                       bool
}

func readDifferences(t *testing.T) map[string]*difference {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "policy-differences.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*difference{}
	for i, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 || strings.TrimSpace(f[3]) == "" {
			t.Fatalf("policy-differences.txt:%d: want section<TAB>input<TAB>ours<TAB>reason, got %q", i+1, line)
		}
		d := &difference{section: f[0], key: f[1], ours: canon(t, f[2]), reason: f[3]}
		if _, dup := out[d.section+"\t"+d.key]; dup {
			t.Fatalf("policy-differences.txt:%d: duplicate entry", i+1)
		}
		out[d.section+"\t"+d.key] = d
	}
	return out
}

// canon re-encodes a JSON value compactly so that equal values compare
// equal as strings.
func canon(t *testing.T, raw string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("bad JSON %q: %v", raw, err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func unquote[T any](t *testing.T, raw string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("bad JSON %q: %v", raw, err)
	}
	return v
}

// argvLine writes argv as a command line.
func argvLine(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>()*?[]{}~#!") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// TestReferenceCases runs every case of the reference files through the
// real binary (or, for the matching sections, through Match), and checks
// the result equals the reference, or the policy difference recorded in
// testdata/policy-differences.txt (which must then differ from the
// reference).
func TestReferenceCases(t *testing.T) {
	shared := sharedDir(t)
	diffs := readDifferences(t)
	var cases []refCase
	cases = append(cases, readCases(t, filepath.Join(shared, "reference", "gsloth-cases.txt"), "gsloth")...)
	cases = append(cases, readCases(t, filepath.Join(shared, "reference", "opencode-arity-cases.txt"), "opencode")...)
	if len(cases) < 130 {
		t.Fatalf("only %d reference cases read", len(cases))
	}
	p := shellparse.New(shellparse.Limits{})
	for _, c := range cases {
		keyCols, wantCol := []int{0}, 1
		switch c.section {
		case "gsloth[8]":
			keyCols = []int{0, 2}
		case "opencode[D]":
			keyCols, wantCol = []int{0, 1}, 2
		}
		key := c.key(keyCols...)
		name := fmt.Sprintf("%s:%d", c.section, c.lineNo)
		t.Run(name, func(t *testing.T) {
			var got string
			switch c.section {
			case "gsloth[1]", "gsloth[2]", "gsloth[9]", "opencode[A]", "opencode[B]", "opencode[C]":
				out := runClassify(t, unquote[string](t, c.cols[0]))
				if out.Prefix == nil && c.section[:8] == "opencode" && c.cols[1] == `""` {
					// opencode answers "" for an empty command where
					// gaunt-sloth and shellguard answer null.
					got = `""`
				} else {
					got = mustJSON(t, out.Prefix)
				}
			case "gsloth[3]":
				out := runClassify(t, argvLine(unquote[[]string](t, c.cols[0])))
				var toks []string
				if out.Prefix != nil {
					toks = strings.Fields(*out.Prefix)
				}
				got = mustJSON(t, toks)
			case "gsloth[4]":
				// tokenize: the parser's argv, or null when the line does
				// not parse (then classify refuses it).
				line := unquote[string](t, c.cols[0])
				res := p.Parse(line)
				if !res.OK() || len(res.Invocations) != 1 {
					got = "null"
					if out := runClassify(t, line); out.Approvable {
						t.Errorf("classify approves unparseable %q", line)
					}
				} else {
					got = mustJSON(t, res.Invocations[0].Argv())
				}
			case "gsloth[5]", "gsloth[6]":
				// normalize: the invocations the binary reports, one per
				// line, each as the program receives its words.
				out := runClassify(t, unquote[string](t, c.cols[0]))
				var lines []string
				for _, inv := range out.Invocations {
					lines = append(lines, inv.Command)
				}
				got = mustJSON(t, strings.Join(lines, "\n"))
			case "gsloth[7]":
				out := runClassify(t, argvLine(unquote[[]string](t, c.cols[0])))
				widened := false
				for _, inv := range out.Invocations {
					widened = widened || inv.Widening != nil
				}
				got = mustJSON(t, widened)
			case "gsloth[8]":
				var entries []approval.Entry
				for _, pfx := range unquote[[]string](t, c.cols[2]) {
					entries = append(entries, approval.Entry{Kind: approval.Prefix, Pattern: pfx})
				}
				cl := approval.ClassifyCommand(p, unquote[string](t, c.cols[0]))
				got = mustJSON(t, approval.Match(cl, entries).Approved)
			case "opencode[D]":
				// Wildcard.match: a pattern "X *" is the prefix entry X;
				// any other pattern is an exact entry.
				pat := unquote[string](t, c.cols[1])
				e := approval.Entry{Kind: approval.Exact, Pattern: pat}
				if x, ok := strings.CutSuffix(pat, " *"); ok {
					e = approval.Entry{Kind: approval.Prefix, Pattern: x}
				}
				cl := approval.ClassifyCommand(p, unquote[string](t, c.cols[0]))
				got = mustJSON(t, approval.Match(cl, []approval.Entry{e}).Approved)
			case "opencode[E]":
				// Wildcard.all with rules {"*":"deny","git *":"ask",
				// "git status":"allow"}: approvals only allow; "allow" when
				// the allow rules (here the exact "git status") match,
				// otherwise the reference's ask/deny is a config rule.
				cl := approval.ClassifyCommand(p, unquote[string](t, c.cols[0]))
				if approval.Match(cl, []approval.Entry{{Kind: approval.Exact, Pattern: "git status"}}).Approved {
					got = `"allow"`
				} else {
					got = `"not approved"`
				}
			default:
				t.Fatalf("unknown section %q", c.section)
			}
			want := canon(t, c.cols[wantCol])
			if d := diffs[c.section+"\t"+key]; d != nil {
				d.used = true
				if got != d.ours {
					t.Errorf("%s %s: got %s, policy difference says %s (%s)", c.section, key, got, d.ours, d.reason)
				}
				if d.ours == want {
					t.Errorf("%s %s: policy difference records the reference's own answer %s", c.section, key, want)
				}
				return
			}
			if got != want {
				t.Errorf("%s %s: got %s, reference %s", c.section, key, got, want)
				if os.Getenv("SHELLGUARD_PRINT_DIFFS") != "" {
					fmt.Printf("DIFF\t%s\t%s\t%s\t?\n", c.section, key, got)
				}
			}
		})
	}
	for _, d := range diffs {
		if !d.used {
			t.Errorf("policy-differences.txt: entry %s %s matches no reference case", d.section, d.key)
		}
	}
}
