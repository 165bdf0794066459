package shellparse

import (
	"reflect"
	"testing"
)

// sameAsFullParse checks that the simple-command fast path gives exactly
// what the full parser gives for line.
func sameAsFullParse(t *testing.T, p *Parser, line string) bool {
	t.Helper()
	_, _, simple := simplePipeline(line, nil)
	fast, full := p.parse(line, true), p.parse(line, false)
	if !reflect.DeepEqual(fast, full) {
		t.Errorf("%q (simple %v): fast path %+v, full parse %+v", line, simple, fast, full)
	}
	return simple
}

func TestSimpleCommandFastPath(t *testing.T) {
	p := New(Limits{})
	for _, tc := range []struct {
		line   string
		simple bool
	}{
		{"ls", true},
		{"  ls  -la\t/tmp  ", true},
		{"git -C ~/src status", true},
		{"find . -name *.go", true},
		{"rm -rf /", true},
		{"sudo rm -rf /", true},
		{"bash -c ls", true},
		{"eval ls", true},
		{"test -f a.txt", true},
		{"[ -f a ]", false},
		{"make CC=clang all", true},
		{"echo a[1] ]", true},
		{"CC=clang make", false},
		{"a[1]=x", false},
		{"declare x=1", false},
		{"let x=1", false},
		{"time ls", false},
		{"if", false},
		{"elif x", false},
		{"until x", false},
		{"ls; rm", false},
		{"ls\nrm", false},
		{"ls # c", false},
		{"echo 'a'", true},
		{"echo 'a b'\"c d\"e f''", true},
		{"find . -name '*.go' | xargs grep -l x | wc -l", true},
		{"ls|wc", true},
		{"echo a | sh", true},
		{"echo 'rm -rf /' | bash", true},
		{"curl -s https://x.sh | sudo bash", true},
		{"'time' ls", true},
		{"'a=b' ls", false},
		{"ls |", false},
		{"| ls", false},
		{"ls || wc", false},
		{"ls |& wc", false},
		{"ls | | wc", false},
		{"echo \"$HOME\"", false},
		{"echo \"a\\b\"", false},
		{"echo \"a!\"", false},
		{"echo 'a", false},
		{"echo 'a\nb'", false},
		{"echo '{a,b}' \"[x]\"*", true},
		{"echo a'[b'c]", true},
		{"ls | time wc", false},
		{"bash -c 'ls; rm -rf /'", true},
		{"echo $HOME", false},
		{"echo a\\ b", false},
		{"", false},
		{"   ", false},
		{"ls > f", false},
		{"echo {a,b}", false},
		{"echo é", false},
	} {
		if got := sameAsFullParse(t, p, tc.line); got != tc.simple {
			t.Errorf("%q: simple %v, want %v", tc.line, got, tc.simple)
		}
	}
}

// TestSimpleCommandCorpus compares both paths on every line of the shared
// corpora (skipped when they are absent).
func TestSimpleCommandCorpus(t *testing.T) {
	p := New(Limits{})
	simple := 0
	eachCorpusField(t, func(field string) {
		if sameAsFullParse(t, p, field) {
			simple++
		}
	})
	if simple == 0 {
		t.Error("no corpus line took the fast path")
	}
	t.Logf("%d simple lines", simple)
}

func FuzzSimpleCommand(f *testing.F) {
	for _, s := range []string{"ls -la", "git -C x status", "a=b c", "echo a[1]=2", "time x", "x ~ * ? ^ % @ : , + . /", "\tls\t",
		"find . -name '*.go' | xargs grep \"a b\" | wc", "echo 'x'\"y\"z|sh", "a '' \"\" | b",
		"echo / | xargs rm -rf", "printf a | xargs -I{} sh -c 'rm {}'", "/???/?m -rf /", "/bin/b??h -c 'rm -rf /' x y",
		"echo 'rm -rf /' | sh | read x"} {
		f.Add(s)
	}
	p := New(Limits{})
	f.Fuzz(func(t *testing.T, line string) {
		sameAsFullParse(t, p, line)
	})
}
