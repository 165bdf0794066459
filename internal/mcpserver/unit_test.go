package mcpserver

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/policy"
	"github.com/shellguard/shellguard/shellparse"
)

var quoteCases = []string{
	"",
	"make build",
	"it's",
	"''",
	`a\b "c" $HOME $(id) ` + "`id`",
	"line1\nline2",
	"rm -rf / ; echo '*'",
	"tab\there",
}

func TestAllowCommand(t *testing.T) {
	for _, tc := range []struct {
		file  string
		exact bool
		want  string
	}{
		{"", false, `shellguard allow add -- "it's"`},
		{"", true, `shellguard allow add --exact -- "it's"`},
		{"/a b/approvals.json", false, `shellguard allow add --approvals '/a b/approvals.json' -- "it's"`},
	} {
		if got := AllowCommand(tc.file, tc.exact, "it's"); got != tc.want {
			t.Errorf("AllowCommand = %s, want %s", got, tc.want)
		}
	}
}

// allowArgv returns the argv bash would run for line, asking bash itself.
func allowArgv(t *testing.T, line string) []string {
	t.Helper()
	out, err := exec.Command("bash", "--norc", "--noprofile", "-c", "shellguard() { printf '%s\\0' \"$@\"; }; "+line).Output()
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

// TestAllowCommandRoundTrip asks bash to read the hint back: the
// command (and the approvals file) reach shellguard as one word each,
// unchanged.
func TestAllowCommandRoundTrip(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	for _, s := range quoteCases {
		got := allowArgv(t, AllowCommand(s, true, s))
		want := []string{"allow", "add", "--exact", "--approvals", s, "--", s}
		if s == "" {
			want = []string{"allow", "add", "--exact", "--", s}
		}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("%q reads back as %q", s, got)
		}
	}
}

// FuzzAllowCommand: the parser reads the hint back as shellguard's argv,
// the command one word, unchanged (a NUL byte, which no shell word holds,
// aside).
func FuzzAllowCommand(f *testing.F) {
	for _, s := range quoteCases {
		f.Add(s)
	}
	p := shellparse.New(shellparse.Limits{})
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Contains(s, "\x00") {
			return
		}
		res := p.Parse(AllowCommand("/a b", false, s))
		if !res.OK() || len(res.Invocations) != 1 {
			t.Fatalf("%q: %d invocations, problems %v", s, len(res.Invocations), res.Problems)
		}
		args := res.Invocations[0].Args
		if len(args) != 7 || args[4].Value != "/a b" || args[6].Value != s || args[6].Dynamic || args[6].Glob {
			t.Fatalf("%q reads back as %+v", s, args)
		}
	})
}

func TestCapture(t *testing.T) {
	tests := []struct {
		name      string
		max       int
		writes    []string
		want      string
		truncated bool
	}{
		{"empty", 10, nil, "", false},
		{"fits", 10, []string{"abc", "def"}, "abcdef", false},
		{"exactly full", 10, []string{"0123456789"}, "0123456789", false},
		{"one over", 10, []string{"0123456789a"}, "01234\n[shellguard: output truncated: 1 bytes left out here; 11 bytes in all]\n6789a", true},
		{"many small writes", 4, []string{"a", "b", "c", "d", "e", "f", "g"}, "ab\n[shellguard: output truncated: 3 bytes left out here; 7 bytes in all]\nfg", true},
		{"one big write", 4, []string{"abcdefghij"}, "ab\n[shellguard: output truncated: 6 bytes left out here; 10 bytes in all]\nij", true},
		{"wrap then big", 6, []string{"abcd", "ef", "ghijklmnop"}, "abc\n[shellguard: output truncated: 10 bytes left out here; 16 bytes in all]\nnop", true},
		{"rune across halves", 4, []string{"ab\u00e9"}, "ab\u00e9", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newCapture(tc.max)
			for _, w := range tc.writes {
				if n, err := c.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			got, tr := c.result()
			if got != tc.want || tr != tc.truncated {
				t.Errorf("got %q %v, want %q %v", got, tr, tc.want, tc.truncated)
			}
		})
	}
}

