package install

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/shellguard/shellguard/internal/agents"

	"github.com/google/renameio/v2"

	"github.com/shellguard/shellguard/internal/shquote"
)

// Scope says which settings file of an agent to edit.
type Scope string

// The scopes.
const (
	User    Scope = "user"    // the agent's settings in the user's home
	Project Scope = "project" // the agent's settings in the project directory
)

// Env is where settings files are looked for. The zero value is not
// usable: the CLI fills it from the process (see FromProcess), tests from
// temporary directories.
type Env struct {
	// Home is the user's home directory.
	Home string
	// Dir is the project directory (for Project scope).
	Dir string
	// Getenv reads environment variables (CLAUDE_CONFIG_DIR, CODEX_HOME);
	// nil reads none.
	Getenv func(string) string
}

// FromProcess returns the Env of the running process with dir as the
// project directory (the working directory when dir is empty).
func FromProcess(dir string) (Env, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Env{}, err
	}
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return Env{}, err
		}
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return Env{}, err
	}
	return Env{Home: home, Dir: dir, Getenv: os.Getenv}, nil
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// SettingsPath returns the file that holds agent's hook for scope (see
// agents.Spec: UserDir, UserDirEnv, UserXDG, ProjectDir, File):
//
//	claude   user:    $CLAUDE_CONFIG_DIR/settings.json, default ~/.claude/settings.json
//	         project: <dir>/.claude/settings.json
//	gemini   user:    ~/.gemini/settings.json
//	         project: <dir>/.gemini/settings.json
//	codex    user:    $CODEX_HOME/hooks.json, default ~/.codex/hooks.json
//	         project: <dir>/.codex/hooks.json (loaded only for trusted projects)
//	copilot  user:    $COPILOT_HOME/settings.json, default ~/.copilot/settings.json
//	         project: <dir>/.github/copilot/settings.json (loaded only in trusted folders)
//	opencode user:    $XDG_CONFIG_HOME/opencode/plugins/shellguard.js (~/.config/opencode/...)
//	         project: <dir>/.opencode/plugins/shellguard.js
//	cursor   user:    ~/.cursor/hooks.json; project: <dir>/.cursor/hooks.json
//	windsurf user:    ~/.codeium/windsurf/hooks.json; project: <dir>/.windsurf/hooks.json
//	cline    user:    $CLINE_DIR/hooks/PreToolUse.bash, default ~/.cline/hooks/PreToolUse.bash
//	         project: <dir>/.cline/hooks/PreToolUse.bash
//	qwen     user:    ~/.qwen/settings.json; project: <dir>/.qwen/settings.json
//	droid    user:    ~/.factory/hooks.json; project: <dir>/.factory/hooks.json
//	crush    user:    $CRUSH_GLOBAL_CONFIG/crush.json, default $XDG_CONFIG_HOME/crush/crush.json
//	         project: <dir>/crush.json
//	pi       user:    $PI_CODING_AGENT_DIR/extensions/shellguard.ts, default ~/.pi/agent/...
//	         project: <dir>/.pi/extensions/shellguard.ts
//	kilo     user:    $XDG_CONFIG_HOME/kilo/plugins/shellguard.js; project: <dir>/.kilo/plugins/shellguard.js
//	amp      user:    $XDG_CONFIG_HOME/amp/plugins/shellguard.ts; project: <dir>/.amp/plugins/shellguard.ts
//	augment  user:    ~/.augment/settings.json; project: <dir>/.augment/settings.json
//
// A relative $XDG_CONFIG_HOME is ignored, as the XDG specification says.
func SettingsPath(agent agents.Agent, scope Scope, env Env) (string, error) {
	spec, ok := agents.Lookup(string(agent))
	if !ok {
		return "", fmt.Errorf("unknown agent %q", agent)
	}
	var base string
	switch scope {
	case User:
		if env.Home == "" {
			return "", errors.New("no home directory")
		}
		base = filepath.Join(env.Home, spec.UserDir)
		if spec.UserXDG != "" {
			cfg := env.getenv("XDG_CONFIG_HOME")
			if !filepath.IsAbs(cfg) {
				cfg = filepath.Join(env.Home, ".config")
			}
			base = filepath.Join(cfg, spec.UserXDG)
		}
		if spec.UserDirEnv != "" {
			base = firstNonEmpty(env.getenv(spec.UserDirEnv), base)
		}
	case Project:
		if env.Dir == "" {
			return "", errors.New("no project directory")
		}
		base = filepath.Join(env.Dir, spec.ProjectDir)
	default:
		return "", fmt.Errorf("unknown scope %q (want user or project)", scope)
	}
	return filepath.Join(base, filepath.FromSlash(spec.File)), nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// HookCommand returns the hook command line for agent that runs the
// shellguard binary at exe: "<exe> hook <agent>", with exe quoted for the
// shell when it needs to be, and wrapped to fail closed where the agent
// would run the command when the hook program is missing (see
// FailClosedSuffix).
func HookCommand(exe string, agent agents.Agent) string {
	return failClosed(shquote.Quote(exe)+" hook "+string(agent), agent)
}

// LeanHookCommand returns the hook command for the lean shellguard-hook
// binary at exe: "<exe, quoted if needed> <agent>", wrapped as HookCommand
// wraps.
func LeanHookCommand(exe string, agent agents.Agent) string {
	return failClosed(shquote.Quote(exe)+" "+string(agent), agent)
}

// HookCommandFor is the command install writes for the shellguard binary
// at exe: the lean shellguard-hook binary when it is installed next to it
// (it starts several times faster, and agents run it before every
// command), else "<exe> hook AGENT".
func HookCommandFor(exe string, agent agents.Agent) string {
	lean := filepath.Join(filepath.Dir(exe), "shellguard-hook")
	if fi, err := os.Stat(lean); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
		return LeanHookCommand(lean, agent)
	}
	return HookCommand(exe, agent)
}

