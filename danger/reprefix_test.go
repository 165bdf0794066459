package danger

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unsafe"

	"github.com/shellguard/shellguard/danger/internal/reprefix"
)

// builtinLazy returns every lazy expression of the built-in registry
// (rules, their values and alternatives, flow sources and sinks).
func builtinLazy() []*lazyRE {
	var out []*lazyRE
	seen := map[*lazyRE]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				return
			}
			if l, ok := v.Interface().(*lazyRE); ok {
				if !seen[l] {
					seen[l] = true
					out = append(out, l)
				}
				return
			}
			walk(v.Elem())
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				walk(exported(v.Field(i)))
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	for i := range builtinCount {
		walk(reflect.ValueOf(builtinRuleAt(i)).Elem())
	}
	walk(reflect.ValueOf(&builtinSources).Elem())
	walk(reflect.ValueOf(&builtinSinks).Elem())
	return out
}

// exported makes an unexported field of an addressable struct readable.
func exported(f reflect.Value) reflect.Value {
	if f.CanInterface() || !f.CanAddr() {
		return f
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// TestPrefixes: the prefixes rules_gen.go holds are reprefix's (rerun go
// generate when it changes), and with them every anchored expression
// answers as the plain expression does on the rules' examples and their
// suffixes.
func TestPrefixes(t *testing.T) {
	all := builtinLazy()
	if len(all) < 100 {
		t.Fatalf("found only %d expressions", len(all))
	}
	var words []string
	for i := range builtinCount {
		hit, miss := builtinExamples(i)
		for _, l := range append(hit, miss...) {
			for _, w := range append(strings.Fields(l), l) {
				for k := 0; k < len(w); k++ {
					words = append(words, w[k:])
				}
			}
		}
	}
	words = append(words, "/dev/null", "", "~", "$HOME/.ssh/config", "/etc/shadow-", "\xff")
	with := 0
	for _, l := range all {
		if !l.anchored {
			if l.pre != "" {
				t.Errorf("%q is not anchored but has prefixes %q", l.expr, l.pre)
			}
			continue
		}
		// A few strings make the whole language: then no prefixes.
		all, _ := reprefix.Exact(l.expr)
		if want := reprefix.Join(all); l.whole != want {
			t.Errorf("%q: rules_gen.go has the language %q, reprefix %q: run go generate ./danger", l.expr, l.whole, want)
		}
		if l.whole != "" {
			if l.pre != "" || l.need != "" {
				t.Errorf("%q: a whole language and filters", l.expr)
			}
			continue
		}
		ps, _ := reprefix.Of(l.expr)
		if want := reprefix.Join(ps); l.pre != want {
			t.Errorf("%q: rules_gen.go has prefixes %q, reprefix %q: run go generate ./danger", l.expr, l.pre, want)
		}
		ns, _ := reprefix.Needs(l.expr)
		if want := reprefix.Join(ns); l.need != want {
			t.Errorf("%q: rules_gen.go needs %q, reprefix %q: run go generate ./danger", l.expr, l.need, want)
		}
		if pre, ok := vetted(l.expr); ok && pre != l.pre {
			t.Errorf("%q: vetted gives %q, the literal %q", l.expr, pre, l.pre)
		}
		if l.pre == "" {
			continue
		}
		with++
		re := regexp.MustCompile(l.source())
		fresh := &lazyRE{expr: l.expr, anchored: true, pre: l.pre}
		for _, w := range words {
			if got, want := fresh.MatchString(w), re.MatchString(w); got != want {
				t.Fatalf("%q on %q: %v, want %v", l.expr, w, got, want)
			}
		}
	}
	t.Logf("%d of %d expressions have prefixes", with, len(all))
}

// TestDevNullCompilesNothing: /dev/null, the commonest redirection
// target, is rejected by the filters of the rules' writes and reads
// expressions (whole languages, prefixes, needed pieces), without
// compiling them, but for a few that can start with anything.
func TestDevNullCompilesNothing(t *testing.T) {
	var ls []*lazyRE
	var add func(m *matcher)
	add = func(m *matcher) {
		ls = append(ls, m.writes, m.reads, m.redirect)
		if m.more != nil {
			for k := range m.more.any {
				add(&m.more.any[k])
			}
		}
	}
	for i := range builtinCount {
		add(&builtinRuleAt(i).m)
	}
	total, compiled := 0, 0
	for _, l := range ls {
		if l == nil {
			continue
		}
		total++
		fresh := &lazyRE{expr: l.expr, anchored: l.anchored, pre: l.pre, whole: l.whole, need: l.need, vetted: l.vetted, first: l.first, firstOK: l.firstOK}
		fresh.MatchString("/dev/null")
		if fresh.re != nil {
			compiled++
		}
	}
	t.Logf("/dev/null compiles %d of %d writes, reads and redirect expressions", compiled, total)
	if total < 20 || compiled > 3 {
		t.Errorf("/dev/null compiles %d of the %d writes, reads and redirect expressions", compiled, total)
	}
}
