package shellparse_test

import (
	"strings"
	"testing"

	"github.com/shellguard/shellguard/shellparse"
)

// limited reports whether r has a limit problem whose message holds what.
func limited(r *shellparse.Result, what string) bool {
	for _, p := range r.Problems {
		if p.Kind == shellparse.ProblemLimit && strings.Contains(p.Message, what) {
			return true
		}
	}
	return false
}

// TestPerLineBudget: the work on one line is bounded for the whole line,
// across every word and every re-parsed level (issue 11 item 16): total
// words, total bytes of shell strings re-parsed, total bytes built by
// expansions.
func TestPerLineBudget(t *testing.T) {
	lim := shellparse.DefaultLimits()
	fill := func(head, unit string) string {
		return head + strings.Repeat(unit, (lim.MaxBytes-len(head))/len(unit))
	}
	long := strings.Repeat("a", lim.MaxBytes*2/3)
	for _, tc := range []struct {
		name, line, what string
	}{
		{"eval x16 then braces", fill(strings.Repeat("eval ", 16), "{1..256} "), "expansions build"},
		{"braces", fill("", "{1..256} "), "expansions build"},
		{"words in nested evals", fill(strings.Repeat("eval ", 16), "a "), "words"},
		{"words in nested ssh", fill(strings.Repeat("ssh h ", 16), "a "), "words"},
		{"words in nested argv runners", fill(strings.Repeat("docker exec c ", 16), "a "), "words"},
		{"words in find -exec", fill("find . -exec find . -exec ", "a "), "words"},
		{"brace pairs over the word bound", fill("", "{a..z}{a..z} "), "expansions build"},
		{"one long word expanded 256 times", "echo {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}" + long[:lim.MaxBytes/2], "expansions build"},
		{"shell strings nested", `bash -c 'bash -c "` + long + `"'`, "bytes of shell strings"},
		{"eval of eval", "eval eval " + long, "bytes of shell strings"},
		{"heredoc to a shell holding a shell string", "bash <<'E'\nbash -c '" + long + "'\nE\n", "bytes of shell strings"},
		{"operators made by $'...'", "bash -c $'" + strings.Repeat(`a\x7c`, 1001) + "a'", "pipe and list operators"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.line) > lim.MaxBytes {
				t.Fatalf("%d bytes, over the size limit", len(tc.line))
			}
			if r := shellparse.Parse(tc.line); !limited(r, tc.what) {
				t.Errorf("no limit problem about %q: %v", tc.what, r.Problems)
			}
		})
	}
}

// TestPerLineBudgetLimits checks each budget at its bound with small
// limits: at the bound the line is complete, one more is over.
func TestPerLineBudgetLimits(t *testing.T) {
	for _, tc := range []struct {
		name     string
		lim      shellparse.Limits
		at, over string
		what     string
	}{
		{"words", shellparse.Limits{MaxFields: 4}, "a b; c d", "a b; c d e", "words"},
		{"words of a runner's command count again", shellparse.Limits{MaxFields: 6}, "docker exec c a", "docker exec c a b", "words"},
		{"brace fields", shellparse.Limits{MaxFields: 5}, "echo {1..4}", "echo {1..5}", "words"},
		{"assignments and redirections", shellparse.Limits{MaxFields: 3}, "A=1 a >f", "A=1 a b >f", "words"},
		{"re-parsed bytes", shellparse.Limits{MaxReparseBytes: 5}, "bash -c 'a b c'", "bash -c 'a b cd'", "bytes of shell strings"},
		{"re-parsed bytes over levels", shellparse.Limits{MaxReparseBytes: 23}, `eval eval "a b c d e"`, `eval eval "a b c d e f"`, "bytes of shell strings"},
		// a{1,...,n} costs 33 (a) + 33n (each element) + 34n (each
		// field) + 34n again (the empty literal after the braces).
		{"expanded bytes", shellparse.Limits{MaxExpandBytes: 33 + 101*4}, "echo a{1,2,3,4}", "echo a{1,2,3,4,5}", "expansions build"},
	} {
		p := shellparse.New(tc.lim)
		if r := p.Parse(tc.at); !r.OK() {
			t.Errorf("%s: %q: %v", tc.name, tc.at, r.Problems)
		}
		if r := p.Parse(tc.over); !limited(r, tc.what) {
			t.Errorf("%s: %q: no limit problem about %q: %v", tc.name, tc.over, tc.what, r.Problems)
		}
	}
}

// TestBudgetKeepsWhatWasSeen: the invocation being built when the budget
// runs out is still reported with the words that fit, so that the danger
// in front of a flood stays visible.
func TestBudgetKeepsWhatWasSeen(t *testing.T) {
	lim := shellparse.DefaultLimits()
	for _, line := range []string{
		"rm -rf / " + strings.Repeat("{1..256} ", (lim.MaxBytes-9)/9),
		"rm -rf / " + strings.Repeat("{a,b} ", (lim.MaxBytes-9)/6),
		"sudo rm -rf / " + strings.Repeat("{a..z}{a..z} ", (lim.MaxBytes-14)/13),
	} {
		r := shellparse.Parse(line)
		if r.OK() {
			t.Fatalf("%.40q: no problem", line)
		}
		if len(r.Invocations) == 0 || r.Invocations[0].Name != "rm" || strings.Join(r.Invocations[0].Argv()[:3], " ") != "rm -rf /" {
			t.Errorf("%.40q: invocations %v", line, names(r))
		}
	}
}

// TestBraceSequences: sequences expand as bash expands them, within the
// word bound; numbers past 32 bits are left unexpanded.
func TestBraceSequences(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"echo {1..5}", "echo 1 2 3 4 5"},
		{"echo {5..1..2}", "echo 5 3 1"},
		{"echo {a..e}", "echo a b c d e"},
		{"echo {01..10}", "echo 01 02 03 04 05 06 07 08 09 10"},
		{"echo {-1..01}", "echo -1 00 01"},
		{"echo {-05..3}", "echo -05 -04 -03 -02 -01 000 001 002 003"},
		{"echo x{a,b}{1..2}", "echo xa1 xa2 xb1 xb2"},
	} {
		r := shellparse.Parse(tc.line)
		if got := strings.Join(r.Invocations[0].Argv(), " "); got != tc.want || !r.OK() {
			t.Errorf("%q: %q, want %q (%v)", tc.line, got, tc.want, r.Problems)
		}
	}
	for _, line := range []string{"echo {1..257}", "echo {a..b}{1..129}", "echo {-9223372036854775808..9223372036854775807}", "echo {1..4294967296}"} {
		r := shellparse.Parse(line)
		if inv := r.Invocations[0]; len(inv.Args) != 2 || !inv.Args[1].Dynamic {
			t.Errorf("%q: %d words, want one dynamic", line, len(inv.Args))
		}
	}
}
