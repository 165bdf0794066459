package shellparse_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/shellguard/shellguard/shellparse"
)

var update = flag.Bool("update", false, "rewrite the expected renderings in testdata/parse")

// The golden parse files, testdata/parse/*.txtar, hold the parser's
// behaviour as data: each NAME.sh is a command line (its one trailing
// newline is how the file ends, not part of the line, as with
// "shellguard explain -") and NAME.json what the parser saw in it
// (goldenResult). go test -run TestGoldenParse -update rewrites the .json
// files; review the diff.
func TestGoldenParse(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "parse", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/parse/*.txtar")
	}
	lines := 0
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		changed := false
		byName := map[string]int{}
		for i, f := range ar.Files {
			byName[f.Name] = i
		}
		var out []txtar.File
		for _, f := range ar.Files {
			name, ok := strings.CutSuffix(f.Name, ".sh")
			if !ok {
				if _, isJSON := strings.CutSuffix(f.Name, ".json"); !isJSON {
					t.Errorf("%s: %s: want NAME.sh and NAME.json files only", file, f.Name)
				} else if _, hasLine := byName[strings.TrimSuffix(f.Name, ".json")+".sh"]; !hasLine {
					t.Errorf("%s: %s has no line (%s.sh)", file, f.Name, strings.TrimSuffix(f.Name, ".json"))
				}
				continue
			}
			lines++
			line := strings.TrimSuffix(string(f.Data), "\n")
			got := renderParse(t, line)
			out = append(out, f)
			want := []byte(nil)
			if i, ok := byName[name+".json"]; ok {
				want = ar.Files[i].Data
			}
			if !bytes.Equal(got, want) {
				if *update {
					changed = true
				} else {
					t.Errorf("%s: %s: %q\n got: %s\nwant: %s", file, f.Name, line, got, want)
				}
			}
			out = append(out, txtar.File{Name: name + ".json", Data: got})
		}
		if changed {
			ar.Files = out
			if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if lines < 50 {
		t.Errorf("%d golden lines; keep at least 50", lines)
	}
}

// goldenResult is what the parser saw in a line, as explain --json shows
// it, with every field of an invocation a rule or an approval reads.
type goldenResult struct {
	Problems    []string           `json:"problems,omitempty"`
	Incomplete  bool               `json:"incomplete,omitempty"`
	Functions   []string           `json:"functions,omitempty"`
	Invocations []goldenInvocation `json:"invocations"`
}

type goldenInvocation struct {
	Command   string       `json:"command"`
	Program   string       `json:"program"`
	Name      string       `json:"name"`
	Argv      []string     `json:"argv"`
	Dynamic   []string     `json:"dynamic,omitempty"`  // words only known at run time, as written
	Resolved  []string     `json:"resolved,omitempty"` // words the parser resolved: as written = value
	Globs     []string     `json:"globs,omitempty"`
	Wrappers  []string     `json:"wrappers,omitempty"`
	Assigns   []string     `json:"assigns,omitempty"`
	Redirects []string     `json:"redirects,omitempty"`
	Where     string       `json:"where"`
	RunBy     *int         `json:"run_by,omitempty"` // Parent
	In        *int         `json:"in,omitempty"`     // Encloser
	Depth     int          `json:"depth,omitempty"`
	Stdin     *goldenStdin `json:"stdin,omitempty"`
	Flags     []string     `json:"flags,omitempty"`
}

type goldenStdin struct {
	From  string  `json:"from"`
	Known bool    `json:"known"`
	Text  *string `json:"text,omitempty"`
}

func renderParse(t *testing.T, line string) []byte {
	t.Helper()
	res := shellparse.Parse(line)
	g := goldenResult{Incomplete: res.Incomplete, Functions: res.Functions, Invocations: []goldenInvocation{}}
	for _, p := range res.Problems {
		g.Problems = append(g.Problems, p.Kind+": "+p.Message)
	}
	for i := range res.Invocations {
		inv := &res.Invocations[i]
		gi := goldenInvocation{Command: inv.String(), Program: inv.Program, Name: inv.Name, Argv: inv.Argv(),
			Where: inv.Where.Path(), Depth: inv.Depth}
		for _, a := range inv.Args {
			switch {
			case a.Dynamic:
				gi.Dynamic = append(gi.Dynamic, a.Raw)
			case a.Resolved:
				gi.Resolved = append(gi.Resolved, a.Raw+" = "+a.Value)
			}
			if a.Glob {
				gi.Globs = append(gi.Globs, a.Raw)
			}
		}
		for _, w := range inv.Wrappers {
			gi.Wrappers = append(gi.Wrappers, strings.TrimSpace(w.Name+" "+strings.Join(w.Args, " ")))
		}
		for _, a := range inv.Assigns {
			s := a.Name + "=" + a.Value
			if a.Via != "" {
				s += " (via " + a.Via + ")"
			}
			s += marks(a.Dynamic, a.Resolved, false)
			gi.Assigns = append(gi.Assigns, s)
		}
		for _, r := range inv.Redirs {
			gi.Redirects = append(gi.Redirects, r.Fd+r.Op+" "+r.Target+marks(r.Dynamic, r.Resolved, r.Inherited))
		}
		if inv.Parent >= 0 {
			p := inv.Parent
			gi.RunBy = &p
		}
		if inv.Encloser >= 0 {
			e := inv.Encloser
			gi.In = &e
		}
		if inv.StdinFrom != shellparse.StdinLine || inv.StdinKnown {
			s := &goldenStdin{From: inv.StdinFrom.String(), Known: inv.StdinKnown}
			if s.From == "" {
				s.From = "line"
			}
			if inv.StdinKnown {
				text := inv.Stdin
				s.Text = &text
			}
			gi.Stdin = s
		}
		for _, f := range []struct {
			on   bool
			name string
		}{
			{inv.StdinUnknown, "stdin unknown"},
			{inv.RunsShellInput, "runs shell input"},
			{inv.ArgsFromInput, "args from input"},
			{inv.NotRun, "not run"},
			{inv.Candidate, "candidate"},
		} {
			if f.on {
				gi.Flags = append(gi.Flags, f.name)
			}
		}
		g.Invocations = append(g.Invocations, gi)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// marks renders a word's flags after it: " (dynamic)", " (resolved)",
// " (inherited)".
func marks(dynamic, resolved, inherited bool) string {
	var s string
	if dynamic {
		s += " (dynamic)"
	}
	if resolved {
		s += " (resolved)"
	}
	if inherited {
		s += " (inherited)"
	}
	return s
}
