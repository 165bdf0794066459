package agents

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shellguard/shellguard/internal/testbin"
)

// sandbox is one hermetic setting for one agent: a fresh HOME holding
// what a user of that agent has before installing shellguard, a work
// directory (the project the agent runs in), scratch directories that the
// test commands touch, and a mock model server.
type sandbox struct {
	t      *testing.T
	cli    cli
	agent  string
	bin    string // the agent's command
	sgDir  string // the shellguard binaries install runs from
	root   string
	home   string
	work   string // the project; the agent runs here
	victim string // emptied by the "deny" case if it ever ran
	canary string // commands touch files here to prove they ran
	repo   string // a git repository with no remote
	mock   *mockServer
	// settings is the agent settings file shellguard edits, and orig its
	// content before install (nil: absent).
	settings string
	orig     []byte
	// args are the agent's arguments before the prompt (the mode).
	args []string
	// env is added to the base environment of agent runs.
	env []string
	// timeout bounds one agent run.
	timeout time.Duration
}

// runTimeout bounds one agent run (up to six tool calls, on a machine
// busy with the other agents' runs); an agent stuck waiting for an
// answer that never comes (a prompt in a headless run) fails the run.
const runTimeout = 300 * time.Second

func newSandbox(t *testing.T, agent string) *sandbox {
	t.Helper()
	c := clis[agent]
	bin := needCLI(t, c)
	sgDir, err := shellguardDir()
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.MkdirTemp("", "sg-agents-"+agent+"-")
	if err != nil {
		t.Fatal(err)
	}
	if root, err = filepath.EvalSymlinks(root); err != nil {
		t.Fatal(err)
	}
	s := &sandbox{
		t: t, cli: c, agent: agent, bin: bin, sgDir: sgDir, root: root,
		home: filepath.Join(root, "home"), work: filepath.Join(root, "work"),
		victim: filepath.Join(root, "victim"), canary: filepath.Join(root, "canary"),
		repo: filepath.Join(root, "repo"), timeout: runTimeout,
	}
	t.Cleanup(func() {
		if t.Failed() && os.Getenv("SHELLGUARD_E2E_KEEP") == "1" {
			t.Logf("sandbox kept: %s", root)
			return
		}
		os.RemoveAll(root)
	})
	for _, d := range []string{s.home, s.work, s.victim, s.canary, s.repo} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.write(filepath.Join(s.work, "marker-ls-ok"), "")
	s.write(filepath.Join(s.victim, "keep-me"), "")
	if out, err := exec.Command("git", "init", "-q", s.repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	s.mock = startMock(t)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("mock trace:\n%s", s.mock.traceText())
		}
	})
	setup, ok := setups[agent]
	if !ok {
		t.Fatalf("unknown agent %q", agent)
	}
	setup.prepare(s)
	if b, err := os.ReadFile(s.settings); err == nil {
		s.orig = b
	}
	return s
}

// agentSetup is how the tests drive one agent CLI: what a user of it has
// in their home before installing shellguard (and which file shellguard
// then edits), and the command line of a non-interactive run.
type agentSetup struct {
	// prepare writes the agent's configuration (a provider pointing at the
	// mock) and sets settings, env and args.
	prepare func(s *sandbox)
	// argv is the agent's command line for a run with mode arguments args.
	argv func(args []string) []string
	// aborts reports that the agent stops the whole run when shellguard's
	// hook program cannot run (Cline's cancel), so the conversation never
	// comes back with a result.
	aborts bool
	// missingTells is what the model is told when the hook program is
	// missing (Copilot CLI says only that the hook errored).
	missingTells string
}

const prompt = "run the command"

