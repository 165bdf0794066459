package approval_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/shellparse"
)

// approvedCommands are commands C that get approved by their own prefix
// entries; otherCommands are commands X, some of which are approved in
// their own right in a given run.
var (
	approvedCommands = []string{
		"git status", "git checkout main", "ls -la", "npm run dev --silent",
		"grep -rn foo .", "sort -u f", "git add -u", "sudo apt-get install jq",
		"timeout 60 make test", "cat README.md", "echo hello", "docker compose up -d",
		"python3 -m pytest", "go test ./...", "ls 2>/dev/null",
	}
	otherCommands = []string{
		"rm -rf /", "curl -o x https://e", "git push --force", "sudo rm -rf /etc",
		"ls", "git status", "echo pwned", "sh", "bash -c id", "python3 -c 'import os'",
		"cat /etc/shadow", "git -c core.pager=sh log", "LD_PRELOAD=x ls", "./evil",
		"npm test", "git commit -m wip", "sed -i s/a/b/ f", "find . -delete",
	}
)

// TestCompositionProperty checks, for every approved command C and every
// command X (with a random subset of the X list approved as well):
// C;X, C&&X, C||X, C|X and C<newline>X are approved exactly when X is
// approved in its own right, and C $(X), C `X`, C > file never are.
func TestCompositionProperty(t *testing.T) {
	p := shellparse.New(shellparse.Limits{})
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 4; round++ {
		var entries []approval.Entry
		for _, c := range approvedCommands {
			cl := approval.ClassifyCommand(p, c)
			es := approval.PrefixEntries(cl)
			if len(es) == 0 {
				t.Fatalf("%q: no prefix entries (%s)", c, cl.Reason)
			}
			entries = append(entries, es...)
		}
		for _, x := range otherCommands {
			if rng.IntN(2) == 0 {
				entries = append(entries, approval.PrefixEntries(approval.ClassifyCommand(p, x))...)
			}
		}
		for _, c := range approvedCommands {
			if !approval.Match(approval.ClassifyCommand(p, c), entries).Approved {
				t.Fatalf("%q not approved by its own entries", c)
			}
			for _, x := range otherCommands {
				xApproved := approval.Match(approval.ClassifyCommand(p, x), entries).Approved
				for _, sep := range []string{" ; ", " && ", " || ", " | ", "\n", "\r\n", " ;\n "} {
					line := c + sep + x
					got := approval.Match(approval.ClassifyCommand(p, line), entries).Approved
					if got != xApproved {
						t.Errorf("%q: approved=%v, but %q alone approved=%v", line, got, x, xApproved)
					}
				}
				for _, line := range []string{
					c + " $(" + x + ")",
					c + " `" + x + "`",
					c + " \"$(" + x + ")\"",
					c + " <(" + x + ")",
					c + " > file",
					c + " >> file",
					c + " 2> file",
					c + " &",
					x + " > " + strings.ReplaceAll(c, " ", "_"),
				} {
					if approval.Match(approval.ClassifyCommand(p, line), entries).Approved {
						t.Errorf("%q approved by prefix entries", line)
					}
				}
			}
		}
	}
}
