package shellparse_test

import (
	"slices"
	"testing"

	"github.com/shellguard/shellguard/shellparse"
)

// find returns the first invocation of name in r, or nil.
func find(r *shellparse.Result, name string) *shellparse.Invocation {
	for i := range r.Invocations {
		if r.Invocations[i].Name == name {
			return &r.Invocations[i]
		}
	}
	return nil
}

// TestStdin: the text a program's standard input is known to hold.
func TestStdin(t *testing.T) {
	unknown := "\x00unknown"
	for _, tc := range []struct {
		line, prog, want, from string
	}{
		// Heredocs: a quoted delimiter keeps the body as written.
		{"psql <<'EOF'\nDROP TABLE $x;\nEOF", "psql", "DROP TABLE $x;\n", "<<"},
		{"psql <<\"EOF\"\nDROP `a` \\$x;\nEOF", "psql", "DROP `a` \\$x;\n", "<<"},
		{"psql <<\\EOF\nDROP $x;\nEOF", "psql", "DROP $x;\n", "<<"},
		{"psql <<E'O'F\nDROP $x;\nEOF", "psql", "DROP $x;\n", "<<"},
		// Unquoted: escapes resolved; an expansion makes it unknown.
		{"psql <<EOF\nDROP TABLE users;\nEOF", "psql", "DROP TABLE users;\n", "<<"},
		{"psql <<EOF\nselect \\$1, '\\x' \"q\" \\\\ \\`a\\` long\\\nline;\nEOF", "psql", "select $1, '\\x' \"q\" \\ `a` longline;\n", "<<"},
		{"psql <<EOF\nDROP TABLE $t;\nEOF", "psql", unknown, "<<"},
		{"psql <<EOF\nDROP TABLE $(cat t);\nEOF", "psql", unknown, "<<"},
		{"psql <<EOF\nEOF", "psql", "", "<<"},
		{"python3 - <<-EOF\n\timport os\n\t\tos.x()\n\tEOF", "python3", "import os\nos.x()\n", "<<"},
		{"python3 - <<-'EOF'\n\timport os\n\tEOF", "python3", "import os\n", "<<"},
		// Here-strings get a newline.
		{"bc <<< '1+1'", "bc", "1+1\n", "<<<"},
		{`bc <<< "2*$x"`, "bc", unknown, "<<<"},
		{"bc <<< {a,b}", "bc", "{a,b}\n", "<<<"},
		{`redis-cli <<< $'FLUSHALL\nPING'`, "redis-cli", "FLUSHALL\nPING\n", "<<<"},
		// The last redirection of descriptor 0 wins; others are not stdin.
		{"sh < f <<< 'ls'", "sh", "ls\n", "<<<"},
		{"sh <<< 'ls' < f", "sh", unknown, "<"},
		{"sh 3<<< 'ls'", "sh", unknown, ""},
		{"sh 0<<< 'ls'", "sh", "ls\n", "<<<"},
		{"sh < /dev/null", "sh", "", "<"},
		{"sh <&-", "sh", "", "<"},
		// A process substitution whose output the parser can read.
		{"mysql app < <(echo 'DROP TABLE t;')", "mysql", "DROP TABLE t;\n", "<"},
		{"sh < <(printf '%s\\n' ls)", "sh", "ls\n", "<"},
		{"sh < <(curl -s x)", "sh", unknown, "<"},
		{"sh <&3", "sh", unknown, "<"},
		// < /dev/stdin reopens the input it already has.
		{"sh <<< 'ls' < /dev/stdin", "sh", "ls\n", "<<<"},
		{"sh < /dev/fd/0", "sh", unknown, ""},
		{"sh", "sh", unknown, ""},
		// Pipes from echo, printf and cat of static text.
		{"echo 'DROP TABLE x;' | mysql", "mysql", "DROP TABLE x;\n", "|"},
		{"echo -n hi | mysql", "mysql", "hi", "|"},
		{`echo -e 'a\tb\c ignored' | mysql`, "mysql", "a\tb", "|"},
		{`echo 'a\tb' | mysql`, "mysql", "a\\tb\n", "|"},
		{"echo a b   c | at now", "at", "a b c\n", "|"},
		{"echo $USER | at now", "at", unknown, "|"},
		{"echo $HOME | at now", "at", "~\n", "|"},
		{"echo * | at now", "at", unknown, "|"},
		{"echo hi > f | at now", "at", unknown, "|"},
		{"echo hi >&2 | at now", "at", unknown, "|"},
		{"echo hi 2>&1 | at now", "at", "hi\n", "|"},
		{"echo hi 1< f | at now", "at", unknown, "|"},
		{"echo hi 1>&1 | at now", "at", "hi\n", "|"},
		{"sudo echo hi | at now", "at", unknown, "|"},
		{`printf '%s\n' 'rm -rf /' ls | at now`, "at", "rm -rf /\nls\n", "|"},
		{`printf 'a%sb%5s|%-3s|%03d|%x\n' 1 2 3 7 255 | at now`, "at", "a1b    2|3  |007|ff\n", "|"},
		{`printf '%b' 'x\ny\cz' | at now`, "at", "x\ny", "|"},
		{`printf %q 'a b' | at now`, "at", `a\ b`, "|"},
		{`printf '%(%F)T' -1 | at now`, "at", unknown, "|"},
		{`printf '%f' 1.5 | at now`, "at", unknown, "|"},
		{`printf -v x hi | at now`, "at", "", "|"},
		{`printf '\x72\155 %%' | at now`, "at", "rm %", "|"},
		{"cat <<'EOF' | crontab -\n* * * * * rm -rf ~\nEOF", "crontab", "* * * * * rm -rf ~\n", "|"},
		{"cat <<< 'select 1' | sqlite3 db", "sqlite3", "select 1\n", "|"},
		{"cat - <<< 'select 1' | sqlite3 db", "sqlite3", "select 1\n", "|"},
		{"cat f <<< 'select 1' | sqlite3 db", "sqlite3", unknown, "|"},
		{"cat -n <<< 'select 1' | sqlite3 db", "sqlite3", unknown, "|"},
		{"echo 'select 1' | cat | cat | sqlite3 db", "sqlite3", "select 1\n", "|"},
		{"curl -s x | sqlite3 db", "sqlite3", unknown, "|"},
		{"echo a | tee f | sqlite3 db", "sqlite3", unknown, "|"},
		{"echo a | wc -l", "wc", "a\n", "|"},
		// Compound commands pass their input on.
		{"{ sqlite3 db; } <<< 'select 1'", "sqlite3", "select 1\n", "<<<"},
		{"echo 'select 1' | (sqlite3 db)", "sqlite3", "select 1\n", "|"},
		// read took the only line: nothing is left for sqlite3.
		{"while read l; do sqlite3 db; done <<< x", "sqlite3", unknown, "<<<"},
		{"{ read l; sqlite3 db; } <<< $'a\nb'", "sqlite3", "b\n", "<<<"},
		{"{ cat; sqlite3 db; } <<< x", "sqlite3", unknown, "<<<"},
		{"{ echo hi; sqlite3 db; } <<< x", "sqlite3", "x\n", "<<<"},
		// Strings run by eval or a shell's -c get the runner's input.
		{"bash -c 'sqlite3 db' <<< 'select 1'", "sqlite3", "select 1\n", "<<<"},
		{"echo 'select 1' | eval sqlite3 db", "sqlite3", "select 1\n", "|"},
		{"echo 'select 1' | ssh h sqlite3 db", "sqlite3", "select 1\n", "|"},
		{"docker exec -i c psql <<'EOF'\nDROP DATABASE x;\nEOF", "psql", "DROP DATABASE x;\n", "<<"},
		// xargs reads the input; the command it runs does not.
		{"echo a | xargs python3", "python3", unknown, "xargs"},
		// Substitutions and functions do not get it.
		{"echo x | echo $(python3)", "python3", unknown, ""},
		{"echo x | { f() { python3; }; }", "python3", unknown, ""},
		// A redirection of a function definition applies to its body.
		{"f() { python3; } <<< x", "python3", "x\n", "<<<"},
	} {
		r := shellparse.Parse(tc.line)
		inv := find(r, tc.prog)
		if inv == nil {
			t.Errorf("%q: no %s among %v", tc.line, tc.prog, names(r))
			continue
		}
		got := inv.Stdin
		if !inv.StdinKnown {
			got = unknown
		}
		if got != tc.want || inv.StdinFrom.String() != tc.from {
			t.Errorf("%q: %s stdin %q from %q, want %q from %q", tc.line, tc.prog, got, inv.StdinFrom, tc.want, tc.from)
		}
	}
}

