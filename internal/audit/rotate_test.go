package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRotation: past MaxSize the log is renamed to <log>.1 (replacing an
// older one) and a new log is started; no record is lost or torn, and the
// two files together never hold much more than twice the limit.
func TestRotation(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "audit.jsonl")
	const max = 4096
	for i := range 200 {
		r := Record{Cwd: "/w", Command: fmt.Sprintf("echo %03d %s", i, strings.Repeat("x", 40)), Verdict: "allow"}
		if err := AppendWith(context.Background(), log, r, Options{MaxSize: max}); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{log, RotatedPath(log)} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > max || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %d bytes, mode %v", p, fi.Size(), fi.Mode())
		}
	}
	var got []string
	res, err := Scan(log, Filter{}, func(r Record) error {
		got = append(got, r.Command[:8])
		return nil
	})
	if err != nil || res.Skipped != 0 || len(res.Files) != 2 {
		t.Fatalf("scan: %+v %v", res, err)
	}
	if got[len(got)-1] != "echo 199" {
		t.Errorf("last record %q", got[len(got)-1])
	}
	for i := 1; i < len(got); i++ {
		if got[i] <= got[i-1] {
			t.Fatalf("records out of order or repeated: %q after %q", got[i], got[i-1])
		}
	}
}

// TestRotationNeverWritesThrough: a rotated name that is a link or a
// FIFO is replaced, never written through; a folder there makes the
// write fail (and is reported) rather than grow the log without bound.
func TestRotationNeverWritesThrough(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "audit.jsonl")
	victim := planted(t, filepath.Join(dir, "victim"), RotatedPath(log))
	big := Record{Cwd: "/w", Command: strings.Repeat("y", 3000), Verdict: "ask"}
	for range 3 {
		if err := AppendWith(context.Background(), log, big, Options{MaxSize: 4096}); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me\n" {
		t.Fatalf("victim written through the rotated name: %q", b)
	}
	if fi, err := os.Lstat(RotatedPath(log)); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("rotated log: %v %v", fi, err)
	}

	dir2 := t.TempDir()
	log2 := filepath.Join(dir2, "audit.jsonl")
	if err := os.Mkdir(RotatedPath(log2), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(RotatedPath(log2), "keep"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	var failed error
	for range 3 {
		if err := AppendWith(context.Background(), log2, big, Options{MaxSize: 4096}); err != nil {
			failed = err
		}
	}
	if failed == nil || !strings.Contains(failed.Error(), "rotate") {
		t.Fatalf("rotation over a folder: %v", failed)
	}
	if Check(log2) == nil {
		t.Error("Check does not report the failed write")
	}
}

func TestScan(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "audit.jsonl")
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	var lines []string
	for i, v := range []string{"allow", "ask", "deny", "ask"} {
		b, err := Line(Record{Time: t0.Add(time.Duration(i) * time.Hour), Cwd: "/w", Command: fmt.Sprint("cmd", i), Verdict: v})
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	old := lines[0] + "not json\n" + `{"half":` + "\n"
	if err := os.WriteFile(RotatedPath(log), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, []byte(strings.Join(lines[1:], "")), 0o600); err != nil {
		t.Fatal(err)
	}
	var got []string
	res, err := Scan(log, Filter{Since: t0.Add(30 * time.Minute), Verdicts: []string{"ask", "deny"}}, func(r Record) error {
		got = append(got, r.Command)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "cmd1,cmd2,cmd3" || res.Skipped != 2 || res.Records != 3 {
		t.Fatalf("got %v, %+v", got, res)
	}
	if _, err := Scan(filepath.Join(dir, "none.jsonl"), Filter{}, func(Record) error { return nil }); err != nil {
		t.Errorf("a missing log: %v", err)
	}
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		err := within(t, 10*time.Second, func() error {
			_, err := Scan(fifo, Filter{}, func(Record) error { return nil })
			return err
		})
		if err == nil {
			t.Error("Scan read a FIFO")
		}
	}
	shared := filepath.Join(dir, "shared")
	if err := os.Mkdir(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(shared, 0o777)
	if err := os.WriteFile(filepath.Join(shared, "audit.jsonl"), []byte(lines[0]), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Scan(filepath.Join(shared, "audit.jsonl"), Filter{}, func(Record) error { return nil }); err == nil {
		t.Error("Scan read a log in a folder others can write")
	}
}
