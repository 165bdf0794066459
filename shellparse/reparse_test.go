package shellparse_test

import (
	"slices"
	"testing"

	"github.com/shellguard/shellguard/shellparse"
)

// TestStatementsAfterReparse: a string re-parsed in the middle of a list
// (bash -c, eval, su -c, a heredoc fed to a shell) must not end the
// parse of the line around it: every later statement is still reported.
func TestStatementsAfterReparse(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"echo a; bash -c 'ls -l | wc'; rm -rf /; echo c", []string{"echo", "bash", "ls", "wc", "rm", "echo"}},
		{"ls; eval ls; rm -rf /", []string{"ls", "eval", "ls", "rm"}},
		{"ls; bash -c ls\nrm -rf /", []string{"ls", "bash", "ls", "rm"}},
		{"ls; su -c 'id' root; rm x", []string{"ls", "su", "id", "rm"}},
		{"ls; watch 'ls'; rm x", []string{"ls", "watch", "ls", "rm"}},
		{"ls; sh <<EOF\nid\nEOF\nrm x", []string{"ls", "sh", "id", "rm"}},
		{"ls; echo id | sh; rm x; rm y", []string{"ls", "echo", "sh", "id", "rm", "rm"}},
		{"ls; bash -c 'bash -c \"eval id; ls\"; pwd'; rm x", []string{"ls", "bash", "bash", "eval", "id", "ls", "pwd", "rm"}},
		{"eval ls; rm -rf /", []string{"eval", "ls", "rm"}},
	} {
		r := shellparse.Parse(tc.line)
		if got := names(r); !slices.Equal(got, tc.want) || !r.OK() {
			t.Errorf("%q: invocations %q (problems %v), want %q", tc.line, got, r.Problems, tc.want)
		}
	}
}
