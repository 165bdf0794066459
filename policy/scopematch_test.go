package policy

import (
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzMatchName checks matchName's shortcuts against path.Match.
func FuzzMatchName(f *testing.F) {
	for _, pat := range append(append([]string{"a*", "*a", "*", "a/*", "*/a", "a\\*", "[a]*", "*.ppk", ".env*"}, secretNames...), secretSystem...) {
		for _, name := range []string{"", "a", "ab", "ba", "a/b", "b/a", ".env", ".env.local", ".envrc", "x.ppk", "d/x.ppk", "*", "a*"} {
			f.Add(pat, name)
		}
	}
	f.Fuzz(func(t *testing.T, pat, name string) {
		want, err := path.Match(pat, name)
		if err != nil {
			return
		}
		if got := matchName(pat, name); got != want {
			t.Errorf("matchName(%q, %q) = %v, path.Match says %v", pat, name, got, want)
		}
	})
}

// FuzzWithin checks within and parent against their definitions by
// strings.HasPrefix and filepath.Dir.
func FuzzWithin(f *testing.F) {
	for _, s := range [][2]string{{"/a/b", "/a"}, {"/ab", "/a"}, {"/a", "/a"}, {"/a", "/"}, {"/", "/a"}, {"", ""}, {"/a", ""}, {"a", ""}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, p, dir string) {
		want := p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
		if got := within(p, dir); got != want {
			t.Errorf("within(%q, %q) = %v, want %v", p, dir, got, want)
		}
		if c := filepath.Clean(p); strings.HasPrefix(c, "/") && c != "/" {
			if got, want := parent(c), filepath.Dir(c); got != want {
				t.Errorf("parent(%q) = %q, filepath.Dir says %q", c, got, want)
			}
		}
	})
}

// FuzzSecretBelow checks secretBelow's shortcut against the plain walk over
// every home and system secret.
func FuzzSecretBelow(f *testing.F) {
	for _, p := range []string{"/", "/etc", "/etc/ssh", "/etc/ssl", "/et", "/etcx", "/proc", "/proc/1", "/home", "/work/x", "/root/a", "/private", "/private/etc", "/usr", ""} {
		f.Add(p)
	}
	sc := &scope{home: "/home/u", homeDone: true, homeReal: "/data/u", resolved: map[string]string{}}
	f.Fuzz(func(t *testing.T, p string) {
		want := false
		for _, h := range []string{sc.homeReal, sc.home, "/home", "/root", "/Users", "/proc", "/private/etc"} {
			want = want || within(h, p)
		}
		for _, s := range secretSystem {
			want = want || within(s, p) || within(filepath.Dir(s), p)
		}
		if got := sc.secretBelow(p); got != want {
			t.Errorf("secretBelow(%q) = %v, want %v", p, got, want)
		}
	})
}
