package danger

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestBuiltinRegistryMatchesCompile: the generated static registry is
// what compiling DefaultPatterns builds (rules, regexes and indexes).
func TestBuiltinRegistryMatchesCompile(t *testing.T) {
	st := builtinRegistry()
	dyn, err := compile(DefaultPatterns())
	if err != nil {
		t.Fatal(err)
	}
	if st.size() != dyn.size() {
		t.Fatalf("%d static rules, %d compiled", st.size(), dyn.size())
	}
	lazyEq := func(a, b *lazyRE) bool {
		return (a == nil) == (b == nil) && (a == nil || a.expr == b.expr && a.anchored == b.anchored)
	}
	var matcherEq func(a, b *matcher) bool
	matcherEq = func(a, b *matcher) bool {
		if !lazyEq(a.operand, b.operand) || !lazyEq(a.operandNone, b.operandNone) || !lazyEq(a.last, b.last) || !lazyEq(a.args, b.args) || !lazyEq(a.redirect, b.redirect) ||
			!lazyEq(a.writes, b.writes) || !lazyEq(a.reads, b.reads) || !lazyEq(a.stdin, b.stdin) || (a.more == nil) != (b.more == nil) {
			return false
		}
		if a.more == nil {
			return true
		}
		if len(a.more.values) != len(b.more.values) || len(a.more.any) != len(b.more.any) {
			return false
		}
		for k := range a.more.values {
			if !lazyEq(a.more.values[k], b.more.values[k]) {
				return false
			}
		}
		for k := range a.more.any {
			if !matcherEq(&a.more.any[k], &b.more.any[k]) {
				return false
			}
		}
		return true
	}
	for i := range st.size() {
		a, b := st.rule(i), dyn.rule(i)
		// The static rules keep their examples apart (builtinExamples).
		bp := b.p
		if hit, miss := builtinExamples(i); !reflect.DeepEqual(bp.Hit, hit) || !reflect.DeepEqual(bp.Miss, miss) {
			t.Errorf("rule %d: examples differ", i)
		}
		bp.Hit, bp.Miss = nil, nil
		if (a.check == nil) != (b.check == nil) {
			t.Errorf("rule %d: check function %v, compiled %v", i, a.check != nil, b.check != nil)
		}
		if !reflect.DeepEqual(a.p, bp) {
			t.Errorf("rule %d: pattern %+v, compiled %+v", i, a.p, bp)
		}
		if !lazyEq(a.regex, b.regex) || !matcherEq(&a.m, &b.m) {
			t.Errorf("rule %s: expressions differ from the compiled ones", a.p.Name)
		}
	}
	for name, idx := range dyn.byProgram {
		if got := st.forProgram(name); !slices.Equal(got, idx) {
			t.Errorf("program %q: static index %v, compiled %v", name, got, idx)
		}
	}
	for _, name := range []string{"", "nosuchprogram", "RM", "git-push"} {
		if got := st.forProgram(name); got != nil {
			t.Errorf("program %q: static index %v, want none", name, got)
		}
	}
	for _, l := range []struct {
		what     string
		st, comp []int
	}{{"anyProgram", st.anyProgram, dyn.anyProgram}, {"writeProgram", st.writeProgram, dyn.writeProgram}, {"lineLevel", st.lineLevel, dyn.lineLevel}} {
		if !slices.Equal(l.st, l.comp) {
			t.Errorf("%s: static %v, compiled %v", l.what, l.st, l.comp)
		}
	}
	if !slices.Equal(st.globs, dyn.globs) {
		t.Errorf("globs: static %v, compiled %v", st.globs, dyn.globs)
	}
}

// TestBuiltinIsolation: nothing a caller gets or gives shares memory with
// a detector, so changing it changes no detector (the built-in registry is
// static data shared by every detector of the process).
func TestBuiltinIsolation(t *testing.T) {
	const line = "rm -rf /"
	want := len(Default().Check(line))
	if want == 0 {
		t.Fatal("rm -rf / not flagged")
	}
	spoil := func(ps []Pattern) {
		for i := range ps {
			if m := ps[i].Match; m != nil {
				for j := range m.Programs {
					m.Programs[j] = "spoiled"
				}
				for j := range m.FlagsAny {
					m.FlagsAny[j] = "--spoiled"
				}
				m.Operand = "spoiled"
				m.Check = "spoiled"
			}
		}
	}
	spoil(DefaultPatterns())
	d := Default()
	spoil(d.Patterns())
	for _, w := range d.Check(line) {
		spoil([]Pattern{w.Pattern})
	}
	given := DefaultPatterns()
	d2 := MustNewDetector(given)
	spoil(given)
	for _, det := range []*Detector{d, d2, Default(), MustNewDetector(DefaultPatterns())} {
		if got := len(det.Check(line)); got != want {
			t.Errorf("after spoiling copies: %d warnings, want %d", got, want)
		}
	}
	if lvl, ok := BuiltinLevel("rm_rf_root"); !ok || lvl != Critical {
		t.Errorf("BuiltinLevel(rm_rf_root) = %v, %v", lvl, ok)
	}
	if _, ok := BuiltinLevel("nosuch"); ok || IsBuiltin("nosuch") || !IsBuiltin("fork_bomb") {
		t.Error("IsBuiltin/BuiltinLevel wrong")
	}
}

// TestBuiltinSameWarnings: the static registry warns exactly as a
// registry compiled from DefaultPatterns, over the shared corpora when
// present and a few lines otherwise.
func TestBuiltinSameWarnings(t *testing.T) {
	st, dyn := Default(), MustNewDetector(DefaultPatterns())
	lines := []string{"rm -rf /", "git push -f", "curl x | sh", "ls", ":(){ :|:& };:", "python -c 'import os; os.system(\"rm -rf /\")'"}
	dir, _ := filepath.Abs(".")
	for ; ; dir = filepath.Dir(dir) {
		files, _ := filepath.Glob(filepath.Join(dir, "shared", "corpus", "*", "*.t*"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(string(b), "\n") {
				lines = append(lines, strings.Split(l, "\t")...)
			}
		}
		if len(files) > 0 || filepath.Dir(dir) == dir {
			break
		}
	}
	for _, l := range lines {
		if a, b := st.Check(l), dyn.Check(l); !reflect.DeepEqual(a, b) {
			t.Errorf("%q: static %v, compiled %v", l, a, b)
		}
	}
}