// FailClosedSuffix is appended to the hook command of an agent that runs a
// command whose hook program is missing or fails (Claude Code, Codex, Qwen
// Code, Factory Droid, Cursor, Crush and Augment treat exit 127 as a
// non-blocking error): when the program cannot run, the shell prints why
// on stderr and exits 2, which these agents document as "block, and show
// stderr". The hook itself never exits other than 0 or 2. The agents run
// hook commands with a POSIX shell (bash -c, sh -c, Crush's embedded
// mvdan.cc/sh).
const FailClosedSuffix = ` || { echo "shellguard: its hook program could not run (exit $?), so the command is blocked; run: shellguard doctor" >&2; exit 2; }`

// FailClosedExitSuffix is FailClosedSuffix for an agent that reads only
// exit codes (Windsurf): there the hook itself blocks with exit 2 and its
// reason on stderr, which the suffix keeps as it is.
const FailClosedExitSuffix = ` || { c=$?; [ "$c" -eq 2 ] && exit 2; echo "shellguard: its hook program could not run (exit $c), so the command is blocked; run: shellguard doctor" >&2; exit 2; }`

// failClosedSuffix is the suffix agent's commands get, or "".
func failClosedSuffix(agent agents.Agent) string {
	spec := agent.Spec()
	switch {
	case !spec.FailClosed:
		return ""
	case spec.Output == agents.OutputExitCode:
		return FailClosedExitSuffix
	}
	return FailClosedSuffix
}

func failClosed(command string, agent agents.Agent) string {
	return command + failClosedSuffix(agent)
}

// FailsClosed reports whether an installed hook command blocks the
// agent's command when the hook program cannot run: always for agents
// that block on any failure (Gemini CLI, Copilot CLI) and for the files
// shellguard writes whole (they block by themselves), else only when the
// command carries the agent's suffix.
func FailsClosed(command string, agent agents.Agent) bool {
	suffix := failClosedSuffix(agent)
	return suffix == "" || strings.HasSuffix(command, suffix)
}

// Options control how Install and Uninstall write.
type Options struct {
	// DryRun computes the result without writing anything.
	DryRun bool
}

// Result says what Install or Uninstall did (or, with DryRun, would do).
type Result struct {
	// Path is the settings file.
	Path string
	// Changed reports whether the file's content changes.
	Changed bool
	// Created reports that the file did not exist before.
	Created bool
	// Removed reports that the file is removed because nothing but an empty
	// object would remain in it.
	Removed bool
	// Backup is the copy of the previous content ("<file>.shellguard-bak",
	// one per file, replaced at each write), or "" when none was made (no
	// previous file, nothing changed, or DryRun).
	Backup string
	// Before and After are the file's content before and after.
	Before, After []byte
}

