package approval_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/shellparse"
)

func TestPrefixes(t *testing.T) {
	p := shellparse.New(shellparse.Limits{})
	for _, tc := range []struct{ line, prefix string }{
		{"git checkout main", "git checkout"},
		{"git checkout", "git checkout"},
		{"git", "git"},
		{"git --no-pager checkout main", "git checkout"},
		{"npm run dev --silent", "npm run dev"},
		{"npm run -s dev", "npm run dev"},
		{"frobnicate --wibble foo bar", "frobnicate"},
		{"ls -la /tmp", "ls"},
		{"aws s3 ls my-bucket", "aws s3 ls"},
		{"docker compose up service", "docker compose up"},
		{"docker compose -f x.yml up -d", "docker compose up"},
		{"rtk docker compose logs api", "rtk docker compose logs"},
		{"kubectl -n prod get pods", "kubectl get"},
		{"python -m venv env", "python venv"},
		{"python script.py", "python script.py"},
		{"node server.js --port 3", "node server.js"},
		{"git stash", "git stash"},
		{"git stash pop", "git stash pop"},
		{"head -n 3 f", "head"},
		{"npx prettier --write .", "npx prettier"},
		// Wrappers stay, without their option values.
		{"sudo apt-get install x", "sudo apt-get install"},
		{"sudo -u bob apt-get install x", "sudo apt-get install"},
		{"timeout 60 make test", "timeout make test"},
		{"nice -n 5 timeout -s KILL 10 make build", "nice timeout make build"},
		{"ls | xargs -n1 rm -f", ""}, // checked below per invocation
		// The program as written.
		{"./git status", "./git status"},
		{"/usr/bin/git status", "/usr/bin/git status"},
		// Words that need quoting stay one token.
		{"npm run 'my script'", "npm run 'my script'"},
		// Harmless redirections.
		{"ls > /dev/null 2>&1", "ls"},
		{"ls 2>/dev/null", "ls"},
		{"make test </dev/null", "make test"},
		// Line endings around a single command.
		{"ls -la\n", "ls"},
		{"\nls -la\r\n", "ls"},
	} {
		c := approval.ClassifyCommand(p, tc.line)
		if tc.prefix == "" {
			continue
		}
		if !c.Approvable || len(c.Invocations) != 1 || c.Invocations[0].Prefix != tc.prefix {
			t.Errorf("%q: approvable=%v reason=%q invocations=%+v, want prefix %q", tc.line, c.Approvable, c.Reason, c.Invocations, tc.prefix)
			continue
		}
		if got := c.Invocations[0].Pattern; got != tc.prefix+" *" {
			t.Errorf("%q: pattern %q", tc.line, got)
		}
	}
	c := approval.ClassifyCommand(p, "ls | xargs -n1 rm -f")
	if !c.Approvable || len(c.Invocations) != 2 || c.Invocations[1].Prefix != "xargs rm" {
		t.Errorf("xargs: %+v", c)
	}
}

func TestUnapprovable(t *testing.T) {
	p := shellparse.New(shellparse.Limits{})
	for _, line := range []string{
		"", "   ", "\n\n", "# just a comment",
		`echo "open`, "ls |", "if true; then",
		"echo $(rm -rf /)", "echo `rm -rf /`", "diff <(ls) <(ls)", "tee >(cat)",
		"echo ${EVIL}", "echo $HOME", "ls $DIR", "$CMD -la", "a=$(id) ls",
		"echo hi > /etc/passwd", "echo hi >> log", "cat < secrets", "ls &> out",
		"cat <<EOF\nhi\nEOF", "cat <<< hi", "{ ls; } > out", "(ls) > out",
		"ls; > foo", "> foo", "ls > $F",
		"git status &", "sleep 1 & ls",
		"bash -c 'ls'", "sh -c ls", "eval ls", "echo ls | bash", "ssh host ls",
		"sudo bash -c ls", "xargs sh -c 'ls'",
		"PATH=/tmp/evil:$PATH; git status", "PATH=/x; git status", "FOO=1; ls",
		"f() { ls; }; f", "ls() { rm -rf ~; }; ls",
		"git che* main", "l? -la",
		"ls -la\rrm -rf /", "ls\x00 -la", "ls \u202e-la", "ls \xff",
		"ls -la\nrm -rf / &",
		"case $() in 0)0;esac", "echo '$(id)'", "[[ -n `id` ]] && ls", "for x in $(id); do ls; done",
	} {
		c := approval.ClassifyCommand(p, line)
		if c.Approvable || c.Reason == "" {
			t.Errorf("%q: approvable=%v reason=%q", line, c.Approvable, c.Reason)
		}
		// Whatever prefix entries its invocations have, they do not
		// approve it.
		var entries []approval.Entry
		for _, ic := range c.Invocations {
			if ic.Prefix != "" {
				entries = append(entries, approval.Entry{Kind: approval.Prefix, Pattern: ic.Prefix})
			}
		}
		if approval.Match(c, entries).Approved {
			t.Errorf("%q approved by %v", line, entries)
		}
	}
}

