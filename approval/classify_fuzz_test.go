package approval_test

import (
	"strings"
	"testing"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/shellparse"
)

// FuzzClassifyMatch classifies arbitrary lines and matches them against
// prefix entries made from their own invocations (the most generous prefix
// approvals possible). It checks classification never panics, and that a
// line holding "$(" is never approved by prefix entries, nor is any line
// that is not Approvable.
func FuzzClassifyMatch(f *testing.F) {
	for _, s := range []string{
		"git checkout main", "ls -la | grep x && pwd", "echo $(rm -rf /)", "echo `id`",
		"sudo -u bob apt-get install x", "sed -ni p f", "tar xIf prog a", "a=1; b=$(c) d",
		"cat <<EOF\n$(id)\nEOF", "ls\nrm -rf /", "ls \\\nrm", "f() { ls; }", "echo \"open",
		"find . -exec sh -c 'rm {}' \\;", "x=( $(id) )", "ls > /dev/null 2>&1", "$(echo ls)",
		"ls $'\\x41'", "echo ${x:-$(id)}", "[[ $(id) ]] && ls", "case $(id) in *) ls;; esac",
		"for x in $(id); do ls; done", "((x = $(id)))", "ls <(id)", "eval \"$(id)\"",
	} {
		f.Add(s)
	}
	p := shellparse.New(shellparse.Limits{MaxBytes: 1 << 14})
	f.Fuzz(func(t *testing.T, line string) {
		c := approval.ClassifyCommand(p, line)
		var entries []approval.Entry
		for _, ic := range c.Invocations {
			if ic.Prefix != "" {
				entries = append(entries, approval.Entry{Kind: approval.Prefix, Pattern: ic.Prefix})
			}
			if ic.Prefix == "" && ic.Pattern != "" || ic.Pattern != "" && ic.Pattern != ic.Prefix+" *" {
				t.Fatalf("%q: prefix %q pattern %q", line, ic.Prefix, ic.Pattern)
			}
		}
		m := approval.Match(c, entries)
		if len(m.By) != len(c.Invocations) {
			t.Fatalf("%q: %d By for %d invocations", line, len(m.By), len(c.Invocations))
		}
		if m.Approved && strings.Contains(line, "$(") {
			t.Fatalf("%q holds a command substitution but is approved by %v", line, entries)
		}
		if m.Approved != c.Approvable {
			t.Fatalf("%q: approvable=%v (%s) but approved=%v by its own prefixes", line, c.Approvable, c.Reason, m.Approved)
		}
		if c.Approvable && c.Reason != "" || !c.Approvable && c.Reason == "" {
			t.Fatalf("%q: approvable=%v with reason %q", line, c.Approvable, c.Reason)
		}
		// An exact entry of the line approves it only when it parsed.
		em := approval.Match(c, []approval.Entry{{Kind: approval.Exact, Pattern: line}})
		if em.Approved && (!c.Parsed || strings.TrimSpace(line) == "") {
			t.Fatalf("%q: exact approval of an unparsed or empty line", line)
		}
	})
}
