package agents

import (
	"fmt"
	"strings"
)

// Agent names a coding agent whose hook protocol shellguard speaks.
type Agent string

// The supported agents.
const (
	Claude Agent = "claude" // Claude Code, PreToolUse hook on the Bash (and PowerShell) tool
	Gemini Agent = "gemini" // Gemini CLI, BeforeTool hook on run_shell_command
	Codex  Agent = "codex"  // Codex CLI, PreToolUse (and PermissionRequest) hook on the Bash tool
)

// Ask says whether a hook answer can ask a person to approve a command.
type Ask uint8

// The kinds of ask support.
const (
	// AskNever: the protocol has no ask; shellguard blocks instead.
	AskNever Ask = iota
	// AskAlways: the agent shows its own prompt when a person is there,
	// and refuses the command (handing the reason to the model) when not.
	AskAlways
	// AskAttended: the agent shows a prompt, and in a run no person
	// attends it waits for an answer that never comes; shellguard answers
	// ask only when it can tell a person is there.
	AskAttended
)

// Attendance says how a hook call tells whether a person will see a
// prompt (see package hook).
type Attendance uint8

// The attendance signals.
const (
	// AttendanceNone: the agent gives no signal; shellguard assumes a
	// person is there (its answers never ask on such agents anyway, or
	// the agent refuses asks it cannot show).
	AttendanceNone Attendance = iota
	// AttendanceClaudeEnv: Claude Code sets CLAUDE_CODE_SESSION_ATTENDED
	// ("1" interactive, "0" headless -p/SDK) in its hooks' environment.
	AttendanceClaudeEnv
	// AttendanceGeminiProcess: Gemini CLI gives its hooks no signal; the
	// hook looks at its terminal and at the command line of the Gemini
	// CLI process that started it.
	AttendanceGeminiProcess
)

// Registration is one hook entry shellguard writes into an agent's
// settings: the event and the matcher of its group.
type Registration struct {
	Event   string
	Matcher string
}

// Spec holds the facts about one agent that the hook answerer, the
// installer and doctor need. Adding an agent is adding a Spec to specs,
// plus its protocol adapter in package hook (encode) and, when its
// settings are not the common {"hooks": {EVENT: [{matcher, hooks}]}}
// JSON, its settings adapter in package install.
type Spec struct {
	Name Agent
	// Title is the product name ("Claude Code").
	Title string

	// Event is the hook event answered before shell commands.
	Event string
	// ShellTools are the tool names whose input carries a POSIX shell
	// command line in tool_input.command.
	ShellTools []string
	// ForeignShellTools carry a command for another shell (Claude Code's
	// PowerShell tool on Windows): shellguard answers them too, but never
	// allows one (see package hook).
	ForeignShellTools []string
	// Registrations are the hook entries install writes, the first one
	// for Event.
	Registrations []Registration
	// PermissionEvent is the event an agent raises when it is about to ask
	// a person (Codex's PermissionRequest), answered with allow for what
	// shellguard approves; "" when not registered.
	PermissionEvent string
	// Ask says whether the Event answer can ask a person.
	Ask Ask
	// Allow reports that an explicit allow answer is accepted (Codex's
	// PreToolUse rejects one).
	Allow bool
	// Attendance is how a hook call tells whether a person is there.
	Attendance Attendance
	// AppendsCommand reports that the agent appends ". Command: ..." to a
	// block reason, so a reason must not end with a period.
	AppendsCommand bool
	// TerminalSessions reports that the agent's shell tool can keep a
	// terminal session open and type into it (Codex's exec_command with
	// tty, then write_stdin), which no hook sees: shellguard then denies
	// programs that would read commands from the terminal (see
	// policy.InteractivePrograms).
	TerminalSessions bool

	// ConfigDirEnv names the environment variable that moves the user's
	// settings directory, or "".
	ConfigDirEnv string
	// Dir is the settings directory's name, in the home directory (user
	// scope) and in the project (project scope).
	Dir string
	// SettingsFile is the hook settings file in Dir.
	SettingsFile string
	// Comments reports that the settings file may hold comments (JSONC).
	Comments bool
	// Timeout is the hook timeout install writes, in the unit the agent
	// reads (seconds, or milliseconds for Gemini CLI). An agent runs a
	// command whose hook timed out, so it is generous.
	Timeout int
	// HookName is the "name" install writes in the handler, or "".
	HookName string
	// FailClosed reports that a hook command that cannot run (the program
	// was moved or deleted: exit 127) lets the command run, so install
	// wraps the command to exit 2, which blocks, when it fails.
	FailClosed bool
	// Trust reports that the agent runs a hook only after the user trusted
	// its exact definition (Codex's /hooks, recorded in config.toml).
	Trust bool
	// FolderTrust reports that the agent loads no settings hooks in a
	// folder the user did not trust (Gemini CLI's trustedFolders.json).
	FolderTrust bool
	// Docs is where the agent documents its hooks.
	Docs string
}

