package tui

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestNeedsTerminal(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{"vim notes.txt", true},
		{"/usr/bin/vim notes.txt", true},
		{"sudo -E nano /etc/hosts", true},
		{"EDITOR=vi less README", true},
		{"env TERM=xterm top", true},
		{"man ls", true},
		{"ssh host", true},
		{"watch date", true},
		{"python3", true},         // a REPL
		{"python3 app.py", false}, // runs a script
		{"psql -c 'select 1'", false},
		{"ssh host ls", false},
		{"tmux ls", false},
		{"git log", false},
		{"echo vim", false},
		{"ls | less", false}, // the first program decides
		{"", false},
		{"=x vim", false},
	}
	for _, tc := range tests {
		if got := needsTerminal(tc.line); got != tc.want {
			t.Errorf("needsTerminal(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
	if !slices.IsSorted(InteractivePrograms()) || !slices.Contains(InteractivePrograms(), "vim") {
		t.Errorf("InteractivePrograms() = %q", InteractivePrograms())
	}
}

func TestCdTarget(t *testing.T) {
	tests := []struct {
		line, arg string
		ok        bool
	}{
		{"cd", "", true},
		{"  cd  ", "", true},
		{"cd /tmp", "/tmp", true},
		{"cd sub", "sub", true},
		{"cd ~", "~", true},
		{"cd -", "-", true},
		{"cd 'with space'", "with space", true},
		{`cd "with space"`, "with space", true},
		{"cd a b", "", false},
		{"cd x && make", "", false},
		{"cd $HOME", "", false},
		{"cd *", "", false},
		{"cdx", "", false},
		{"echo cd", "", false},
		{`cd 'it'"s"`, "", false},
		{`cd a\ b`, "", false},
	}
	for _, tc := range tests {
		arg, ok := cdTarget(tc.line)
		if arg != tc.arg || ok != tc.ok {
			t.Errorf("cdTarget(%q) = %q, %v; want %q, %v", tc.line, arg, ok, tc.arg, tc.ok)
		}
	}
}

func TestResolveDir(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	sub := filepath.Join(root, "sub")
	for _, d := range []string{home, sub, filepath.Join(home, "x")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		arg, prev, home, want string
		wantErr               bool
	}{
		{"", "", home, home, false},
		{"~", "", home, home, false},
		{"~/x", "", home, filepath.Join(home, "x"), false},
		{"sub", "", home, sub, false},
		{"sub/..", "", home, root, false},
		{sub, "", home, sub, false},
		{"-", sub, home, sub, false},
		{"-", "", home, "", true},
		{"", "", "", "", true},
		{"missing", "", home, "", true},
		{"file", "", home, "", true},
	}
	for _, tc := range tests {
		got, err := resolveDir(tc.arg, root, tc.prev, tc.home)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("resolveDir(%q) = %q, %v; want %q (error %v)", tc.arg, got, err, tc.want, tc.wantErr)
		}
	}
}
