package interp

import (
	"strings"
	"testing"
)

// Hostile code at the size limit: the analysis stays linear.
var hostile = []struct {
	name string
	lang Lang
	code string
}{
	{"calls", Python, strings.Repeat("os.system('rm -rf /tmp/x' + a); ", MaxCode/32)},
	{"parens", Python, strings.Repeat("(", MaxCode/2) + strings.Repeat(")", MaxCode/2)},
	{"fstrings", Python, strings.Repeat(`f"{`, MaxCode/8) + "x" + strings.Repeat(`}"`, MaxCode/8)},
	{"templates", JavaScript, strings.Repeat("`${", MaxCode/6) + "x" + strings.Repeat("}`", MaxCode/6)},
	{"concat", Python, "x = 'a'\n" + strings.Repeat("x = x + x\n", MaxCode/12) + "os.system(x)"},
	{"decode", Python, "exec(base64.b64decode('" + strings.Repeat("QUFB", MaxCode/5) + "'))"},
	{"perl-interp", Perl, `"` + strings.Repeat("$a{$b{", MaxCode/8) + `"`},
	{"tcl-brackets", Tcl, strings.Repeat("[", MaxCode/2) + strings.Repeat("]", MaxCode/2)},
	{"pwsh-subexpr", PowerShell, strings.Repeat(`"$(`, MaxCode/4) + strings.Repeat(`)"`, MaxCode/4)},
	{"ruby-blocks", Ruby, strings.Repeat("loop do ", MaxCode/8) + strings.Repeat("end ", MaxCode/8)},
	{"lua-ends", Lua, strings.Repeat("while true do ", MaxCode/14) + strings.Repeat("end ", MaxCode/14)},
	{"applescript", AppleScript, strings.Repeat(`do shell script "a" & `, MaxCode/22)},
}

func BenchmarkAnalyzeHostile(b *testing.B) {
	for _, h := range hostile {
		b.Run(h.name, func(b *testing.B) {
			b.SetBytes(int64(len(h.code)))
			for b.Loop() {
				Analyze(h.lang, h.code)
			}
		})
	}
}

func BenchmarkAnalyzeOneLiner(b *testing.B) {
	code := `import shutil, os; shutil.rmtree(os.path.join(os.path.expanduser("~"), ".ssh"))`
	for b.Loop() {
		Analyze(Python, code)
	}
}
