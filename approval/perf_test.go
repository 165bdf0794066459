package approval

import (
	"strings"
	"testing"

	"github.com/shellguard/shellguard/shellparse"

	"github.com/shellguard/shellguard/internal/shquote"
)

// TestHiddenCharactersFastPath: the ASCII fast path agrees with the full
// check on every single byte and on every byte next to a line feed.
func TestHiddenCharactersFastPath(t *testing.T) {
	for c := 0; c < 256; c++ {
		for _, s := range []string{string([]byte{byte(c)}), "ls " + string([]byte{byte(c)}) + "\n", string([]byte{byte(c)}) + "\n"} {
			if got, want := hiddenCharacters(s), hiddenCharactersSlow(s); got != want {
				t.Errorf("hiddenCharacters(%q) = %q, want %q", s, got, want)
			}
		}
	}
}

// TestPrefixTokensLongKeys: keys longer than the stack buffer still work.
func TestPrefixTokensLongKeys(t *testing.T) {
	long := strings.Repeat("x", 100)
	res := shellparse.Parse("git " + long + " " + long + " -C dir status")
	if len(res.Invocations) != 1 {
		t.Fatalf("invocations %d", len(res.Invocations))
	}
	tk := prefixTokens("git", res.Invocations[0].Args)
	if tk.n != 2 || tk.word[1] != long {
		t.Errorf("tokens %d %q", tk.n, tk.word[:tk.n])
	}
}

// TestPlainWordByte: the bytes a prefix leaves unquoted are the set the
// prefixes always used.
func TestPlainWordByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		want := b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || strings.IndexByte("-_./=:,+@%^", b) >= 0
		if got := shquote.Plain(b); got != want {
			t.Errorf("Plain(%q) = %v", b, got)
		}
	}
}
