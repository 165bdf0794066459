package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/policy"
)

// FuzzSubmit types any line at the prompt, answers the overlay if one is
// shown, and checks that the model neither panics nor breaks its layout.
func FuzzSubmit(f *testing.F) {
	for _, s := range []string{"!rm canary.txt", "ls", "!!vim", "!cd ..", "!", "!!", "!exit", "\x1b[31m", "!cd '", "cd ~/x"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, line string, proceed bool) {
		r := &fakeRunner{}
		m := New(Config{Decide: twoWarnings, Runner: r, Cwd: t.TempDir(), Home: t.TempDir(), Width: 40, Height: 12,
			Settle: testSettle, AnswerQuiet: testAnswerQuiet})
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

// FuzzOverlayLayout lays the overlay out at any size from 20x5 up, for any
// command and description: the view has the screen's size, and the
// choices and the start of the command are on it.
func FuzzOverlayLayout(f *testing.F) {
	f.Add(uint8(20), uint8(5), "rm canary.txt", "Deletes the canary file.", uint8(2))
	f.Add(uint8(30), uint8(6), strings.Repeat("long-argument ", 30), strings.Repeat("words ", 100), uint8(9))
	f.Add(uint8(200), uint8(60), "x", "", uint8(0))
	f.Fuzz(func(t *testing.T, w, h uint8, line, desc string, nwarn uint8) {
		width, height := 20+int(w)%200, 5+int(h)%80
		line = "rm " + strings.Map(func(r rune) rune {
			if r < 0x20 || r >= 0x7f {
				return 'x' // what the prompt lets through is printable
			}
			return r
		}, line)
		decide := func(r policy.Request) policy.Decision {
			d := policy.Decision{Command: r.Command, Verdict: policy.Ask, Reason: desc}
			for i := 0; i < int(nwarn%12); i++ {
				d.Warnings = append(d.Warnings, danger.NewWarning(r.Command, danger.Pattern{Name: "p", Level: danger.High, Description: desc}, r.Command))
			}
			return d
		}
		m := New(Config{Decide: decide, Runner: &fakeRunner{}, Cwd: "/", Home: "/", Width: width, Height: height,
			Settle: testSettle, AnswerQuiet: testAnswerQuiet, NoColor: true})
		m.input.SetValue("!" + line)
		m.Update(key("enter"))
		if m.mode != modeConfirm {
			t.Skip("no overlay") // a line the prompt does not submit
		}
		s := ansi.Strip(m.View().Content)
		lines := strings.Split(s, "\n")
		if len(lines) != height {
			t.Fatalf("%dx%d: %d lines:\n%s", width, height, len(lines), s)
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > width {
				t.Fatalf("%dx%d: line wider: %q", width, height, l)
			}
		}
		// (The start of the command: its first word, never wrapped away.)
		if !strings.Contains(s, "[c]") || !strings.Contains(s, "[p]") || !strings.Contains(s, "rm") {
			t.Fatalf("%dx%d: the command or the choices are missing:\n%s", width, height, s)
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
