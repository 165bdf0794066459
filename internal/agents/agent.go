package agents

import (
	"fmt"
	"slices"
	"strings"
)

// Agent names a coding agent whose hook protocol shellguard speaks.
type Agent string

// The supported agents.
const (
	Claude   Agent = "claude"   // Claude Code, PreToolUse hook on the Bash (and PowerShell) tool
	Gemini   Agent = "gemini"   // Gemini CLI, BeforeTool hook on run_shell_command
	Codex    Agent = "codex"    // Codex CLI, PreToolUse (and PermissionRequest) hook on the Bash tool
	Copilot  Agent = "copilot"  // GitHub Copilot CLI, preToolUse hook on the bash tool
	OpenCode Agent = "opencode" // OpenCode, a plugin's tool.execute.before on the bash tool
	Cursor   Agent = "cursor"   // Cursor, beforeShellExecution hook
	Windsurf Agent = "windsurf" // Windsurf (Cascade), pre_run_command hook
	Cline    Agent = "cline"    // Cline CLI, a PreToolUse hook file on run_commands
	Qwen     Agent = "qwen"     // Qwen Code, PreToolUse hook on run_shell_command
	Droid    Agent = "droid"    // Factory Droid, PreToolUse hook on the Execute tool
	Crush    Agent = "crush"    // Crush, PreToolUse hook on the bash tool
	Pi       Agent = "pi"       // Pi, an extension's tool_call on the bash tool
	Kilo     Agent = "kilo"     // Kilo Code CLI, a plugin's tool.execute.before on the bash tool
	Amp      Agent = "amp"      // Amp, a plugin's tool.call on the Bash tool
	Augment  Agent = "augment"  // Augment (Auggie CLI), PreToolUse hook on launch-process
)

// Ask says whether a hook answer can ask a person to approve a command.
type Ask uint8

// The kinds of ask support.
const (
	// AskNever: the protocol has no ask (or the agent ignores it);
	// shellguard blocks instead.
	AskNever Ask = iota
	// AskAlways: the agent shows its own prompt when a person is there,
	// and refuses the command (handing the reason to the model) when not.
	AskAlways
	// AskAttended: the agent shows a prompt, and in a run no person
	// attends it waits for an answer that never comes (or lets the
	// command run); shellguard answers ask only when it can tell a person
	// is there.
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
	// AttendanceInput: the hook input says it (Input.Attended): shellguard's
	// own plugins and extensions report whether the agent has a UI that
	// can show a prompt.
	AttendanceInput
)

// Registration is one hook entry shellguard writes into an agent's
// settings: the event and the matcher of its group.
type Registration struct {
	Event   string
	Matcher string
}

// Input says where the facts of a hook call sit in the agent's JSON. A
// path names a member of the top-level object, or with dots a member of a
// nested object ("tool_call.input"); "" means the agent sends none.
type Input struct {
	// Event is the path of the event name.
	Event string
	// Tool is the path of the tool name; "" when the hook is called for
	// shell commands only (Cursor's beforeShellExecution).
	Tool string
	// Args is the path of the tool's arguments; "" when they are members
	// of the top-level object.
	Args string
	// ArgsString reports that the arguments may come as a JSON string
	// holding the object (Copilot CLI's toolArgs, in its documentation).
	ArgsString bool
	// Command is the member of the arguments holding the command line (a
	// string, or an argv as a list of strings).
	Command string
	// Commands is the member of the arguments holding a list of whole
	// command lines (Cline's run_commands), each decided on its own.
	Commands string
	// Dirs are members of the arguments naming the directory the command
	// runs in, absolute or relative to Cwd; the first present is used.
	Dirs []string
	// Cwd is the path of the working directory.
	Cwd string
	// Roots is the path of a list of workspace roots whose first is the
	// working directory when Cwd is absent or empty.
	Roots string
	// Session is the path of the session (or conversation) id.
	Session string
	// Mode is the path of the permission mode the agent reports.
	Mode string
	// Attended is the path of a boolean saying whether a person will see
	// a prompt (AttendanceInput).
	Attended string
}

// claudeInput is the input of Claude Code and of the agents that copied
// its hooks.
var claudeInput = Input{Event: "hook_event_name", Tool: "tool_name", Args: "tool_input", Command: "command",
	Cwd: "cwd", Session: "session_id", Mode: "permission_mode"}

