package config

import (
	"regexp/syntax"
	"testing"
)

// progSize must track the real program size closely enough for the
// bounds to mean what they say: never far below it.
func TestProgSizeTracksCompile(t *testing.T) {
	for _, re := range []string{
		`rm`, `\bDROP\s+DATABASE\b`, `a{1000}`, `(?:\w+\s*){1000}`, `[a-z]{10,500}`, `(a|b|c)*`, `(?:x{10}){100}`,
		`^(?:git|hg)\s+push\s+--force`, `(?:.{0,50}\d){20}`, `(a+)+b`, `(?:(?:a|b){10}|c{5}){50}`, `x{3,}`, `\pL{1000}`,
	} {
		for _, cs := range []bool{true, false} {
			est, err := checkRegex(re, cs)
			if err != nil {
				t.Fatalf("%s: %v", re, err)
			}
			src := re
			if !cs {
				src = "(?i)" + re
			}
			parsed, _ := syntax.Parse(src, syntax.Perl)
			prog, err := syntax.Compile(parsed.Simplify())
			if err != nil {
				t.Fatal(err)
			}
			real := len(prog.Inst)
			if est*2 < real || est > 4*real+8 {
				t.Errorf("%s (case sensitive %v): estimated %d instructions, compiled %d", re, cs, est, real)
			}
		}
	}
}