var setups = map[string]agentSetup{
	"claude": {
		prepare: func(s *sandbox) {
			s.settings = filepath.Join(s.home, ".claude", "settings.json")
			s.write(s.settings, "{\n  \"cleanupPeriodDays\": 30,\n  \"env\": {\"SG_HARNESS\": \"1\"}\n}\n")
			s.env = []string{"ANTHROPIC_BASE_URL=" + s.mock.URL, "ANTHROPIC_API_KEY=sk-ant-mock",
				"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1"}
			s.args = []string{"--permission-mode", "acceptEdits", "--allowedTools", "Bash"}
		},
		argv: func(args []string) []string {
			return append([]string{"-p", prompt, "--output-format", "json"}, args...)
		},
	},
	"codex": {
		prepare: func(s *sandbox) {
			// hooks.json is absent before install: it must be absent after
			// uninstall.
			s.settings = filepath.Join(s.home, ".codex", "hooks.json")
			s.write(filepath.Join(s.home, ".codex", "config.toml"), fmt.Sprintf(`model = "mock-model"
model_provider = "mock"

[model_providers.mock]
name = "mock"
base_url = "%s/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
`, s.mock.URL))
			s.env = []string{"MOCK_API_KEY=mock"}
			s.args = []string{"exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox"}
		},
		argv: func(args []string) []string { return append(append([]string{}, args...), prompt) },
	},
	"gemini": {
		prepare: func(s *sandbox) {
			s.settings = filepath.Join(s.home, ".gemini", "settings.json")
			s.write(s.settings, "{\n  // as after choosing \"Use Gemini API key\" in the auth dialog\n  \"security\": {\n    \"auth\": { \"selectedType\": \"gemini-api-key\" }\n  }\n}\n")
			s.trustGeminiFolder(s.work, "TRUST_FOLDER")
			s.env = []string{"GOOGLE_GEMINI_BASE_URL=" + s.mock.URL, "GEMINI_API_KEY=mock"}
			s.args = []string{"--yolo"}
		},
		argv: func(args []string) []string {
			return append([]string{"-p", prompt, "--output-format", "json"}, args...)
		},
	},
	// GitHub Copilot CLI with a custom model provider (BYOK: no GitHub
	// login) of type anthropic, offline.
	"copilot": {
		prepare: func(s *sandbox) {
			s.settings = filepath.Join(s.home, ".copilot", "settings.json")
			s.write(s.settings, "{\n  // as after `copilot config banner never`\n  \"banner\": \"never\",\n  \"theme\": \"dark\"\n}\n")
			xdg, err := sharedCache(s.cli)
			if err != nil {
				s.t.Fatal(err)
			}
			s.env = []string{"COPILOT_PROVIDER_BASE_URL=" + s.mock.URL, "COPILOT_PROVIDER_TYPE=anthropic",
				"COPILOT_PROVIDER_API_KEY=sk-mock", "COPILOT_MODEL=claude-sonnet-4", "COPILOT_OFFLINE=true",
				"COPILOT_AUTO_UPDATE=false", "XDG_CACHE_HOME=" + xdg}
			s.args = []string{"--allow-all-tools"}
		},
		argv:         func(args []string) []string { return append([]string{"-p", prompt}, args...) },
		missingTells: "hook errored",
	},
	// OpenCode with an OpenAI-compatible provider; shellguard's plugin is
	// absent before install and after uninstall.
	"opencode": {
		prepare: func(s *sandbox) {
			s.openCodeLike("opencode", "@opencode-ai/plugin", "OPENCODE_DISABLE_MODELS_FETCH=true",
				"OPENCODE_DISABLE_AUTOUPDATE=true", "OPENCODE_DISABLE_SHARE=true", "OPENCODE_DISABLE_LSP_DOWNLOAD=true")
		},
		argv: func(args []string) []string { return append(append([]string{"run"}, args...), prompt) },
	},
	"kilo": {
		prepare: func(s *sandbox) {
			s.openCodeLike("kilo", "@kilocode/plugin", "KILO_DISABLE_MODELS_FETCH=true",
				"KILO_DISABLE_AUTOUPDATE=true", "KILO_DISABLE_SHARE=true", "KILO_DISABLE_LSP_DOWNLOAD=true",
				"KILO_DISABLE_CODEBASE_INDEXING=true", "KILO_DISABLE_SESSION_INGEST=true", "KILO_TELEMETRY_LEVEL=off")
		},
		argv: func(args []string) []string { return append(append([]string{"run"}, args...), prompt) },
	},
	// Pi with a custom OpenAI-compatible provider in models.json.
	"pi": {
		prepare: func(s *sandbox) {
			s.settings = filepath.Join(s.home, ".pi", "agent", "extensions", "shellguard.ts")
			s.write(filepath.Join(s.home, ".pi", "agent", "models.json"), fmt.Sprintf(`{
  "providers": {
    "mock": {
      "baseUrl": "%s/v1",
      "api": "openai-completions",
      "apiKey": "mock",
      "compat": { "supportsDeveloperRole": false, "supportsReasoningEffort": false },
      "models": [{ "id": "mock-model" }]
    }
  }
}
`, s.mock.URL))
			s.args = []string{}
		},
		argv: func(args []string) []string {
			return append(append([]string{"--provider", "mock", "--model", "mock-model", "-p"}, args...), prompt)
		},
	},
	// Qwen Code with an OpenAI-compatible key.
	"qwen": {
		prepare: func(s *sandbox) {
			s.settings = filepath.Join(s.home, ".qwen", "settings.json")
			s.write(s.settings, "{\n  // as after choosing an OpenAI-compatible key (Qwen Code adds $version\n  // when it first runs)\n  \"security\": { \"auth\": { \"selectedType\": \"openai\" } },\n  \"$version\": 4\n}\n")
			s.env = []string{"OPENAI_BASE_URL=" + s.mock.URL + "/v1", "OPENAI_API_KEY=mock", "OPENAI_MODEL=mock-model",
				"QWEN_CODE_SUPPRESS_YOLO_WARNING=1"}
			s.args = []string{"--yolo"}
		},
		argv: func(args []string) []string { return append([]string{"-p", prompt}, args...) },
	},
	// Factory Droid with a custom model (BYOK: no Factory login for droid
	// exec).
	"droid": {
		prepare: func(s *sandbox) {
			s.settings = filepath.Join(s.home, ".factory", "hooks.json")
			s.write(filepath.Join(s.home, ".factory", "settings.json"), fmt.Sprintf(`{
  "customModels": [
    { "model": "mock-model", "displayName": "Mock", "baseUrl": "%s", "apiKey": "mock", "provider": "anthropic", "maxOutputTokens": 4096 }
  ]
}
`, s.mock.URL))
			s.args = []string{"--auto", "high"}
		},
		argv: func(args []string) []string {
			return append(append([]string{"exec", "-m", "custom:mock-model"}, args...), prompt)
		},
	},
	// Cline CLI with an OpenAI-compatible provider (as `cline auth -p
	// openai-compatible` writes it); its hook file is absent before
	// install and after uninstall.
	"cline": {
		prepare: func(s *sandbox) {
			s.settings = filepath.Join(s.home, ".cline", "hooks", "PreToolUse.bash")
			s.write(filepath.Join(s.home, ".cline", "data", "settings", "providers.json"), fmt.Sprintf(`{
  "version": 1,
  "lastUsedProvider": "openai-compatible",
  "modes": {},
  "providers": {
    "openai-compatible": {
      "settings": { "provider": "openai-compatible", "apiKey": "mock", "model": "mock-model", "baseUrl": "%s/v1" },
      "updatedAt": "2026-01-01T00:00:00.000Z",
      "tokenSource": "manual"
    }
  }
}
`, s.mock.URL))
			s.args = []string{}
		},
		argv:   func(args []string) []string { return append(append([]string{}, args...), prompt) },
		aborts: true,
	},
}

