package agents

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// cli is one agent CLI as the tests install it from npm.
type cli struct {
	Agent   string // shellguard's name for it
	Package string // npm package
	Version string // pinned version (override: SHELLGUARD_E2E_<AGENT>_VERSION)
	Bin     string // the command the package installs
}

// The pinned agent releases. A new release is tested by raising the pin
// (and the behaviour it shows is then written down in docs/agents.md).
var clis = map[string]cli{
	"claude":   {Agent: "claude", Package: "@anthropic-ai/claude-code", Version: "2.1.332", Bin: "claude"},
	"codex":    {Agent: "codex", Package: "@openai/codex", Version: "0.169.1", Bin: "codex"},
	"gemini":   {Agent: "gemini", Package: "@google/gemini-cli", Version: "0.61.0", Bin: "gemini"},
	"copilot":  {Agent: "copilot", Package: "@github/copilot", Version: "1.0.102", Bin: "copilot"},
	"opencode": {Agent: "opencode", Package: "opencode-ai", Version: "1.18.33", Bin: "opencode"},
	"cline":    {Agent: "cline", Package: "cline", Version: "3.0.65", Bin: "cline"},
	"qwen":     {Agent: "qwen", Package: "@qwen-code/qwen-code", Version: "0.24.4", Bin: "qwen"},
	"droid":    {Agent: "droid", Package: "droid", Version: "0.215.0", Bin: "droid"},
	"pi":       {Agent: "pi", Package: "@mariozechner/pi-coding-agent", Version: "0.73.1", Bin: "pi"},
	// 7.8.1, the latest, names platform packages that were never
	// published (npm: no @kilocode/cli-linux-x64@7.8.1).
	"kilo": {Agent: "kilo", Package: "@kilocode/cli", Version: "7.7.7", Bin: "kilo"},
}

// undriven are the agents shellguard installs for that these tests cannot
// drive, and why: each is still covered by the golden tests of its hook
// answers (internal/hook) and of the files install writes
// (internal/install), and by doctor's tests.
var undriven = map[string]string{
	"cursor": "Cursor's agent CLI (cursor-agent) is not published on npm; its installer downloads it from " +
		"cursor.com, which is out of reach here and in CI.",
	"windsurf": "Windsurf is an editor (a VS Code build); Cascade has no command-line client to run headless.",
	"crush": "@charmland/crush@0.96.1 on npm is a wrapper whose install script downloads the binary from " +
		"github.com releases (npm error: getaddrinfo ENOTFOUND github.com), out of reach here and in CI; " +
		"the Go module proxy refuses github.com/charmbracelet/crush (403 Forbidden), so it cannot be built either.",
	"amp": "Amp (npm @sourcegraph/amp 0.0.1790142911) sends the conversation to its own server (ampcode.com), " +
		"which runs the models: without an ampcode.com login `amp -x` starts the browser login flow, and its " +
		"server API is Amp's own, not a model API a local mock could stand in for.",
	"augment": "Auggie (npm @augmentcode/auggie 0.36.0) talks only to Augment's backend: `auggie --print` stops with " +
		"\"No auth provided. Please log in with `auggie login` or set the AUGMENT_SESSION_AUTH environment variable\", " +
		"and it has no option for another model endpoint (the session's tenant URL speaks Augment's own API).",
}

func (c cli) version() string {
	if v := os.Getenv("SHELLGUARD_E2E_" + strings.ToUpper(c.Agent) + "_VERSION"); v != "" {
		return v
	}
	return c.Version
}

