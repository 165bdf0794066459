// Package agents holds end-to-end tests of shellguard's hooks in the real
// agent CLIs: Claude Code, Codex and Gemini CLI, at pinned releases
// installed from npm (cached between runs under ~/.cache/shellguard-e2e or
// $SHELLGUARD_E2E_CACHE), each driven non-interactively against a mock of
// its vendor's model API that the tests start on 127.0.0.1. The mock asks
// for a shell tool call with a given command and records the tool result
// the agent sends back; shellguard is installed with `shellguard install
// AGENT` into a hermetic HOME, and canary files prove what ran. Every
// command is harmless even if a hook failed open.
//
// In CI ($CI set) the tests never skip: an agent that cannot be installed
// fails them. Elsewhere SHELLGUARD_E2E_AGENTS=0 (or -short) skips them.
// SHELLGUARD_E2E_BIN=DIR tests the shellguard binaries in DIR instead of
// building the tree's, and SHELLGUARD_E2E_KEEP=1 keeps a failed test's
// sandbox.
package agents
