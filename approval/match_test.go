package approval_test

import (
	"fmt"
	"testing"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/shellparse"
)

func prefixes(ps ...string) []approval.Entry {
	var out []approval.Entry
	for _, p := range ps {
		out = append(out, approval.Entry{Kind: approval.Prefix, Pattern: p})
	}
	return out
}

// shown returns, per invocation, the Display of the entry that covers it,
// or "" where none does.
func shown(m approval.MatchResult) []string {
	out := make([]string, len(m.By))
	for i, e := range m.By {
		if e != nil {
			out[i] = e.Display()
		}
	}
	return out
}

func TestMatch(t *testing.T) {
	p := shellparse.New(shellparse.Limits{})
	exact := func(s string) approval.Entry { return approval.Entry{Kind: approval.Exact, Pattern: s} }
	for _, tc := range []struct {
		line    string
		entries []approval.Entry
		want    bool
	}{
		// gaunt-sloth matchesApproval cases.
		{"git checkout -b foo bar", prefixes("git checkout"), true},
		{"git checkout main", prefixes("git checkout"), true},
		{"git checkout x; rm -rf /", prefixes("git checkout"), false},
		{"git checkout x && rm -rf /", prefixes("git checkout"), false},
		{"git checkout x | sh", prefixes("git checkout"), false},
		{"git checkout $(rm -rf /)", prefixes("git checkout"), false},
		{"git clone https://x/y.git", prefixes("git clone"), true},
		{"git clone --upload-pack=evil https://x/y.git", prefixes("git clone"), false},
		{"git checkout main", prefixes("npm install"), false},
		// Prefixes are compared whole: wrappers and paths count.
		{"sudo npm test", prefixes("npm test"), false},
		{"npm test", prefixes("sudo npm test"), false},
		{"sudo rm -rf /", prefixes("sudo apt-get install"), false},
		{"sudo apt-get install jq", prefixes("sudo apt-get install"), true},
		{"./git status", prefixes("git status"), false},
		{"git status", prefixes("git"), false},
		{"git commit -m x", prefixes("git checkout"), false},
		{"timeout 5 make test", prefixes("make test"), false},
		{"timeout 5 make test", prefixes("timeout make test"), true},
		// A displayed pattern given as a prefix still matches.
		{"ls -la", prefixes(" ls "), true},
		// Exact entries: the whole line, surrounding space ignored.
		{"git clone --upload-pack=evil r", []approval.Entry{exact("git clone --upload-pack=evil r")}, true},
		{"  ls -la  ", []approval.Entry{exact("ls -la")}, true},
		{"ls -la", []approval.Entry{exact("ls  -la")}, false},
		{"ls -la; rm -rf /", []approval.Entry{exact("ls -la")}, false},
		{"echo $HOME > out", []approval.Entry{exact("echo $HOME > out")}, true},
		{`echo "open`, []approval.Entry{exact(`echo "open`)}, false},
		{"", []approval.Entry{exact("")}, false},
		// Exact entries do not count as prefixes, nor prefixes as exact.
		{"git status", []approval.Entry{exact("git status --short")}, false},
		// Other kinds are ignored.
		{"ls", []approval.Entry{{Kind: "bogus", Pattern: "ls"}}, false},
		{"ls", nil, false},
	} {
		c := approval.ClassifyCommand(p, tc.line)
		m := approval.Match(c, tc.entries)
		if m.Approved != tc.want {
			t.Errorf("Match(%q, %v) = %v, want %v (reason %q)", tc.line, tc.entries, m.Approved, tc.want, c.Reason)
		}
		if len(m.By) != len(c.Invocations) {
			t.Errorf("Match(%q): %d By for %d invocations", tc.line, len(m.By), len(c.Invocations))
		}
		if m.Approved {
			for i, by := range m.By {
				if by == nil {
					t.Errorf("Match(%q): approved but invocation %d has no entry", tc.line, i)
				}
			}
		}
	}
}

func TestMatchBy(t *testing.T) {
	c := approval.ClassifyCommand(nil, "ls -la | grep x && git status")
	m := approval.Match(c, prefixes("grep", "ls"))
	if m.Approved {
		t.Fatal("approved without git status")
	}
	want := []string{"ls *", "grep *", ""}
	got := shown(m)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("By[%d] = %q, want %q", i, got[i], want[i])
		}
	}
	m = approval.Match(c, []approval.Entry{{Kind: approval.Exact, Pattern: "ls -la | grep x && git status"}})
	if !m.Approved || shown(m)[2] != "ls -la | grep x && git status" || m.By[2].Kind != approval.Exact {
		t.Errorf("exact: %+v", m)
	}
}

func TestPrefixEntries(t *testing.T) {
	c := approval.ClassifyCommand(nil, "ls | grep x; ls -la")
	es := approval.PrefixEntries(c)
	if len(es) != 2 || es[0].Pattern != "ls" || es[1].Pattern != "grep" || es[0].Kind != approval.Prefix {
		t.Errorf("PrefixEntries = %+v", es)
	}
	if es[0].Command != "ls | grep x; ls -la" {
		t.Errorf("Command = %q", es[0].Command)
	}
	if es := approval.PrefixEntries(approval.ClassifyCommand(nil, "git -c x=y log")); es != nil {
		t.Errorf("widened line gave entries %+v", es)
	}
}

// Match says which entry covers each invocation; nil where none does.
func ExampleMatch() {
	c := approval.ClassifyCommand(nil, "git checkout -b x && make deploy")
	m := approval.Match(c, []approval.Entry{{Kind: approval.Prefix, Pattern: "git checkout", Scope: approval.Always}})
	for i, e := range m.By {
		if e == nil {
			fmt.Printf("%s: not approved\n", c.Invocations[i].Command)
			continue
		}
		fmt.Printf("%s: %s (%s)\n", c.Invocations[i].Command, e.Display(), e.Scope)
	}
	fmt.Println(m.Approved)
	// Output:
	// git checkout -b x: git checkout * (always)
	// make deploy: not approved
	// false
}