// openCodeLike prepares OpenCode or its fork Kilo Code, both configured
// in $XDG_CONFIG_HOME/NAME with the plugin SDK package sdk installed there,
// run with env added and --auto.
func (s *sandbox) openCodeLike(name, sdk string, env ...string) {
	dir := filepath.Join(s.home, ".config", name)
	s.settings = filepath.Join(dir, "plugins", "shellguard.js")
	s.write(filepath.Join(dir, name+".json"), openCodeConfig(s.mock.URL))
	s.pluginSDKInstalled(dir, sdk)
	s.env = append([]string{"XDG_CONFIG_HOME=" + filepath.Join(s.home, ".config")}, env...)
	s.args = []string{"--auto"}
}

// pluginSDKInstalled leaves in an OpenCode (or Kilo Code) configuration
// directory the marks of the plugin SDK's install: at every start OpenCode
// installs its plugin SDK (pkg) into each configuration directory with
// npm, from the registry, unless node_modules exists and package-lock.json
// lists pkg (Npm.install and Npm.checkDirty in the 1.18 binary), and it
// waits for that install before loading plugins: two minutes of npm on
// every run of a fresh home. A user's directory has it from their first
// run; shellguard's plugin imports nothing from it, so the marks suffice.
func (s *sandbox) pluginSDKInstalled(dir, pkg string) {
	v := s.cli.version()
	s.write(filepath.Join(dir, "package.json"), fmt.Sprintf("{\n  \"dependencies\": {\n    %q: %q\n  }\n}\n", pkg, v))
	s.write(filepath.Join(dir, "package-lock.json"), fmt.Sprintf(`{"lockfileVersion": 3, "packages": {"": {"dependencies": {%q: %q}}}}`+"\n", pkg, v))
	if err := os.MkdirAll(filepath.Join(dir, "node_modules"), 0o755); err != nil {
		s.t.Fatal(err)
	}
}

// openCodeConfig is an OpenCode (or Kilo Code) configuration whose model
// is the mock's, through the OpenAI-compatible provider.
func openCodeConfig(url string) string {
	return fmt.Sprintf(`{
  "provider": {
    "mock": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Mock",
      "options": { "baseURL": "%s/v1", "apiKey": "mock" },
      "models": { "mock-model": { "name": "Mock model" } }
    }
  },
  "model": "mock/mock-model"
}
`, url)
}

