package shellparse

import (
	"strings"
	"testing"
)

func commandStringReference(inv *Invocation) string {
	var b strings.Builder
	for i, a := range inv.Args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a.Dynamic {
			b.WriteString(a.Raw)
		} else {
			b.WriteString(quote(a.Value))
		}
	}
	return b.String()
}

func checkRendering(t *testing.T, inv *Invocation) {
	t.Helper()
	if got, want := inv.String(), inv.render(); got != want {
		t.Errorf("String() = %q, want %q (%+v)", got, want, *inv)
	}
	if got, want := inv.commandString(), commandStringReference(inv); got != want {
		t.Errorf("commandString() = %q, want %q (%+v)", got, want, *inv)
	}
}

func TestRenderingEdgeCases(t *testing.T) {
	for _, inv := range []Invocation{
		{},
		{Args: []Arg{{Value: "ls"}}},
		{Args: []Arg{{Value: ""}}},
		{Args: []Arg{{Dynamic: true}, {Value: "x"}}},
		{Args: []Arg{{Dynamic: true}, {Dynamic: true}, {Value: "a b"}}},
		{Args: []Arg{{Value: "a\x00b"}, {Value: "it's"}}},
		{Assigns: []Assign{{Name: "A", Value: "1", Via: "env"}}, Args: []Arg{{Dynamic: true}, {Value: "x"}}},
		{Wrappers: []Wrapper{{Name: "sudo", Args: []string{"-u", "a b"}}}, Args: []Arg{{Value: "rm"}}},
		{Redirs: []Redirect{{Op: ">", Target: "f g"}}},
	} {
		checkRendering(t, &inv)
	}
}

// TestRenderingCorpus renders every invocation of the shared benign
// corpora both ways (skipped when the corpora are absent).
func TestRenderingCorpus(t *testing.T) {
	p := New(Limits{})
	eachCorpusField(t, func(field string) {
		r := p.Parse(field)
		for i := range r.Invocations {
			checkRendering(t, &r.Invocations[i])
		}
	})
}

// TestQuotePlainBytes: the bytes quote leaves as they are are the set
// String always showed as written.
func TestQuotePlainBytes(t *testing.T) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		want := b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || strings.IndexByte("-_./=:,+@%^*?[]~{}!#", b) >= 0
		w := "a" + string([]byte{b}) + "b"
		if got := quote(w) == w; got != want {
			t.Errorf("quote(%q) = %q", w, quote(w))
		}
	}
}
