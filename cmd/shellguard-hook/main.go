// Command shellguard-hook answers an AI coding agent's pre-tool hook (the
// agents of "shellguard install --help") exactly as "shellguard hook AGENT" does,
// from a small binary that starts fast: agents run it before every shell
// command. "shellguard install" uses it when it is installed next to
// shellguard (go install ./cmd/...).
//
// Usage:
//
//	shellguard-hook [--config FILE] [--approvals FILE] AGENT
package main

import (
	"os"

	"github.com/shellguard/shellguard/internal/hook"
)

func main() {
	os.Exit(hook.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
