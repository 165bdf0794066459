// Package install adds shellguard's hook to the settings of the agents of
// internal/agents (Claude Code, Gemini CLI, Codex, Copilot CLI, Cursor,
// Windsurf, Qwen Code, Factory Droid, Crush, Augment), or writes a plugin,
// extension or hook script of its own for the agents that load code
// instead (OpenCode, Kilo Code, Pi, Amp, Cline: see plugin.go), removes it
// again, and inspects it for `shellguard doctor`: the hook entries, Codex's
// record of which hooks the user trusted (CheckCodexTrust), and the
// trusted folders of Gemini CLI (GeminiFolderTrust) and Copilot CLI
// (CopilotFolderTrust).
//
// Settings files belong to the user, so the editor is conservative:
//
//   - it splices the hook entry into the file's text with the file's own
//     indentation instead of re-encoding the file, so every other key keeps
//     its place, its formatting and its bytes;
//   - installing twice changes nothing the second time; an entry whose
//     shellguard path is stale, or that an older release wrote, gets the
//     new command (and matcher);
//   - for agents that run a command whose hook program is missing, the
//     command is wrapped to block then (FailClosedSuffix);
//   - uninstalling removes exactly what install added (the entry, and the
//     list and "hooks" object it created when they become empty), so install
//     followed by uninstall gives back the original bytes; a file left as
//     an empty object is removed;
//   - it refuses (with a *ParseError, the file untouched) a file it cannot
//     parse; settings that may contain comments (Gemini CLI, Copilot CLI,
//     Qwen Code) keep them;
//   - before writing it copies the old file to "<file>.shellguard-bak" (one
//     backup per file, replaced each time), then replaces the file
//     atomically, following a symbolic link to its target.
//
// shellguard's entry is recognised by a hook command that mentions
// "shellguard" and runs "hook <agent>".
//
// Codex also reads hooks written inline in config.toml. The package never
// writes that file (Codex rewrites it itself); ParseCodexConfig and
// InspectCodex read it so that the CLI can avoid a second copy of the hook
// in hooks.json and `shellguard doctor` can check inline hooks, with their
// lines, the [features] switch and the per-hook state Codex records there.
package install
