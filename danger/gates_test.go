package danger

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGatesChangeNothing checks that the built-in rules' subcommand gates
// (forProgramGated) only spare work: the default detector warns exactly as
// one that tries every rule of a program, over every rule's examples, the
// evaluation set and, when ../shared is present, the benign corpora.
func TestGatesChangeNothing(t *testing.T) {
	gated := Default()
	open := Default()
	r := *builtinRegistry()
	r.noGates = true
	open.reg.Store(&r)

	var lines []string
	for i := range builtinDefault {
		hit, miss := builtinExamples(i)
		lines = append(append(lines, hit...), miss...)
	}
	for _, dir := range []string{"../eval/dangerous", "../eval/benign"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		if len(files) == 0 {
			t.Fatalf("no evaluation files in %s", dir)
		}
		for _, f := range files {
			lines = append(lines, jsonlCommands(t, f)...)
		}
	}
	if sh := sharedCorpus(); sh != "" {
		for _, name := range []string{"tldr.txt", "nl2bash.txt", "cheatsheets.txt"} {
			lines = append(lines, textLines(t, filepath.Join(sh, name))...)
		}
	}
	gatedRules := 0
	for _, g := range builtinGates {
		if g != "" {
			gatedRules++
		}
	}
	if gatedRules == 0 {
		t.Fatal("no built-in rule has a gate: this test would compare nothing")
	}
	for _, l := range lines {
		a, b := warningKeys(gated.Check(l)), warningKeys(open.Check(l))
		if a != b {
			t.Errorf("%q:\n gated:   %s\n ungated: %s", l, a, b)
		}
	}
	t.Logf("%d lines, %d of %d indexed rules gated", len(lines), gatedRules, len(builtinGates))
}

// warningKeys spells what tells warnings apart (a warning's Pattern
// holds a copy of its spec: a pointer that differs every time).
func warningKeys(ws []Warning) string {
	var b strings.Builder
	for _, w := range ws {
		fmt.Fprintf(&b, "%s %v %q %q; ", w.Pattern.Name, w.Level, w.Invocation, w.Message)
	}
	return b.String()
}

func jsonlCommands(t *testing.T, path string) []string {
	t.Helper()
	var out []string
	for _, l := range textLines(t, path) {
		var c struct {
			Cmd string `json:"cmd"`
		}
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, c.Cmd)
	}
	return out
}

func textLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// sharedCorpus returns ../shared/corpus/benign when it is present.
func sharedCorpus() string {
	dir, _ := filepath.Abs(".")
	for range 6 {
		p := filepath.Join(dir, "shared", "corpus", "benign")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		dir = filepath.Dir(dir)
	}
	return ""
}
