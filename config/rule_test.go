package config

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNormalizeRule(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{"git push *", "git push *", false},
		{"  git   push\t* ", "git push *", false},
		{"Bash(git push:*)", "git push *", false},
		{"Bash(npm run test:*)", "npm run test *", false},
		{"Bash(npm test)", "npm test", false},
		{"Bash( ls -la )", "ls -la", false},
		{"Bash(git push *)", "git push *", false},
		{"Bash(*)", "*", false},
		{"Bash(:*)", "*", false},
		{"Bash", "*", false},
		{"rm *", "rm *", false},
		{"echo (x)", "echo (x)", false},
		{"Bash(git push", "", true},
		{"Read(./.env)", "", true},
		{"WebFetch(domain:example.com)", "", true},
		{"", "", true},
		{"   ", "", true},
		{"Bash()", "", true},
	}
	for _, tt := range tests {
		got, err := NormalizeRule(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("NormalizeRule(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestMatchRule(t *testing.T) {
	tests := []struct {
		pattern, command string
		want             bool
	}{
		{"git push *", "git push", true},
		{"git push *", "git push origin main", true},
		{"git push *", "git push --force", true},
		{"git push *", "git pushx", false},
		{"git push *", "git pus", false},
		{"git push *", "git status", false},
		{"git push *", "sudo git push", false},
		{"git push", "git push", true},
		{"git push", "git push origin", false},
		{"npm run *", "npm run build", true},
		{"npm run *", "npm test", false},
		{"rm *", "rm -rf /", true},
		{"rm *", "rm", true},
		{"rm *", "rmdir x", false},
		{"*", "", true},
		{"*", "anything at all", true},
		{"git * main", "git push origin main", true},
		{"git * main", "git push origin main2", false},
		{"git ?ull", "git pull", true},
		{"git ?ull", "git ull", false},
		{"echo ?", "echo é", true},
		{"echo ??", "echo é", false},
		{"echo *", "echo a\nb", true},
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "aXbY", false},
		{"**", "x", true},
		{"Bash(git push:*)", "git push", true},
		{"Bash(git push:*)", "git push -f", true},
		{"Bash(npm test)", "npm test", true},
		{"Bash(npm test)", "npm test --watch", false},
		{"Git push *", "git push", false},
		{"Read(x)", "Read(x)", false},
		{"", "", false},
		{"echo \xff", "echo \xff", true},
		{"echo ?", "echo \xff", true},
	}
	for _, tt := range tests {
		if got := MatchRule(tt.pattern, tt.command); got != tt.want {
			t.Errorf("MatchRule(%q, %q) = %v, want %v", tt.pattern, tt.command, got, tt.want)
		}
	}
	if !(Rule{Pattern: "make *"}).Match("make build") {
		t.Error("Rule.Match")
	}
}

// reference is opencode's matcher: the pattern becomes an anchored
// regular expression, "*" -> ".*", "?" -> ".", a trailing " *" optional.
func reference(pattern, command string) bool {
	p, err := NormalizeRule(pattern)
	if err != nil {
		return false
	}
	var b strings.Builder
	for _, r := range p {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	re := b.String()
	if s, ok := strings.CutSuffix(re, " .*"); ok {
		re = s + "( .*)?"
	}
	return regexp.MustCompile(`(?s)\A(?:` + re + `)\z`).MatchString(command)
}

func FuzzMatchRule(f *testing.F) {
	for _, s := range [][2]string{
		{"git push *", "git push origin"},
		{"a*b?c*", "aXXbYcZZ"},
		{"Bash(npm run:*)", "npm run x"},
		{"*a*a*a*a*a*b", strings.Repeat("a", 64)},
		{"é?*", "éé"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, command string) {
		got := MatchRule(pattern, command)
		if !utf8.ValidString(pattern) || !utf8.ValidString(command) {
			return // the reference works on characters; MatchRule only must not panic
		}
		if want := reference(pattern, command); got != want {
			t.Fatalf("MatchRule(%q, %q) = %v, reference says %v", pattern, command, got, want)
		}
	})
}

func BenchmarkMatchRuleWorstCase(b *testing.B) {
	pattern := strings.Repeat("*a", 20) + "b"
	command := strings.Repeat("a", 4096)
	for b.Loop() {
		MatchRule(pattern, command)
	}
}

func BenchmarkMatchRuleTypical(b *testing.B) {
	for b.Loop() {
		MatchRule("git push *", "git push origin main --force-with-lease")
	}
}

func ExampleMatchRule() {
	fmt.Println(MatchRule("git push *", "git push"))
	fmt.Println(MatchRule("git push *", "git push origin main"))
	fmt.Println(MatchRule("git push *", "git pushx"))
	fmt.Println(MatchRule("Bash(npm run:*)", "npm run build"))
	// Output:
	// true
	// true
	// false
	// true
}

func ExampleNormalizeRule() {
	for _, r := range []string{"Bash(git push:*)", "Bash(npm test)", "git  status   *"} {
		n, err := NormalizeRule(r)
		fmt.Printf("%q %v\n", n, err)
	}
	// Output:
	// "git push *" <nil>
	// "npm test" <nil>
	// "git status *" <nil>
}

func FuzzIsNormal(f *testing.F) {
	for _, s := range []string{"git push *", " x", "x ", "a  b", "a\tb", "Bash(x)", "Read(y)", "", "a\u00a0b", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		n, err := NormalizeRule(p)
		if isNormal(p) && (err != nil || n != p) {
			t.Fatalf("isNormal(%q) but NormalizeRule = %q, %v", p, n, err)
		}
	})
}
