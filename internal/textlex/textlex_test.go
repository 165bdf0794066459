package textlex

import (
	"slices"
	"strings"
	"testing"
)

func TestIsDigits(t *testing.T) {
	for s, want := range map[string]bool{"": false, "0": true, "0123456789": true, "12a": false, "-1": false, " 1": false, "１": false} {
		if got := IsDigits(s); got != want {
			t.Errorf("IsDigits(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestSplitQuoted(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int
		want  []string
	}{
		{"", 0, nil},
		{"  a  b\tc\nd ", 0, []string{"a", "b", "c", "d"}},
		{`rm -rf '/tmp/a b' "x\"y" z\ w`, 0, []string{"rm", "-rf", "/tmp/a b", `x"y`, "z w"}},
		{`'a\b' "" ''`, 0, []string{`a\b`, "", ""}},
		{`"unclosed x`, 0, []string{"unclosed x"}},
		{`trailing\`, 0, []string{`trailing\`}},
		{"a b c d", 2, []string{"a", "b"}},
		{"a b", 5, []string{"a", "b"}},
	} {
		if got := SplitQuoted(c.in, c.limit); !slices.Equal(got, c.want) {
			t.Errorf("SplitQuoted(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
	}
}

func TestNextEscape(t *testing.T) {
	// Each escape is written as <e>: what a decoder loop sees.
	for in, want := range map[string]string{
		"":          "",
		"plain":     "plain",
		`a\nb`:      "a<n>b",
		`\\\x`:      "<\\><x>",
		`end\`:      `end\`,
		`\`:         `\`,
		`x\ny\tz\\`: "x<n>y<t>z<\\>",
	} {
		var b strings.Builder
		for i, ok := NextEscape(&b, in, 0); ok; i, ok = NextEscape(&b, in, i+1) {
			b.WriteString("<" + in[i:i+1] + ">")
		}
		if got := b.String(); got != want {
			t.Errorf("NextEscape loop over %q = %q, want %q", in, got, want)
		}
	}
}

func TestCEscape(t *testing.T) {
	want := map[byte]byte{'a': 7, 'b': 8, 'f': 12, 'n': 10, 'r': 13, 't': 9, 'v': 11}
	for e := 0; e < 256; e++ {
		c, ok := CEscape(byte(e))
		if w, is := want[byte(e)]; ok != is || c != w {
			t.Errorf("CEscape(%q) = %d, %v; want %d, %v", byte(e), c, ok, w, is)
		}
	}
}

// TestCEscapeAmong: CEscape for the letters given, nothing for any other
// byte, over every byte and a few sets of letters.
func TestCEscapeAmong(t *testing.T) {
	for _, letters := range []string{"", "ntr", "abfnrtv", "e\\n"} {
		for e := 0; e < 256; e++ {
			want, wantOK := CEscape(byte(e))
			if strings.IndexByte(letters, byte(e)) < 0 {
				want, wantOK = 0, false
			}
			if c, ok := CEscapeAmong(byte(e), letters); c != want || ok != wantOK {
				t.Errorf("CEscapeAmong(%q, %q) = %d, %v; want %d, %v", byte(e), letters, c, ok, want, wantOK)
			}
		}
	}
}
