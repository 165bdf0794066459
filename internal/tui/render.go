package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/policy"
)

// OverlayTitle is the title of the confirmation shown for a flagged
// command.
const OverlayTitle = "Dangerous command detected"

// deniedTitle is the title when the policy denies a command that no
// danger pattern flagged.
const deniedTitle = "Command denied by policy"

// overlay renders the confirmation box for the pending command, at most
// width cells wide.
func (m *Model) overlay(width int) string {
	p := m.pending
	inner := min(max(width-4, 10), 76) // border and padding take 4 cells
	var lines []string
	add := func(s string) {
		if s == "" {
			lines = append(lines, "")
			return
		}
		lines = append(lines, strings.Split(ansi.Wrap(s, inner, ""), "\n")...)
	}
	title := OverlayTitle
	if len(p.decision.Warnings) == 0 {
		title = deniedTitle
	}
	add(m.st.title.Render("⚠  " + title))
	add("")
	for _, w := range p.decision.Warnings {
		add(m.st.level(w.Level).Render("["+levelName(w.Level)+"]") + " " + warningText(w))
		if w.Invocation != "" && w.Invocation != p.line {
			add(m.st.label.Render("  in: ") + w.Invocation)
		}
	}
	if len(p.decision.Warnings) > 0 {
		add("")
	}
	add(m.st.label.Render("Command: ") + p.line)
	add(m.st.label.Render("Verdict: ") + m.verdict(p.decision))
	add("")
	add(m.st.keys.Render("[c]") + " Cancel  " + m.st.keys.Render("[p]") + " Proceed anyway")
	return m.st.box.Render(strings.Join(lines, "\n"))
}

// verdict renders "deny — reason".
func (m *Model) verdict(d policy.Decision) string {
	v := verdictName(d.Verdict)
	s := m.st.verdictStyle(v).Render(v)
	if d.Reason != "" {
		s += " — " + d.Reason
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

func warningText(w danger.Warning) string {
	if w.Pattern.Description != "" {
		return w.Pattern.Description
	}
	if w.Message != "" {
		return w.Message
	}
	return w.Pattern.Name
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
			case inv.Approved && inv.ApprovedBy != "":
				b.WriteString(m.st.ok.Render("  approved by " + inv.ApprovedBy))
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
