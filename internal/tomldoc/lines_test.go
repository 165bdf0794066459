package tomldoc

import (
	"errors"
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// toml11 are documents TOML 1.1 added to 1.0: Decode accepts them,
// Decode10 rejects them at the line given.
var toml11 = []struct {
	src  string
	line int
	msg  string
}{
	{`a = "\e"`, 1, `invalid escape \e`},
	{"a = 1\nb = \"x\\x41\"", 2, `invalid escape \x`},
	{`"k\e" = 1`, 1, `invalid escape \e`},
	{"[\"t\\x41\"]", 1, `invalid escape \x`},
	{"a = \"\"\"\nline\n\\e\"\"\"", 1, `invalid escape \e`},
	{"a = [1, {b = \"\\e\"}]", 1, `invalid escape \e`},
	{"a = {x = 1,}", 1, "trailing comma"},
	{"a = {x = 1 ,  }", 1, "trailing comma"},
	{"\na = {\nx = 1\n}", 2, "on one line"},
	{"a = {x = 1, # c\n}", 1, "trailing comma"},
	{"a = {x = 1 # c\n}", 1, "on one line"},
	{"a = {x = 1,\n y = 2}", 1, "on one line"},
	{"a = {x = 1\n}", 1, "on one line"},
	{"a = {\n}", 1, "on one line"},
	{"a = {b = {c = 1,}}", 1, "trailing comma"},
	{"a = 07:32", 1, "no seconds"},
	{"a = 1979-05-27T07:32Z", 1, "no seconds"},
	{"a = 1979-05-27 07:32", 1, "no seconds"},
	{"a = [1979-05-27T07:32:00, 07:32]", 1, "no seconds"},
}

// toml10 are their nearest TOML 1.0 forms, which both accept.
var toml10 = []string{
	`a = "\\e"`,
	`a = "\\x41\u001b"`,
	`a = '\e\x41'`,
	"a = '''\n\\e'''",
	"a = {b = \"\"\"x\ny\"\"\", c = [\n1,\n2,\n]}",
	"a = {x = 1, y = {}}",
	"a = {}",
	"a = { }",
	"a = 07:32:00",
	"a = 1979-05-27T07:32:00Z",
	"a = 1979-05-27 07:32:00.5",
	"a = 1979-05-27",
}

func TestTOML11(t *testing.T) {
	for _, tt := range toml11 {
		if _, _, err := Decode([]byte(tt.src)); err != nil {
			t.Errorf("Decode(%q): %v", tt.src, err)
		}
		_, _, err := Decode10([]byte(tt.src))
		var e *Error
		if !errors.As(err, &e) || e.Line != tt.line || !strings.Contains(e.Msg, tt.msg) || !strings.Contains(e.Msg, "TOML 1.1") {
			t.Errorf("Decode10(%q) = %v, want line %d: ...%s... TOML 1.1", tt.src, err, tt.line, tt.msg)
		}
	}
	for _, src := range toml10 {
		if _, _, err := Decode10([]byte(src)); err != nil {
			t.Errorf("Decode10(%q): %v", src, err)
		}
	}
}

func TestLines(t *testing.T) {
	src := `# comment
a = 1
s = """
fake = 1
"""
lit = '''
[not_a_table]
'''
arr = [
  "x", # comment, with ] and "
  'y',
  { k = 1, n.m = "}" },
  [
    [2],
  ],
]
dotted.key = "v"
[t]
"quoted key" = true
[[p]]
name = "one"
[p.match]
programs = ["a"]
[[p]]
name = "two"
[[p.sub]]
x = 1
[[p.sub]]
[t.sub]
x = 1
`
	_, ix, err := Decode([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := Lines{
		"a": 2, "s": 3, "lit": 6, "arr": 9, "arr[0]": 10, "arr[1]": 11, "arr[2]": 12, "arr[2].k": 12, "arr[2].n": 12, "arr[2].n.m": 12,
		"arr[3]": 14, "arr[3][0]": 14, "arr[3][0][0]": 14,
		"dotted": 17, "dotted.key": 17, "t": 18, "t.quoted key": 19, "p": 20, "p[0]": 20, "p[0].name": 21, "p[0].match": 22,
		"p[0].match.programs": 23, "p[0].match.programs[0]": 23, "p[1]": 24, "p[1].name": 25,
		"p[1].sub": 26, "p[1].sub[0]": 26, "p[1].sub[0].x": 27, "p[1].sub[1]": 28, "t.sub": 29, "t.sub.x": 30,
	}
	var diff []string
	for k, v := range want {
		if ix[k] != v {
			diff = append(diff, fmt.Sprintf("line of %q = %d, want %d", k, ix[k], v))
		}
	}
	for k, v := range ix {
		if _, ok := want[k]; !ok {
			diff = append(diff, fmt.Sprintf("unexpected %q at line %d", k, v))
		}
	}
	sort.Strings(diff)
	for _, d := range diff {
		t.Error(d)
	}
	if got := ix.Line("p[1].name.nothing"); got != 25 {
		t.Errorf("parent fallback = %d", got)
	}
	if got := ix.Line("nothing"); got != 0 {
		t.Errorf("unknown path = %d", got)
	}
}

// TestHostile: deep nesting is an error, not a stack overflow; keys of
// many dotted parts decode, and Lines keeps only paths up to MaxPath.
func TestHostile(t *testing.T) {
	for _, depth := range []int{10000, 1 << 18} {
		src := "x = " + strings.Repeat("[", depth) + strings.Repeat("]", depth)
		_, _, err := Decode10([]byte(src))
		if depth > 10000 && err == nil {
			t.Errorf("depth %d: no error", depth)
		}
	}
	const n = 100000
	key := strings.Repeat("a.", n) + "b"
	for _, src := range []string{key + " = 1", "[" + key + "]", "[[" + key + "]]", "x = {" + key + " = 1}"} {
		doc, ix, err := Decode10([]byte(src))
		if err != nil {
			t.Fatalf("%.20q...: %v", src, err)
		}
		if len(doc) != 1 {
			t.Errorf("%.20q...: %d top-level keys", src, len(doc))
		}
		for p := range ix {
			if len(p) > MaxPath {
				t.Fatalf("%.20q...: path of %d bytes recorded", src, len(p))
			}
		}
		if len(ix) == 0 || len(ix) > MaxPath {
			t.Errorf("%.20q...: %d paths recorded", src, len(ix))
		}
	}
}

func TestErrorString(t *testing.T) {
	_, _, err := Decode([]byte("a = 1\nb = @"))
	if err == nil || !strings.HasPrefix(err.Error(), "line 2: ") {
		t.Errorf("error = %v", err)
	}
	if got := (&Error{Msg: "x"}).Error(); got != "x" {
		t.Errorf("no line: %q", got)
	}
}

func TestBOM(t *testing.T) {
	doc, ix, err := Decode10([]byte("\ufeffa = 1\nb = 2"))
	if err != nil || doc["a"] != int64(1) || ix["b"] != 2 {
		t.Errorf("= %v, %v, %v", doc, ix, err)
	}
}

func TestKind(t *testing.T) {
	doc, _, err := Decode([]byte("s = ''\ni = 1\nf = 1.5\nb = true\na = []\nt = {}\nd = 1979-05-27"))
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"s": "a string", "i": "an integer", "f": "a float", "b": "a boolean", "a": "an array", "t": "a table", "d": "a date or time"} {
		if got := Kind(doc[k]); got != want {
			t.Errorf("Kind(%s) = %q, want %q", k, got, want)
		}
	}
}

// paths lists every path of a decoded value up to MaxPath bytes.
func paths(v any, path string, out map[string]bool) {
	if len(path) > MaxPath {
		return
	}
	if path != "" {
		out[path] = true
	}
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			paths(e, Join(path, k), out)
		}
	case []any:
		for i, e := range v {
			paths(e, Index(path, i), out)
		}
	}
}

