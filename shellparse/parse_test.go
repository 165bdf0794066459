package shellparse_test

import (
	"strings"
	"testing"

	"github.com/shellguard/shellguard/shellparse"
)

func names(r *shellparse.Result) []string {
	var out []string
	for _, inv := range r.Invocations {
		out = append(out, inv.Name)
	}
	return out
}

func TestResolveWords(t *testing.T) {
	for _, line := range []string{`r''m -rf /`, `"rm" -rf /`, `\rm -rf /`, `r\m -rf /`, `$'rm' -rf /`, `$'\x72\x6d' -rf /`, `$'\162\155' -rf /`, `/usr/bin/rm -rf /`} {
		r := shellparse.Parse(line)
		if len(r.Invocations) != 1 || r.Invocations[0].Name != "rm" {
			t.Errorf("%q: invocations %v", line, names(r))
			continue
		}
		if got := strings.Join(r.Invocations[0].Argv()[1:], " "); got != "-rf /" {
			t.Errorf("%q: argv %q", line, got)
		}
	}
}

func TestWhere(t *testing.T) {
	cases := []struct {
		line string
		want []string // name@frame-kind of the last invocation
		kind shellparse.FrameKind
	}{
		{"a | b", []string{"a", "b"}, shellparse.FramePipeline},
		{"a && b", []string{"a", "b"}, shellparse.FrameList},
		{"a\nb", []string{"a", "b"}, shellparse.FrameList},
		{"(a)", []string{"a"}, shellparse.FrameSubshell},
		{"{ a; }", []string{"a"}, shellparse.FrameGroup},
		{"echo $(a)", []string{"echo", "a"}, shellparse.FrameCmdSubst},
		{"echo `a`", []string{"echo", "a"}, shellparse.FrameCmdSubst},
		{"diff <(a) x", []string{"diff", "a"}, shellparse.FrameProcSubst},
		{"f() { a; }", []string{"a"}, shellparse.FrameFunction},
		{"a &", []string{"a"}, shellparse.FrameBackground},
		{"bash -c 'a'", []string{"bash", "a"}, shellparse.FrameShellString},
		{"eval a", []string{"eval", "a"}, shellparse.FrameShellString},
		{"su -c a", []string{"su", "a"}, shellparse.FrameShellString},
		{"sudo sh -c a", []string{"sh", "a"}, shellparse.FrameShellString},
		{"xargs sh -c a", []string{"sh", "a"}, shellparse.FrameShellString},
		{"find . -exec a {} +", []string{"find", "a"}, shellparse.FrameExec},
		{"watch a", []string{"watch", "a"}, shellparse.FrameShellString},
		{"ssh h a", []string{"ssh", "a"}, shellparse.FrameRemote},
		{"sh <<EOF\na\nEOF", []string{"sh", "a"}, shellparse.FrameShellStdin},
		{"echo a | sh", []string{"echo", "sh", "a"}, shellparse.FrameShellStdin},
		{"X=$(a)", []string{"", "a"}, shellparse.FrameAssign},
	}
	for _, tc := range cases {
		r := shellparse.Parse(tc.line)
		if got := names(r); strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%q: invocations %v, want %v", tc.line, got, tc.want)
			continue
		}
		last := r.Invocations[len(r.Invocations)-1]
		if !last.Where.Has(tc.kind) {
			t.Errorf("%q: %s not inside %v (where: %s)", tc.line, last.Name, tc.kind, last.Where.Path())
		}
	}
}

func TestWrappersPeeled(t *testing.T) {
	r := shellparse.Parse(`sudo -u bob env -i A=1 nice -n 5 timeout -s KILL 10 ionice -c 3 stdbuf -o0 nohup /usr/bin/git status`)
	if len(r.Invocations) != 1 {
		t.Fatalf("invocations %v", names(r))
	}
	inv := r.Invocations[0]
	var ws []string
	for _, w := range inv.Wrappers {
		ws = append(ws, w.Name)
	}
	if inv.Name != "git" || inv.Program != "/usr/bin/git" || strings.Join(ws, " ") != "sudo env nice timeout ionice stdbuf nohup" {
		t.Errorf("got %s (%s) wrappers %v", inv.Name, inv.Program, ws)
	}
	if len(inv.Assigns) != 1 || inv.Assigns[0].Name != "A" {
		t.Errorf("assigns %v", inv.Assigns)
	}
	// sudo VAR=value CMD sets VAR for CMD (sudo EDITOR='tee -a' visudo).
	if r := shellparse.Parse(`sudo -E EDITOR='tee -a' visudo`); r.Invocations[0].Name != "visudo" || len(r.Invocations[0].Assigns) != 1 ||
		r.Invocations[0].Assigns[0].Name != "EDITOR" || r.Invocations[0].Assigns[0].Value != "tee -a" {
		t.Errorf("sudo VAR=value: %+v", r.Invocations[0])
	}
	if r := shellparse.Parse("command -v rm"); r.Invocations[0].Name != "command" || !r.Invocations[0].NotRun {
		t.Errorf("command -v must not be peeled: %+v", r.Invocations[0])
	}
}

