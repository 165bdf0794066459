package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/policy"
)

// verdicts decides by the line's first word, as a configuration with
// rules would: "deny" is denied by a rule, "askrule" is asked by a rule,
// "unknown" is not approved yet, "over" is over budget, anything else is
// allowed.
func verdicts(r policy.Request) policy.Decision {
	d := policy.Decision{Command: r.Command, Warnings: []danger.Warning{}}
	switch strings.Fields(r.Command + " x")[0] {
	case "deny":
		d.Verdict, d.Reason, d.Rules = policy.Deny, "denied by your rule deny *", []string{"deny: deny *"}
	case "askrule":
		d.Verdict, d.Reason, d.Rules = policy.Ask, "your rule askrule * asks for confirmation", []string{"ask: askrule *"}
	case "unknown":
		d.Verdict, d.Reason = policy.Ask, "not approved yet: unknown"
	case "over":
		d = policy.BudgetExceeded(r.Command, policy.DefaultBudget, "the analysis")
	default:
		d.Verdict, d.Reason = policy.Allow, "allowed: read-only: "+r.Command
	}
	return d
}

// TestVerdictsDriveTheShell: the TUI acts on the decision (issue 11 item
// 4): allow runs, deny refuses, any ask — an ask rule, a command not
// approved yet, a decision over budget — shows the overlay, with or
// without a danger warning. Before, an ask without a warning ran at once.
func TestVerdictsDriveTheShell(t *testing.T) {
	tests := []struct {
		line                 string
		runs, overlay, refus bool
		want                 string
	}{
		{"ls -l", true, false, false, ""},
		{"askrule push", false, true, false, "Verdict: ask — your rule askrule * asks for confirmation"},
		{"unknown thing", false, true, false, "Verdict: ask — not approved yet: unknown"},
		{"over budget", false, true, false, "within its budget"},
		{"deny this", false, false, true, "verdict: deny — denied by your rule deny *"},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			r := &fakeRunner{}
			m := newTestModel(t, verdicts, r)
			typeLine(t, m, "!"+tc.line)
			s := screen(m)
			if got := len(r.ran()) == 1; got != tc.runs {
				t.Fatalf("ran %q, want running %v", r.ran(), tc.runs)
			}
			if got := m.mode == modeConfirm; got != tc.overlay {
				t.Fatalf("overlay shown %v, want %v:\n%s", got, tc.overlay, s)
			}
			if tc.overlay && !strings.Contains(s, "Confirm this command") {
				t.Errorf("overlay without its title:\n%s", s)
			}
			if got := strings.Contains(s, "[refused]"); got != tc.refus {
				t.Errorf("refused %v, want %v:\n%s", got, tc.refus, s)
			}
			if tc.want != "" && !strings.Contains(strings.Join(strings.Fields(s), " "), tc.want) {
				t.Errorf("screen lacks %q:\n%s", tc.want, s)
			}
			if tc.overlay {
				press(t, m, key("p"))
				if len(r.ran()) != 1 || r.ran()[0] != tc.line {
					t.Errorf("p ran %q", r.ran())
				}
			}
		})
	}
}

