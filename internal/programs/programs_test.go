package programs

import (
	"slices"
	"strings"
	"testing"
)

// TestShortOption: the table of short option names gives what "-" +
// string(c) gives, for every byte.
func TestShortOption(t *testing.T) {
	for c := 0; c < 256; c++ {
		if got, want := shortOption(byte(c)), "-"+string(rune(c)); got != want {
			t.Errorf("shortOption(%#x) = %q, want %q", c, got, want)
		}
	}
}

// scan renders what the scanner reads: options as NAME or NAME=VALUE,
// operands as themselves, "--" as --, and the subcommand path.
func scan(name string, args ...string) (string, string) {
	s := NewScanner(Lookup(name), args, nil, "")
	var out []string
	for {
		it, ok := s.Next()
		if !ok {
			break
		}
		switch it.Kind {
		case Option:
			if it.HasValue {
				out = append(out, it.Name+"="+it.Value)
			} else {
				out = append(out, it.Name)
			}
		case Operand:
			out = append(out, it.Value)
		case EndOfOptions:
			out = append(out, "--")
		}
	}
	return strings.Join(out, " "), s.Path()
}

func TestScanner(t *testing.T) {
	for _, tc := range []struct {
		prog string
		args []string
		want string
		path string
	}{
		{"rm", []string{"-rf", "/"}, "-r -f /", ""},
		{"unknownprog", []string{"-xvf", "a"}, "-x -v -f a", ""},
		{"tar", []string{"xzf", "a.tgz", "dir"}, "-x -z -f=a.tgz dir", ""},
		{"tar", []string{"-xzIprog", "-f", "a"}, "-x -z -I=prog -f=a", ""},
		{"find", []string{".", "-name", "x", "-delete"}, ". -name x -delete", ""},
		{"perl", []string{"-lne", "print"}, "-l -n -e=print", ""},
		{"perl", []string{"-l0ne", "print"}, "-l=0 -n -e=print", ""},
		{"perl", []string{"-pi.bak", "-e", "s/a/b/", "f"}, "-p -i=.bak -e=s/a/b/ f", ""},
		{"python3", []string{"-Bc", "code", "-x"}, "-B -c=code -x", ""},
		{"python3", []string{"script.py", "-c", "x"}, "script.py -c x", ""},
		{"python3.12", []string{"-W", "ignore", "-c", "code"}, "-W=ignore -c=code", ""},
		{"git", []string{"-C", "repo", "-c", "a=b", "push", "--force", "origin"}, "-C=repo -c=a=b push --force origin", "push"},
		{"git", []string{"commit", "-c", "HEAD", "-a"}, "commit -c=HEAD -a", "commit"},
		{"git", []string{"branch", "-c", "old", "new"}, "branch -c old new", ""},
		{"git", []string{"--", "reset", "--hard"}, "reset --hard", ""},
		{"git", []string{"checkout", "--", "file"}, "checkout -- file", ""},
		{"git", []string{"RESET", "--HARD"}, "RESET --hard", ""},
		{"git", []string{"reflog", "expire", "--expire=now", "--all"}, "reflog expire --expire=now --all", "reflog expire"},
		{"kubectl", []string{"-n", "prod", "delete", "-n", "x", "ns", "foo"}, "-n=prod delete -n=x ns foo", ""},
		{"docker", []string{"-H", "tcp://x", "compose", "-f", "a.yml", "down", "-v"}, "-H=tcp://x compose -f=a.yml down -v", "compose"},
		{"docker", []string{"run", "-H", "x"}, "run -H x", ""},
		{"terraform", []string{"destroy", "-auto-approve", "-target=x"}, "destroy -auto-approve -target=x", ""},
		{"kill", []string{"-9", "-1"}, "-9 -1", ""},
		{"head", []string{"-20", "f"}, "-20 f", ""},
		{"npx", []string{"-p", "rimraf", "rimraf", "~"}, "-p=rimraf rimraf ~", ""},
		{"pnpm", []string{"dlx", "prisma", "generate"}, "dlx prisma generate", "dlx"},
	} {
		got, path := scan(tc.prog, tc.args...)
		if got != tc.want {
			t.Errorf("%s %q: scanned %q, want %q", tc.prog, tc.args, got, tc.want)
		}
		if tc.path != "" && path != tc.path {
			t.Errorf("%s %q: path %q, want %q", tc.prog, tc.args, path, tc.path)
		}
	}
}

