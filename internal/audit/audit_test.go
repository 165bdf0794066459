package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shellguard/shellguard/internal/testbin"
)

func TestAppendWritesRedactedJSONLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "shellguard", "audit.jsonl")
	at := time.Date(2026, 12, 2, 11, 15, 0, 0, time.FixedZone("CET", 3600))
	recs := []Record{
		{
			Time: at, Cwd: "/src/app", Command: "curl -H 'Authorization: Bearer abc' https://x && rm -rf build",
			Verdict: "ask", Level: "high", Rules: []string{"ask: curl *"}, Reason: "uses --password=hunter2",
			Source: "hook:claude",
		},
		{Cwd: "/src/app", Command: "git checkout main", Verdict: "allow", ApprovedBy: []string{"always: git checkout *"}},
	}
	for _, r := range recs {
		if err := Append(path, r); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("log mode %v, want 0600", fi.Mode().Perm())
	}
	if di, err := os.Stat(filepath.Dir(path)); err != nil || di.Mode().Perm() != 0o700 {
		t.Errorf("log folder: %v, %v; want mode 0700", di.Mode().Perm(), err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want 2:\n%s", len(lines), raw)
	}
	if strings.Contains(string(raw), "abc'") || strings.Contains(string(raw), "hunter2") {
		t.Errorf("secret written to the log:\n%s", raw)
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"time":    "2026-12-02T10:15:00Z",
		"cwd":     "/src/app",
		"command": "curl -H 'Authorization: Bearer [REDACTED]' https://x && rm -rf build",
		"verdict": "ask",
		"level":   "high",
		"rules":   []any{"ask: curl *"},
		"reason":  "uses --password=[REDACTED]",
		"source":  "hook:claude",
	}
	if fmt.Sprint(first) != fmt.Sprint(want) {
		t.Errorf("first line\n got  %v\n want %v", first, want)
	}
	if !strings.Contains(lines[0], "&&") {
		t.Errorf("command is HTML-escaped: %s", lines[0])
	}

	got, err := Read(bytes.NewReader(raw))
	if err != nil || len(got) != 2 {
		t.Fatalf("Read: %d records, %v", len(got), err)
	}
	if got[1].Time.IsZero() || got[1].Verdict != "allow" || len(got[1].ApprovedBy) != 1 || got[1].ApprovedBy[0] != "always: git checkout *" {
		t.Errorf("second record = %+v", got[1])
	}
}

func TestAppendNeedsAPath(t *testing.T) {
	if err := Append("", Record{Verdict: "deny"}); err == nil {
		t.Error("Append with no path succeeded")
	}
}

func TestLineCutsHugeCommands(t *testing.T) {
	cmd := "cat <<EOF\n" + strings.Repeat("é", MaxCommandBytes) + "\nEOF"
	line, err := Line(Record{Command: cmd, Verdict: "ask"})
	if err != nil {
		t.Fatal(err)
	}
	var r Record
	if err := json.Unmarshal(line, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Command) > MaxCommandBytes+64 || !strings.Contains(r.Command, "bytes cut]") {
		t.Errorf("command of %d bytes kept as %d bytes ending %q", len(cmd), len(r.Command), r.Command[len(r.Command)-30:])
	}
	if bytes.Count(line, []byte("\n")) != 1 || line[len(line)-1] != '\n' {
		t.Errorf("record is not exactly one line")
	}
}

func TestReadReportsBadLine(t *testing.T) {
	in := `{"verdict":"allow","command":"ls"}` + "\n\n" + `{"verdict":` + "\n"
	got, err := Read(strings.NewReader(in))
	if err == nil || !strings.Contains(err.Error(), "line 3") || len(got) != 1 {
		t.Errorf("Read = %v, %v; want 1 record and an error on line 3", got, err)
	}
}

func TestDefaultPath(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	testbin.XDGPaths(t, "XDG_STATE_HOME", DefaultPath, map[string]string{
		"/var/state": "/var/state/shellguard/audit.jsonl",
		"":           filepath.Join(home, ".local", "state", "shellguard", "audit.jsonl"),
		"rel":        filepath.Join(home, ".local", "state", "shellguard", "audit.jsonl"),
	})
}

const helperLines = 20

// helperCommand is long enough that a torn or interleaved write would
// show.
func helperCommand(id, n int) string {
	return fmt.Sprintf("echo proc=%d line=%d %s GITHUB_TOKEN=secret%d", id, n, strings.Repeat("x", 8000), id)
}

// TestHelperProcess is not a real test: TestManyProcessesAppend runs the
// test binary again with it selected.
func TestHelperProcess(t *testing.T) {
	path, id := testbin.Proc(t)
	for n := range helperLines {
		r := Record{Cwd: "/w", Command: helperCommand(id, n), Verdict: "ask", Rules: []string{strconv.Itoa(id)}}
		if err := Append(path, r); err != nil {
			t.Fatal(err)
		}
	}
}

// TestManyProcessesAppend has 50 processes append 20 lines each to one log
// at the same time: every line must be whole, valid JSON, and present once.
func TestManyProcessesAppend(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	const procs = 50
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	testbin.Procs(t, "TestHelperProcess", procs, path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	lines := 0
	for sc.Scan() {
		lines++
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d is not valid JSON (%v): %.200s", lines, err, sc.Bytes())
		}
		if strings.Contains(r.Command, "secret") {
			t.Errorf("line %d not redacted", lines)
		}
		seen[r.Command]++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines != procs*helperLines {
		t.Errorf("got %d lines, want %d", lines, procs*helperLines)
	}
	for id := range procs {
		for n := range helperLines {
			want := Redact(helperCommand(id, n))
			if seen[want] != 1 {
				t.Errorf("process %d line %d present %d times", id, n, seen[want])
			}
		}
	}
}

func BenchmarkAppend(b *testing.B) {
	path := filepath.Join(b.TempDir(), "audit.jsonl")
	r := Record{Cwd: "/src/app", Command: "git push --force origin main", Verdict: "ask", Level: "high", Rules: []string{"ask: git push *"}}
	for b.Loop() {
		if err := Append(path, r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRedact(b *testing.B) {
	s := `GITHUB_TOKEN=abc curl -H 'Authorization: Bearer xyz' https://u:p@example.com/api --data '{"password":"x"}' && make build`
	for b.Loop() {
		Redact(s)
	}
}

func ExampleRedact() {
	fmt.Println(Redact(`curl -H 'Authorization: Bearer abc123' https://bob:pw@example.com --token=t0k`))
	// Output: curl -H 'Authorization: Bearer [REDACTED]' https://bob:[REDACTED]@example.com --token=[REDACTED]
}