// check is the differential property of the fuzzer: the document go-toml
// decodes and the positions its parser gives name the same keys, every
// line is within the document, and an error is an *Error with a line.
func check(t *testing.T, src string) {
	t.Helper()
	nlines := strings.Count(src, "\n") + 1
	for _, dec := range []func([]byte) (map[string]any, Lines, error){Decode, Decode10} {
		doc, ix, err := dec([]byte(src))
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Line < 1 || e.Line > nlines || e.Msg == "" {
				t.Fatalf("%q: error %#v is not an *Error with a line in 1..%d", src, err, nlines)
			}
			if strings.Contains(e.Msg, "rejects what the decoder accepted") || strings.Contains(e.Msg, "decoder failed") {
				t.Fatalf("%q: %v", src, err)
			}
			continue
		}
		want := map[string]bool{}
		paths(doc, "", want)
		for p := range want {
			if _, ok := ix[p]; !ok {
				t.Fatalf("%q: %s is decoded but has no line (lines %v)", src, p, ix)
			}
		}
		for p, l := range ix {
			if !want[p] {
				t.Fatalf("%q: %s has a line but is not decoded (doc %#v)", src, p, doc)
			}
			if l < 1 || l > nlines {
				t.Fatalf("%q: %s at line %d of %d", src, p, l, nlines)
			}
		}
	}
}