func TestDynamic(t *testing.T) {
	r := shellparse.Parse(`$x -rf / ; echo "$HOME" ${y} $(date) ok`)
	if !r.Invocations[0].NameDynamic() {
		t.Error("$x as program must be dynamic")
	}
	e := r.Invocations[1]
	var got string
	for _, a := range e.Args {
		if a.Dynamic {
			got += "1"
		} else {
			got += "0"
		}
	}
	if got != "01110" {
		t.Errorf("dynamic flags %s, want 01110", got)
	}
}

func TestProblems(t *testing.T) {
	for _, line := range []string{`echo 'abc`, `ls |`, `if true; then`, `echo "$(`} {
		r := shellparse.Parse(line)
		if r.OK() || r.Err() == nil {
			t.Errorf("%q parsed without a problem", line)
		}
	}
	deep := strings.Repeat("$(", 10000) + "x" + strings.Repeat(")", 10000)
	if r := shellparse.Parse(deep); r.OK() || r.Problems[0].Kind != shellparse.ProblemLimit {
		t.Errorf("10000-deep nesting: %v", r.Problems)
	}
	huge := strings.Repeat("a ", 1<<20)
	if r := shellparse.Parse(huge); r.OK() {
		t.Error("2 MiB line accepted")
	}
	if r := shellparse.Parse(`echo {1..100000000}`); !r.OK() || !r.Invocations[0].Args[1].Dynamic {
		t.Errorf("huge brace range must be dynamic, not expanded: %+v", r.Invocations[0].Args[1:2])
	}
	nest := strings.Repeat("eval ", 40) + "rm -rf /"
	if r := shellparse.Parse(nest); r.OK() {
		t.Error("40 nested eval strings accepted without a limit")
	}
	if r := shellparse.Parse("bash -c " + shellQuote("bash -c "+shellQuote("rm -rf /"))); len(r.Invocations) != 3 || r.Invocations[2].Name != "rm" {
		t.Errorf("nested bash -c: %v", names(r))
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func TestRedirects(t *testing.T) {
	r := shellparse.Parse(`cmd > out 2>&1 < in`)
	rs := r.Invocations[0].Redirs
	if len(rs) != 3 || !rs[0].Writes() || rs[1].Writes() || !rs[1].DuplicatesFd() || rs[2].Writes() {
		t.Errorf("redirects %+v", rs)
	}
}

// TestRebinds: the descriptors each redirection points elsewhere.
func TestRebinds(t *testing.T) {
	for _, tc := range []struct{ redir, fds string }{
		{"> f", "1"}, {">> f", "1"}, {">| f", "1"}, {"2> f", "2"}, {"0> f", "0"},
		{"< f", "0"}, {"<> f", "0"}, {"3< f", "3"}, {"1< f", "1"}, {"<<< x", "0"}, {"<<E\nx\nE", "0"},
		{"&> f", "1 2"}, {"&>> f", "1 2"}, {">& f", "1 2"},
		{"2>&1", "2"}, {">&2", "1"}, {">&-", "1"}, {"<&-", "0"}, {"<&3", "0"}, {"0<&3", "0"},
		{"1>&1", ""}, {"<&0", ""}, {"2>&2", ""},
	} {
		inv := shellparse.Parse("cmd " + tc.redir).Invocations[0]
		if len(inv.Redirs) != 1 {
			t.Fatalf("%q: redirects %+v", tc.redir, inv.Redirs)
		}
		var got []string
		for _, fd := range []string{"0", "1", "2", "3"} {
			if inv.Redirs[0].Rebinds(fd) {
				got = append(got, fd)
			}
		}
		if g := strings.Join(got, " "); g != tc.fds {
			t.Errorf("%q rebinds %q, want %q", tc.redir, g, tc.fds)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`rm -rf /`, `:(){ :|:& };:`, `bash -c "eval 'x'"`, "cat <<EOF\n$(x)\nEOF", `a=(1 2) b[1]=x c`, `echo ${x:-$(y)}`, `find . -exec sh -c 'a' \; -ok b +`, `()0`, `ssh -oProxyCommand=x h y`, `env -S 'rm -rf /'`,
		"printf '%s\\n%5.2d%-3s%b' x 1 y 'z\\c' | sh", "cat <<'E' | bash\nrm -rf ~\nE", "psql <<-E'O'F\n\t$x\n\tEOF", "{ sh; } <<< $'a\\nb' 0<&-",
		"echo -e 'a\\x41\\0101' | cat - | xargs sh", "sh <<E\n\\$x $(y) \\\nz\nE",
		`p=rm; for d in / ~; do $p -rf "$d"; done`, `/???/?m -rf /`, `$(which rm) -rf ${IFS}/`, `bash -c '$0 -rf $1' rm /`,
		`echo / | xargs -I{} rm -rf {}`, `read -r x <<< /; mapfile -t a <<< $x; rm -rf "${a[@]}"`,
		`f() { g "$@"; }; g() { rm -rf $1; }; f ~`, `x=ab; x=$x$x; echo ${x:1:2} ${#x} ${x%b}`, `set -- a b; shift; "$@"`,
		`printf '%s\n' a b | while read -r l; do rm $l; done`, `IFS=,; x=a,b; $x; unset IFS; $x`, `rm -rf ../../../../../../../../../..`} {
		f.Add(s)
	}
	p := shellparse.New(shellparse.Limits{})
	f.Fuzz(func(t *testing.T, s string) {
		checkInvariants(t, p.Parse(s))
	})
}

// checkInvariants checks what holds of every result: indexes within the
// list, no word both resolved and dynamic, a resolved program (or a
// candidate) marked Dynamic; String and Where.Path do not panic.
func checkInvariants(t *testing.T, r *shellparse.Result) {
	t.Helper()
	for i := range r.Invocations {
		inv := &r.Invocations[i]
		_ = inv.String()
		_ = inv.Where.Path()
		if inv.Parent >= len(r.Invocations) || inv.Encloser >= len(r.Invocations) {
			t.Fatalf("bad index in %+v", inv)
		}
		for _, a := range inv.Args {
			if a.Resolved && a.Dynamic {
				t.Fatalf("a word both resolved and dynamic in %+v", inv)
			}
		}
		if inv.Candidate && (len(inv.Args) == 0 || !inv.Args[0].Resolved && !inv.Args[0].Dynamic) {
			t.Fatalf("a candidate whose program is not marked resolved: %+v", inv)
		}
		if (inv.Resolved() != "" || inv.Candidate) && !inv.Dynamic() {
			t.Fatalf("a resolved invocation that is not Dynamic: %+v", inv)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	p := shellparse.New(shellparse.Limits{})
	line := `git commit -m "fix parser" && git push origin main`
	b.ReportAllocs()
	for b.Loop() {
		p.Parse(line)
	}
}

func TestBareRedirection(t *testing.T) {
	for _, line := range []string{"> foo", "ls; > foo", "2>/dev/sda"} {
		r := shellparse.Parse(line)
		last := r.Invocations[len(r.Invocations)-1]
		if len(last.Args) != 0 || len(last.Redirs) != 1 {
			t.Errorf("%q: last invocation %+v, want a bare redirection", line, last)
		}
	}
}

func TestRunners(t *testing.T) {
	for _, line := range []string{
		"docker exec -it -u root web rm -rf /",
		"docker run --rm -v /:/host -e A=1 alpine rm -rf /",
		"podman container run alpine rm -rf /",
		"docker compose exec web rm -rf /",
		"kubectl exec pod -c main -- rm -rf /",
		"lxc exec c -- rm -rf /",
		"yarn exec rm -rf /",
		"fakeroot rm -rf /",
		"vagrant ssh -c 'rm -rf /'",
		"gcloud compute ssh vm --command 'rm -rf /'",
		"nix-shell --run 'rm -rf /'",
		"ansible all -m shell -a 'rm -rf /'",
		"ansible all -a 'rm -rf /'",
		"ansible -m ansible.builtin.shell -a 'rm -rf /' all -b",
		"salt '*' cmd.run 'rm -rf /'",
		"salt -G 'os:Ubuntu' -t 30 cmd.run 'rm -rf /' runas=root",
		"salt-ssh 'web*' cmd.run 'rm -rf /'",
		"salt-call cmd.run 'rm -rf /'",
		"pssh -h hosts.txt -l root -i 'rm -rf /'",
		"parallel-ssh -H 'a b' -i rm -rf /",
		"pdsh -R ssh -w node[01-04] 'rm -rf /'",
		"clush -w @web -b 'rm -rf /'",
		"mussh -h web1 web2 -c 'rm -rf /'",
		"knife ssh 'role:web' 'rm -rf /' -x ubuntu",
		"fab -H web1,web2 -- rm -rf /",
		"consul exec -node=web 'rm -rf /'",
		"aws ssm send-command --document-name AWS-RunShellScript --targets Key=tag:env,Values=prod --parameters commands='rm -rf /'",
		`aws ssm send-command --instance-ids i-1 --document-name AWS-RunShellScript --parameters '{"commands":["rm -rf /"]}'`,
		"tmux new-session -d -s x 'rm -rf /'",
	} {
		r := shellparse.Parse(line)
		found := false
		for _, inv := range r.Invocations {
			if inv.Name == "rm" && strings.Join(inv.Argv(), " ") == "rm -rf /" {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: rm -rf / not found among %v", line, names(r))
		}
	}
	for _, line := range []string{"docker run nginx", "docker exec -it web", "kubectl exec pod", "tmux new -s work",
		"ansible all -m ping", "ansible all -m file -a 'path=/x state=absent'", "salt '*' test.ping", "salt '*' file.remove /x",
		"clush -w @all -c /etc/hosts", "knife node list", "pssh -h hosts.txt"} {
		if r := shellparse.Parse(line); len(r.Invocations) != 1 {
			t.Errorf("%q: %v, want one invocation", line, names(r))
		}
	}
}
