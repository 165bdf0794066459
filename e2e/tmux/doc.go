// Package tmux holds end-to-end tests of `shellguard shell` and of the
// `shellguard init bash|zsh` snippets, driven in detached tmux sessions
// like a person at a terminal would: keys in, screen text out
// (tmux capture-pane). They need tmux, bash and zsh; outside CI (the CI
// environment variable unset) a missing tool skips the test, in CI it
// fails it.
//
// The overlay and prompt screens are kept as golden files in testdata/
// (temporary paths replaced by <WORK>, <BIN> and <TMP>); `go test
// ./e2e/tmux -update` rewrites them.
package tmux
