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
	installMu   sync.Mutex
	installDone = map[string]installResult{}
)

type installResult struct {
	bin string
	err error
}

// ensure installs the CLI once (per machine: the cache, keyed by agent
// and version, is shared by every run; per process: once) and returns
// the path of its command.
func (c cli) ensure() (string, error) {
	installMu.Lock()
	defer installMu.Unlock()
	key := c.Agent + "-" + c.version()
	if r, ok := installDone[key]; ok {
		return r.bin, r.err
	}
	bin, err := c.install()
	installDone[key] = installResult{bin, err}
	return bin, err
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
	if c.works(bin) {
		return bin, nil
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
		return bin, nil
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
	return bin, nil
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