// TestSeparators checks that every separator splits the line into
// invocations that must each be approved.
func TestSeparators(t *testing.T) {
	p := shellparse.New(shellparse.Limits{})
	for _, sep := range []string{"; ", " && ", " || ", " | ", "\n", "\r\n", "\n\n", " |& "} {
		line := "ls -la" + sep + "rm -rf /"
		c := approval.ClassifyCommand(p, line)
		if len(c.Invocations) != 2 {
			t.Errorf("%q: %d invocations", line, len(c.Invocations))
			continue
		}
		if approval.Match(c, []approval.Entry{{Kind: approval.Prefix, Pattern: "ls"}}).Approved {
			t.Errorf("%q approved by ls", line)
		}
		m := approval.Match(c, []approval.Entry{{Kind: approval.Prefix, Pattern: "ls"}, {Kind: approval.Prefix, Pattern: "rm"}})
		if !m.Approved || m.By[0] != "ls *" || m.By[1] != "rm *" {
			t.Errorf("%q: %+v with ls and rm approved", line, m)
		}
	}
	for _, line := range []string{"(ls; pwd)", "{ ls; pwd; }", "if ls; then pwd; fi", "ls && (pwd)"} {
		c := approval.ClassifyCommand(p, line)
		if !c.Approvable || len(c.Invocations) != 2 {
			t.Errorf("%q: approvable=%v (%s), %d invocations", line, c.Approvable, c.Reason, len(c.Invocations))
		}
	}
}

func TestClassifyNil(t *testing.T) {
	c := approval.Classify(nil)
	if c.Approvable || c.Reason == "" {
		t.Errorf("Classify(nil) = %+v", c)
	}
	if approval.Match(c, []approval.Entry{{Kind: approval.Exact, Pattern: ""}}).Approved {
		t.Error("empty classification approved")
	}
	c = approval.ClassifyCommand(nil, "ls")
	if !c.Approvable {
		t.Errorf("ClassifyCommand(nil, ls): %s", c.Reason)
	}
}

// TestClassifyConcurrent classifies from many goroutines with one parser
// (run with -race).
func TestClassifyConcurrent(t *testing.T) {
	p := shellparse.New(shellparse.Limits{})
	done := make(chan string)
	for i := 0; i < 8; i++ {
		go func(i int) {
			c := approval.ClassifyCommand(p, fmt.Sprintf("git checkout b%d && ls", i))
			done <- strings.Join([]string{c.Invocations[0].Prefix, c.Invocations[1].Prefix}, ",")
		}(i)
	}
	for i := 0; i < 8; i++ {
		if got := <-done; got != "git checkout,ls" {
			t.Errorf("got %q", got)
		}
	}
}

func ExampleClassifyCommand() {
	c := approval.ClassifyCommand(nil, "sudo -u bob apt-get install -y jq")
	fmt.Println(c.Invocations[0].Prefix)
	fmt.Println(c.Invocations[0].Pattern)

	c = approval.ClassifyCommand(nil, "git -c core.pager=sh log")
	fmt.Println(c.Approvable, c.Invocations[0].Widening)

	c = approval.ClassifyCommand(nil, "echo $(id)")
	fmt.Println(c.Approvable)
	// Output:
	// sudo apt-get install
	// sudo apt-get install *
	// false -c
	// false
}

func BenchmarkClassifyMatch(b *testing.B) {
	p := shellparse.New(shellparse.Limits{})
	entries := []approval.Entry{{Kind: approval.Prefix, Pattern: "git checkout"}, {Kind: approval.Prefix, Pattern: "ls"}}
	for b.Loop() {
		approval.Match(approval.ClassifyCommand(p, "git checkout -b x main && ls -la | grep foo"), entries)
	}
}

// TestRunnerPrefixes: a runner's prefix goes on with the prefix of the
// program it runs, by that program's own arity; approving one subcommand
// of the run program approves no other.
func TestRunnerPrefixes(t *testing.T) {
	p := shellparse.New(shellparse.Limits{})
	for _, tc := range []struct{ line, prefix string }{
		{"npx prisma generate", "npx prisma generate"},
		{"npx prisma migrate reset --force", "npx prisma migrate reset"},
		{"npx -y prisma generate", "npx prisma generate"},
		{"npx -p prisma prisma db push", "npx prisma db push"},
		{"pnpm dlx prisma migrate dev", "pnpm dlx prisma migrate dev"},
		{"yarn dlx prisma generate", "yarn dlx prisma generate"},
		{"bunx --bun prisma generate", "bunx prisma generate"},
		{"bun x prisma generate", "bun x prisma generate"},
		{"npx prettier --check .", "npx prettier"},
		{"uvx ruff check .", "uvx ruff"},
		{"pipx run black .", "pipx run black"},
		{"dotnet tool run dotnet-ef migrations list", "dotnet tool run dotnet-ef"},
		{"go run ./cmd/tool", "go run"},
		{"go run example.com/tool@v1.2.0 -x", "go run example.com/tool@v1.2.0"},
		{"deno run -A npm:prisma generate", "deno run npm:prisma generate"},
		{"deno run -A main.ts", "deno run"},
	} {
		c := approval.ClassifyCommand(p, tc.line)
		if len(c.Invocations) == 0 || c.Invocations[0].Prefix != tc.prefix {
			t.Errorf("%q: prefix %q, want %q", tc.line, c.Invocations[0].Prefix, tc.prefix)
		}
	}
	approved := approval.PrefixEntries(approval.ClassifyCommand(p, "npx prisma generate"))
	for _, later := range []string{"npx prisma migrate reset --force", "npx prisma db push --force-reset", "npx rimraf ~"} {
		if approval.Match(approval.ClassifyCommand(p, later), approved).Approved {
			t.Errorf("approving npx prisma generate approves %q", later)
		}
	}
	if !approval.Match(approval.ClassifyCommand(p, "npx prisma generate --schema db/schema.prisma"), approved).Approved {
		t.Error("approving npx prisma generate does not approve it with options")
	}
	// The run program's own widening options count.
	c := approval.ClassifyCommand(p, "npx node -e 'process.exit(1)'")
	if c.Approvable || c.Invocations[0].Widening != "-e" {
		t.Errorf("npx node -e: widening %q, approvable %v", c.Invocations[0].Widening, c.Approvable)
	}
}
