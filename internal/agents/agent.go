package agents

import (
	"fmt"
	"strings"
)

// Agent names a coding agent whose hook protocol shellguard speaks.
type Agent string

// The supported agents.
const (
	Claude Agent = "claude" // Claude Code, PreToolUse hook on the Bash tool
	Gemini Agent = "gemini" // Gemini CLI, BeforeTool hook on run_shell_command
	Codex  Agent = "codex"  // Codex CLI, PreToolUse hook on the Bash tool
)

// Agents returns the supported agents in a stable order.
func Agents() []Agent { return []Agent{Claude, Gemini, Codex} }

// ParseAgent returns the Agent named s ("claude", "gemini" or "codex").
func ParseAgent(s string) (Agent, error) {
	switch a := Agent(strings.ToLower(strings.TrimSpace(s))); a {
	case Claude, Gemini, Codex:
		return a, nil
	}
	return "", fmt.Errorf("unknown agent %q (want claude, gemini or codex)", s)
}

// String returns the agent's name as the user types it.
func (a Agent) String() string { return string(a) }

// Title returns the agent's product name ("Claude Code").
func (a Agent) Title() string {
	switch a {
	case Claude:
		return "Claude Code"
	case Gemini:
		return "Gemini CLI"
	case Codex:
		return "Codex"
	}
	return string(a)
}

// ShellTool returns the tool name the agent reports for shell commands, the
// one shellguard's hook is registered for.
func (a Agent) ShellTool() string {
	if a == Gemini {
		return "run_shell_command"
	}
	return "Bash"
}

// Event returns the name of the hook event shellguard answers.
func (a Agent) Event() string {
	if a == Gemini {
		return "BeforeTool"
	}
	return "PreToolUse"
}
