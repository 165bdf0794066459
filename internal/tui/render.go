package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/policy"
)

// OverlayTitle is the title of the confirmation shown for a command with
// danger warnings.
const OverlayTitle = "Dangerous command detected"

// confirmTitle is the title when the decision asks without a danger
// warning (an ask rule of the configuration, a command not approved yet,
// a decision shellguard could not finish).
const confirmTitle = "Confirm this command"

// overlay renders the confirmation box for the pending command in at most
// width cells and height lines. Whatever the size, the command (at least
// its start) and the choices stay visible: when everything does not fit,
// blank lines go first, then the descriptions are cut to one line, then
// dropped, and the command is cut last.
func (m *Model) overlay(width, height int) string {
	width, height = max(width, 1), max(height, 1)
	border := width >= 12 && height >= 4
	pad := border && width >= 40
	inner := width
	budget := height
	if border {
		inner -= 2
		budget -= 2
	}
	if pad {
		inner -= 2
	}
	inner = max(min(inner, 76), 1)
	lines := m.overlayLines(inner, budget)
	if !border {
		for i, l := range lines {
			lines[i] = fit(l, inner)
		}
		return strings.Join(lines, "\n")
	}
	box := m.st.box
	if !pad {
		box = box.Padding(0)
	}
	return box.Render(strings.Join(lines, "\n"))
}

// overlayLines lays out the overlay's text in at most budget lines of at
// most width cells.
func (m *Model) overlayLines(width, budget int) []string {
	p := m.pending
	budget = max(budget, 1)
	wrap := func(s string) []string { return strings.Split(ansi.Wrap(s, width, ""), "\n") }

	title := OverlayTitle
	if len(p.decision.Warnings) == 0 {
		title = confirmTitle
	}
	titleLines := []string{ansi.Truncate(m.st.title.Render("⚠  "+title), width, "…")}
	var warns [][]string
	for _, w := range p.decision.Warnings {
		l := wrap(m.st.level(w.Level).Render("["+levelName(w.Level)+"]") + " " + warningText(w))
		if w.Invocation != "" && w.Invocation != p.line {
			l = append(l, wrap(m.st.label.Render("  in: ")+oneLine(w.Invocation))...)
		}
		warns = append(warns, l)
	}
	label := "Command: "
	if width < 24 {
		label = "$ "
	}
	cmd := wrap(m.st.label.Render(label) + oneLine(p.line))
	verdict := wrap(m.st.label.Render("Verdict: ") + m.verdict(p.decision))
	choices := m.choiceLines(width, max(budget-1, 1))

	// Everything, with blank lines between the parts.
	full := append([]string(nil), titleLines...)
	full = append(full, "")
	for _, w := range warns {
		full = append(full, w...)
	}
	if len(warns) > 0 {
		full = append(full, "")
	}
	full = append(full, cmd...)
	full = append(full, verdict...)
	full = append(full, "")
	full = append(full, choices...)
	if len(full) <= budget {
		return full
	}

	// Not enough room: give each part lines in order of importance.
	n := map[*[]string]int{}
	rest := budget
	give := func(part *[]string, k int) {
		k = min(k, len(*part)-n[part], rest)
		if k > 0 {
			n[part] += k
			rest -= k
		}
	}
	all := 1 << 30
	give(&choices, all)
	give(&cmd, 1)
	give(&titleLines, 1)
	if len(warns) > 0 {
		give(&warns[0], 1)
	} else {
		give(&verdict, 1)
	}
	give(&cmd, all)
	give(&verdict, 1)
	for i := range warns {
		give(&warns[i], 1)
	}
	for i := range warns {
		give(&warns[i], all)
	}
	give(&verdict, all)

	take := func(part *[]string) []string {
		k := n[part]
		out := append([]string(nil), (*part)[:k]...)
		if k > 0 && k < len(*part) {
			out[k-1] = ansi.Truncate(out[k-1], max(width-1, 0), "") + "…"
		}
		return out
	}
	var out []string
	out = append(out, take(&titleLines)...)
	for i := range warns {
		out = append(out, take(&warns[i])...)
	}
	out = append(out, take(&cmd)...)
	out = append(out, take(&verdict)...)
	out = append(out, take(&choices)...)
	return out
}