// Install adds shellguard's hook (running command) for agent to the
// settings file at path, creating it if needed. It is idempotent, keeps
// every other byte of the file, backs the old file up as
// "<path>.shellguard-bak" (replacing an earlier backup) and replaces it
// atomically. A file
// it cannot parse is left untouched and reported as a *ParseError.
func Install(path string, agent agents.Agent, command string, opts Options) (Result, error) {
	if agent.Spec().Layout == agents.LayoutFile {
		return installFile(path, agent, command, opts)
	}
	res, target, err := load(path)
	if err != nil {
		return res, err
	}
	after, changed, err := AddHook(res.Before, agent, command)
	if err != nil {
		return res, fmt.Errorf("%s: %w", path, err)
	}
	res.Changed, res.After = changed, after
	if !changed {
		res.After = res.Before
	}
	return res, commit(&res, target, opts)
}

// Uninstall removes shellguard's hooks for agent from the settings file at
// path, and what Install added around them; when nothing but an empty
// object would remain the file is removed. Backup and atomic replacement
// are as for Install. command, when not empty, is also recognised as
// shellguard's hook (see RemoveHook). A missing file is not an error.
func Uninstall(path string, agent agents.Agent, command string, opts Options) (Result, error) {
	if agent.Spec().Layout == agents.LayoutFile {
		return uninstallFile(path, agent, command, opts)
	}
	res, target, err := load(path)
	if err != nil || res.Created {
		res.Created = false
		return res, err
	}
	after, changed, empty, err := RemoveHook(res.Before, agent, command)
	if err != nil {
		return res, fmt.Errorf("%s: %w", path, err)
	}
	res.Changed, res.After, res.Removed = changed, after, empty
	if empty {
		res.After = nil
	}
	return res, commit(&res, target, opts)
}

// load reads path (following a symbolic link to the file it names, so
// that the link survives the rewrite); a missing file reads as empty.
func load(path string) (res Result, target string, err error) {
	res.Path = path
	target = path
	if t, err := filepath.EvalSymlinks(path); err == nil {
		target = t
	}
	st, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		res.Created = true
		return res, target, nil
	case err != nil:
		return res, target, err
	case !st.Mode().IsRegular():
		// A FIFO would block the read, a device is no settings file.
		return res, target, fmt.Errorf("%s is not a regular file; shellguard did not touch it", target)
	}
	data, err := os.ReadFile(target)
	if err != nil {
		return res, target, err
	}
	res.Before = data
	return res, target, nil
}

func commit(res *Result, target string, opts Options) error {
	if !res.Changed || opts.DryRun {
		return nil
	}
	perm := fs.FileMode(0o644)
	if !res.Created {
		st, err := os.Stat(target)
		if err != nil {
			return err
		}
		perm = st.Mode().Perm()
		if res.Backup, err = backup(target, res.Before, perm); err != nil {
			return fmt.Errorf("backing up %s: %w", target, err)
		}
	} else if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	if res.Removed {
		return os.Remove(target)
	}
	return renameio.WriteFile(target, res.After, perm)
}

// BackupSuffix names the one backup kept next to a settings file.
const BackupSuffix = ".shellguard-bak"

// backup writes data next to path as path.shellguard-bak, replacing an
// earlier backup atomically (a symbolic link or anything else at that name
// is replaced, never written through).
func backup(path string, data []byte, perm fs.FileMode) (string, error) {
	name := path + BackupSuffix
	if st, err := os.Lstat(name); err == nil && st.IsDir() {
		return "", fmt.Errorf("%s is a directory", name)
	}
	if err := renameio.WriteFile(name, data, perm); err != nil {
		return "", err
	}
	return name, nil
}

// Status is what Inspect found in one settings file.
type Status struct {
	Agent agents.Agent
	Scope Scope
	Path  string
	// Exists reports whether the file exists.
	Exists bool
	// Err is a problem reading or parsing the file.
	Err error
	// Commands are the distinct shellguard hook commands in the file.
	Commands []string
	// Hooks are shellguard's hook entries in the file, under every event
	// install registers for the agent.
	Hooks []Hook
	// Foreign reports a file at the path of a file shellguard writes
	// whole (a plugin) that shellguard did not write.
	Foreign bool
}

// readExisting reads the file at path, and reports whether there is one:
// a missing file is no error.
func readExisting(path string) (data []byte, exists bool, err error) {
	data, err = os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return data, true, err
}

