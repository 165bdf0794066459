package shellparse

import (
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestIsNilNode: a nil pointer of each operand type the walk skips, and
// nothing else.
func TestIsNilNode(t *testing.T) {
	for _, n := range []syntax.Node{(*syntax.Word)(nil), (*syntax.BinaryArithm)(nil), (*syntax.UnaryArithm)(nil),
		(*syntax.ParenArithm)(nil), (*syntax.BinaryTest)(nil), (*syntax.UnaryTest)(nil), (*syntax.ParenTest)(nil)} {
		if !isNilNode(n) {
			t.Errorf("%T(nil): not reported", n)
		}
	}
	for _, n := range []syntax.Node{nil, &syntax.Word{}, &syntax.ParenTest{}, (*syntax.Lit)(nil), (*syntax.CmdSubst)(nil)} {
		if isNilNode(n) {
			t.Errorf("%T %v: reported", n, n)
		}
	}
}