// cacheDir is where the npm installs are kept between runs on one
// machine: $SHELLGUARD_E2E_CACHE, else $XDG_CACHE_HOME/shellguard-e2e,
// else ~/.cache/shellguard-e2e. It is outside the repository on purpose.
func cacheDir() (string, error) {
	if d := os.Getenv("SHELLGUARD_E2E_CACHE"); d != "" {
		return filepath.Abs(d)
	}
	if d := os.Getenv("XDG_CACHE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "shellguard-e2e"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".cache", "shellguard-e2e"), nil
}

var (
	installMu sync.Mutex
	installs  = map[string]*installResult{}
)

type installResult struct {
	once sync.Once
	bin  string
	err  error
}

// ensure installs the CLI once (per machine: the cache, keyed by agent
// and version, is shared by every run; per process: once) and returns
// the path of its command. Different CLIs install in parallel.
func (c cli) ensure() (string, error) {
	key := c.Agent + "-" + c.version()
	installMu.Lock()
	r := installs[key]
	if r == nil {
		r = &installResult{}
		installs[key] = r
	}
	installMu.Unlock()
	r.once.Do(func() { r.bin, r.err = c.install() })
	return r.bin, r.err
}

// TestInstallCLIs installs every pinned CLI (or finds it in the cache),
// in parallel; .ci/run runs it before the tests. In CI a CLI that cannot
// be installed fails it.
func TestInstallCLIs(t *testing.T) {
	for name, c := range clis {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			bin := needCLI(t, c)
			t.Logf("%s@%s: %s", c.Package, c.version(), bin)
		})
	}
}

func (c cli) install() (string, error) {
	cache, err := cacheDir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	dir := filepath.Join(cache, c.Agent+"-"+c.version())
	bin := filepath.Join(dir, "node_modules", ".bin", c.Bin)
	// A stamp written once the installed CLI ran saves starting every
	// CLI again in each test process (seconds of CPU each).
	stamp := filepath.Join(dir, ".shellguard-e2e-works")
	if b, err := os.ReadFile(stamp); err == nil && string(b) == c.Package+"@"+c.version()+"\n" {
		if _, err := os.Stat(bin); err == nil {
			return bin, nil
		}
	}
	if c.works(bin) {
		return bin, os.WriteFile(stamp, []byte(c.Package+"@"+c.version()+"\n"), 0o644)
	}
	// Another test process may be installing the same package: an
	// exclusive lock on a file next to it serialises them.
	lock, err := os.OpenFile(filepath.Join(cache, ".lock-"+c.Agent), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if c.works(bin) {
		return bin, os.WriteFile(stamp, []byte(c.Package+"@"+c.version()+"\n"), 0o644)
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("npm is needed to install %s@%s: %w", c.Package, c.version(), err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", dir, "--cache", filepath.Join(cache, "_npm-cache"),
		"--no-audit", "--no-fund", "--loglevel=error", c.Package+"@"+c.version())
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("npm install %s@%s failed: %v\n%s", c.Package, c.version(), err, tail(string(out), 2000))
	}
	if !c.works(bin) {
		return "", fmt.Errorf("npm installed %s@%s but %s --version does not run", c.Package, c.version(), bin)
	}
	return bin, os.WriteFile(stamp, []byte(c.Package+"@"+c.version()+"\n"), 0o644)
}

// works reports whether bin runs and says its version.
func (c cli) works(bin string) bool {
	if _, err := os.Stat(bin); err != nil {
		return false
	}
	home, err := os.MkdirTemp("", "sg-agents-version-")
	if err != nil {
		return false
	}
	defer os.RemoveAll(home)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Env = append(os.Environ(), "HOME="+home, "DISABLE_AUTOUPDATER=1")
	if xdg, err := sharedCache(c); err == nil {
		// Copilot CLI unpacks itself into $XDG_CACHE_HOME once per version.
		cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+xdg)
	}
	out, err := cmd.CombinedOutput() // pi prints its version on stderr
	return err == nil && strings.Contains(string(out), c.version())
}

// sharedCache is an $XDG_CACHE_HOME kept between runs for the agent
// CLIs that unpack or download parts of themselves there (Copilot CLI
// unpacks its runtime, 235 MB, on its first start), so that the hermetic
// homes do not pay it on every run. It holds no settings.
func sharedCache(c cli) (string, error) {
	cache, err := cacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "xdg-cache", c.Agent+"-"+c.version()), nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
