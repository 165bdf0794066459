package hook

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/shellguard/shellguard/internal/agents"
)

// Whether a person will see a prompt. An agent that can ask (Claude Code,
// Gemini CLI) shows its prompt to a person at its terminal; in a headless
// run the same ask is refused (Claude Code, which hands the reason to the
// model) or waits forever (Gemini CLI 0.61). So a hook call must tell
// which it is, from what the agent gives it.

// Process is what the hook reads of an ancestor process.
type Process struct {
	PPID int
	// Argv is the process's command line.
	Argv []string
	// StdinTTY and StdoutTTY report whether its standard input and output
	// are terminals; nil when that cannot be told.
	StdinTTY, StdoutTTY *bool
}

// Env is what a hook call reads besides its input: the environment, the
// controlling terminal and the processes that started it. The zero value
// reads nothing (no person is there); ProcessEnv reads the real ones.
type Env struct {
	// Getenv reads the hook's environment.
	Getenv func(string) string
	// HasTerminal reports whether the hook process has a controlling
	// terminal (/dev/tty opens).
	HasTerminal func() bool
	// Parent returns the parent process id of the hook.
	Parent func() int
	// ReadProcess describes process pid.
	ReadProcess func(pid int) (Process, error)
}

// ProcessEnv is the Env of the running process.
func ProcessEnv() Env {
	return Env{Getenv: os.Getenv, HasTerminal: hasTerminal, Parent: os.Getppid, ReadProcess: readProcess}
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

func hasTerminal() bool {
	f, err := os.OpenFile("/dev/tty", os.O_RDONLY, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// Attended reports whether a person will see a prompt the agent shows for
// this hook call (see agents.Attendance).
func Attended(spec agents.Spec, e Env) bool {
	switch spec.Attendance {
	case agents.AttendanceClaudeEnv:
		// Claude Code 2.1 sets CLAUDE_CODE_SESSION_ATTENDED for the
		// processes it starts: "1" in an interactive session, "0" in a
		// headless one (-p, the SDK); CLAUDE_CODE_ENTRYPOINT is "sdk-cli",
		// "sdk-ts", ... there.
		switch e.getenv("CLAUDE_CODE_SESSION_ATTENDED") {
		case "0":
			return false
		case "1":
			return true
		}
		return !strings.HasPrefix(e.getenv("CLAUDE_CODE_ENTRYPOINT"), "sdk")
	case agents.AttendanceGeminiProcess:
		return geminiAttended(e)
	case agents.AttendanceInput:
		// The input says it; an input that does not counts as headless.
		return false
	}
	return true
}

// geminiAttended: Gemini CLI runs headless (isHeadlessMode in its
// bundle) in CI, when its standard input or output is not a terminal, and
// when it was given a prompt (-p, --prompt, or a positional query). It
// tells its hooks none of this, so the hook looks: a controlling terminal,
// no CI, and a Gemini CLI process among its ancestors whose command line
// and standard streams say interactive. Anything it cannot read counts as
// headless.
func geminiAttended(e Env) bool {
	if e.getenv("GEMINI_CLI_INTEGRATION_TEST") != "true" && (e.getenv("CI") == "true" || e.getenv("GITHUB_ACTIONS") == "true") {
		return false
	}
	if e.HasTerminal == nil || !e.HasTerminal() || e.Parent == nil || e.ReadProcess == nil {
		return false
	}
	pid := e.Parent()
	for range 6 {
		if pid <= 1 {
			return false
		}
		p, err := e.ReadProcess(pid)
		if err != nil {
			return false
		}
		if args, ok := geminiArgs(p.Argv); ok {
			if p.StdinTTY != nil && !*p.StdinTTY || p.StdoutTTY != nil && !*p.StdoutTTY {
				return false
			}
			return !geminiHeadlessArgs(args)
		}
		pid = p.PPID
	}
	return false
}

// geminiArgs recognises the Gemini CLI process (node running the gemini
// script of @google/gemini-cli, or a gemini executable) and returns the
// arguments after the script.
func geminiArgs(argv []string) ([]string, bool) {
	if len(argv) == 0 {
		return nil, false
	}
	isGemini := func(p string) bool {
		b := filepath.Base(p)
		return b == "gemini" || b == "gemini.js" || b == "gemini.exe" ||
			strings.Contains(p, "gemini-cli") && strings.HasSuffix(b, ".js")
	}
	if isGemini(argv[0]) {
		return argv[1:], true
	}
	switch strings.TrimSuffix(filepath.Base(argv[0]), ".exe") {
	case "node", "nodejs", "bun":
	default:
		return nil, false
	}
	for i := 1; i < len(argv) && i < 8; i++ {
		if strings.HasPrefix(argv[i], "-") {
			continue // node's own options
		}
		if isGemini(argv[i]) {
			return argv[i+1:], true
		}
		return nil, false
	}
	return nil, false
}

// Gemini CLI 0.61's options that take a value (yargs string options) and
// that take several (array options), from its argument parser.
var (
	geminiValues = map[string]bool{"-m": true, "--model": true, "-w": true, "--worktree": true, "--approval-mode": true,
		"-r": true, "--resume": true, "--session-file": true, "--session-id": true, "--delete-session": true,
		"-o": true, "--output-format": true, "--fake-responses": true, "--fake-responses-non-strict": true, "--record-responses": true}
	geminiArrays = map[string]bool{"--policy": true, "--admin-policy": true, "--allowed-mcp-server-names": true,
		"--allowed-tools": true, "-e": true, "--extensions": true, "--include-directories": true}
)

// geminiHeadlessArgs reports a command line that runs Gemini CLI
// headless: a prompt given with -p/--prompt or as a positional query.
// Words it cannot place (after an array option) count as a query.
func geminiHeadlessArgs(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(a, "=")
		switch {
		case a == "--":
			return i+1 < len(args)
		case name == "-p" || name == "--prompt":
			return true
		case name == "-i" || name == "--prompt-interactive":
			if !hasValue {
				i++
			}
		case geminiValues[name]:
			if !hasValue {
				i++
			}
		case geminiArrays[name]:
			// yargs takes every following word: a query cannot be told
			// from the values, so any bare word counts as one.
			continue
		case strings.HasPrefix(a, "-"):
		default:
			return true // a positional query
		}
	}
	return false
}
