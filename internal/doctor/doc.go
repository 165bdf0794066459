// Package doctor checks a user's shellguard setup and writes what it found:
// for every agent in internal/agents, whether shellguard's hook (or the
// plugin shellguard writes for it) is in the user's and the project's
// settings, whether the program it names exists, whether it fails closed
// when that program is missing, whether the program runs and answers as
// that agent's hook (it is started once, with a hook input about no
// command, so nothing is decided or logged), and whether the agent will
// actually run it (Codex: the hook trusted in /hooks with its current
// definition; Gemini CLI: the folder trusted; Copilot CLI: a project's
// hooks in a trusted folder); then which configuration and approval files
// are in effect and whether the configuration loads. It writes nothing;
// Run returns whether something needs attention (the CLI's exit status 1).
package doctor
