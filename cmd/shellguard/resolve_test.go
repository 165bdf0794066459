package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/danger"
)

// checkBatch runs `shellguard check --batch -0` over lines and returns
// each line's result.
func checkBatch(t *testing.T, lines []string) []checkJSON {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(sgBinary(t), "check", "--batch", "-0")
	cmd.Env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "PATH=" + os.Getenv("PATH")}
	cmd.Dir = home
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\x00") + "\x00")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
	}
	var res []checkJSON
	sc := bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<22)
	for sc.Scan() {
		var r checkJSON
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("bad JSON %v: %s", err, sc.Text())
		}
		res = append(res, r)
	}
	if len(res) != len(lines) {
		t.Fatalf("%d results for %d lines: %s", len(res), len(lines), errOut.String())
	}
	return res
}

func level(r checkJSON) string {
	if r.Level == nil {
		return "none"
	}
	return r.Level.String()
}

func ruleNames(r checkJSON) []string {
	var out []string
	for _, w := range r.Warnings {
		out = append(out, w.Pattern.Name)
	}
	return out
}

// TestResolvedBinary: a line whose words the parser resolves statically
// (issue 12 section 5) gets the warning of the line written out, through
// the real binary; the nearest harmless forms get what their written-out
// form gets.
func TestResolvedBinary(t *testing.T) {
	pairs := []struct{ line, like string }{
		{`p=rm; $p -rf ~`, `rm -rf ~`},
		{`d=~; rm -rf "$d"`, `rm -rf ~`},
		{`export X=/; rm -rf $X`, `rm -rf /`},
		{`declare -r X=/etc; sudo rm -rf "$X"`, `sudo rm -rf /etc`},
		{`x=/; y=$x; rm -rf "$y"`, `rm -rf /`},
		{`a=(rm -rf ~); "${a[@]}"`, `rm -rf ~`},
		{`cmd='rm -rf'; $cmd ~`, `rm -rf ~`},
		{`for d in / ~; do rm -rf $d; done`, `rm -rf /`},
		{`for d in build ~; do rm -rf "$d"; done`, `rm -rf ~`},
		{`printf '%s\n' ~ | while read -r d; do rm -rf "$d"; done`, `rm -rf ~`},
		{`/???/?m -rf /`, `rm -rf /`},
		{`/bin/r? -rf ~`, `rm -rf ~`},
		{`/usr/bin/[r]m -rf /`, `rm -rf /`},
		{`/???/d? if=/dev/zero of=/dev/sda`, `dd if=/dev/zero of=/dev/sda`},
		{`$(which rm) -rf ~`, `rm -rf ~`},
		{`$(command -v rm) -rf /`, `rm -rf /`},
		{"`type -P rm` -rf ~", `rm -rf ~`},
		{`bash -c '$0 -rf $1' rm /`, `rm -rf /`},
		{`sh -c 'rm -rf "$1"' _ ~`, `rm -rf ~`},
		{`X=/ bash -c 'rm -rf "$X"'`, `rm -rf /`},
		{`echo / | xargs rm -rf`, `rm -rf /`},
		{`printf '%s\n' ~ | xargs -I{} rm -rf {}`, `rm -rf ~`},
		{`echo ~ | xargs sh -c 'rm -rf $0'`, `rm -rf ~`},
		{`read -r x <<< /; rm -rf $x`, `rm -rf /`},
		{`mapfile -t a <<< /etc; rm -rf "${a[@]}"`, `rm -rf /etc`},
		{`$(echo rm) -rf ~`, `rm -rf ~`},
		{`$(printf 'r%s' m) -rf /`, `rm -rf /`},
		{`rm${IFS}-rf${IFS}/`, `rm -rf /`},
		{`rm$IFS-rf$IFS~`, `rm -rf ~`},
		{`rm -rf /tmp/../../..`, `rm -rf /`},
		{`rm -rf ../../../../../../../../../..`, `rm -rf /`},
		{`f() { rm -rf "$1"; }; f ~`, `rm -rf ~`},
		{`rm -rf "$HOME"`, `rm -rf ~`},
		{"d=/; bash <<EOF\nrm -rf $d\nEOF", `rm -rf /`},
		{"cat <<'EOF' | bash\nrm -rf ~\nEOF", `rm -rf ~`},
		{`cat <<< 'rm -rf /' | sh`, `rm -rf /`},
		{`p=chmod; $p -R 777 /`, `chmod -R 777 /`},
		{`t=/dev/sda; dd if=/dev/zero of=$t`, `dd if=/dev/zero of=/dev/sda`},
		{`read -a c <<< "rm -rf /"; "${c[@]}"`, `rm -rf /`},
		{`echo 'rm -rf "$1"' | bash -s ~`, `rm -rf ~`},
		{`for f in /etc/passwd; do echo x > $f; done`, `echo x > /etc/passwd`},
		{`echo / | xargs sudo rm -rf`, `sudo rm -rf /`},
		// The nearest harmless forms.
		{`x=build; rm -rf "$x"`, `rm -rf build`},
		{`for d in build dist; do rm -rf "$d"; done`, `rm -rf build dist`},
		{`echo hi | xargs echo`, `echo hi`},
		{`echo build | xargs rm -rf`, `rm -rf build`},
		{`p=ls; $p -la`, `ls -la`},
		{`$(which python3) --version`, `python3 --version`},
		{`read -r x <<< build; rm -rf "$x"`, `rm -rf build`},
		{`bash -c 'rm -rf "$1"' _ dist`, `rm -rf dist`},
		{`rm -rf ./build/../dist`, `rm -rf dist`},
		{`echo "$HOME"`, `echo ~`},
	}
	var lines []string
	for _, p := range pairs {
		lines = append(lines, p.line, p.like)
	}
	res := checkBatch(t, lines)
	for i, p := range pairs {
		got, want := res[2*i], res[2*i+1]
		if level(got) != level(want) {
			t.Errorf("%q: %s %v, want %s like %q (%v)", p.line, level(got), ruleNames(got), level(want), p.like, ruleNames(want))
			continue
		}
		for _, name := range ruleNames(want) {
			if !slices.Contains(ruleNames(got), name) {
				t.Errorf("%q: rules %v, want %s like %q", p.line, ruleNames(got), name, p.like)
			}
		}
	}
	// Harmless forms the parser does not resolve (a glob, a pipe from a
	// program) warn no more than they did.
	for _, line := range []string{`for f in *.o; do rm "$f"; done`, `ls *.txt | xargs wc -l`, `x=$(date); echo "$x"`} {
		if r := checkBatch(t, []string{line})[0]; r.Dangerous && *r.Level >= danger.Medium {
			t.Errorf("%q: %s %v", line, level(r), ruleNames(r))
		}
	}
}

