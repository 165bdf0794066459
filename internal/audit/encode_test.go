package audit

import (
	"bytes"
	"testing"
	"time"

	"github.com/shellguard/shellguard/internal/testbin"
)

func checkRecord(t *testing.T, r *Record) {
	t.Helper()
	if got, want := appendRecord(nil, r), testbin.JSONLine(t, r); !bytes.Equal(got, want) {
		t.Fatalf("appendRecord:\n%s\nencoding/json:\n%s", got, want)
	}
}

func TestAppendRecord(t *testing.T) {
	when := time.Date(2026, 12, 3, 10, 15, 0, 123456789, time.UTC)
	for _, r := range []Record{
		{},
		{Time: when, Cwd: "/src/app", Command: "git push --force", Verdict: "ask", Level: "high",
			Rules: []string{"ask: git push *"}, Reason: "force push", Source: "hook:claude"},
		{Time: when.Truncate(time.Second), Command: "a\"b\\c\n\r\t\b\f\x00\x1f\x7f<>&\u2028\u2029é\xff\xfe日本", Verdict: "deny",
			ApprovedBy: []string{"always: git checkout *", ""}, Warnings: []string{"rm_recursive:low"},
			Programs: []string{"rm"}, Prefixes: []string{"rm"}, Code: "ABCD-1234", Shadow: true, Problem: "over_budget"},
		{Time: time.Date(1, 1, 1, 0, 0, 0, 0, time.FixedZone("x", 3600)), Rules: []string{}},
	} {
		checkRecord(t, &r)
	}
}

func FuzzAppendRecord(f *testing.F) {
	f.Add("/tmp", "rm -rf /", "deny", "a\x00\"\\\u2028\xff", int64(0), true)
	f.Fuzz(func(t *testing.T, cwd, cmd, verdict, other string, nanos int64, shadow bool) {
		r := Record{Time: time.Unix(0, nanos).UTC(), Cwd: cwd, Command: cmd, Verdict: verdict, Level: other,
			Rules: []string{other, cmd}, Reason: other, Source: cwd, Warnings: []string{verdict}, Code: other, Shadow: shadow, Problem: cmd}
		checkRecord(t, &r)
	})
}
