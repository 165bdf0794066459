package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestInitCmd(t *testing.T) {
	tests := []struct {
		args     []string
		bin      string
		wantCode int
		want     []string
	}{
		{[]string{"init", "bash"}, "/opt/sg/shellguard", 0, []string{"__shellguard_default_bin='/opt/sg/shellguard'", "bind -m", `check -- "$line"`}},
		{[]string{"init", "zsh"}, "/opt/sg/shellguard", 0, []string{"__shellguard_default_bin='/opt/sg/shellguard'", "zle -N accept-line"}},
		{[]string{"init", "bash"}, "", 0, []string{"__shellguard_default_bin='/"}},
		{[]string{"init", "fish"}, "", exitUsage, nil},
		{[]string{"init"}, "", exitUsage, nil},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " ")+tc.bin, func(t *testing.T) {
			t.Setenv("SHELLGUARD_BIN", tc.bin)
			var out, errb bytes.Buffer
			code := run(tc.args, strings.NewReader(""), &out, &errb)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tc.wantCode, errb.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q", w)
				}
			}
		})
	}
}

func TestShellNeedsTerminal(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"shell"}, strings.NewReader("!echo hi\n"), &out, &errb)
	if code != exitUsage || !strings.Contains(errb.String(), "needs a terminal") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}
