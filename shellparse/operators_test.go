package shellparse_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/shellparse"
)

// Substitutions inside arithmetic and [[ ]] operator chains are found in
// source order, also when the chain is thousands of operators long (it is
// walked without recursing per operator).
func TestSubstitutionsInOperatorChains(t *testing.T) {
	long := strings.Repeat("1+", 5000)
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"echo $(( 1 + $(rm -rf /) * 2 ))", []string{"echo", "rm"}},
		{"echo $(( $(a) ? $(b) : -$(c) ))", []string{"echo", "a", "b", "c"}},
		{"echo $(( " + long + "$(rm -rf /)+" + long + "`shred x` ))", []string{"echo", "rm", "shred"}},
		{"[[ -f $(a) && ! -n $(b) || $(c) == x ]]", []string{"a", "b", "c"}},
		{"[[ " + strings.Repeat("-f x && ", 450) + "-n $(rm -rf /) ]]", []string{"rm"}},
		{"(( x = $(a) + ( $(b) - 1 ) ))", []string{"a", "b"}},
	} {
		res := shellparse.Parse(tc.line)
		var got []string
		for _, inv := range res.Invocations {
			if inv.Program != "[[" && inv.Program != "((" {
				got = append(got, inv.Program)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%.60q: programs %q, want %q (problems %v)", tc.line, got, tc.want, res.Problems)
		}
	}
}
