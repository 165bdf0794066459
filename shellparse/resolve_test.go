package shellparse_test

import (
	"strings"
	"testing"

	"github.com/shellguard/shellguard/shellparse"
)

// argvs returns each invocation's argv joined by spaces.
func argvs(r *shellparse.Result) []string {
	var out []string
	for _, inv := range r.Invocations {
		out = append(out, strings.Join(inv.Argv(), " "))
	}
	return out
}

func hasArgv(r *shellparse.Result, want string) *shellparse.Invocation {
	for i := range r.Invocations {
		if strings.Join(r.Invocations[i].Argv(), " ") == want {
			return &r.Invocations[i]
		}
	}
	return nil
}

// TestResolve: what bash resolves statically within the line, the parser
// resolves too; the resolved words keep their mark (Resolved), so that the
// invocation stays Dynamic.
func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string // argvs that must be among the invocations
	}{
		// Variables assigned a constant.
		{`p=rm; $p -rf ~`, []string{"rm -rf ~"}},
		{`d=~; rm -rf "$d"`, []string{"rm -rf ~"}},
		{`d=~/x; rm -rf "$d"/..`, []string{"rm -rf ~/x/.."}},
		{`export X=/; rm -rf $X`, []string{"rm -rf /"}},
		{`declare -x X=/; rm -rf ${X}`, []string{"rm -rf /"}},
		{`readonly X=/ Y=~; rm -rf "$X" "$Y"`, []string{"rm -rf / ~"}},
		{`x=rm; y=$x; $y -rf /`, []string{"rm -rf /"}},
		{`a=r b=m; $a$b -rf /`, []string{"rm -rf /"}},
		{`x=rm x=$x-x; $x`, []string{"rm-x"}},
		{`p=r; p+=m; $p -rf /`, []string{"rm -rf /"}},
		{`x='rm -rf /'; $x`, []string{"rm -rf /"}},
		{`x='  rm   -rf /  '; $x`, []string{"rm -rf /"}},
		{`IFS=,; x=rm,-rf,/; $x`, []string{"rm -rf /"}},
		{`a=(rm -rf /); "${a[@]}"`, []string{"rm -rf /"}},
		{`a=(rm -rf /); ${a[0]} ${a[1]} ${a[2]}`, []string{"rm -rf /"}},
		{`x=; $x rm -rf /`, []string{"rm -rf /"}},
		{`x=/; rm -rf ${x:-/tmp} ${y:-~}`, []string{}},
		{`x=/; rm -rf ${x:-/tmp}`, []string{"rm -rf /"}},
		{`x=/usr/; rm -rf ${x%/}`, []string{"rm -rf /usr"}},
		{`x=ab; echo ${#x}`, []string{"echo 2"}},
		{`readonly p=rm; $p -rf /`, []string{"rm -rf /"}},
		{`f() { local p=rm; $p -rf /; }; f`, []string{"rm -rf /"}},
		{`p=rm; unset q; $p -rf /$q`, []string{"rm -rf /"}},
		{`printf -v p %s rm; $p -rf /`, []string{"rm -rf /"}},
		{`p=rm; printf -v p %s ls; $p -la`, []string{"ls -la"}},
		{`f=/etc/passwd; echo x > $f`, []string{"echo x"}},
		{`for f in /etc/passwd /etc/shadow; do echo x > $f; done`, []string{"echo x"}},
		// Loops over literal lists: each command using the variable
		// runs once per value.
		{`for d in / ~; do rm -rf $d; done`, []string{"rm -rf /", "rm -rf ~"}},
		{`for d in "/" '~'; do rm -rf "$d"; done`, []string{"rm -rf /", "rm -rf ~"}},
		{`for d in {a,b}; do for e in 1 2; do cp $d $e; done; done`, []string{"cp a 1", "cp a 2", "cp b 1", "cp b 2"}},
		{`for d in /; do x=$d; rm -rf $x; done`, []string{"rm -rf /"}},
		{`set -- / ~; for d; do rm -rf $d; done`, []string{"rm -rf /", "rm -rf ~"}},
		{`while read d; do rm -rf "$d"; done <<< /`, []string{"rm -rf /"}},
		{`printf '%s\n' / ~ | while read -r d; do rm -rf "$d"; done`, []string{"rm -rf /", "rm -rf ~"}},
		// Globs as program paths: every program they could name.
		{`/???/?m -rf /`, []string{"/bin/rm -rf /"}},
		{`/bin/r? -rf /`, []string{"/bin/rm -rf /"}},
		{`/usr/bin/[r]m -rf /`, []string{"/usr/bin/rm -rf /"}},
		{`/usr/bin/[!a]m -rf /`, []string{"/usr/bin/rm -rf /"}},
		{`sudo /???/?m -rf /`, []string{"/bin/rm -rf /"}},
		{`/???/b??h -c 'rm -rf /'`, []string{"/bin/bash -c rm -rf /", "rm -rf /"}},
		// Lookups and echo/printf in $(...).
		{`$(which rm) -rf /`, []string{"/usr/bin/rm -rf /"}},
		{`$(command -v rm) -rf /`, []string{"/usr/bin/rm -rf /"}},
		{"`type -P rm` -rf /", []string{"/usr/bin/rm -rf /"}},
		{`$(echo rm) -rf /`, []string{"rm -rf /"}},
		{`$(echo rm -rf /)`, []string{"rm -rf /"}},
		{`$(printf rm) -rf /`, []string{"rm -rf /"}},
		{`$(printf '\x72\x6d') -rf /`, []string{"rm -rf /"}},
		{`$(printf '%s' r m) -rf /`, []string{"rm -rf /"}},
		{`x=$(echo rm); $x -rf /`, []string{"rm -rf /"}},
		{"x=`echo /`; rm -rf $x", []string{"rm -rf /"}},
		{`$(cat <<< rm) -rf /`, []string{"rm -rf /"}},
		// $IFS splits when the line does not set it.
		{`rm${IFS}-rf${IFS}/`, []string{"rm -rf /"}},
		{`rm$IFS-rf$IFS/`, []string{"rm -rf /"}},
		{`{rm,-rf,/}`, []string{"rm -rf /"}},
		// Positional parameters of a shell's -c string.
		{`bash -c '$0 -rf $1' rm /`, []string{"rm -rf /"}},
		{`sh -c 'rm -rf "$@"' _ / ~`, []string{"rm -rf / ~"}},
		{`bash -c 'rm -rf $*' _ /`, []string{"rm -rf /"}},
		{`bash -c 'x=$1; rm -rf $x' _ /`, []string{"rm -rf /"}},
		{`X=/ bash -c 'rm -rf $X'`, []string{"rm -rf /"}},
		{`sudo sh -c 'rm -rf $1' _ /`, []string{"rm -rf /"}},
		{`export X=/; bash -c 'rm -rf $X'`, []string{"rm -rf /"}},
		{`X=/; p=rm; eval "$p -rf \$X"`, []string{"rm -rf /"}},
		{`set -- rm /; "$1" -rf "$2"`, []string{"rm -rf /"}},
		{`set -- x rm /; shift; "$1" -rf "$2"`, []string{"rm -rf /"}},
		// printf/echo into xargs or a shell.
		{`echo / | xargs rm -rf`, []string{"rm -rf /"}},
		{`echo / ~ | xargs -n1 rm -rf`, []string{"rm -rf / ~"}},
		{`printf '%s\n' / | xargs -I{} rm -rf {}`, []string{"rm -rf /"}},
		{`printf '/\n~\n' | xargs -I % rm -rf %`, []string{"rm -rf /", "rm -rf ~"}},
		{`printf '/\0' | xargs -0 rm -rf`, []string{"rm -rf /"}},
		{`echo "'a b'" c | xargs rm`, []string{"rm a b c"}},
		{`echo / | xargs sh -c 'rm -rf $0'`, []string{"rm -rf /"}},
		{`p=rm; echo "$p -rf /" | sh`, []string{"rm -rf /"}},
		// read and mapfile from a here-string.
		{`read -r x <<< /; rm -rf $x`, []string{"rm -rf /"}},
		{`read x y <<< '/ ~ z'; rm -rf $x $y`, []string{"rm -rf / ~ z"}},
		{`read <<< ' / '; rm -rf $REPLY`, []string{"rm -rf /"}},
		{`IFS= read -r x <<< ' / '; rm -rf "$x"`, []string{"rm -rf  / "}},
		{`mapfile -t a <<< /; rm -rf "${a[@]}"`, []string{"rm -rf /"}},
		{`{ read a; read b; rm -rf $b; } <<< $'x\n/'`, []string{"rm -rf /"}},
		// Functions called with arguments: the body runs with them.
		{`f() { rm -rf "$1"; }; f ~`, []string{"rm -rf ~"}},
		{`d=/; f(){ rm -rf $d; }; f`, []string{"rm -rf /"}},
		{`f(){ g $1; }; g(){ rm -rf $1; }; f /`, []string{"rm -rf /"}},
		// HOME is the home directory, written ~.
		{`rm -rf "$HOME"`, []string{"rm -rf ~"}},
		{`rm -rf "${HOME:?}"/`, []string{"rm -rf ~/"}},
		{`read -r t <<< "$HOME"; rm -rf "$t"`, []string{"rm -rf ~"}},
		{`for c in rm; do $c -rf ~; done`, []string{"rm -rf ~"}},
		{`bash -c 'rm -rf $1'`, []string{"rm -rf"}},
		{`read -a arr <<< "rm -rf /"; "${arr[@]}"`, []string{"rm -rf /"}},
		{`echo 'rm -rf $1' | bash -s /`, []string{"rm -rf /"}},
		{`bash -s -- / <<< 'rm -rf "$1"'`, []string{"rm -rf /"}},
		{`echo / | xargs sudo rm -rf`, []string{"rm -rf /"}},
		// Heredocs and here-strings fed to a shell, resolved.
		{"d=/; bash <<EOF\nrm -rf $d\nEOF", []string{"rm -rf /"}},
		{`d=/; sh <<< "rm -rf $d"`, []string{"rm -rf /"}},
	} {
		r := shellparse.Parse(tc.line)
		if !r.OK() {
			t.Errorf("%q: %v", tc.line, r.Problems)
		}
		for _, want := range tc.want {
			inv := hasArgv(r, want)
			if inv == nil {
				t.Errorf("%q: no %q among %q", tc.line, want, argvs(r))
				continue
			}
			if inv.Resolved() == "" && !strings.HasPrefix(tc.line, "{") && inv.Depth == 0 && !strings.Contains(tc.line, "eval") {
				t.Errorf("%q: %q is not marked resolved", tc.line, want)
			}
			if !inv.Dynamic() && inv.Depth == 0 && !strings.HasPrefix(tc.line, "{") {
				t.Errorf("%q: %q not Dynamic", tc.line, want)
			}
		}
	}
}

