package interp

import (
	"strings"
	"testing"

	"github.com/shellguard/shellguard/shellparse"
	"mvdan.cc/sh/v3/syntax"
)

// checkAnalysis is what every analysis of hostile code must hold: no
// panic (the fuzzer reports one), a bounded number of findings, the
// same answer twice, and shell forms of argvs, deletions and writes that
// parse as shell.
func checkAnalysis(t *testing.T, lang Lang, code string) {
	fs := Analyze(lang, code)
	if len(fs) > maxFindings {
		t.Fatalf("%d findings, more than %d", len(fs), maxFindings)
	}
	if a, b := renderAll(fs), renderAll(Analyze(lang, code)); a != b {
		t.Fatalf("not deterministic: %q then %q", a, b)
	}
	for _, f := range fs {
		if f.Kind == 0 || f.Kind > Unknown {
			t.Fatalf("finding of no kind: %+v", f)
		}
		if f.Text == failedText {
			t.Fatalf("the analyser panicked")
		}
		if f.Kind != Exec && f.Kind != Delete && f.Kind != Write {
			continue
		}
		line := f.Command()
		if line == "" {
			continue
		}
		// The shell form quotes what it carries: it parses as shell (what
		// it gives eval or sh -c is another matter).
		if _, err := syntax.NewParser().Parse(strings.NewReader(line), ""); err != nil {
			t.Fatalf("%s finding %+v: %q does not parse: %v", f.Kind, f, line, err)
		}
	}
}

func fuzzLang(f *testing.F, lang Lang, seeds []analyzeCase, extra ...string) {
	for _, c := range seeds {
		f.Add(c.code)
	}
	for _, s := range extra {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		checkAnalysis(t, lang, code)
	})
}

func FuzzPython(f *testing.F) {
	fuzzLang(f, Python, pythonCases, `f"{f'{x!r:>{w}}'}"`, `'''`, `r"\"`, "lambda: (yield)", "[x for x in [y for y in z] if x]",
		"while True:\n\tif x:\n\t\tos.fork()\n")
}

func FuzzJavaScript(f *testing.F) {
	fuzzLang(f, JavaScript, jsCases, "`${`${`", "/[/]/", "a => b => c => d", "({...x, [k]: v})", "x?.(y)?.[z]")
}

func FuzzPerl(f *testing.F) {
	fuzzLang(f, Perl, perlCases, "s{a}{b}ee", "q(a(b)c)", "<<\"EOF\";\nx\nEOF\n", "$x->{a}[1]->(2)", "=pod\nx\n=cut\n", "tr/a-z/A-Z/")
}

func FuzzRuby(f *testing.F) {
	fuzzLang(f, Ruby, rubyCases, "<<~EOS\n  #{x}\nEOS\n", "%w[", "a ? b : c", "->(x) { x }", ":\"sym\"", "def f(a) = a")
}

func FuzzPHP(f *testing.F) {
	fuzzLang(f, PHP, phpCases, "<<<EOT\n{$x}\nEOT;\n", "?><?php", "$$x", "${'a'}", `"{$a->b['c']}"`)
}

func FuzzLua(f *testing.F) {
	fuzzLang(f, Lua, luaCases, "[==[ ]==]", "--[[", "repeat until false", "a:b{c}", "f[[x]]")
}

func FuzzR(f *testing.F) {
	fuzzLang(f, R, rCases, `r"(a)"`, "x %>% f()", "`a b` <- 1", "function(x) x", `\(x) x + 1`)
}

func FuzzTcl(f *testing.F) {
	fuzzLang(f, Tcl, tclCases, "{*}", "[[[", "$a(b", "set a {", `"[exec a]"`)
}

func FuzzAppleScript(f *testing.F) {
	fuzzLang(f, AppleScript, appleScriptCases, "(* (* *) *)", "¬\n", "tell application \"Finder\"", "|a b|")
}

func FuzzPowerShell(f *testing.F) {
	fuzzLang(f, PowerShell, pwshCases, "@'\nx\n'@", "$(", "[a[b]]", "`", "& { & { } }", "-f", "$env:")
}

// FuzzInvocation reads hostile interpreter command lines: the code
// options of every language, dynamic words, -EncodedCommand.
func FuzzInvocation(f *testing.F) {
	for _, l := range []string{
		`python3 -c "import os; os.system('rm -rf $HOME')"`, `node -e "$(cat x)"`, `perl -lne 'print' -e "$X"`,
		`pwsh -EncodedCommand UgBlAG0AbwB2AGUA`, `powershell /c Remove-Item ~`, `osascript -l JavaScript -e x`,
		`deno eval --print 1`, `Rscript -e 'x' -e "$y"`, `php -d a=b -r 'system("x");'`, `ruby -r json -e 'p 1'`,
	} {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		res := shellparse.Parse(line)
		for _, inv := range res.Invocations {
			if len(inv.Args) == 0 {
				continue
			}
			name := strings.ToLower(inv.Name)
			fs := Invocation(name, inv.Args[1:])
			if len(fs) > 4*maxFindings {
				t.Fatalf("%d findings", len(fs))
			}
			ReadsStdin(name, inv.Args[1:])
		}
	})
}