// specs is the table of supported agents, in the order they are listed.
var specs = []Spec{
	{
		// https://code.claude.com/docs/en/hooks (PreToolUse). Verified
		// with Claude Code 2.1.332: a hook program that is missing (exit
		// 127) is a non-blocking error and the command runs; exit 2 blocks
		// and hands stderr to the model; an ask shows the permission
		// prompt in every permission mode when a person is there, and in a
		// headless run (-p) refuses the command, handing the reason to the
		// model.
		Name: Claude, Title: "Claude Code",
		Event: "PreToolUse", ShellTools: []string{"Bash"}, ForeignShellTools: []string{"PowerShell"},
		Registrations: []Registration{{"PreToolUse", "Bash|PowerShell"}},
		Ask:           AskAlways, Allow: true, Attendance: AttendanceClaudeEnv,
		ConfigDirEnv: "CLAUDE_CONFIG_DIR", Dir: ".claude", SettingsFile: "settings.json",
		Timeout: 30, FailClosed: true,
		Docs: "https://code.claude.com/docs/en/hooks",
	},
	{
		// google-gemini/gemini-cli docs/hooks/reference.md (BeforeTool).
		// Verified with Gemini CLI 0.61.0 (bundle, hook-utils.ts and
		// hookRunner.ts): decision "deny"/"block" blocks, "ask" forces its
		// confirmation prompt (even in --yolo), and in a headless run that
		// prompt waits forever; "allow" is no objection (its own approval
		// mode still applies). A hook that exits other than 0 or 1 blocks.
		// Hooks run through bash -c, or PowerShell on Windows, so the
		// command is not wrapped. No hooks load in an untrusted folder.
		Name: Gemini, Title: "Gemini CLI",
		Event: "BeforeTool", ShellTools: []string{"run_shell_command"},
		Registrations: []Registration{{"BeforeTool", "run_shell_command"}},
		Ask:           AskAttended, Allow: true, Attendance: AttendanceGeminiProcess,
		Dir: ".gemini", SettingsFile: "settings.json", Comments: true,
		Timeout: 30000, HookName: "shellguard", FolderTrust: true,
		Docs: "https://github.com/google-gemini/gemini-cli/blob/main/docs/hooks/reference.md",
	},
	{
		// https://developers.openai.com/codex/hooks; openai/codex
		// codex-rs/hooks/src/events/{pre_tool_use,permission_request}.rs.
		// Verified with Codex 0.169.1: only deny with a reason blocks
		// (ask, and allow without updatedInput, count as a failed hook and
		// the tool runs); exit 2 with stderr blocks, any other failure
		// (exit 127) lets the command run; an untrusted or changed hook is
		// skipped silently; the block reason is shown as "REASON. Command:
		// CMD"; exec_command with tty plus write_stdin types into a
		// terminal no hook sees.
		Name: Codex, Title: "Codex",
		Event: "PreToolUse", ShellTools: []string{"Bash"},
		Registrations:   []Registration{{"PreToolUse", "^Bash$"}, {"PermissionRequest", "^Bash$"}},
		PermissionEvent: "PermissionRequest",
		Ask:             AskNever, Allow: false, Attendance: AttendanceNone,
		AppendsCommand: true, TerminalSessions: true,
		ConfigDirEnv: "CODEX_HOME", Dir: ".codex", SettingsFile: "hooks.json",
		Timeout: 30, FailClosed: true, Trust: true,
		Docs: "https://developers.openai.com/codex/hooks",
	},
}

// Agents returns the supported agents in a stable order.
func Agents() []Agent {
	out := make([]Agent, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

// Specs returns a copy of every agent's Spec, in the order of Agents.
func Specs() []Spec {
	out := make([]Spec, len(specs))
	copy(out, specs)
	return out
}

// Lookup returns the Spec of the agent named name.
func Lookup(name string) (Spec, bool) {
	for _, s := range specs {
		if string(s.Name) == name {
			return s, true
		}
	}
	return Spec{}, false
}

// Names returns the agents' names joined for a message: "claude, gemini
// or codex".
func Names() string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = string(s.Name)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// ParseAgent returns the Agent named s (see Agents), case-insensitively.
func ParseAgent(s string) (Agent, error) {
	if sp, ok := Lookup(strings.ToLower(strings.TrimSpace(s))); ok {
		return sp.Name, nil
	}
	return "", fmt.Errorf("unknown agent %q (want %s)", s, Names())
}

// Spec returns the agent's Spec; an unknown agent has a zero Spec with
// its name as title.
func (a Agent) Spec() Spec {
	if s, ok := Lookup(string(a)); ok {
		return s
	}
	return Spec{Name: a, Title: string(a)}
}

// String returns the agent's name as the user types it.
func (a Agent) String() string { return string(a) }

// Title returns the agent's product name ("Claude Code").
func (a Agent) Title() string { return a.Spec().Title }

// ShellTool returns the main tool name the agent reports for shell
// commands.
func (a Agent) ShellTool() string {
	if t := a.Spec().ShellTools; len(t) > 0 {
		return t[0]
	}
	return ""
}

// Event returns the name of the hook event shellguard answers before
// shell commands.
func (a Agent) Event() string { return a.Spec().Event }

// IsShellTool reports whether tool carries a POSIX shell command for a.
func (s Spec) IsShellTool(tool string) bool { return contains(s.ShellTools, tool) }

// IsForeignShellTool reports whether tool carries another shell's command.
func (s Spec) IsForeignShellTool(tool string) bool { return contains(s.ForeignShellTools, tool) }

// Events returns the events of the hook entries install writes.
func (s Spec) Events() []string {
	out := make([]string, len(s.Registrations))
	for i, r := range s.Registrations {
		out[i] = r.Event
	}
	return out
}

// Matcher returns the matcher install writes for event, and whether the
// agent registers event at all.
func (s Spec) Matcher(event string) (string, bool) {
	for _, r := range s.Registrations {
		if r.Event == event {
			return r.Matcher, true
		}
	}
	return "", false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
