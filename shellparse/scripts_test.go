package shellparse_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/shellparse"
)

// TestScriptsWritten: a script the line writes with a known text (echo,
// printf, cat of a heredoc, tee) and then runs (a shell's script operand,
// source, its path) is read as the code it is; what the line cannot know
// of the file, it does not invent.
func TestScriptsWritten(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string // nested invocations, as nestedRuns prints them (prefix)
	}{
		{`echo 'rm -rf ~' > x.sh; sh x.sh`, []string{"rm -rf ~ @ "}},
		{"cat > /tmp/a.sh <<'EOF'\nset -e\nrm -rf /\nEOF\nbash /tmp/a.sh", []string{"set -e @ ", "rm -rf / @ "}},
		{"cat <<'EOF' > run.sh\nrm -rf /\nEOF\nchmod +x run.sh && ./run.sh", []string{"rm -rf / @ shell string script ./run.sh"}},
		{`printf 'id\n' > x; . ./x`, []string{"id @ "}},
		{`echo 'rm -rf ~' > x.sh; source ./x.sh`, []string{"rm -rf ~ @ "}},
		{`echo 'rm -rf ~' | tee x.sh >/dev/null; bash x.sh`, []string{"rm -rf ~ @ "}},
		{`echo 'rm -rf ~' >> x.sh; sh x.sh`, []string{"rm -rf ~ @ "}},
		{`echo 'echo a' > x.sh; echo 'id' >> x.sh; sh x.sh`, []string{"echo a @ ", "id @ "}},
		{"cat > t.sh <<'EOF'\n#!/usr/bin/env bash\nid\nEOF\n./t.sh", []string{"id @ "}},
		// Misses: a file rewritten with what cannot be known, a script
		// in another language, a file the line did not write.
		{`echo 'rm -rf ~' > x.sh; ls > x.sh; sh x.sh`, nil},
		{`echo 'rm -rf ~' > x.sh; echo "$y" > x.sh; sh x.sh`, nil},
		{`echo 'rm -rf ~' > x.sh; echo hi > "$f"; sh x.sh`, nil},
		{"cat > t.py <<'EOF'\n#!/usr/bin/env python3\nprint(1)\nEOF\n./t.py", nil},
		{`sh x.sh`, nil},
		{`echo 'rm -rf ~' > x.sh; cat x.sh`, nil},
	} {
		r := shellparse.Parse(tc.line)
		got := nestedRuns(r)
		if tc.want == nil && len(got) > 0 {
			t.Errorf("%q: nested %q, want none", tc.line, got)
		}
		for _, w := range tc.want {
			if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, w) }) {
				t.Errorf("%q: nested %q, want %q", tc.line, got, w)
			}
		}
	}
}