func TestScannerDynamic(t *testing.T) {
	s := NewScanner(Lookup("python3"), []string{"-c", "$code", "$x"}, []bool{false, true, true}, "")
	it, _ := s.Next()
	if it.Name != "-c" || it.Value != "$code" {
		t.Errorf("-c takes a dynamic value: %+v", it)
	}
	it, _ = s.Next()
	if it.Kind != Operand || !it.Dynamic {
		t.Errorf("a dynamic word is an operand: %+v", it)
	}
}

func TestLookup(t *testing.T) {
	for name, want := range map[string]string{
		"python3.12": "python*", "perl5.36": "perl*", "GIT": "git", "python": "python", "rscript": "rscript",
		"python-config": "", "nosuchprogram": "",
	} {
		p := Lookup(name)
		got := ""
		if p != nil {
			got = p.Name
		}
		if got != want {
			t.Errorf("Lookup(%q) = %q, want %q", name, got, want)
		}
	}
	if !IsShell("bash") || IsShell("python3") {
		t.Error("IsShell")
	}
	if !slices.Contains(Shells(), "zsh") || !slices.IsSorted(InteractivePrograms()) {
		t.Error("Shells/InteractivePrograms")
	}
}

func TestArityAndValues(t *testing.T) {
	for key, want := range map[string]int{"git": 2, "docker compose": 3, "rtk docker compose": 4, "ls": 1, "Rscript": 2, "nosuch": 0, "git nosuch": 0, "prisma migrate": 3} {
		if got := Arity(key); got != want {
			t.Errorf("Arity(%q) = %d, want %d", key, got, want)
		}
	}
	for _, tc := range []struct {
		key, opt string
		want     bool
	}{
		{"git", "-C", true}, {"git checkout", "-C", false}, {"kubectl", "-n", true}, {"kubectl rollout", "-n", true},
		{"docker", "-H", true}, {"docker compose", "-f", true}, {"docker run", "-f", false}, {"python", "-m", true},
		{"ls", "-l", false},
	} {
		if got := TakesValue(tc.key, tc.opt); got != tc.want {
			t.Errorf("TakesValue(%q, %q) = %v", tc.key, tc.opt, got)
		}
	}
}

func TestRunTarget(t *testing.T) {
	for _, tc := range []struct {
		line string
		name string
		ok   bool
	}{
		{"npx rimraf ~", "rimraf", true},
		{"npx --yes rimraf@5 ~", "rimraf", true},
		{"npx -p del-cli del x", "del", true},
		{"npx @scope/tool x", "tool", true},
		{"pnpm dlx prisma generate", "prisma", true},
		{"pnpm install", "", false},
		{"uvx --from trash-cli trash-empty", "trash-empty", true},
		{"pipx run --spec black black .", "black", true},
		{"deno run -A npm:rimraf ~", "rimraf", true},
		{"deno run -A main.ts", "", false},
		{"go run ./cmd/x", "", false},
		{"go run example.com/x/wipe@v1.2.0 /", "wipe", true},
		{"cargo run -- rm -rf /", "", false},
		{"dotnet tool run dotnet-ef database drop", "dotnet-ef", true},
		{"ls -la", "", false},
	} {
		f := strings.Fields(tc.line)
		k, name, ok := RunTarget(Lookup(f[0]), f[1:], nil)
		if ok != tc.ok || name != tc.name {
			t.Errorf("RunTarget(%q) = %d %q %v, want %q %v", tc.line, k, name, ok, tc.name, tc.ok)
		}
		if ok && RunName(f[1+k]) != name && !strings.HasPrefix(f[1+k], "npm:") {
			t.Errorf("RunTarget(%q): word %d is %q", tc.line, k, f[1+k])
		}
	}
	if k := DashDashArgs(Lookup("cargo"), []string{"run", "--release", "--", "rm", "-rf"}, nil); k != 3 {
		t.Errorf("DashDashArgs(cargo run --release -- rm -rf) = %d", k)
	}
	if got := RunShell(Lookup("npx"), []string{"-c", "rm -rf ~"}, nil); !slices.Equal(got, []string{"rm -rf ~"}) {
		t.Errorf("RunShell(npx -c) = %q", got)
	}
}

