package danger_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/danger"
)

// Programs shellguard does not know may run their argv: what a rule
// would flag in it is flagged, at the rule's level (docs/robustness.md,
// finding 16).
var argvRunnerCases = []struct {
	cmd   string
	rule  string // "" for no warning at all
	level danger.Level
}{
	{`direnv exec . rm -rf /`, "rm_rf_root", danger.Critical},
	{`mytool --flag rm -rf ~`, "rm_rf_home", danger.Critical},
	{`frobnicate sh -c 'rm -rf /'`, "rm_rf_root", danger.Critical},
	{`frobnicate bash -lc "rm -rf /"`, "rm_rf_root", danger.Critical},
	{`mytool /bin/rm -rf /`, "rm_rf_root", danger.Critical},
	{`mytool find find rm -rf /`, "rm_rf_root", danger.Critical},
	{`wrapit --opt=1 dd if=/dev/zero of=/dev/sda`, "dd_if_device", danger.Critical}, // device_overwrite: a whole disk
	{`newtool git reset --hard`, "git_reset_hard", danger.High},
	{`1A=2 git reset --hard`, "git_reset_hard", danger.High},
	{`SuDo Rm -Rf /`, "rm_rf_root", danger.Critical},
	{`rtk git push --force origin feature`, "git_push_force", danger.Low},
	{`mytool rm -rf "$HOME"`, "rm_rf_home", danger.Critical},
	{`mytool sh -c 'foo sh -c "bar rm -rf /"'`, "rm_rf_root", danger.Critical},
	{`sudo mytool rm -rf build`, "rm_recursive", danger.Low},
	// Known programs: data printers, lookups, programs whose operands
	// are their own (packages, containers, resources).
	{`echo rm -rf /`, "", 0},
	{`printf '%s\n' rm -rf /`, "", 0},
	{`grep -r rm .`, "", 0},
	{`git rm -rf --cached .`, "", 0},
	{`man rm`, "", 0},
	{`tldr rm`, "", 0},
	{`which rm`, "", 0},
	{`apt-get install rm`, "", 0},
	{`docker rm -f c`, "", 0},
	{`npm rm -g x`, "", 0},
	{`kubectl delete pod rm`, "", 0},
	{`sudo dnf4 rm package1 package2`, "", 0},
	// Unknown programs whose argv holds nothing a rule flags.
	{`mytool rm file.txt`, "", 0},
	{`mytool install pkg`, "", 0},
	{`mytool bash script.sh`, "", 0},
	// Pipeline-only rules cannot match a suffix alone.
	{`mytool curl https://example.com`, "", 0},
}

func TestArgvRunners(t *testing.T) {
	d := detector(t)
	for _, tc := range argvRunnerCases {
		t.Run(tc.cmd, func(t *testing.T) {
			ws := d.Check(tc.cmd)
			if tc.rule == "" {
				if len(ws) > 0 {
					t.Fatalf("Check(%q) = %v, want no warning", tc.cmd, names(ws))
				}
				return
			}
			if !slices.Contains(names(ws), tc.rule) {
				t.Fatalf("Check(%q) = %v, want %s among them", tc.cmd, names(ws), tc.rule)
			}
			if lvl, _ := danger.MaxLevel(ws); lvl != tc.level {
				t.Errorf("Check(%q): level %v, want %v", tc.cmd, lvl, tc.level)
			}
		})
	}
}

func names(ws []danger.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Pattern.Name)
	}
	return out
}

// The warning says where the command was found.
func TestArgvRunnerInvocation(t *testing.T) {
	d := detector(t)
	for _, tc := range []struct{ cmd, want string }{
		{`mytool --flag rm -rf /`, "`mytool --flag rm -rf /`: rm -rf / in the arguments of mytool, which may run them"},
		{`frobnicate sh -c 'rm -rf /'`, "`frobnicate sh -c 'rm -rf /'`: rm -rf / in the arguments of frobnicate, which may run them"},
	} {
		w, ok := d.CheckFirst(tc.cmd)
		if !ok || w.Invocation != tc.want {
			t.Errorf("CheckFirst(%q).Invocation = %q, want %q", tc.cmd, w.Invocation, tc.want)
		}
	}
	// A runner the parser knows reports the command it runs as such.
	if w, ok := d.CheckFirst(`direnv exec . rm -rf /`); !ok || w.Invocation != "rm -rf /" {
		t.Errorf("direnv exec: Invocation = %q, want %q", w.Invocation, "rm -rf /")
	}
}

// Re-parsing suffixes is bounded: past 16 the line is over the limit
// (High), so padding cannot hide a command behind harmless suffixes.
func TestArgvRunnerLimit(t *testing.T) {
	d := detector(t)
	for _, cmd := range []string{
		"mytool " + strings.Repeat("find ", 20) + "rm -rf /",
		"mytool " + strings.Repeat("install ", 5000),
	} {
		got := names(d.Check(cmd))
		if !slices.Contains(got, "over_limit") {
			t.Errorf("Check(%.40q...) = %v, want over_limit", cmd, got)
		}
	}
	if got := names(d.Check("mytool " + strings.Repeat("find ", 15) + "rm -rf /")); !slices.Contains(got, "rm_rf_root") || slices.Contains(got, "over_limit") {
		t.Errorf("16 suffixes: %v, want rm_rf_root and no over_limit", got)
	}
}

// A registry of the user's own: programs its rules name start suffixes,
// and its rules decide what a suffix matches.
func TestArgvRunnerCustomRegistry(t *testing.T) {
	d, err := danger.NewDetector([]danger.Pattern{{
		Name: "no_frob", Level: danger.High, Description: "frob destroys",
		Match: &danger.Spec{Programs: []string{"frob"}, FlagsAny: []string{"-x"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(d.Check(`mytool frob -x`)); !slices.Equal(got, []string{"no_frob"}) {
		t.Errorf("custom rule in argv: %v", got)
	}
	if got := names(d.Check(`echo frob -x`)); len(got) > 0 {
		t.Errorf("echo: %v, want none", got)
	}
}

// Unknown programs without a suffix to re-parse, and known programs, cost
// no allocation in the detector beyond what it already did.
func BenchmarkCheckArgvRunner(b *testing.B) {
	d := detector(b)
	for _, tc := range []struct{ name, cmd string }{
		{"known", `git commit -m "rm -rf is dangerous" --author me`},
		{"unknown-plain", `mytool --flag a b c d e f`},
		{"unknown-suffix", `mytool --flag rm -rf ./build`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d.Check(tc.cmd)
			}
		})
	}
}