// Inspect reports whether shellguard's hook for agent is in the settings
// file of scope. command, when not empty, is recognised as shellguard's
// hook too (see RemoveHook).
func Inspect(agent agents.Agent, scope Scope, env Env, command string) Status {
	st := Status{Agent: agent, Scope: scope}
	st.Path, st.Err = SettingsPath(agent, scope, env)
	if st.Err != nil {
		return st
	}
	var data []byte
	if data, st.Exists, st.Err = readExisting(st.Path); !st.Exists || st.Err != nil {
		return st
	}
	if st.Hooks, st.Err = InstalledHooks(data, agent, command); st.Err == nil {
		st.Commands, _ = InstalledCommands(data, agent, command)
	}
	st.Foreign = agent.Spec().Layout == agents.LayoutFile && len(st.Commands) == 0
	return st
}

// CheckCommand reports why a hook command cannot run shellguard, or nil.
// It only looks at the executable the command names (its first word):
// that it exists, is a regular file and is executable. It runs nothing.
func CheckCommand(command string) error {
	exe, ok := firstWord(command)
	if !ok || exe == "" {
		return fmt.Errorf("cannot tell which program %q runs", command)
	}
	if !filepath.IsAbs(exe) {
		return fmt.Errorf("%s is not an absolute path; the agent runs it relative to its own PATH", exe)
	}
	st, err := os.Stat(exe)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", exe)
	}
	if st.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%s is not executable", exe)
	}
	return nil
}

// firstWord returns the first shell word of s, handling the quoting
// HookCommand produces (single quotes) and plain double quotes and
// backslashes.
func firstWord(s string) (string, bool) {
	s = strings.TrimLeft(s, " \t")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n':
			return b.String(), true
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return "", false
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) {
					j++
				}
				b.WriteByte(s[j])
			}
			if j >= len(s) {
				return "", false
			}
			i = j
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case '$', '`', ';', '&', '|', '<', '>', '(', ')':
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// ErrNotProbed is returned by Probe for a hook command it does not start
// (one that would need a shell to run).
var ErrNotProbed = errors.New("the command needs a shell")

// Probe starts the program an installed hook command names, as the agent
// would, with a hook input that asks about no command (another tool, or
// another event), and checks that it answers as the agent's hook does
// then: exit 0 and nothing on its standard output (no opinion). So nothing
// is decided and nothing is logged, but a program that is not shellguard,
// does not know the agent (an older release) or does not start is found.
// The command is split into words without a shell (its fail-closed
// suffix removed); one that needs a shell is not run (ErrNotProbed).
func Probe(command string, agent agents.Agent) error {
	spec := agent.Spec()
	argv, err := splitWords(strings.TrimSuffix(command, failClosedSuffix(agent)))
	if err != nil || len(argv) == 0 {
		return ErrNotProbed
	}
	input, err := probeInput(spec)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(input)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &limitedBuffer{&out, 64 << 10}, &limitedBuffer{&errOut, 64 << 10}
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	switch {
	case ctx.Err() != nil:
		return errors.New("it did not answer within 10 s")
	case err != nil:
		msg := strings.TrimSpace(errOut.String())
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		return fmt.Errorf("%v (%s)", err, msg)
	case len(bytes.TrimSpace(out.Bytes())) != 0:
		return fmt.Errorf("it answered %q to a call about no command", strings.TrimSpace(out.String()))
	}
	return nil
}

// probeInput is a hook input of agent's shape about no command: its
// event with a tool that is no shell tool, or where the hook is for shell
// commands only, another event.
func probeInput(spec agents.Spec) ([]byte, error) {
	top := map[string]any{}
	set := func(path string, v any) {
		if path == "" {
			return
		}
		m := top
		parts := strings.Split(path, ".")
		for _, k := range parts[:len(parts)-1] {
			next, ok := m[k].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[k] = next
			}
			m = next
		}
		m[parts[len(parts)-1]] = v
	}
	if spec.Input.Tool != "" {
		set(spec.Input.Event, spec.Event)
		set(spec.Input.Tool, "shellguard-doctor-probe")
	} else {
		set(spec.Input.Event, "shellguard-doctor-probe")
	}
	set(spec.Input.Session, "shellguard-doctor")
	return json.Marshal(top)
}

// limitedBuffer keeps at most n bytes of what is written to it.
type limitedBuffer struct {
	b *bytes.Buffer
	n int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		if len(p) > room {
			l.b.Write(p[:room])
		} else {
			l.b.Write(p)
		}
	}
	return len(p), nil
}