func TestDryRun(t *testing.T) {
	for _, tc := range []struct {
		prog, path, flag, value string
		has, want               bool
	}{
		{"git", "clean", "-n", "", false, true},
		{"git", "commit", "-n", "", false, false},
		{"git", "reflog expire", "--dry-run", "", false, true},
		{"kubectl", "delete", "--dry-run", "server", true, true},
		{"kubectl", "delete", "--dry-run", "none", true, false},
		{"kubectl", "delete", "--dry-run", "", false, true},
		{"rsync", "", "-n", "", false, true},
		{"make", "", "-n", "", false, true},
		{"rm", "", "-n", "", false, false},
	} {
		if got := Lookup(tc.prog).DryRun(tc.path, tc.flag, tc.value, tc.has); got != tc.want {
			t.Errorf("%s %s %s=%s: dry run %v", tc.prog, tc.path, tc.flag, tc.value, got)
		}
	}
}

func TestWidening(t *testing.T) {
	for _, tc := range []struct {
		line, flag string
	}{
		{"git -c core.pager=sh log", "-c"},
		{"git log -c", ""},
		{"git clone -u x r", "-u"},
		{"git bisect run make", "bisect run"},
		{"git filter-branch x", "filter-branch"},
		{"curl -d @f x", "-d @"},
		{"curl -o - x", ""},
		{"npm i --ignore-scripts=false", "--ignore-scripts=false"},
		{"make CC=x all", "CC="},
		{"tar -xf host:a.tar", "-f host:a.tar"},
		{"tar --force-local -xf host:a.tar", ""},
		{"at now", "at"},
		{"at -l", ""},
		{"complete -C x y", "complete -C"},
		{"python3 -", "-"},
		{"python3", "(no script)"},
		{"python3 --version", ""},
		{"python3 -m http.server", ""},
		{"npx node -e x", "-e"},
		{"ls -la", ""},
	} {
		f := strings.Fields(tc.line)
		if got, why := Widening(f[0], f[1:]); got != tc.flag || got != "" && why == "" {
			t.Errorf("Widening(%q) = %q (%q), want %q", tc.line, got, why, tc.flag)
		}
	}
	if !EnvWidens("LD_PRELOAD") || EnvWidens("GOOS") || !EnvWidens("GOFLAGS") || EnvWidens("NODE_ENV") || !EnvWidens("path") {
		t.Error("EnvWidens")
	}
}

func TestReadOnly(t *testing.T) {
	for _, tc := range []struct {
		line string
		glob bool
		want bool
	}{
		{"ls -la", false, true},
		{"git status", false, true},
		{"git --no-pager log --oneline", false, true},
		{"git -c x=y log", false, false},
		{"git branch -a", false, true},
		{"git branch new", false, false},
		{"git commit -m x", false, false},
		{"sort -o out f", false, false},
		{"sort -u f", false, true},
		{"sort -u f", true, false},
		{"find . -name x", false, true},
		{"find . -delete", false, false},
		{"uniq a b", false, false},
		{"date +%F", false, true},
		{"date 0101", false, false},
		{"env", false, true},
		{"env FOO=1 ls", false, false},
		{"hostname", false, true},
		{"hostname new", false, false},
		{"test -v x", false, false},
		{"rg --pre-g x", false, false},
		{"rm -rf x", false, false},
	} {
		f := strings.Fields(tc.line)
		if got := IsReadOnly(f[0], f[1:], tc.glob); got != tc.want {
			t.Errorf("IsReadOnly(%q, glob=%v) = %v", tc.line, tc.glob, got)
		}
	}
	if !slices.Contains(ReadOnlyPrograms(), "git status") || slices.Contains(ReadOnlyPrograms(), "git") {
		t.Error("ReadOnlyPrograms")
	}
}