// geminiInput is Gemini CLI's BeforeTool input (and Qwen Code's, a
// fork): Claude Code's, with the folder a command runs in among the
// tool's arguments.
var geminiInput = Input{Event: "hook_event_name", Tool: "tool_name", Args: "tool_input", Command: "command",
	Dirs: []string{"dir_path", "directory"}, Cwd: "cwd", Session: "session_id", Mode: "permission_mode"}

// pluginInput is what shellguard's own plugins and extensions (OpenCode,
// Kilo Code, Pi, Amp) send to the hook: the tool's arguments as the agent
// gives them to the plugin, and whether the agent can show a prompt.
var pluginInput = Input{Event: "hook_event_name", Tool: "tool_name", Args: "tool_input", Command: "command",
	Dirs: []string{"workdir", "dir"}, Cwd: "cwd", Session: "session_id", Attended: "attended"}

// Output names the shape of an agent's hook answer (see package hook).
type Output uint8

// The answer shapes.
const (
	// OutputClaude: exit 0 with {"hookSpecificOutput": {"hookEventName",
	// "permissionDecision", "permissionDecisionReason"}}.
	OutputClaude Output = iota
	// OutputCodex: Claude's shape, deny only; PermissionRequest answers
	// {"decision": {"behavior"}}.
	OutputCodex
	// OutputGemini: {"decision", "reason", "systemMessage"}.
	OutputGemini
	// OutputCopilot: {"permissionDecision", "permissionDecisionReason"}.
	OutputCopilot
	// OutputCursor: {"permission", "user_message", "agent_message"}.
	OutputCursor
	// OutputCrush: {"decision", "reason"}.
	OutputCrush
	// OutputCline: {"overrideInput", "context"} (and "cancel").
	OutputCline
	// OutputExitCode: no JSON; exit 2 with the reason on stderr blocks.
	OutputExitCode
	// OutputPlugin: shellguard's own plugins' {"decision", "reason",
	// "message"}.
	OutputPlugin
)

// Layout names how install writes shellguard's hook.
type Layout uint8

// The settings layouts.
const (
	// LayoutGroups: {"hooks": {EVENT: [{"matcher", "hooks": [HANDLER]}]}}.
	LayoutGroups Layout = iota
	// LayoutList: {"hooks": {EVENT: [HANDLER]}}, the handler carrying the
	// matcher, if any.
	LayoutList
	// LayoutFile: a file of shellguard's own (a plugin, an extension, a
	// hook script), written whole.
	LayoutFile
)

// Plugin names the template of a LayoutFile agent's file.
type Plugin uint8

// The file templates (package install).
const (
	PluginNone     Plugin = iota
	PluginOpenCode        // an OpenCode (or Kilo Code) plugin, JavaScript
	PluginPi              // a Pi extension, TypeScript
	PluginAmp             // an Amp plugin, TypeScript
	PluginCline           // a Cline hook script, bash
)

// Handler is what install writes in the handler of a hook entry.
type Handler struct {
	// CommandKey is the handler member holding the command ("command";
	// Copilot CLI: "bash").
	CommandKey string
	// TimeoutKey is the handler member holding the timeout ("timeout";
	// Copilot CLI: "timeoutSec"); "" writes none.
	TimeoutKey string
	// Timeout is the hook timeout install writes, in the unit the agent
	// reads (seconds, or milliseconds for Gemini CLI). An agent runs a
	// command whose hook timed out, so it is generous.
	Timeout int
	// HandlerType reports that the handler carries "type": "command".
	HandlerType bool
	// ShowOutput reports that the handler carries "show_output": true
	// (Windsurf: the reason is shown in Cascade).
	ShowOutput bool
	// HookName is the "name" install writes in the handler, or "".
	HookName string
	// FailClosed reports that a hook command that cannot run (the program
	// was moved or deleted: exit 127) lets the command run, so install
	// wraps the command to exit 2, which blocks, when it fails.
	FailClosed bool
}

// claudeHandler is the handler of Claude Code and of the agents that
// copied its hooks: {"type": "command", "command", "timeout": 30}, the
// command wrapped to fail closed.
var claudeHandler = Handler{CommandKey: "command", TimeoutKey: "timeout", Timeout: 30, HandlerType: true, FailClosed: true}