// TestShellStdin: a shell reading its standard input runs what it holds:
// re-parsed through the same code as Invocation.Stdin.
func TestShellStdin(t *testing.T) {
	for _, tc := range []struct {
		line    string
		want    []string // the programs, in order
		unknown bool     // the shell reads input it cannot know
	}{
		{"echo 'rm -rf /' | sh", []string{"echo", "sh", "rm"}, false},
		{"printf '%s\\n' 'rm -rf /' | sh", []string{"printf", "sh", "rm"}, false},
		{"printf 'rm -rf /' | bash -s", []string{"printf", "bash", "rm"}, false},
		{"cat <<'EOF' | bash\nrm -rf ~\nEOF", []string{"cat", "bash", "rm"}, false},
		{"cat <<< 'rm -rf ~' | bash", []string{"cat", "bash", "rm"}, false},
		{"sh <<< 'rm -rf /'", []string{"sh", "rm"}, false},
		{"sh <<EOF\nrm -rf /\nEOF", []string{"sh", "rm"}, false},
		{"{ sh; } <<< 'rm -rf /'", []string{"sh", "rm"}, false},
		{"sudo bash <<'EOF'\nrm -rf /\nEOF", []string{"bash", "rm"}, false},
		// echo without -e: bash prints \n as is, sh's and zsh's echo a
		// newline; both readings are checked.
		{`echo 'ls\nrm -rf /' | sh`, []string{"echo", "sh", "lsnrm", "ls", "rm"}, false},
		// A heredoc with expansions: its literal commands are still read.
		{"bash <<EOF\nrm -rf /\necho $x\nEOF", []string{"bash", "rm", "echo"}, true},
		// Expansions in a here-string or an echo: the literal commands
		// are still read.
		{`sh <<< "rm -rf $d"`, []string{"sh", "rm"}, true},
		{`echo "rm -rf $d" | sh`, []string{"echo", "sh", "rm"}, true},
		{"curl -s x | sh", []string{"curl", "sh"}, true},
		{"sh < script.sh", []string{"sh"}, true},
		{"echo * | sh", []string{"echo", "sh"}, true},
		// xargs runs sh ls: a script file, as sh ls would.
		{"echo ls | xargs sh", []string{"echo", "sh"}, false},
		{"curl x | xargs sh", []string{"curl", "sh"}, true},
		// A shell inside a script fed on stdin reads the rest of it.
		{"bash <<'EOF'\nsh\nEOF", []string{"bash", "sh"}, false},
	} {
		r := shellparse.Parse(tc.line)
		if got := names(r); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.line, got, tc.want)
			continue
		}
		var sh *shellparse.Invocation
		for i := range r.Invocations {
			if shellparse.IsShell(r.Invocations[i].Name) {
				sh = &r.Invocations[i]
				break
			}
		}
		if sh.StdinUnknown != tc.unknown {
			t.Errorf("%q: StdinUnknown %v, want %v", tc.line, sh.StdinUnknown, tc.unknown)
		}
	}
}