// TestTable: the generated table is sorted, its names are lower case, and
// every glob program is in globs.
func TestTable(t *testing.T) {
	for i := range nPrograms {
		p := program(i)
		if program(i) != p || build(i) == p {
			t.Errorf("%q: not built once", p.Name)
		}
		if i > 0 && program(i-1).Name >= p.Name {
			t.Errorf("table not sorted at %q", p.Name)
		}
		if strings.ToLower(p.Name) != p.Name {
			t.Errorf("%q: not lower case", p.Name)
		}
		if !strings.HasSuffix(p.Name, "*") && lookup(p.Name) != p {
			t.Errorf("lookup(%q) does not find it", p.Name)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Lookup("git")
		Lookup("python3.12")
		Lookup("nosuchprogram")
	}
}

// FuzzScanner: any argv, for programs of every option syntax, is read
// without a panic, in order, with at most one item per byte (a cluster
// gives one per letter), and the lookups and widening rules terminate.
func FuzzScanner(f *testing.F) {
	for _, seed := range []string{"-rf /", "xzf a.tgz", "-C repo -c a=b push --force", "-n prod delete ns/foo", "--", "-", "-l0ne print", "-x=1 --y=2 ---z", "-pi.bak -e s/a/b/"} {
		f.Add("git", seed)
		f.Add("tar", seed)
		f.Add("perl", seed)
		f.Add("find", seed)
		f.Add("kubectl", seed)
		f.Add("npx", seed)
		f.Add("nosuch", seed)
	}
	f.Fuzz(func(t *testing.T, name, line string) {
		args := strings.Fields(line)
		p := Lookup(name)
		s := NewScanner(p, args, nil, "")
		seen := 0
		last := -1
		for {
			it, ok := s.Next()
			if !ok {
				break
			}
			if it.Word < last || it.Word >= len(args) {
				t.Fatalf("%s %q: item %+v out of order", name, args, it)
			}
			last = it.Word
			seen++
			if seen > len(line)+1 {
				t.Fatalf("%s %q: too many items", name, args)
			}
		}
		Widening(name, args)
		RunTarget(p, args, nil)
		IsReadOnly(name, args, false)
		CodeValues(p, args, nil)
	})
}

// The files facts the read-only scope reads.
func TestReadFiles(t *testing.T) {
	flags := func(set ...string) func(...string) bool {
		return func(opts ...string) bool {
			for _, o := range opts {
				if slices.Contains(set, o) {
					return true
				}
			}
			return false
		}
	}
	noValue := func(string) string { return "" }
	if f := ReadFiles("echo"); f == nil || !f.None {
		t.Error("echo: want files none")
	}
	if f := ReadFiles("rg"); !f.Walking(flags(), noValue) || f.Dot != DotAlways || !f.Pattern {
		t.Errorf("rg: %+v", f)
	}
	g := ReadFiles("grep")
	if g.Walking(flags("-i"), noValue) || !g.Walking(flags("-R"), noValue) || g.Dot != DotWalking {
		t.Errorf("grep walk flags: %+v", g)
	}
	if !g.Walking(flags(), func(o string) string {
		if o == "--directories" {
			return "recurse"
		}
		return ""
	}) {
		t.Error("grep --directories=recurse does not walk")
	}
	if !g.PatternOptions.Has("-e") || !Lookup("grep").TakesValueAt("", "-e") || !Lookup("rg").TakesValueAt("", "-r") {
		t.Error("grep/rg pattern and value options")
	}
	if f := ReadFiles("sort"); !f.Lists.Has("--files0-from") {
		t.Error("sort --files0-from")
	}
	if ReadFiles("no-such-program") != nil || (*Files)(nil).Walking(flags("-r"), noValue) {
		t.Error("unknown program")
	}
}

// The terminal facts: what reads the terminal, for agents' terminal
// sessions (ReadsTerminal) and the TUI (NeedsTerminal).
func TestTerminal(t *testing.T) {
	for _, c := range []struct {
		line    string
		reads   bool // ReadsTerminal with the terminal as standard input
		needs   bool // NeedsTerminal
		pipedIn bool // ReadsTerminal with standard input from elsewhere
	}{
		{"vim notes.txt", true, true, true},
		{"vim --version", false, false, false},
		{"less README", true, true, true},
		{"man -k printf", false, false, false},
		{"watch date", false, true, false},
		{"top -b -n 1", false, false, false},
		{"tmux ls", false, false, false},
		{"tmux -L sock attach", true, true, true},
		{"bash", true, true, false},
		{"bash +o posix", true, true, false},
		{"bash script.sh", false, false, false},
		{"bash -lc make", false, false, false},
		{"sh -i script.sh", true, true, true},
		{"python3", true, true, false},
		{"python3.12", true, true, false},
		{"Python3", true, true, false},
		{"python3 -m asyncio", true, true, true},
		{"python3 -m http.server", false, false, false},
		{"python3 -Q new script.py", false, false, false},
		{"psql -h db -U app mydb", true, true, false},
		{"psql -c 'select 1'", false, false, false},
		{"ssh -p 2222 host", true, true, false},
		{"ssh host ls", false, false, false},
		{"ssh -O check host", false, false, false},
		{"sudo ls", false, false, false},
		{"sudo -i", true, true, true},
		{"busybox sh", true, true, false},
		{"busybox ls", false, false, false},
		{"deno repl", true, true, false},
		{"deno run x.ts", false, false, false},
		{"R", true, true, false},
		{"Rscript -e 1", false, false, false},
		{"ls", false, false, false},
		{"git log", false, false, false},
	} {
		argv := strings.Fields(c.line)
		name := strings.ToLower(argv[0])
		if _, got := ReadsTerminal(name, argv, true); got != c.reads {
			t.Errorf("ReadsTerminal(%q) = %v, want %v", c.line, got, c.reads)
		}
		if got := NeedsTerminal(name, argv); got != c.needs {
			t.Errorf("NeedsTerminal(%q) = %v, want %v", c.line, got, c.needs)
		}
		if _, got := ReadsTerminal(name, argv, false); got != c.pipedIn {
			t.Errorf("ReadsTerminal(%q, stdin elsewhere) = %v, want %v", c.line, got, c.pipedIn)
		}
	}
	ip := InteractivePrograms()
	if !slices.IsSorted(ip) || !slices.Contains(ip, "vim") || !slices.Contains(ip, "watch") || slices.Contains(ip, "bash") {
		t.Errorf("InteractivePrograms() = %q", ip)
	}
	if tp := TerminalPrograms(); !slices.Contains(tp, "busybox sh") || !slices.Contains(tp, "bash") || !slices.Contains(tp, "vim") {
		t.Errorf("TerminalPrograms() = %q", tp)
	}
}

// TestConfigKey: git's configuration keys that hold commands, matched in
// lower case with * for a subsection.
func TestConfigKey(t *testing.T) {
	git := Lookup("git")
	for key, want := range map[string]ConfigKind{
		"core.pager":                  ConfigShell,
		"Core.sshCommand":             ConfigShell,
		"core.fsmonitor":              ConfigBoolOrShell,
		"pager.log":                   ConfigBoolOrShell,
		"alias.st":                    ConfigAlias,
		"alias.a.b":                   0,
		"diff.tool.textconv":          ConfigShell,
		"diff.textconv":               0,
		"credential.helper":           ConfigBang,
		"credential.https://x.helper": ConfigBang,
		"remote.origin.url":           ConfigURL,
		"include.path":                ConfigUnknown,
		"color.ui":                    0,
		"core":                        0,
	} {
		if got := git.ConfigKey(key); got != want {
			t.Errorf("git %s: %d, want %d", key, got, want)
		}
	}
	if Lookup("ls").ConfigKey("core.pager") != 0 || (*Program)(nil).ConfigKey("core.pager") != 0 {
		t.Error("a program without config_code has no command keys")
	}
}

// TestCodeRunsData: the shells read their script operand, awk its
// program, and programs with the same runs share them.
func TestCodeRunsData(t *testing.T) {
	for _, name := range Shells() {
		p := Lookup(name)
		found := false
		for _, r := range p.CodeRuns {
			found = found || r.At == AtOperand && r.Read == ReadShell && r.File
		}
		if !found {
			t.Errorf("shell %s: no code run for its script operand", name)
		}
	}
	awk, gawk := Lookup("awk"), Lookup("gawk")
	if len(awk.CodeRuns) == 0 || &awk.CodeRuns[0] != &gawk.CodeRuns[0] {
		t.Error("awk and gawk should share their code runs")
	}
}

// TestSubsSorted: every program's subcommand nodes are sorted by path
// and unique, as Node and along's binary search need.
func TestSubsSorted(t *testing.T) {
	n := 0
	for i := range nPrograms {
		p := program(i)
		name := p.Name
		for k := 1; k < len(p.Subs); k++ {
			if p.Subs[k-1].Path >= p.Subs[k].Path {
				t.Errorf("%s: %q before %q", name, p.Subs[k-1].Path, p.Subs[k].Path)
			}
		}
		for k := range p.Subs {
			if p.Node(p.Subs[k].Path) != &p.Subs[k] {
				t.Errorf("%s: Node(%q) does not find it", name, p.Subs[k].Path)
			}
			n++
		}
	}
	if n < 50 {
		t.Fatalf("only %d subcommand nodes", n)
	}
}