// TestResolveNot: whatever may have changed a variable makes it unknown
// from there on (never an earlier constant), and what bash would decide
// at run time stays dynamic.
func TestResolveNot(t *testing.T) {
	for _, line := range []string{
		`p=rm; p=$(date); $p -rf /`,
		`p=rm; read p; $p -rf /`,
		`p=rm; read -a p < f; $p -rf /`, `p=rm; read -ra p <<< "$q"; $p -rf /`,
		`p=rm; printf -v p "$q"; $p -rf /`,
		`p=rm; declare p=$(date); $p -rf /`,
		`p=rm; export p=$q; $p -rf /`,
		`p=rm; mapfile p < f; $p -rf /`,
		`p=rm; let p=1; $p -rf /`,
		`p=rm; ((p++)); $p -rf /`,
		`p=rm; echo $((p=1)); $p -rf /`,
		`p=rm; : ${p:=x}; $p -rf /`,
		`p=rm; getopts ab p; $p -rf /`,
		`p=rm; f() { p=ls; }; f; $p -rf /`,
		`p=rm; (p=ls); $p -rf /`,
		`p=rm; $(p=ls) ; $p -rf /`,
		`p=rm; p=ls & $p -rf /`,
		`p=rm; for i in 1; do p=ls; done; $p -rf /`,
		`p=rm; while false; do p=ls; done; $p -rf /`,
		`p=rm; if x; then p=ls; fi; $p -rf /`,
		`p=rm; if x; then :; else p=ls; fi; $p -rf /`,
		`p=rm; case x in x) p=ls;; esac; $p -rf /`,
		`p=rm; true && p=ls; $p -rf /`,
		`p=rm; false || p=ls; $p -rf /`,
		`p=rm; echo ls | read p; $p -rf /`,
		`p=rm; eval "$q"; $p -rf /`,
		`p=rm; source ./x; $p -rf /`,
		`p=rm; . ./x; $p -rf /`,
		`p=rm; $q; $p -rf /`,
		`p=rm; trap 'p=ls' DEBUG; $p -rf /`,
		`p=rm; declare -n r=p; r=ls; $p -rf /`,
		`p=rm; declare -u p; p=ls; $p -rf /`,
		`p=rm; while read p; do :; done < f; $p -rf /`,
		`p=rm; command read p; $p -rf /`,
		`p=rm; x=read; $x p; $p -rf /`,
		`p=rm; mapfile -C 'p=ls' a < f; $p -rf /`,
		// Assignments that fail keep the value, which the parser does not
		// follow; variables bash sets itself are never known.
		`readonly p=rm; p=ls; $p -rf /`, `readonly p=rm; unset p; $p -rf /`, `declare -r p=rm; p=ls; $p -rf /`,
		`p=rm; readonly p; p=ls; $p -rf /`, `p=rm; local p=ls; $p -rf /`, `RANDOM=1; rm -rf /$RANDOM`,
		`PWD=/; rm -rf $PWD`, `UID=0; rm -rf /$UID`,
		// A function of the line shadows the builtin the parser emulates.
		`echo() { printf rm; }; $(echo ls) -rf /`, `which() { :; }; $(which rm) -rf /`,
		// Loop variables and lists bash cannot know statically.
		`for d in $(ls); do rm -rf $d; done`,
		`for d in "$@"; do rm -rf $d; done`,
		`for ((i=0; i<2; i++)); do rm -rf $i; done`,
		`select d in a b; do rm -rf $d; done`,
		`for d in a b; do :; done; rm -rf $d`,
		// Not assigned in the line: the environment's.
		`rm -rf $USER`, `rm -rf $1`, `X=/; bash -c 'rm -rf $X'`,
		`export X=/; sudo bash -c 'rm -rf $X'`, `export X=/; ssh h 'rm -rf $X'`,
		`find . -exec sh -c 'rm -rf $1' _ {} \;`, `printf '%s\n' a b | xargs -n1 sh -c 'rm -rf $0'`,
		// What looks at the characters of ~ (whose path is not known).
		`rm -rf ${HOME:0:1}etc`, `d=~; rm -rf ${d:0:1}`, `rm -rf ${HOME%/*}`, `d=$HOME; echo ${#d}; rm -rf /x${#d}`,
		// A changed HOME or IFS that is not known.
		`HOME=$(pwd); rm -rf "$HOME"`, `eval "$x"; rm -rf "$HOME"`,
		`IFS=$(date); x=rm; $x -rf /`,
		// Substitutions the parser does not emulate.
		`$(date) -rf /`, `$(echo $q) -rf /`, `$(which $q) -rf /`, `$(ls | head -1) -rf /`,
		`rm -rf ${x//a/b}`,
		// Input that is not known, or read already.
		`cat f | xargs rm -rf`, `{ cat; read x; rm -rf $x; } <<< /`, `while read d; do rm -rf $d; done < f`,
		`ls | while read d; do rm -rf "$d"; done`,
		`while true; do read d; rm -rf "$d"; done <<< /`,
	} {
		r := shellparse.Parse(line)
		var last *shellparse.Invocation
		for i := range r.Invocations {
			inv := &r.Invocations[i]
			if strings.Contains(strings.Join(inv.Argv(), " "), "-rf") || inv.Name == "rm" {
				last = inv
			}
		}
		if last == nil {
			t.Errorf("%q: no rm among %q", line, argvs(r))
			continue
		}
		dyn := last.NameDynamic() || last.ArgsFromInput && last.Resolved() == ""
		for _, a := range last.Args {
			dyn = dyn || a.Dynamic
		}
		if !dyn {
			t.Errorf("%q: %q resolved (%q), want it dynamic", line, strings.Join(last.Argv(), " "), argvs(r))
		}
	}
}

