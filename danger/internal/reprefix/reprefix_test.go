package reprefix

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestOf(t *testing.T) {
	for _, tt := range []struct {
		expr string
		want []string // nil: no prefixes
	}{
		{`/etc/(shadow|gshadow|sudoers)-?`, []string{"/etc/gshadow", "/etc/shadow", "/etc/sudoers"}},
		{`/dev/(tcp|udp)/.*`, []string{"/dev/tcp/", "/dev/udp/"}},
		{`(~|\$HOME|/root|/home/[^/]+|/Users/[^/]+)/\.ssh/config`, []string{"$HOME/.ssh/config", "/Users/", "/home/", "/root/.ssh/config", "~/.ssh/config"}},
		{`/proc/sysrq-trigger`, []string{"/proc/sysrq-trigger"}},
		{`(?i)/etc/Passwd`, []string{"/"}}, // e has other cases
		{`(?i)/123/x`, []string{"/123/"}},
		{`(?i:\.env)`, []string{"."}},
		{`[ab]x|c`, []string{"ax", "bx", "c"}},
		{`(sudo )?rm( .*)?`, []string{"rm", "sudo rm"}},
		{`(-[^ ]+ )*push( .*)?`, []string{"-", "push"}},
		{`x+y`, []string{"x"}},
		{`a{2,3}b`, []string{"aaab", "aab"}},
		{`(ab){0,2}c`, []string{"ababc", "abc", "c"}},
		{`a*b`, []string{"a", "b"}},
		{strings.Repeat("a", 100), []string{strings.Repeat("a", maxLen)}},
		{`é+`, []string{"é"}},
		{`x\x00y`, []string{"x"}},
		// No prefixes: anything, the empty string, too many, U+FFFD.
		{`.*`, nil},
		{`[^ ]+/\.git/hooks(/.*)?`, nil},
		{`a?`, nil},
		{`(-[la]|[^-]).*`, nil},
		{`[a-z]+`, nil},
		{`\x{FFFD}x`, nil},
		{`[\x{FFFD}a]`, nil},
		{`(?i)k`, nil},
		{`(`, nil},
		{`[^\x00-\x{10FFFF}]`, nil},
	} {
		got, ok := Of(tt.expr)
		if !reflect.DeepEqual(got, tt.want) || ok != (tt.want != nil) {
			t.Errorf("Of(%q) = %q, %v; want %q", tt.expr, got, ok, tt.want)
		}
	}
}

func TestHas(t *testing.T) {
	j := Join([]string{"/dev/tcp/", "/dev/udp/", "~"})
	for s, want := range map[string]bool{"/dev/tcp/1.2.3.4/80": true, "~/x": true, "/dev/null": false, "": false, "/dev/tc": false} {
		if got := Has(s, j); got != want {
			t.Errorf("Has(%q) = %v", s, got)
		}
	}
	if Has("x", "") {
		t.Error("Has with no prefixes")
	}
}

// check is the property: a string the anchored expression matches starts
// with one of its prefixes.
func check(t *testing.T, expr, s string) {
	re, err := regexp.Compile(`^(?:` + expr + `)$`)
	if err != nil {
		return
	}
	ps, ok := Of(expr)
	if !ok {
		return
	}
	for _, p := range ps {
		if p == "" || strings.Contains(p, Sep) {
			t.Fatalf("Of(%q): prefix %q", expr, p)
		}
	}
	if re.MatchString(s) && !Has(s, Join(ps)) {
		t.Fatalf("Of(%q) = %q, but it matches %q", expr, ps, s)
	}
}

// checkExact is the property of Exact and Needs: an exact set holds the
// strings the anchored expression matches, no more and no fewer; a
// string it matches contains one of the needed pieces.
func checkExact(t *testing.T, expr, s string) {
	re, err := regexp.Compile(`^(?:` + expr + `)$`)
	if err != nil {
		return
	}
	if all, ok := Exact(expr); ok {
		in := slices.Contains(all, s)
		if re.MatchString(s) != in {
			t.Fatalf("Exact(%q) = %q, but matching %q is %v", expr, all, s, !in)
		}
		for _, x := range all {
			if !re.MatchString(x) {
				t.Fatalf("Exact(%q) = %q, but %q does not match", expr, all, x)
			}
		}
	}
	if ps, ok := Needs(expr); ok {
		for _, p := range ps {
			if p == "" || strings.Contains(p, Sep) {
				t.Fatalf("Needs(%q): piece %q", expr, p)
			}
		}
		if re.MatchString(s) && !HasAny(s, Join(ps)) {
			t.Fatalf("Needs(%q) = %q, but it matches %q", expr, ps, s)
		}
	}
}