// choiceLines renders the choices in at most width cells and maxLines
// lines, in the longest form that fits.
func (m *Model) choiceLines(width, maxLines int) []string {
	k := m.st.keys
	if m.pending != nil && !m.pending.armed {
		k = m.st.keysWaiting // the overlay does not take an answer yet
	}
	forms := [][]string{
		{k.Render("[c]") + " Cancel  " + k.Render("[p]") + " Proceed anyway"},
		{k.Render("[c]") + " Cancel  " + k.Render("[p]") + " Proceed"},
		{k.Render("[c]") + "ancel " + k.Render("[p]") + "roceed"},
		{k.Render("[c]") + "ancel", k.Render("[p]") + "roceed"},
		{k.Render("[c]") + "/" + k.Render("[p]")},
	}
	for _, f := range forms {
		if len(f) > maxLines {
			continue
		}
		ok := true
		for _, l := range f {
			ok = ok && ansi.StringWidth(l) <= width
		}
		if ok {
			return f
		}
	}
	return []string{ansi.Truncate(forms[len(forms)-1][0], width, "")}
}

// verdict renders "deny — reason".
func (m *Model) verdict(d policy.Decision) string {
	v := verdictName(d.Verdict)
	s := m.st.verdictStyle(v).Render(v)
	if d.Reason != "" {
		s += " — " + oneLine(d.Reason)
	}
	return s
}

func verdictName(v policy.Verdict) string {
	switch v {
	case policy.Allow, policy.Ask, policy.Deny:
		return v.String()
	}
	return "none"
}

func levelName(l danger.Level) string {
	if l.Valid() {
		return l.String()
	}
	return "Unknown"
}

// warningText is what a warning says, on one line of display-safe text.
func warningText(w danger.Warning) string {
	if w.Pattern.Description != "" {
		return oneLine(w.Pattern.Description)
	}
	if w.Message != "" {
		return oneLine(w.Message)
	}
	return oneLine(w.Pattern.Name)
}

// oneLine makes text from a configuration, a decision or a command line
// safe to draw: no escape sequences or control characters (a C1 byte
// such as 0x9d starts an escape sequence for the terminal), line breaks
// and tabs as spaces.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' {
			return ' '
		}
		return r
	}, sanitize(s))
}

// analysis renders what a line without `!` shows: the decision and
// everything behind it.
func (m *Model) analysis(line string, d policy.Decision) string {
	var b strings.Builder
	b.WriteString(m.st.analysis.Render("? " + line))
	b.WriteString("\n  " + m.st.label.Render("verdict: ") + m.verdict(d))
	if d.Level != nil && d.Level.Valid() {
		b.WriteString("\n  " + m.st.label.Render("level: ") + m.st.level(*d.Level).Render(d.Level.String()))
	}
	if len(d.Invocations) > 0 {
		b.WriteString("\n  " + m.st.label.Render("invocations:"))
		for _, inv := range d.Invocations {
			b.WriteString("\n    " + inv.Command)
			if inv.Prefix != "" {
				b.WriteString(m.st.label.Render("  prefix: ") + inv.Prefix)
			} else {
				b.WriteString(m.st.label.Render("  prefix: ") + "(none)")
			}
			switch {
			case inv.Approved && inv.ApprovedBy.Kind != 0:
				b.WriteString(m.st.ok.Render("  approved by " + inv.ApprovedBy.String()))
			case inv.Approved:
				b.WriteString(m.st.ok.Render("  approved"))
			case inv.Reason != "":
				b.WriteString(m.st.notice.Render("  not approved: " + inv.Reason))
			default:
				b.WriteString(m.st.notice.Render("  not approved"))
			}
		}
	}
	if len(d.Warnings) > 0 {
		b.WriteString("\n  " + m.st.label.Render("warnings:"))
		for _, w := range d.Warnings {
			b.WriteString("\n    " + m.st.level(w.Level).Render("["+levelName(w.Level)+"]") + " " + warningText(w))
			if w.Invocation != "" && w.Invocation != line {
				b.WriteString(m.st.label.Render(" (in: " + w.Invocation + ")"))
			}
		}
	} else {
		b.WriteString("\n  " + m.st.label.Render("warnings: ") + "none")
	}
	if len(d.Rules) > 0 {
		b.WriteString("\n  " + m.st.label.Render("rules: ") + strings.Join(d.Rules, ", "))
	}
	b.WriteString("\n  " + m.st.label.Render("(type !"+line+" to run it)"))
	return b.String()
}