// TestResolveHarmless: the nearest harmless forms resolve to what they
// are.
func TestResolveHarmless(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`x=build; rm -rf "$x"`, "rm -rf build"},
		{`echo hi | xargs echo`, "echo hi"},
		{`for f in a.o b.o; do rm "$f"; done`, "rm b.o"},
		{`d=dist; rm -rf "$d"/*`, "rm -rf dist/*"},
		{`n=3; head -n "$n" f`, "head -n 3 f"},
	} {
		r := shellparse.Parse(tc.line)
		if hasArgv(r, tc.want) == nil {
			t.Errorf("%q: no %q among %q", tc.line, tc.want, argvs(r))
		}
	}
	// A pattern in a loop's list stands for its matches: the variable
	// reads as the pattern (as rm *.o does), a resolved word that
	// approvals never take for a literal.
	for _, tc := range []struct{ line, want string }{
		{`for f in *.o; do rm "$f"; done`, "rm *.o"},
		{`for d in *; do rm -rf $d; done`, "rm -rf *"},
	} {
		r := shellparse.Parse(tc.line)
		inv := hasArgv(r, tc.want)
		if inv == nil {
			t.Errorf("%q: no %q among %q", tc.line, tc.want, argvs(r))
			continue
		}
		if a := inv.Args[len(inv.Args)-1]; !a.Resolved {
			t.Errorf("%q: %q is not marked resolved", tc.line, a.Value)
		}
	}
}

// TestSetKeepsItsArguments: reading set's options for the positional
// parameters leaves the invocation's arguments as written.
func TestSetKeepsItsArguments(t *testing.T) {
	for _, line := range []string{"set +o history", "set -o pipefail; echo $1", "set -euo pipefail -- a b"} {
		inv := find(shellparse.Parse(line), "set")
		if inv == nil {
			t.Fatalf("%q: no set invocation", line)
		}
		var got []string
		for _, a := range inv.Args {
			got = append(got, a.Value)
		}
		want := strings.Fields(strings.SplitN(line, ";", 2)[0])
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%q: args %q, want %q", line, got, want)
		}
	}
}
