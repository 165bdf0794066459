package programs

import (
	"fmt"
	"strings"
	"testing"
)

// sedCommands renders what SedScript reads: each command as its name,
// then [arg], {repl} and (flags) where set, and "!" when the script
// cannot be read.
func sedCommands(script string) string {
	var got []string
	ok := SedScript(script, func(cmd SedCommand) bool {
		s := string(cmd.Name)
		if cmd.Arg != "" {
			s += "[" + cmd.Arg + "]"
		}
		if cmd.Repl != "" {
			s += "{" + cmd.Repl + "}"
		}
		if cmd.Flags != "" {
			s += "(" + cmd.Flags + ")"
		}
		got = append(got, s)
		return true
	})
	if !ok {
		got = append(got, "!")
	}
	return strings.Join(got, " ")
}

// TestSedScript: the commands SedScript reads in a script, and what
// SedDangerous says of it.
func TestSedScript(t *testing.T) {
	for _, c := range []struct {
		script string
		cmds   string // as sedCommands renders them
		danger string // SedDangerous
	}{
		{"p", "p", ""},
		{"p;d", "p d", ""},
		{"1~2p;$q 3", "p q", ""},
		{"/x/{p;b}", "p b", ""},
		{"/x/Ip;\\,y,Md", "p d", ""},
		{"\\,x,Ip", "p", ""},
		{"r /etc/passwd", "r[ /etc/passwd]", ""},
		{"e ls -l\np", "e[ ls -l] p", "e"},
		{"e ls", "e[ ls]", "e"},
		{"1e", "e", "e"},
		{"w out.txt", "w[ out.txt]", "w"},
		{"/x/W out", "W[ out]", "W"},
		// A label ends at a newline, ';' or '}' (GNU sed).
		{":a;N;ba", ":[a] N b[a]", ""},
		{": a ;e ls", ":[ a ] e[ ls]", "e"},
		{":a;e ls", ":[a] e[ ls]", "e"},
		{"b end;p", "b[ end] p", ""},
		{"b}e ls", "b e[ ls]", "e"},
		// a\ continues on the lines ending in a backslash.
		{"a\\\nfoo\\\nbar\np", "a[\\\nfoo\\\nbar] p", ""},
		{"a foo\\\\\np", "a[ foo\\\\] p", ""},
		{"i\\", "i[\\]", ""},
		{"s/a/b/", "s{b}", ""},
		{"s/a/b/g", "s{b}(g)", ""},
		{"s,a,b\\,c,gpe", "s{b\\,c}(gpe)", "s///e"},
		{"s/a/b/e", "s{b}(e)", "s///e"},
		{"s/a/b/2w f;p", "s[ f;p]{b}(2w)", "s///w"},
		{"s/a/b/pw out", "s[ out]{b}(pw)", "s///w"},
		{"s/a/b/ew out", "s[ out]{b}(ew)", "s///e"},
		{"y/ab/cd/;=", "y =", ""},
		{"# comment e ls\nF", "F", ""},
		// Scripts sed rejects.
		{"s/a\nb/c/", "!", "?"},
		{"s\\a\\b\\", "!", "?"},
		{"s/a/b", "!", "?"},
		{"/unterminated", "!", "?"},
		{"\\", "!", "?"},
		{"k", "!", "?"},
		{"p;k;e ls", "p !", "?"},
	} {
		if got := sedCommands(c.script); got != c.cmds {
			t.Errorf("SedScript(%q) = %s, want %s", c.script, got, c.cmds)
		}
		if got := SedDangerous(c.script); got != c.danger {
			t.Errorf("SedDangerous(%q) = %q, want %q", c.script, got, c.danger)
		}
	}
}

// TestSedScriptStops checks that SedScript stops when visit says so.
func TestSedScriptStops(t *testing.T) {
	n := 0
	ok := SedScript("p;e ls;k", func(SedCommand) bool { n++; return n < 2 })
	if !ok || n != 2 {
		t.Errorf("SedScript stopped after %d commands, ok %v; want 2, true", n, ok)
	}
}

func ExampleSedScript() {
	SedScript("/^#/d;s/x/&&/e", func(c SedCommand) bool {
		fmt.Printf("%c %q %q\n", c.Name, c.Repl, c.Flags)
		return true
	})
	// Output:
	// d "" ""
	// s "&&" "e"
}
