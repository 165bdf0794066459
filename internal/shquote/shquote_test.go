package shquote_test

import (
	"testing"

	"github.com/shellguard/shellguard/internal/shquote"
	"github.com/shellguard/shellguard/shellparse"
)

// TestQuoteRoundTrip: every quoted word parses back to itself, as one
// word.
func TestQuoteRoundTrip(t *testing.T) {
	for _, s := range []string{"", "a", "a b", "it's", `"`, "$HOME", "`x`", "*", "~", "a\nb", "tab\there", "é", "-rf", "x;y", "\x01", "!", "a'b\"c"} {
		q := shquote.Quote(s)
		res := shellparse.Parse("echo " + q)
		if len(res.Invocations) != 1 || len(res.Invocations[0].Args) != 2 {
			t.Errorf("Quote(%q) = %q: not one word", s, q)
			continue
		}
		if a := res.Invocations[0].Args[1]; a.Value != s || a.Dynamic || a.Glob {
			t.Errorf("Quote(%q) = %q parses back to %+v", s, q, a)
		}
	}
}

func TestQuotePlain(t *testing.T) {
	for _, s := range []string{"git", "a-b_c.d/e=f:g,h+i@j%k^l"} {
		if q := shquote.Quote(s); q != s {
			t.Errorf("Quote(%q) = %q, want it unchanged", s, q)
		}
	}
	if q := shquote.Quote("a\x00b"); q != `a\0b` {
		t.Errorf("NUL: %q", q)
	}
}

func FuzzQuote(f *testing.F) {
	f.Add("it's")
	f.Fuzz(func(t *testing.T, s string) {
		q := shquote.Quote(s)
		if q == "" {
			t.Fatal("empty quote")
		}
	})
}

// TestPath: a path keeps what the shell expands (~, a leading variable)
// and quotes the rest; the shell reads each back as one word.
func TestPath(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"~", "~"},
		{"~/", "~/"},
		{"~/My Files", "~/'My Files'"},
		{"$HOME/x y", `"$HOME/x y"`},
		{`$(pwd)/a"b`, `"$(pwd)/a\"b"`},
		{"/etc/passwd", "/etc/passwd"},
		{"/tmp/a b", "'/tmp/a b'"},
		{"~user", "'~user'"},
	} {
		if got := shquote.Path(c.in); got != c.want {
			t.Errorf("Path(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
