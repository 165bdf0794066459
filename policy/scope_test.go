package policy_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shellguard/shellguard/internal/testbin"
	"github.com/shellguard/shellguard/policy"
)

// scopeFixture is a home folder with credential stores and a project in
// it (the usual layout: ~/proj), and a Guard whose $HOME is that home.
type scopeFixture struct {
	home, proj string
	g          *policy.Guard
}

func newScopeFixture(t *testing.T) *scopeFixture {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	proj := filepath.Join(home, "proj")
	files := map[string]string{
		"notes.txt":                     "private notes",
		".ssh/id_ed25519":               "PRIVATE KEY",
		".ssh/id_ed25519.pub":           "ssh-ed25519 AAAA",
		".ssh/known_hosts":              "github.com ssh-ed25519 AAAA",
		".config/gh/hosts.yml":          "oauth_token: gho_x",
		".aws/credentials":              "[default]",
		".netrc":                        "machine x password y",
		"other-repo/README.md":          "other",
		"proj/README.md":                "readme",
		"proj/src/a.go":                 "package a",
		"proj/src/.env.local":           "TOKEN=x",
		"proj/.env":                     "TOKEN=y",
		"proj/package.json":             `{"name":"p"}`,
		"proj/patterns.txt":             "x",
		"proj/docs/guide.md":            "guide",
		"proj/vendor/dep/.ssh/id_rsa":   "key in a fixture",
		"proj/vendor/dep/config.json":   "{}",
		"proj/vendor/dep/.ssh/id_rsa.x": "x",
	}
	testbin.WriteTree(t, home, files, 0o600)
	for link, target := range map[string]string{
		"proj/link-out":  "../notes.txt",
		"proj/link-key":  "../.ssh/id_ed25519",
		"proj/link-etc":  "/etc",
		"proj/link-src":  "src",
		"proj/docs/up":   "../..",
		"proj/link-home": home,
	} {
		if err := os.Symlink(target, filepath.Join(home, link)); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(dir, "xdg")}
	g, err := policy.Load(policy.Options{Cwd: proj, Env: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	return &scopeFixture{home: home, proj: proj, g: g}
}

// TestReadOnlyScope (issue 14 §2, issue 11 item 8): the read-only list
// allows a read only inside the project (the request's cwd, or its Root)
// or of a system file that holds no secret, never of a credential store or
// a secret, and never a print of the environment, unless the request says
// the environment is shellguard's minimal one. At main every line here
// was allowed.
func TestReadOnlyScope(t *testing.T) {
	f := newScopeFixture(t)
	type tc struct {
		cmd  string
		want policy.Verdict
	}
	allow := func(cmd string) tc { return tc{cmd, policy.Allow} }
	ask := func(cmd string) tc { return tc{cmd, policy.Ask} }
	run := func(t *testing.T, req policy.Request, cases []tc) {
		t.Helper()
		for _, c := range cases {
			req := req
			req.Command = c.cmd
			d := f.g.Decide(req)
			if d.Verdict != c.want {
				t.Errorf("cwd %s, root %q, minimal env %v: %q = %s (%s), want %s", req.Cwd, req.Root, req.MinimalEnv, c.cmd, d.Verdict, d.Reason, c.want)
			}
		}
	}

	t.Run("in the project", func(t *testing.T) {
		run(t, policy.Request{Cwd: f.proj}, []tc{
			// Inside the project, and near misses of what is asked below.
			allow("cat README.md"), allow("cat ./src/a.go"), allow("cat src/../README.md"), allow("cat " + f.proj + "/README.md"),
			allow("ls"), allow("ls -la"), allow("ls -la src docs"), allow("ls -R src"), allow("head -n 5 README.md"), allow("tail -n+2 README.md"),
			allow("wc -l src/*.go"), allow("cat *.md"), allow("cat d*/*.md"), allow("grep -rn foo src"), allow("grep -r foo ."), allow("grep foo -r"),
			allow("grep -fpatterns.txt README.md"), allow("grep -A1 foo README.md"), allow("grep -m 1 foo README.md"), allow("rg -tgo foo src"), allow("grep -ie/tmp/x README.md"),
			allow("grep -e /tmp/x README.md"), allow("grep --regexp /tmp/x README.md"), allow("grep -ie /tmp/x README.md"), allow("grep /home/x README.md"), allow("rg -e /tmp/x src"), allow("grep -f patterns.txt README.md"),
			allow("rg foo"), allow("rg foo src"), allow("rg --files src"), allow("find . -name '*.go'"), allow("find src -type f"), allow("tree src"), allow("du -sh ."),
			allow("cd src && ls"), allow("cd src && cat a.go"), allow("cat link-src/a.go"),
			allow("for f in a b; do cd /usr/share; ls; done"),
			allow("git status"), allow("git log -- README.md"), allow("git diff HEAD~1 -- src"), allow("git show HEAD:src/a.go"),
			allow("jq .name package.json"), allow("diff README.md docs/guide.md"),
			allow("cut -d/ -f2 README.md"), allow("stat README.md"), allow("realpath src"),
			// System files that hold no secret.
			allow("cat /etc/os-release"), allow("cat /etc/hostname"), allow("cat /etc/passwd"), allow("ls /usr/share"),
			allow("ls /"), allow("ls /etc"), allow("cat /proc/cpuinfo"), allow("cat /proc/meminfo"), allow("head -c 16 /dev/urandom"),
			allow("cat README.md > /dev/null"), allow("grep -r foo /usr/share/doc"), allow("cat /usr/../etc/os-release"),
			allow("cat /etc/ssh/ssh_host_ed25519_key.pub"), allow("cat link-etc/os-release"),
			// Arguments that name no file read.
			allow("echo ~/.ssh/id_ed25519"), allow("test -f ~/.aws/credentials"), allow("[ -r /etc/shadow ]"),
			allow("basename ~/notes.txt"), allow("which cat"), allow("printf '%s\\n' ~/.netrc"),

			// The environment: never in the user's own.
			ask("printenv"), ask("printenv ANTHROPIC_API_KEY"), ask("env"), ask("set"), ask("export -p"), ask("export"),
			ask("declare -p"), ask("declare -x"), ask("typeset -p"), ask("compgen -v"), ask("compgen -e"), ask("readonly -p"),
			ask("ps e"), ask("ps auxe"), ask("ps -E"), ask("jq -n env"), ask("jq -n '$ENV.HOME'"), ask("jq -n '$ENV' package.json"),
			ask("cat /proc/self/environ"), ask("cat /proc/1/environ"), ask("strings /proc/self/environ"), ask("xargs -0 < /proc/self/environ"),
			ask("ls | printenv"), ask("printenv | grep KEY"),
			// Outside the project.
			ask("cat ~/notes.txt"), ask("cat ../notes.txt"), ask("cat ../other-repo/README.md"), ask("ls ~"), ask("ls .."),
			ask("cat " + f.home + "/notes.txt"), ask("cat /tmp/x"), ask("cat /var/log/syslog"), ask("ls /home"), ask("cat /root/.bashrc"),
			ask("cat ~root/.bashrc"), ask("cat ~+/README.md"), ask("cat ~-/x"), ask("cd .. && ls"), ask("cd ~ && cat notes.txt"),
			ask("cd && ls"), ask("cd - && ls"), ask("cd /tmp; ls"), ask("cd src; cd ../..; cat notes.txt"),
			// A cd may fail or not run: the line may be in any of the
			// folders its cds lead to (over-approximated; so these ask).
			ask("cd src; cat ../README.md"), ask("cd src && cd .. && ls src"), ask("for d in a b; do cd src; done; ls"),
			ask("f() { cd src; }; f; f; cat ../../notes.txt"),
			ask("cd /etc; cat shadow"), ask("cd link-etc && cat shadow"), ask("cd \"$D\" && ls"), ask("CDPATH=/ cd etc && ls"),
			ask("source x; cat README.md"), ask("cat link-out"), ask("cat link-key"), ask("cat link-home/notes.txt"), ask("cat docs/up/notes.txt"),
			ask("cat link-etc/shadow"), ask("ls link-home"), ask("cat ../*.txt"), ask("cat ~/*.txt"), ask("cat .*"), ask("cat */../../notes.txt"),
			ask("grep -f ~/.netrc README.md"), ask("grep -f/etc/shadow README.md"), ask("grep --file=/etc/shadow README.md"), ask("grep --fi=" + f.home + "/notes.txt x"),
			ask("grep -if" + f.home + "/notes.txt x"), ask("grep -if../notes.txt x"), ask("grep -e x -f ../notes.txt README.md"), ask("rg -f ../notes.txt src"),
			ask("sort --files0-from=list README.md"), ask("sort --files0-from list"), ask("wc --files0=list"), ask("file -f list"),
			ask("find -files0-from list -name x"),
			ask("grep -fe ~/notes.txt README.md"), ask("grep -fe ../notes.txt"), ask("grep -rfe ../notes.txt src"), ask("rg -fe ../notes.txt src"),
			ask("grep -A1 -f ../notes.txt README.md"), ask("grep -m 1 foo ../notes.txt"), ask("rg -tgo foo ../other-repo"),
			ask("cat < ~/.netrc"), ask("wc -l < ../notes.txt"), ask("diff README.md ~/notes.txt"), ask("git diff --no-index ~/notes.txt README.md"),
			ask("sort -T /tmp README.md"), ask("date -f ~/notes.txt"), ask("du -sh ~"), ask("stat ~/notes.txt"),
			ask("cat $HOME/notes.txt"), ask("cat \"$(echo ~/notes.txt)\""), ask("cat @(README.md|x)"),
			ask("jq --rawfile k ~/notes.txt -n '$k'"), ask("jq -n --slurpfile k ../notes.txt '$k'"), ask("cat \"~/notes.txt\""),
			ask("timeout 5 cat README.md"), ask("/bin/cat README.md"), ask("cat ~/notes.txt | head"), ask("wc -l ~/notes.txt 2>/dev/null"),
			// Credential stores and secrets.
			ask("cat ~/.config/gh/hosts.yml"), ask("cat ~/.ssh/id_ed25519"), ask("ls ~/.ssh"), ask("cat ~/.ssh/id_ed25519.pub"),
			ask("cat ~/.aws/credentials"), ask("cat ~/.netrc"), ask("cat ~/.kube/config"), ask("cat ~/.claude/.credentials.json"),
			ask("cat ~/.codex/auth.json"), ask("cat ~/.npmrc"), ask("cat ~/.pypirc"), ask("cat ~/.docker/config.json"), ask("ls ~/.gnupg"),
			ask("ls ~/.mozilla"), ask("cat ~/.config/google-chrome/Default/Cookies"), ask("cat .env"), ask("cat src/.env.local"),
			ask("cat .e*"), ask("cat src/.*"), ask("grep TOKEN .env"), ask("head -n1 ./.env"), ask("git show HEAD:.env"),
			ask("cat .ENV"), ask("cat src/.Env.Local"), ask("ls ~/.SSH"), ask("cat vendor/dep/.ssh/id_rsa"), ask("cat /etc/shadow"), ask("cat /etc/gshadow"), ask("cat /etc/sudoers"),
			ask("cat /etc/ssh/ssh_host_ed25519_key"), ask("cat /usr/../etc/shadow"), ask("ls /etc/ssl/private"),
			// Walks that would reach secrets.
			ask("grep -r foo /etc"), ask("grep -R foo ~"), ask("grep -r foo /"), ask("rg foo /"), ask("rg foo ~"), ask("find /"),
			ask("find ~ -name x"), ask("ls -R /"), ask("ls -R ~"), ask("du -sh /"), ask("tree /proc"), ask("find /proc -name environ"),
			ask("grep --recursive foo /etc"), ask("grep -d recurse foo /etc"), ask("diff -r /etc /usr"),
		})
	})

	t.Run("in the home folder", func(t *testing.T) {
		run(t, policy.Request{Cwd: f.home}, []tc{
			// ~/.ssh/*.pub and known_hosts are no secret (cat
			// ~/.ssh/id_ed25519.pub is asked by the danger rule
			// read_secret_file, whose pattern covers id_* files).
			allow("cat notes.txt"), allow("ls"), allow("cat .ssh/known_hosts"), allow("cat proj/README.md"), allow("ls -d .ssh/*.pub"),
			ask("cat ~/.ssh/id_ed25519"), ask("ls .ssh"), ask("ls -a .ssh"), ask("cat .config/gh/hosts.yml"), ask("grep -r x ."),
			ask("ls -R"), ask("find . -name x"), ask("rg foo"), ask("du -sh"), ask("cat proj/.env"),
		})
	})

	t.Run("root other than cwd", func(t *testing.T) {
		// The MCP server's folder is the project; a call may name another cwd.
		run(t, policy.Request{Cwd: f.home, Root: f.proj}, []tc{
			allow("cat proj/README.md"), allow("cat /etc/os-release"), allow("ls proj"),
			ask("cat notes.txt"), ask("ls"), ask("cat other-repo/README.md"),
			ask("cd proj && ls"), ask("cd proj && cat README.md"), // over-approximated: the cd may fail
		})
	})

	t.Run("minimal environment", func(t *testing.T) {
		run(t, policy.Request{Cwd: f.proj, MinimalEnv: true}, []tc{
			allow("printenv"), allow("printenv HOME"), allow("env"), allow("set"), allow("jq -n env"), allow("jq -n '$ENV.PATH'"),
			allow("printenv | grep PATH"),
			ask("ps e"), ask("ps auxe"), ask("cat /proc/self/environ"), ask("export -p"), ask("declare -p"), ask("set -x"),
			ask("env FOO=1 printenv"), ask("jq -n env ~/notes.txt"), ask("printenv > out.txt"),
		})
	})
}

// TestReadOnlyScopeReason: an invocation the read-only list no longer
// covers is named in the reason, like any unapproved one.
func TestReadOnlyScopeReason(t *testing.T) {
	f := newScopeFixture(t)
	d := f.g.Decide(policy.Request{Command: "cat ~/notes.txt", Cwd: f.proj})
	if d.Verdict != policy.Ask || !strings.Contains(d.Reason, "cat") {
		t.Errorf("cat ~/notes.txt = %s (%s)", d.Verdict, d.Reason)
	}
	if len(d.Invocations) != 1 || d.Invocations[0].Approved {
		t.Errorf("invocations %+v", d.Invocations)
	}
}

// TestReadOnlyScopeBounds: the file system work of a line is bounded, and
// never blocks on what it opens.
func TestReadOnlyScopeBounds(t *testing.T) {
	f := newScopeFixture(t)
	big := filepath.Join(f.proj, "big")
	if err := os.Mkdir(big, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		if err := os.WriteFile(filepath.Join(big, fmt.Sprintf("f%03d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(f.proj, "pipe"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	tests := []struct {
		cmd  string
		want policy.Verdict
	}{
		{"cat big/f01*", policy.Allow},
		{"ls big/*", policy.Ask},      // 300 matches: more than a line may expand
		{"ls */*/*/*/*", policy.Ask},  // through the home folder's links, and too many
		{"cat p*/*", policy.Allow},    // the FIFO is not opened to be listed
		{"cat pipe/*", policy.Allow},  // nor here
		{"cat [ab*", policy.Ask},      // not a pattern path.Match reads as bash does
		{`cat 'big/f\'*`, policy.Ask}, // escapes
	}
	for _, tc := range tests {
		d := f.g.Decide(policy.Request{Command: tc.cmd, Cwd: f.proj})
		if d.Verdict != tc.want {
			t.Errorf("%q = %s (%s), want %s", tc.cmd, d.Verdict, d.Reason, tc.want)
		}
	}
	// Past its deadline, nothing that reads files is read-only (the
	// store is loaded first, so that the line is analysed inline).
	f.g.Decide(policy.Request{Command: "true", Cwd: f.proj})
	d := f.g.Decide(policy.Request{Command: "cat README.md", Cwd: f.proj, Deadline: time.Now().Add(-time.Second)})
	if d.Verdict == policy.Allow {
		t.Errorf("cat README.md past its deadline = %s (%s)", d.Verdict, d.Reason)
	}
}