// FuzzCapture compares the capture with keeping everything.
func FuzzCapture(f *testing.F) {
	f.Add(10, []byte("hello world, this is long"), 3)
	f.Add(2, []byte("ab"), 1)
	f.Add(1, []byte{0xff, 0xfe, 'x'}, 2)
	f.Fuzz(func(t *testing.T, limit int, data []byte, chunk int) {
		if limit > 1<<16 || limit < -1 || chunk <= 0 || chunk > len(data)+1 {
			return
		}
		c := newCapture(limit)
		for p := data; len(p) > 0; {
			k := min(chunk, len(p))
			if n, err := c.Write(p[:k]); n != k || err != nil {
				t.Fatalf("Write = %d, %v", n, err)
			}
			p = p[k:]
		}
		got, truncated := c.result()
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 %q", got)
		}
		eff := max(limit, 2)
		if truncated != (len(data) > eff) {
			t.Fatalf("truncated = %v for %d bytes, cap %d", truncated, len(data), eff)
		}
		if !truncated {
			if want := strings.ToValidUTF8(string(data), "\uFFFD"); got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
			return
		}
		h := eff / 2
		head := strings.ToValidUTF8(string(data[:h]), "\uFFFD")
		tail := strings.ToValidUTF8(string(data[len(data)-(eff-h):]), "\uFFFD")
		marker := fmt.Sprintf("\n[shellguard: output truncated: %d bytes left out here; %d bytes in all]\n", len(data)-eff, len(data))
		if got != head+marker+tail {
			t.Fatalf("got %q, want %q", got, head+marker+tail)
		}
	})
}

func TestApprovalMessage(t *testing.T) {
	l := danger.High
	d := policy.Decision{
		Verdict:  policy.Ask,
		Reason:   "git push is not approved",
		Level:    &l,
		Warnings: []danger.Warning{{Message: "[High] Dangerous command detected: force push"}},
		Invocations: []policy.InvocationResult{
			{Command: "git push -f", Prefix: "git push"},
			{Command: "ls", Prefix: "ls", Approved: true},
			{Command: "git push", Prefix: "git push"},
		},
	}
	msg := approvalMessage(d, "git push -f\nls", "/src")
	for _, want := range []string{"    git push -f\n    ls\n", "in /src", "git push is not approved", "Danger: High", "force push", "session: approve git push * until", "always: approve git push * from now on"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "ls *") || strings.Count(msg, "git push *") != 2 {
		t.Errorf("message lists the wrong prefixes:\n%s", msg)
	}
}

func TestAnswerChoice(t *testing.T) {
	tests := []struct {
		res  mcp.InputResponse
		want string
	}{
		{&mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "once"}}, "once"},
		{&mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "always"}}, "always"},
		{&mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "ALWAYS"}}, ""},
		{&mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": 1}}, ""},
		{&mcp.ElicitResult{Action: "accept"}, ""},
		{&mcp.ElicitResult{Action: "decline", Content: map[string]any{"choice": "once"}}, ""},
		{&mcp.ElicitResult{Action: "", Content: map[string]any{"choice": "once"}}, ""},
		{(*mcp.ElicitResult)(nil), ""},
		{nil, ""},
	}
	for i, tc := range tests {
		got, err := answerChoice(tc.res)
		if got != tc.want || (err == nil) != (tc.want != "") {
			t.Errorf("%d: got %q, %v; want %q", i, got, err, tc.want)
		}
	}
}

func TestRunOutputText(t *testing.T) {
	tests := []struct {
		out  RunOutput
		want string
	}{
		{RunOutput{Output: "hi\n"}, "hi\n[exit code: 0]"},
		{RunOutput{Output: "no newline", ExitCode: 1}, "no newline\n[exit code: 1]"},
		{RunOutput{ExitCode: 137, TimedOut: true, Truncated: true}, "[exit code: 137; timed out; output truncated]"},
	}
	for _, tc := range tests {
		if got := tc.out.text(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.out, got, tc.want)
		}
	}
}

func TestDefaultShell(t *testing.T) {
	sh := DefaultShell()
	if len(sh) != 2 || sh[1] != "-c" {
		t.Fatalf("DefaultShell() = %v", sh)
	}
	out, err := exec.Command(sh[0], sh[1], "echo ok").Output()
	if err != nil || !bytes.Equal(out, []byte("ok\n")) {
		t.Errorf("%v: %q, %v", sh, out, err)
	}
}
