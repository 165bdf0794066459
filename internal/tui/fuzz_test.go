package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// FuzzSubmit types any line at the prompt, answers the overlay if one is
// shown, and checks that the model neither panics nor breaks its layout.
func FuzzSubmit(f *testing.F) {
	for _, s := range []string{"!rm canary.txt", "ls", "!!vim", "!cd ..", "!", "!!", "!exit", "\x1b[31m", "!cd '", "cd ~/x"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, line string, proceed bool) {
		r := &fakeRunner{}
		m := New(Config{Decide: twoWarnings, Runner: r, Cwd: t.TempDir(), Home: t.TempDir(), Width: 40, Height: 12})
		_, cmd := m.Update(key("x"))
		_ = cmd
		m.input.SetValue(line)
		_, cmd = m.Update(key("enter"))
		if m.mode == modeRunning && m.run != nil && m.run.proc == nil {
			m.Update(runMsg{id: m.run.id, done: true})
		} else {
			drive(t, m, cmd)
		}
		if m.mode == modeConfirm {
			k := "c"
			if proceed {
				k = "p"
			}
			_, cmd = m.Update(key(k))
			if m.mode == modeRunning && m.run != nil && m.run.proc == nil {
				m.Update(runMsg{id: m.run.id, done: true})
			} else {
				drive(t, m, cmd)
			}
		}
		s := ansi.Strip(m.View().Content)
		if n := strings.Count(s, "\n") + 1; n != 12 {
			t.Fatalf("%d lines:\n%s", n, s)
		}
		for _, l := range strings.Split(s, "\n") {
			if ansi.StringWidth(l) > 40 {
				t.Fatalf("line wider than 40: %q", l)
			}
		}
	})
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[31mred", "\r\n", "\x00\x07", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := sanitize(s)
		for _, r := range out {
			if r != '\n' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)) {
				t.Fatalf("sanitize(%q) kept control %U", s, r)
			}
		}
	})
}

func FuzzCdTarget(f *testing.F) {
	for _, s := range []string{"cd", "cd x", "cd 'a b'", "cd $X", "cd \"", "cd '"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		arg, ok := cdTarget(s)
		if !ok && arg != "" {
			t.Fatalf("cdTarget(%q) = %q, false", s, arg)
		}
		if ok && strings.ContainsAny(arg, ";&|$`\n") {
			t.Fatalf("cdTarget(%q) accepted %q", s, arg)
		}
		_ = needsTerminal(s)
	})
}