func TestExactNeeds(t *testing.T) {
	for _, tt := range []struct {
		expr         string
		exact, needs []string
	}{
		{`/etc/(shadow|gshadow)-?`, []string{"/etc/gshadow", "/etc/gshadow-", "/etc/shadow", "/etc/shadow-"}, []string{"gshadow", "shadow"}},
		{`\.|\.\.|\$PWD`, []string{"$PWD", ".", ".."}, []string{"$PWD", "."}},
		{`[^ ]+/\.git/hooks(/.*)?|[^ ]+\.git/hooks(/.*)?`, nil, []string{".git/hooks", "/.git/hooks"}},
		{`(~|\$HOME|/home/[^/]+)/\.(npmrc|yarnrc)|.*/pip\.conf`, nil, []string{"/pip.conf", "npmrc", "yarnrc"}},
		{`(?i)/1/Passwd`, nil, []string{"/1/"}},
		{`a?`, nil, nil},
		{`.*`, nil, nil},
		{`[a-z]+`, nil, nil},
		{`(`, nil, nil},
	} {
		all, ok := Exact(tt.expr)
		if !reflect.DeepEqual(all, tt.exact) || ok != (tt.exact != nil) {
			t.Errorf("Exact(%q) = %q, %v; want %q", tt.expr, all, ok, tt.exact)
		}
		ps, ok := Needs(tt.expr)
		if !reflect.DeepEqual(ps, tt.needs) || ok != (tt.needs != nil) {
			t.Errorf("Needs(%q) = %q, %v; want %q", tt.expr, ps, ok, tt.needs)
		}
	}
	onSeeds(t, checkExact)
}

func FuzzExact(f *testing.F) { fuzzSeeds(f, checkExact) }

var seeds = []struct{ expr, s string }{
	{`/etc/(shadow|gshadow)`, "/etc/shadow"},
	{`(?i)abc`, "ABC"},
	{`(?i)kelvin`, "\u212aelvin"},
	{`(?i)s`, "\u017f"},
	{`\x{FFFD}`, "\xff"},
	{`[é\x{FFFD}]x`, "\xffx"},
	{`(a|b)*c`, "ababc"},
	{`x{0,3}y`, "y"},
	{`(?s).`, "\n"},
	{`\Aa\z`, "a"},
	{`(?m)^a$`, "a"},
	{`\ba\b`, "a"},
	{`a|`, ""},
	{`(|a)b`, "b"},
	{`ab?c*`, "a"},
	{`(ab)+`, "abab"},
	{`[^a]`, "b"},
	{`\pL`, "é"},
}

// onSeeds runs the property fn on each seed.
func onSeeds(t *testing.T, fn func(t *testing.T, expr, s string)) {
	for _, s := range seeds {
		fn(t, s.expr, s.s)
	}
}

// fuzzSeeds fuzzes the property fn from the seeds.
func fuzzSeeds(f *testing.F, fn func(t *testing.T, expr, s string)) {
	for _, s := range seeds {
		f.Add(s.expr, s.s)
	}
	f.Fuzz(fn)
}

func TestProperty(t *testing.T) { onSeeds(t, check) }

func FuzzOf(f *testing.F) { fuzzSeeds(f, check) }

func ExampleOf() {
	ps, ok := Of(`/etc/(shadow|gshadow)-?|(~|\$HOME)/\.ssh/.*`)
	fmt.Println(ps, ok)
	fmt.Println(Has("/dev/null", Join(ps)), Has("~/.ssh/id_rsa", Join(ps)))
	_, ok = Of(`.*\.pem`)
	fmt.Println(ok)
	// Output:
	// [$HOME/.ssh/ /etc/gshadow /etc/shadow ~/.ssh/] true
	// false true
	// false
}

// hasSlow is Has as the definition reads, for the tests.
func hasSlow(s, joined string) bool {
	for joined != "" {
		p := joined
		if i := strings.Index(joined, Sep); i >= 0 {
			p, joined = joined[:i], joined[i+len(Sep):]
		} else {
			joined = ""
		}
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// FuzzHas: Has answers as the definition reads.
func FuzzHas(f *testing.F) {
	for _, c := range [][2]string{{"/etc/passwd", "/etc/\x00~/"}, {"", ""}, {"a", "\x00"}, {"ab", "abc\x00a"}, {"x", "a\x00"}, {"", "\x00a"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, s, joined string) {
		if got, want := Has(s, joined), hasSlow(s, joined); got != want {
			t.Fatalf("Has(%q, %q) = %v, want %v", s, joined, got, want)
		}
	})
}

// FuzzHasSorted: for the prefixes of any expression, HasSorted answers as
// Has does.
func FuzzHasSorted(f *testing.F) {
	for _, c := range [][2]string{{`/etc/(passwd|shadow)|~/\.ssh/.*`, "/etc/passwd"}, {`a|ab|b`, "ab"}, {`(x|y)z+`, "yzz"}, {`/dev/(sd|hd)[a-z]`, "/dev/s"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, expr, s string) {
		ps, ok := Of(expr)
		if !ok {
			return
		}
		joined := Join(ps)
		if got, want := HasSorted(s, Split(joined)), Has(s, joined); got != want {
			t.Fatalf("HasSorted(%q, %q) = %v, Has %v", s, ps, got, want)
		}
	})
}
