package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/internal/testbin"
)

func TestDefaultHistoryPath(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	testbin.XDGPaths(t, "XDG_STATE_HOME", DefaultHistoryPath, map[string]string{
		"/state":   "/state/shellguard/history",
		"":         "/home/u/.local/state/shellguard/history",
		"relative": "/home/u/.local/state/shellguard/history",
	})
}

func TestHistoryAdd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "history")
	h, err := LoadHistory(path, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"one", "", "  ", "two", "two", "multi\nline", "four"} {
		if err := h.Add(l); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"two", "multi line", "four"}
	if got := h.Entries(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("entries %q, want %q", got, want)
	}
	h2, err := LoadHistory(path, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got := h2.Entries(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("reloaded %q, want %q", got, want)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	di, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if di.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v", di.Mode().Perm())
	}
}

func TestHistoryTightensMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	if err := os.WriteFile(path, []byte("ls\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := LoadHistory(path, 0)
	if err != nil || h.Len() != 1 {
		t.Fatalf("%v, %d entries", err, h.Len())
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
}

func TestHistoryFileIsCompacted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	h, err := LoadHistory(path, 10)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 200)
	for i := 0; i < 100; i++ {
		if err := h.Add(fmt.Sprintf("%s %d", long, i)); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > 2*10+30 {
		t.Errorf("file holds %d lines for a history of 10", n)
	}
	if !strings.HasSuffix(string(b), long+" 99\n") {
		t.Error("file lost the newest line")
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after rewrite %v", fi.Mode().Perm())
	}
}

func TestHistoryInMemory(t *testing.T) {
	h, err := LoadHistory("", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Add("ls"); err != nil || h.Len() != 1 || h.Path() != "" {
		t.Errorf("%v %d %q", err, h.Len(), h.Path())
	}
}

func TestHistoryUnreadable(t *testing.T) {
	dir := t.TempDir() // a directory is not a readable history file
	h, err := LoadHistory(dir, 0)
	if err == nil {
		t.Error("no error for a directory")
	}
	if h == nil || h.Len() != 0 {
		t.Error("no usable empty history")
	}
}