func (s *sandbox) trustGeminiFolder(dir, level string) {
	s.write(filepath.Join(s.home, ".gemini", "trustedFolders.json"), fmt.Sprintf("{\n  %q: %q\n}\n", dir, level))
}

func (s *sandbox) write(path, content string) {
	s.t.Helper()
	testbin.WriteFile(s.t, path, content)
}

func (s *sandbox) read(path string) string {
	s.t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

// baseEnv is the whole environment of every process a sandbox starts:
// nothing of the test process's own environment leaks in.
func (s *sandbox) baseEnv() []string {
	path := "/usr/local/bin:/usr/bin:/bin"
	if node, err := exec.LookPath("node"); err == nil {
		path = filepath.Dir(node) + ":" + path
	}
	user := os.Getenv("USER")
	if user == "" {
		user = "tester"
	}
	return []string{"PATH=" + path, "HOME=" + s.home, "TMPDIR=" + os.TempDir(), "LANG=C.UTF-8",
		"TERM=dumb", "USER=" + user, "SHELL=/bin/bash"}
}

// auditVerdict returns the verdict of the last record for command in
// shellguard's audit log (the default one, under the sandbox's home), or
// "" when there is none.
func (s *sandbox) auditVerdict(command string) string {
	b, err := os.ReadFile(filepath.Join(s.home, ".local", "state", "shellguard", "audit.jsonl"))
	if err != nil {
		s.t.Logf("audit log: %v", err)
		return ""
	}
	verdict := ""
	for _, line := range strings.Split(string(b), "\n") {
		var rec struct{ Command, Verdict string }
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Command == command {
			verdict = rec.Verdict
		}
	}
	return verdict
}

// userConfig writes the user's shellguard configuration.
func (s *sandbox) userConfig(content string) {
	s.write(filepath.Join(s.home, ".config", "shellguard", "config.toml"), content)
}

func (s *sandbox) removeUserConfig() {
	os.Remove(filepath.Join(s.home, ".config", "shellguard", "config.toml"))
}

// sgResult is one run of the shellguard binary.
type sgResult struct {
	out  string
	code int
}

// sg runs shellguard (from dir, default the built binaries) in the work
// directory with the sandbox's environment.
func (s *sandbox) sg(args ...string) sgResult {
	return s.sgFrom(s.sgDir, s.work, args...)
}

func (s *sandbox) sgFrom(dir, cwd string, args ...string) sgResult {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(dir, "shellguard"), args...)
	cmd.Dir = cwd
	cmd.Env = s.baseEnv()
	out, code := testbin.Run(s.t, cmd)
	return sgResult{out, code}
}

// install runs `shellguard install AGENT` and fails the test unless it
// succeeds.
func (s *sandbox) install(extra ...string) sgResult {
	s.t.Helper()
	r := s.sg(append([]string{"install", s.agent}, extra...)...)
	if r.code != 0 {
		s.t.Fatalf("shellguard install %s: exit %d\n%s", s.agent, r.code, r.out)
	}
	return r
}

// runResult is one agent run.
type runResult struct {
	outcome
	code           int
	stdout, stderr string
	wall           time.Duration
}

func (r runResult) String() string {
	return fmt.Sprintf("exit %d in %v; called=%v final=%v; tool result: %q; stderr: %s",
		r.code, r.wall.Round(time.Millisecond), r.Called, r.Final, tail(r.Text(), 600), tail(r.stderr, 600))
}

// run drives the agent once, non-interactively, with the mock asking for
// command; args replace the sandbox's mode arguments when given.
func (s *sandbox) run(tag, command string, args ...string) runResult {
	s.t.Helper()
	return s.runScenario(scenario{Tag: tag, Steps: []step{{Command: command}}}, args...)
}

func (s *sandbox) runScenario(sc scenario, args ...string) runResult {
	s.t.Helper()
	if args == nil {
		args = s.args
	}
	s.mock.set(sc)
	argv := setups[s.agent].argv(args)
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.bin, argv...)
	cmd.Dir = s.work
	cmd.Env = append(s.baseEnv(), s.env...)
	// A session of its own: no controlling terminal, as in CI, and the
	// whole process group is killed on timeout.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := runResult{outcome: s.mock.outcome(sc.Tag), stdout: stdout.String(), stderr: stderr.String(), wall: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		r.code = -1
		s.t.Errorf("%s run %s did not finish within %v (waiting for an answer no one gives?): %s", s.agent, sc.Tag, s.timeout, r)
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		s.t.Fatalf("%s run %s: %v", s.agent, sc.Tag, err)
	}
	s.t.Logf("%s %s: %s", s.agent, sc.Tag, r)
	return r
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// canaryFile returns the path of the canary named name.
func (s *sandbox) canaryFile(name string) string { return filepath.Join(s.canary, name) }
