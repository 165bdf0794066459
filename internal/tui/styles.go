package tui

import (
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/shellguard/shellguard/danger"
)

// styles are the looks of the shell. With noColor only bold and faint
// text are used (https://no-color.org).
type styles struct {
	noColor  bool
	header   lipgloss.Style
	help     lipgloss.Style
	echo     lipgloss.Style // "$ cmd" lines in the transcript
	analysis lipgloss.Style // "? cmd" lines
	ok       lipgloss.Style
	fail     lipgloss.Style
	notice   lipgloss.Style
	label    lipgloss.Style
	box      lipgloss.Style
	title    lipgloss.Style
	keys     lipgloss.Style
	// keysWaiting: the choices while the overlay does not take an
	// answer yet (see DefaultSettle).
	keysWaiting lipgloss.Style
	verdict     map[string]lipgloss.Style
	levels      map[danger.Level]lipgloss.Style
	inputText   textinput.Styles
}

func newStyles(noColor bool) styles {
	plain := lipgloss.NewStyle()
	bold := plain.Bold(true)
	faint := plain.Faint(true)
	s := styles{
		noColor:     noColor,
		header:      bold.Reverse(true),
		help:        faint,
		echo:        bold,
		analysis:    bold,
		ok:          faint,
		fail:        bold,
		notice:      faint,
		label:       faint,
		box:         plain.Border(lipgloss.NormalBorder()).Padding(0, 1),
		title:       bold,
		keys:        bold,
		keysWaiting: faint,
		verdict: map[string]lipgloss.Style{
			"allow": bold, "ask": bold, "deny": bold,
		},
		levels: map[danger.Level]lipgloss.Style{
			danger.Low: bold, danger.Medium: bold, danger.High: bold, danger.Critical: bold,
		},
	}
	in := textinput.Styles{
		Focused: textinput.StyleState{Prompt: bold, Text: plain, Placeholder: faint, Suggestion: faint},
		Blurred: textinput.StyleState{Prompt: faint, Text: faint, Placeholder: faint, Suggestion: faint},
		Cursor:  textinput.CursorStyle{Shape: tea.CursorBlock},
	}
	if noColor {
		s.inputText = in
		return s
	}
	red := lipgloss.Color("1")
	green := lipgloss.Color("2")
	yellow := lipgloss.Color("3")
	blue := lipgloss.Color("4")
	magenta := lipgloss.Color("5")
	cyan := lipgloss.Color("6")
	s.header = bold.Foreground(lipgloss.Color("15")).Background(blue)
	s.echo = bold.Foreground(cyan)
	s.analysis = bold.Foreground(magenta)
	s.ok = plain.Foreground(green)
	s.fail = bold.Foreground(red)
	s.notice = plain.Foreground(yellow)
	s.box = s.box.BorderForeground(red)
	s.title = bold.Foreground(red)
	s.keys = bold.Foreground(yellow)
	s.keysWaiting = faint.Foreground(yellow)
	s.verdict = map[string]lipgloss.Style{
		"allow": bold.Foreground(green), "ask": bold.Foreground(yellow), "deny": bold.Foreground(red),
	}
	s.levels = map[danger.Level]lipgloss.Style{
		danger.Low:      bold.Foreground(cyan),
		danger.Medium:   bold.Foreground(yellow),
		danger.High:     bold.Foreground(red),
		danger.Critical: bold.Foreground(lipgloss.Color("15")).Background(red),
	}
	in.Focused.Prompt = bold.Foreground(cyan)
	in.Cursor.Color = lipgloss.Color("7")
	s.inputText = in
	return s
}

func (s styles) level(l danger.Level) lipgloss.Style {
	if st, ok := s.levels[l]; ok {
		return st
	}
	return lipgloss.NewStyle().Bold(true)
}

func (s styles) verdictStyle(v string) lipgloss.Style {
	if st, ok := s.verdict[v]; ok {
		return st
	}
	return lipgloss.NewStyle().Bold(true)
}