// Spec holds the facts about one agent that the hook answerer, the
// installer and doctor need. Adding an agent is adding a Spec to specs;
// its input is described by Input, its answer by Output (an adapter in
// package hook), and its settings by Layout and the location fields.
type Spec struct {
	Name Agent
	// Title is the product name ("Claude Code").
	Title string
	// Package is where the agent's CLI is published ("npm
	// @anthropic-ai/claude-code"), for the documentation and the tests.
	Package string

	// Event is the hook event answered before shell commands.
	Event string
	// ShellTools are the tool names whose input carries a POSIX shell
	// command line.
	ShellTools []string
	// ForeignShellTools carry a command for another shell (Claude Code's
	// and Copilot CLI's PowerShell tools on Windows): shellguard answers
	// them too, but never allows one (see package hook).
	ForeignShellTools []string
	// Input is where the hook input's facts sit.
	Input Input
	// Output is the shape of the answer.
	Output Output
	// ToolMatcher is the matcher of the hook entries install writes for
	// Event and PermissionEvent ("" for none; see Registrations).
	ToolMatcher string
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
	// tty, then write_stdin; Copilot CLI's async bash, then write_bash),
	// which no hook sees: shellguard then denies programs that would read
	// commands from the terminal (see policy.InteractivePrograms).
	TerminalSessions bool

	// UserDir is the agent's settings directory in the home directory
	// (".claude"); UserDirEnv names the environment variable that
	// replaces it ("CLAUDE_CONFIG_DIR"), and UserXDG, when set, puts it
	// in $XDG_CONFIG_HOME/UserXDG (default ~/.config/UserXDG) instead.
	UserDir, UserDirEnv, UserXDG string
	// ProjectDir is the settings directory in the project ("" for the
	// project's root).
	ProjectDir string
	// File is the file install writes, relative to the settings
	// directory ("settings.json", "plugins/shellguard.js").
	File string
	// Layout is how the hook is written in File.
	Layout Layout
	// EventsAtRoot reports that File's top-level object holds the events
	// itself, with no "hooks" member (Factory Droid's hooks.json).
	EventsAtRoot bool
	// Plugin is the template of a LayoutFile file.
	Plugin Plugin
	// Comments reports that the settings file may hold comments (JSONC).
	Comments bool
	// Version, when not 0, is the "version" install writes at the top of
	// a settings file it creates (Cursor's hooks.json).
	Version int
	// Handler is the handler install writes in a settings file (not
	// for LayoutFile).
	Handler
	// Trust reports that the agent runs a hook only after the user trusted
	// its exact definition (Codex's /hooks, recorded in config.toml).
	Trust bool
	// FolderTrust reports that the agent loads no settings hooks in a
	// folder the user did not trust (Gemini CLI's trustedFolders.json).
	FolderTrust bool
	// ProjectTrust reports that the agent loads project hooks only in a
	// folder the user trusted (Copilot CLI's trustedFolders), while the
	// user's hooks load everywhere.
	ProjectTrust bool
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
		Name: Claude, Title: "Claude Code", Package: "npm @anthropic-ai/claude-code",
		Event: "PreToolUse", ShellTools: []string{"Bash"}, ForeignShellTools: []string{"PowerShell"},
		Input: claudeInput, Output: OutputClaude,
		ToolMatcher: "Bash|PowerShell",
		Ask:         AskAlways, Allow: true, Attendance: AttendanceClaudeEnv,
		UserDir: ".claude", UserDirEnv: "CLAUDE_CONFIG_DIR", ProjectDir: ".claude", File: "settings.json",
		Layout: LayoutGroups, Handler: claudeHandler,
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
		Name: Gemini, Title: "Gemini CLI", Package: "npm @google/gemini-cli",
		Event: "BeforeTool", ShellTools: []string{"run_shell_command"},
		Input: geminiInput, Output: OutputGemini,
		ToolMatcher: "run_shell_command",
		Ask:         AskAttended, Allow: true, Attendance: AttendanceGeminiProcess,
		UserDir: ".gemini", ProjectDir: ".gemini", File: "settings.json", Comments: true,
		Layout: LayoutGroups, FolderTrust: true,
		Handler: Handler{CommandKey: "command", TimeoutKey: "timeout", Timeout: 30000, HandlerType: true, HookName: "shellguard"},
		Docs:    "https://github.com/google-gemini/gemini-cli/blob/main/docs/hooks/reference.md",
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
		Name: Codex, Title: "Codex", Package: "npm @openai/codex",
		Event: "PreToolUse", ShellTools: []string{"Bash"},
		Input: claudeInput, Output: OutputCodex,
		ToolMatcher:     "^Bash$",
		PermissionEvent: "PermissionRequest",
		Ask:             AskNever, Allow: false, Attendance: AttendanceNone,
		AppendsCommand: true, TerminalSessions: true,
		UserDir: ".codex", UserDirEnv: "CODEX_HOME", ProjectDir: ".codex", File: "hooks.json",
		Layout: LayoutGroups, Handler: claudeHandler, Trust: true,
		Docs: "https://developers.openai.com/codex/hooks",
	},
	{
		// https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference
		// (preToolUse; "copilot help config": hooks in settings.json).
		// Verified with Copilot CLI 1.0.102 (BYOK against a local model):
		// the camelCase preToolUse input is {sessionId, timestamp, cwd,
		// toolName: "bash", toolArgs: {command, description, mode, ...}};
		// permissionDecision "deny" blocks with "Denied by preToolUse hook:
		// REASON" to the model; "allow" runs without Copilot's own prompt;
		// "ask" prompts when a person is there and in -p is refused with
		// "(unable to ask user for confirmation): REASON" to the model; any
		// hook error (exit 1, 127) denies ("hook errored"), so the command
		// is not wrapped. Repository settings (.github/copilot/settings.json,
		// .github/hooks/*.json) load only in a trusted folder
		// (trustedFolders in ~/.copilot/config.json, or --trust-folder);
		// the user's settings load everywhere. Its bash tool can run a
		// command async and type into it later (write_bash, interactive).
		Name: Copilot, Title: "GitHub Copilot CLI", Package: "npm @github/copilot",
		Event: "preToolUse", ShellTools: []string{"bash"}, ForeignShellTools: []string{"powershell"},
		Input: Input{Tool: "toolName", Args: "toolArgs", ArgsString: true, Command: "command",
			Cwd: "cwd", Session: "sessionId"},
		Output:      OutputCopilot,
		ToolMatcher: "bash|powershell",
		Ask:         AskAlways, Allow: true, Attendance: AttendanceNone, TerminalSessions: true,
		UserDir: ".copilot", UserDirEnv: "COPILOT_HOME", ProjectDir: ".github/copilot", File: "settings.json", Comments: true,
		Layout: LayoutList, Handler: Handler{CommandKey: "bash", TimeoutKey: "timeoutSec", Timeout: 30, HandlerType: true},
		ProjectTrust: true,
		Docs:         "https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference",
	},
	{
		// https://opencode.ai/docs/plugins (tool.execute.before). Verified
		// with OpenCode 1.18.33: plugins load from {plugin,plugins}/*.{js,ts}
		// in the global config directory ($XDG_CONFIG_HOME/opencode) and
		// in every .opencode directory from the working directory up; an
		// error thrown in tool.execute.before fails the tool call with its
		// message as the result the model gets. No ask: opencode run
		// refuses every permission it would ask. The plugin runs the hook
		// and throws when the hook program cannot run.
		Name: OpenCode, Title: "OpenCode", Package: "npm opencode-ai",
		Event: "tool.execute.before", ShellTools: []string{"bash"},
		Input: pluginInput, Output: OutputPlugin,
		ToolMatcher: "bash",
		Ask:         AskNever, Allow: true, Attendance: AttendanceNone,
		UserXDG: "opencode", ProjectDir: ".opencode", File: "plugins/shellguard.js",
		Layout: LayoutFile, Plugin: PluginOpenCode,
		Docs: "https://opencode.ai/docs/plugins",
	},
	{
		// https://cursor.com/docs/agent/hooks (beforeShellExecution). Not
		// run here: Cursor's CLI is not on npm and its download site is
		// out of reach. Input {hook_event_name, conversation_id,
		// generation_id, workspace_roots, command, cwd, sandbox}; answer
		// {permission: allow|deny|ask, user_message, agent_message}; exit 2
		// blocks; a hook that fails or times out lets the command run
		// (unless failClosed, which also blocks on an empty answer), so the
		// command is wrapped to exit 2. Commands run through a shell
		// ($CURSOR_PROJECT_DIR is expanded).
		Name: Cursor, Title: "Cursor", Package: "Cursor (IDE; cursor-agent CLI from cursor.com)",
		Event: "beforeShellExecution",
		Input: Input{Event: "hook_event_name", Command: "command", Cwd: "cwd", Roots: "workspace_roots",
			Session: "conversation_id"},
		Output: OutputCursor,
		Ask:    AskAlways, Allow: true, Attendance: AttendanceNone,
		UserDir: ".cursor", ProjectDir: ".cursor", File: "hooks.json", Version: 1,
		Layout: LayoutList, Handler: Handler{CommandKey: "command", TimeoutKey: "timeout", Timeout: 30, FailClosed: true},
		Docs: "https://cursor.com/docs/agent/hooks",
	},
	{
		// https://docs.windsurf.com/windsurf/cascade/hooks (pre_run_command).
		// Not run here: Windsurf is an editor with no CLI. Input
		// {agent_action_name, trajectory_id, execution_id, timestamp,
		// tool_info: {command_line, cwd}}; only the exit code answers: 2
		// blocks (stderr is the message), any other lets the command run,
		// so the command is wrapped to exit 2 when the program cannot run.
		Name: Windsurf, Title: "Windsurf", Package: "Windsurf (editor; no CLI)",
		Event: "pre_run_command",
		Input: Input{Event: "agent_action_name", Args: "tool_info", Command: "command_line", Dirs: []string{"cwd"},
			Session: "trajectory_id"},
		Output: OutputExitCode,
		Ask:    AskNever, Allow: false, Attendance: AttendanceNone,
		UserDir: ".codeium/windsurf", ProjectDir: ".windsurf", File: "hooks.json",
		Layout: LayoutList, Handler: Handler{CommandKey: "command", ShowOutput: true, FailClosed: true},
		Docs: "https://docs.windsurf.com/windsurf/cascade/hooks",
	},
	{
		// Cline CLI 3.0.65 (npm cline; @cline/core dist: hook files and
		// their control JSON). Hook files named after the event
		// (PreToolUse, PreToolUse.bash, ...) in ~/.cline/hooks
		// ($CLINE_DIR/hooks), ~/Documents/Cline/Hooks, <project>/.cline/hooks
		// or .clinerules/hooks run as `bash FILE` with {hookName:
		// "tool_call", taskId, workspaceRoots, tool_call: {name:
		// "run_commands", input: {commands: [...]}}}. The answer
		// {cancel: true} aborts the whole run (the reason is lost),
		// {overrideInput} replaces the tool's input and {context} reaches
		// the model; a hook that fails, times out or prints no JSON lets
		// the command run, so the script prints a cancel itself when
		// shellguard cannot run. No ask.
		Name: Cline, Title: "Cline", Package: "npm cline",
		Event: "tool_call", ShellTools: []string{"run_commands", "execute_command"},
		Input: Input{Event: "hookName", Tool: "tool_call.name", Args: "tool_call.input", Command: "command",
			Commands: "commands", Roots: "workspaceRoots", Session: "taskId"},
		Output: OutputCline,
		Ask:    AskNever, Allow: false, Attendance: AttendanceNone,
		UserDir: ".cline", UserDirEnv: "CLINE_DIR", ProjectDir: ".cline", File: "hooks/PreToolUse.bash",
		Layout: LayoutFile, Plugin: PluginCline,
		Docs: "https://docs.cline.bot/features/hooks",
	},
	{
		// Qwen Code 0.24.4 (npm @qwen-code/qwen-code; chunks:
		// PreToolUseHookOutput). A Gemini CLI fork that moved to Claude
		// Code's hooks: PreToolUse with matcher run_shell_command, input
		// Claude-shaped (permission_mode "yolo", "default", ...), answer
		// hookSpecificOutput.permissionDecision allow/deny/ask, timeout in
		// seconds. Verified: deny hands the reason to the model; ask in a
		// headless run is refused with the reason; exit 2 blocks with
		// stderr; exit 127 lets the command run, so the command is wrapped.
		Name: Qwen, Title: "Qwen Code", Package: "npm @qwen-code/qwen-code",
		Event: "PreToolUse", ShellTools: []string{"run_shell_command"},
		Input: geminiInput, Output: OutputClaude,
		ToolMatcher: "run_shell_command",
		Ask:         AskAlways, Allow: true, Attendance: AttendanceNone,
		UserDir: ".qwen", ProjectDir: ".qwen", File: "settings.json", Comments: true,
		Layout: LayoutGroups, Handler: claudeHandler,
		Docs: "https://qwenlm.github.io/qwen-code-docs/en/users/features/hooks/",
	},
	{
		// https://docs.factory.ai/reference/hooks-reference. Verified with
		// droid 0.215.0 (droid exec, BYOK against a local model):
		// ~/.factory/hooks.json holds the events at its top level (a
		// "hooks" wrapper is not loaded); the shell tool is Execute; deny
		// hands "Error: REASON" to the model; exit 2 blocks with stderr;
		// exit 127 lets the command run (wrapped); an "ask" in droid exec
		// --auto high lets the command run, so shellguard never asks.
		Name: Droid, Title: "Factory Droid", Package: "npm droid",
		Event: "PreToolUse", ShellTools: []string{"Execute"},
		Input: claudeInput, Output: OutputClaude,
		ToolMatcher: "Execute",
		Ask:         AskNever, Allow: true, Attendance: AttendanceNone,
		UserDir: ".factory", ProjectDir: ".factory", File: "hooks.json", EventsAtRoot: true,
		Layout: LayoutGroups, Handler: claudeHandler,
		Docs: "https://docs.factory.ai/reference/hooks-reference",
	},
	{
		// charmbracelet/crush docs/hooks/README.md and internal/hooks
		// (source, nightly after v0.90; the npm package downloads its binary
		// from github.com, out of reach here). crush.json "hooks":
		// {"PreToolUse": [{name, matcher, command, timeout}]}; input
		// {event, session_id, cwd, tool_name: "bash", tool_input}; answer
		// {"decision": "allow"|"deny", "reason"} (Claude's
		// hookSpecificOutput also read; "ask" is no opinion); exit 2
		// blocks, any other failure lets the command run (wrapped; hooks
		// run in Crush's embedded POSIX shell). crush.json is plain JSON
		// (internal/config/load.go merges it with go-jsons, which uses
		// encoding/json).
		Name: Crush, Title: "Crush", Package: "npm @charmland/crush",
		Event: "PreToolUse", ShellTools: []string{"bash"},
		Input: Input{Event: "event", Tool: "tool_name", Args: "tool_input", Command: "command",
			Dirs: []string{"working_dir"}, Cwd: "cwd", Session: "session_id"},
		Output:      OutputCrush,
		ToolMatcher: "^bash$",
		Ask:         AskNever, Allow: true, Attendance: AttendanceNone,
		UserXDG: "crush", UserDirEnv: "CRUSH_GLOBAL_CONFIG", File: "crush.json",
		Layout:  LayoutList,
		Handler: Handler{CommandKey: "command", TimeoutKey: "timeout", Timeout: 30, HookName: "shellguard", FailClosed: true},
		Docs:    "https://github.com/charmbracelet/crush/blob/main/docs/hooks/README.md",
	},
	{
		// @mariozechner/pi-coding-agent docs/extensions.md (tool_call).
		// Verified with pi 0.73.1: extensions load from
		// ~/.pi/agent/extensions/*.ts ($PI_CODING_AGENT_DIR) and
		// .pi/extensions/*.ts; {block: true, reason} blocks with the reason
		// as the tool result; an error in a tool_call handler blocks; the
		// extension asks with ctx.ui.confirm when the session has a UI
		// (ctx.hasUI: not in -p or JSON mode) and reports it.
		Name: Pi, Title: "Pi", Package: "npm @mariozechner/pi-coding-agent",
		Event: "tool_call", ShellTools: []string{"bash"},
		Input: pluginInput, Output: OutputPlugin,
		ToolMatcher: "bash",
		Ask:         AskAttended, Allow: true, Attendance: AttendanceInput,
		UserDir: ".pi/agent", UserDirEnv: "PI_CODING_AGENT_DIR", ProjectDir: ".pi", File: "extensions/shellguard.ts",
		Layout: LayoutFile, Plugin: PluginPi,
		Docs: "https://github.com/badlogic/pi-mono/blob/main/packages/coding-agent/docs/extensions.md",
	},
	{
		// Kilo Code CLI 7.7.7 (npm @kilocode/cli; an OpenCode fork): the
		// same plugin API, loaded from {plugin,plugins}/*.{js,ts} in
		// $XDG_CONFIG_HOME/kilo and in .kilo (and .kilocode) directories
		// from the working directory up.
		Name: Kilo, Title: "Kilo Code", Package: "npm @kilocode/cli",
		Event: "tool.execute.before", ShellTools: []string{"bash"},
		Input: pluginInput, Output: OutputPlugin,
		ToolMatcher: "bash",
		Ask:         AskNever, Allow: true, Attendance: AttendanceNone,
		UserXDG: "kilo", ProjectDir: ".kilo", File: "plugins/shellguard.js",
		Layout: LayoutFile, Plugin: PluginOpenCode,
		Docs: "https://kilo.ai/docs/cli",
	},
	{
		// https://ampcode.com/docs/plugin-api (`amp plugins show-docs` in
		// amp 0.0.1790142911): plugins in ~/.config/amp/plugins/*.ts and
		// .amp/plugins/*.ts, run by Bun; amp.on("tool.call") answers
		// {action: "allow"} or {action: "reject-and-continue", message};
		// ctx.ui.confirm asks when a UI is there (it throws an error
		// helpers.isPluginUINotAvailableError recognises when not). Not
		// run here: Amp needs an ampcode.com login and serves the model
		// itself.
		Name: Amp, Title: "Amp", Package: "npm @ampcode/cli (formerly @sourcegraph/amp)",
		Event: "tool.call", ShellTools: []string{"Bash", "shell_command"},
		Input: pluginInput, Output: OutputPlugin,
		ToolMatcher: "Bash",
		Ask:         AskAlways, Allow: true, Attendance: AttendanceNone,
		UserXDG: "amp", ProjectDir: ".amp", File: "plugins/shellguard.ts",
		Layout: LayoutFile, Plugin: PluginAmp,
		Docs: "https://ampcode.com/docs/plugin-api",
	},
	{
		// https://docs.augmentcode.com/cli/hooks and auggie 0.36.0
		// (augment.mjs: hook executor). settings.json "hooks" in
		// ~/.augment and <project>/.augment; input {hook_event_name,
		// conversation_id, workspace_roots, tool_name: "launch-process",
		// tool_input: {command, cwd, ...}}; answer Claude's
		// hookSpecificOutput; exit 2 blocks with stderr to the agent, any
		// other exit is a non-blocking error (wrapped). What an "ask" does
		// could not be seen (auggie needs an Augment login), so shellguard
		// never asks. Not run here: needs an Augment account; its model
		// API is Augment's own.
		Name: Augment, Title: "Augment (Auggie)", Package: "npm @augmentcode/auggie",
		Event: "PreToolUse", ShellTools: []string{"launch-process"},
		Input: Input{Event: "hook_event_name", Tool: "tool_name", Args: "tool_input", Command: "command",
			Dirs: []string{"cwd"}, Roots: "workspace_roots", Session: "conversation_id"},
		Output:      OutputClaude,
		ToolMatcher: "launch-process",
		Ask:         AskNever, Allow: true, Attendance: AttendanceNone,
		UserDir: ".augment", ProjectDir: ".augment", File: "settings.json",
		Layout: LayoutGroups, Handler: claudeHandler,
		Docs: "https://docs.augmentcode.com/cli/hooks",
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
	names := NameList()
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// NameList returns the agents' names in the order of Agents.
func NameList() []string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = string(s.Name)
	}
	return names
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
// commands ("" for agents whose hook is for shell commands only).
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
func (s Spec) IsShellTool(tool string) bool { return slices.Contains(s.ShellTools, tool) }

// IsForeignShellTool reports whether tool carries another shell's command.
func (s Spec) IsForeignShellTool(tool string) bool { return slices.Contains(s.ForeignShellTools, tool) }

// Registrations returns the hook entries install writes: one for Event,
// then one for PermissionEvent when the agent has one, both with
// ToolMatcher.
func (s Spec) Registrations() []Registration {
	if s.Event == "" {
		return nil
	}
	regs := []Registration{{s.Event, s.ToolMatcher}}
	if s.PermissionEvent != "" {
		regs = append(regs, Registration{s.PermissionEvent, s.ToolMatcher})
	}
	return regs
}

// Events returns the events of the hook entries install writes.
func (s Spec) Events() []string {
	regs := s.Registrations()
	out := make([]string, len(regs))
	for i, r := range regs {
		out[i] = r.Event
	}
	return out
}

// Matcher returns the matcher install writes for event, and whether the
// agent registers event at all.
func (s Spec) Matcher(event string) (string, bool) {
	for _, r := range s.Registrations() {
		if r.Event == event {
			return r.Matcher, true
		}
	}
	return "", false
}