// openOverlay types line and Enter without delivering the overlay's
// settle tick: the overlay is shown but not armed yet. It returns the
// command that would deliver the tick.
func openOverlay(t *testing.T, m *Model, line string) tea.Cmd {
	t.Helper()
	for _, r := range line {
		press(t, m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	_, tick := m.Update(key("enter"))
	if m.mode != modeConfirm {
		t.Fatalf("no overlay:\n%s", screen(m))
	}
	return tick
}

// TestTypeAheadDoesNotAnswer: keys that arrive before the overlay has
// settled — typed ahead while the line was decided, or an unbracketed
// paste — are ignored, whatever they are (issue 11 item 5). Before, the p
// of `!pwd` typed after `!rm canary.txt` and Enter ran it.
func TestTypeAheadDoesNotAnswer(t *testing.T) {
	for _, ahead := range []string{"!pwd\r", "p", "P", "pp", "yes p", "c"} {
		t.Run(ahead, func(t *testing.T) {
			m, r := warnedModel(t)
			tick := openOverlay(t, m, "!rm canary.txt")
			var cmds []tea.Cmd
			for _, c := range ahead {
				k := tea.KeyPressMsg{Code: c, Text: string(c)}
				if c == '\r' {
					k = key("enter")
				}
				_, cmd := m.Update(k)
				cmds = append(cmds, cmd)
			}
			if m.mode != modeConfirm || len(r.ran()) != 0 {
				t.Fatalf("type-ahead %q answered the overlay: mode %v, ran %q", ahead, m.mode, r.ran())
			}
			// The settle tick (and any other) arrives: now it is armed,
			// and only a key pressed after that answers.
			drive(t, m, tick)
			for _, c := range cmds {
				drive(t, m, c)
			}
			if len(r.ran()) != 0 || !m.pending.armed {
				t.Fatalf("after the tick: ran %q, armed %v", r.ran(), m.pending.armed)
			}
			press(t, m, key("p"))
			if len(r.ran()) != 1 {
				t.Errorf("p after the overlay settled did not run: %q", r.ran())
			}
		})
	}
}

// TestOverlayAnswerKeys: once armed, only a lowercase p proceeds, and only
// when no key follows it at once; any other key (P included) is ignored
// and makes the overlay wait for its settle time again.
func TestOverlayAnswerKeys(t *testing.T) {
	t.Run("P", func(t *testing.T) {
		m, r := warnedModel(t)
		typeLine(t, m, "!rm canary.txt")
		_, cmd := m.Update(tea.KeyPressMsg{Code: 'P', Text: "P"})
		if len(r.ran()) != 0 || m.pending.armed {
			t.Fatalf("P: ran %q, armed %v", r.ran(), m.pending.armed)
		}
		drive(t, m, cmd)
		if len(r.ran()) != 0 || m.mode != modeConfirm {
			t.Fatalf("P ran %q", r.ran())
		}
	})
	t.Run("p then more keys", func(t *testing.T) {
		// An unbracketed paste of "pwd" once the overlay has settled.
		m, r := warnedModel(t)
		typeLine(t, m, "!rm canary.txt")
		_, proceed := m.Update(key("p"))
		_, rearm := m.Update(key("w"))
		m.Update(key("d"))
		drive(t, m, proceed)
		if len(r.ran()) != 0 || m.mode != modeConfirm {
			t.Fatalf("pasted pwd ran %q", r.ran())
		}
		drive(t, m, rearm)
		press(t, m, key("p"))
		if len(r.ran()) != 1 {
			t.Errorf("p alone did not run: %q", r.ran())
		}
	})
	t.Run("bracketed paste", func(t *testing.T) {
		m, r := warnedModel(t)
		typeLine(t, m, "!rm canary.txt")
		for _, msg := range []tea.Msg{tea.PasteStartMsg{}, tea.PasteMsg{Content: "p"}, tea.PasteEndMsg{}} {
			m.Update(msg)
		}
		if m.pending.armed || len(r.ran()) != 0 {
			t.Fatalf("paste: armed %v, ran %q", m.pending.armed, r.ran())
		}
		m.Update(key("p"))
		if len(r.ran()) != 0 {
			t.Errorf("p right after a paste ran %q", r.ran())
		}
	})
	t.Run("ctrl+c before it settles", func(t *testing.T) {
		m, _ := warnedModel(t)
		openOverlay(t, m, "!rm canary.txt")
		press(t, m, key("ctrl+c"))
		if m.mode != modePrompt || !strings.Contains(screen(m), "[cancelled]") {
			t.Errorf("ctrl+c did not cancel:\n%s", screen(m))
		}
	})
	t.Run("stale ticks", func(t *testing.T) {
		// The tick of a cancelled overlay does not arm the next one.
		m, _ := warnedModel(t)
		old := openOverlay(t, m, "!rm canary.txt")
		press(t, m, key("ctrl+c"))
		openOverlay(t, m, "!rm canary.txt")
		drive(t, m, old)
		if m.pending.armed {
			t.Error("an earlier overlay's tick armed this one")
		}
	})
}

// TestCtrlCEscalates: a command that ignores SIGINT is stopped by
// pressing Ctrl+C again: SIGTERM, then SIGKILL, each to its process group
// (issue 11 item 17). Before, every press sent SIGINT again.
func TestCtrlCEscalates(t *testing.T) {
	r := &fakeRunner{block: true}
	m := newTestModel(t, twoWarnings, r)
	typeKeys(t, m, "!trap '' INT; sleep 100")
	_, listen := m.Update(key("enter"))
	p := r.procs[0]
	p.ignoreInt = true
	m.Update(key("ctrl+c"))
	if !strings.Contains(screen(m), "ctrl+c again: SIGTERM") {
		t.Errorf("no hint after the first ctrl+c:\n%s", screen(m))
	}
	m.Update(key("ctrl+c"))
	if !strings.Contains(screen(m), "ctrl+c again: SIGKILL") {
		t.Errorf("no hint after the second ctrl+c:\n%s", screen(m))
	}
	m.Update(key("ctrl+c"))
	if got := strings.Join(p.signals, " "); got != "INT TERM KILL" {
		t.Errorf("signals %q, want INT TERM KILL", got)
	}
	drive(t, m, listen)
	if m.mode != modePrompt {
		t.Errorf("still running after SIGKILL:\n%s", screen(m))
	}
	// The count starts again with the next command.
	typeKeys(t, m, "!sleep 100")
	m.Update(key("enter"))
	m.Update(key("ctrl+c"))
	if got := strings.Join(r.procs[1].signals, " "); got != "INT" {
		t.Errorf("next command got %q", got)
	}
}

// TestOverlaySmallScreens: whatever the size from 20x5 up, the overlay
// shows the start of the command and both choices; the descriptions are
// cut instead (issue 11 item 17). Before, at 20x5 the command was gone.
func TestOverlaySmallScreens(t *testing.T) {
	long := "rm canary.txt " + strings.Repeat("and-a-very-long-argument ", 12)
	many := func(r policy.Request) policy.Decision {
		d := twoWarnings(r)
		for i := 0; i < 6; i++ {
			d.Warnings = append(d.Warnings, danger.NewWarning(r.Command, danger.Pattern{Name: "more", Level: danger.Medium,
				Description: strings.Repeat("A long description of what could go wrong. ", 4)}, r.Command))
		}
		return d
	}
	sizes := [][2]int{{20, 5}, {21, 5}, {20, 6}, {24, 5}, {30, 6}, {40, 8}, {40, 12}, {60, 9}, {80, 24}, {100, 30}, {20, 40}, {200, 5}}
	deciders := []struct {
		decide DecideFunc
		prefix string
	}{{twoWarnings, ""}, {many, ""}, {verdicts, "askrule "}}
	for _, line := range []string{"rm canary.txt", long} {
		for _, dc := range deciders {
			for _, size := range sizes {
				w, h := size[0], size[1]
				m := newTestModel(t, dc.decide, &fakeRunner{})
				m.Update(tea.WindowSizeMsg{Width: w, Height: h})
				cmdline := dc.prefix + line
				typeLine(t, m, "!"+cmdline)
				if m.mode != modeConfirm {
					t.Fatalf("%dx%d: no overlay", w, h)
				}
				s := screen(m)
				lines := strings.Split(s, "\n")
				if len(lines) != h {
					t.Errorf("%dx%d: %d lines", w, h, len(lines))
				}
				for _, l := range lines {
					if ansi.StringWidth(l) > w {
						t.Errorf("%dx%d: %q is wider", w, h, l)
					}
				}
				flat := strings.Join(strings.Fields(s), " ")
				start := cmdline[:min(len(cmdline), 8)]
				if !strings.Contains(flat, start) {
					t.Errorf("%dx%d: the command %q is not shown:\n%s", w, h, start, s)
				}
				if !strings.Contains(s, "[c]") || !strings.Contains(s, "[p]") {
					t.Errorf("%dx%d: the choices are not shown:\n%s", w, h, s)
				}
			}
		}
	}
}
