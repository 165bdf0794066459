// Package agents holds end-to-end tests of shellguard's hooks in the real
// agent CLIs: Claude Code, Codex, Gemini CLI, GitHub Copilot CLI,
// OpenCode, Kilo Code, Pi, Qwen Code, Factory Droid and Cline, at pinned
// releases installed from npm (cached between runs under
// ~/.cache/shellguard-e2e or $SHELLGUARD_E2E_CACHE), each driven
// non-interactively against a mock of the model API it speaks that the
// tests start on 127.0.0.1. The mock asks for shell tool calls with given
// commands and records the tool results the agent sends back; shellguard
// is installed with `shellguard install AGENT` into a hermetic HOME, and
// canary files prove what ran. Every command is harmless even if a hook
// failed open. The agents it cannot drive are listed in undriven, with the
// reason. TestInstallCLIs only installs the CLIs (.ci/run runs it first).
//
// In CI ($CI set) the tests never skip: an agent that cannot be installed
// fails them. Elsewhere SHELLGUARD_E2E_AGENTS=0 (or -short) skips them.
// SHELLGUARD_E2E_BIN=DIR tests the shellguard binaries in DIR instead of
// building the tree's, and SHELLGUARD_E2E_KEEP=1 keeps a failed test's
// sandbox.
package agents
