package tui_test

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/shellguard/shellguard/internal/tui"
	"github.com/shellguard/shellguard/policy"
)

// A Model is driven by messages; here a line without `!` is analysed and
// nothing runs.
func ExampleNew() {
	decide := func(r policy.Request) policy.Decision {
		return policy.Decision{Command: r.Command, Verdict: policy.Allow, Reason: "read-only command"}
	}
	m := tui.New(tui.Config{Decide: decide, Cwd: "/", Width: 60, Height: 10, NoColor: true})
	for _, r := range "ls" {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	for _, line := range strings.Split(ansi.Strip(m.View().Content), "\n")[1:4] {
		fmt.Println(strings.TrimRight(line, " "))
	}
	// Output:
	// ? ls
	//   verdict: allow — read-only command
	//   warnings: none
}