func TestAgrees(t *testing.T) {
	for _, src := range seedCorpus() {
		check(t, src)
	}
}

// seedCorpus is every document of the table tests, for the fuzzer.
func seedCorpus() []string {
	var out []string
	for _, tt := range validTests {
		out = append(out, tt.src)
	}
	for _, tt := range invalidTests {
		out = append(out, tt.src)
	}
	for _, tt := range toml11 {
		out = append(out, tt.src)
	}
	return append(append(out, toml10...), trickySeeds...)
}

// FuzzDecode holds go-toml's decoder and its parser to each other (see
// check). Crashers go to testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	for _, src := range seedCorpus() {
		f.Add(src)
	}
	f.Fuzz(check)
}

func ExampleDecode10() {
	doc, lines, err := Decode10([]byte(`
deny_at = "high"

[rules]
allow = ["git status", "ls *"]

[[pattern]]
name = "kubectl_delete_ns"
level = "critical"
`))
	if err != nil {
		panic(err)
	}
	rules := doc["rules"].(map[string]any)
	patterns := doc["pattern"].([]any)
	fmt.Println(doc["deny_at"], rules["allow"], patterns[0].(map[string]any)["name"])
	fmt.Println(lines.Line("rules.allow[1]"), lines.Line("pattern[0].level"))

	_, _, err = Decode10([]byte("a = 1\na = 2\n"))
	fmt.Println(err)
	_, _, err = Decode10([]byte("a = {b = 1,}\n"))
	fmt.Println(err)
	// Output:
	// high [git status ls *] kubectl_delete_ns
	// 5 9
	// line 2: key a is already defined
	// line 1: trailing comma in an inline table (TOML 1.1; shellguard reads TOML 1.0)
}

// benchDoc is a configuration file of realistic size (about 3 KB); tables
// are prefixed with prefix (which ends with a dot, or is empty).
func benchDoc(prefix string) []byte {
	var src []byte
	if prefix != "" {
		src = append(src, "["+strings.TrimSuffix(prefix, ".")+"]\n"...)
	}
	src = append(src, "deny_at = \"high\"\nask_at = \"medium\"\nread_only = true\n["+prefix+"rules]\nallow = [\"git status\", \"ls *\", 'grep *']\ndeny = [\n  \"rm -rf /\",  # never\n]\n"...)
	for i := 0; i < 20; i++ {
		src = append(src, "[["+prefix+"pattern]]\nname = \"p\"\nregex = '^kubectl\\s+delete\\s+(ns|namespace)\\b'\nlevel = \"critical\"\nmatch = { programs = [\"kubectl\", \"oc\"] }\n"...)
	}
	return src
}

func BenchmarkDecode10(b *testing.B) {
	benchDecode10(b, benchDoc(""))
}

// Decode is linear: a document 100 times as large takes about 100 times as
// long (compare ns/op with BenchmarkDecode10).
func BenchmarkDecode10Large(b *testing.B) {
	var src []byte
	for i := 0; i < 100; i++ {
		src = append(src, benchDoc("t"+strings.Repeat("x", i)+".")...)
	}
	benchDecode10(b, src)
}

// BenchmarkDecode10Hostile is a key of 100,000 dotted parts.
func BenchmarkDecode10Hostile(b *testing.B) {
	benchDecode10(b, []byte(strings.Repeat("a.", 100000)+"b = 1"))
}

// benchDecode10 measures Decode10 of src.
func benchDecode10(b *testing.B, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Decode10(src); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOneTOMLLibrary: shellguard links one TOML parser, go-toml/v2 (issue
// 15), in the CLI and in the lean hook binary.
func TestOneTOMLLibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "../../cmd/shellguard", "../../cmd/shellguard-hook", "../../danger/internal/gen").CombinedOutput()
	if err != nil {
		t.Skipf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(strings.ToLower(p), "toml") && !strings.HasPrefix(p, "github.com/pelletier/go-toml/v2") &&
			p != "github.com/shellguard/shellguard/internal/tomldoc" {
			t.Errorf("%s is linked: the TOML library is github.com/pelletier/go-toml/v2 (internal/tomldoc)", p)
		}
	}
}
