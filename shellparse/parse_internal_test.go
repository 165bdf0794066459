package shellparse

import (
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestIsNilNode: a nil pointer of each operand type the walk skips, and
// nothing else.
func TestIsNilNode(t *testing.T) {
	for _, tc := range []struct {
		n    syntax.Node
		want bool
	}{
		{(*syntax.Word)(nil), true}, {(*syntax.BinaryArithm)(nil), true}, {(*syntax.UnaryArithm)(nil), true},
		{(*syntax.ParenArithm)(nil), true}, {(*syntax.BinaryTest)(nil), true}, {(*syntax.UnaryTest)(nil), true},
		{(*syntax.ParenTest)(nil), true}, {&syntax.Word{}, false}, {&syntax.ParenTest{}, false}, {(*syntax.Lit)(nil), false},
		{nil, false},
	} {
		if got := isNilNode(tc.n); got != tc.want {
			t.Errorf("%T: %v", tc.n, got)
		}
	}
}