// TestResolvedNotApprovedBinary: a resolved word is still expanded when
// the line runs, so approving the written-out commands by prefix does not
// approve the line that builds them, and the read-only list does not
// allow it either.
func TestResolvedNotApprovedBinary(t *testing.T) {
	home := t.TempDir()
	dir := t.TempDir()
	for _, prefix := range []string{"rm build", "make build", "git status"} {
		if out, code := runIn(t, home, dir, "allow", "add", "--", prefix); code != 0 {
			t.Fatalf("allow add %q: %d %s", prefix, code, out)
		}
	}
	for _, tc := range []struct {
		line string
		want int
	}{
		{"ls -la", exitAllow},
		{"ls a; ls b", exitAllow},
		{"make build", exitAllow},
		{"git status", exitAllow},
		{"for f in a b; do ls $f; done", exitAsk},
		{"p=ls; $p -la", exitAsk},
		{"x=a; ls $x", exitAsk},
		{"t=build; make $t", exitAsk},
		{"echo build | xargs make", exitAsk},
		{"ls${IFS}-la", exitAsk},
		{"/bin/l? -la", exitAsk},
		{"$(which git) status", exitAsk},
		{"c=status; git $c", exitAsk},
		{"n=/dev/null; ls > $n", exitAsk},
		{"p=rm; $p -rf ~", exitDeny},
	} {
		if out, code := runIn(t, home, dir, "decide", "--", tc.line); code != tc.want {
			t.Errorf("decide %q: exit %d, want %d\n%s", tc.line, code, tc.want, out)
		}
	}
}
