package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/policy"
)

// Tool names.
const (
	ToolRun   = "run_shell_command"
	ToolCheck = "check_command"
)

// Defaults and limits of run_shell_command.
const (
	// DefaultTimeout is the timeout when timeout_seconds is absent or 0.
	DefaultTimeout = 60 * time.Second
	// MaxTimeout is the largest timeout_seconds accepted.
	MaxTimeout = 600 * time.Second
	// DefaultMaxOutput is the output cap in bytes (stdout and stderr
	// combined).
	DefaultMaxOutput = 1 << 20
)

// Via is the name shellguard records as the interface approvals came
// through.
const Via = "mcp"

// Decider decides command lines and records approvals. *policy.Guard
// implements it; tests inject fakes.
type Decider interface {
	Decide(req policy.Request) policy.Decision
	Approve(command string, exact bool, scope approval.Scope, session *approval.SessionStore, via string) error
}

// Options configures the server. The zero value is usable.
type Options struct {
	// Cwd is the directory commands run in when the call gives no cwd, and
	// the base of a relative cwd. Empty means the server's working
	// directory at the time of the call.
	Cwd string
	// Shell is the program and leading arguments the command line is
	// appended to. Nil means {"bash", "-c"} when bash is on PATH, otherwise
	// {"/bin/sh", "-c"}.
	Shell []string
	// Env is the environment of the commands. Nil means the minimal one:
	// the variables of the server's environment that MinimalEnvNames and
	// ExtraEnv name (see MinimalEnv), never the whole of it.
	Env []string
	// ExtraEnv names more variables of the server's environment to pass
	// on when Env is nil (the user's [mcp] env setting); a name may end in
	// "*". A command whose environment holds only the minimal set may
	// print it (printenv, env, set) without approval; one that holds more
	// may not.
	ExtraEnv []string
	// DeciderFor returns the Decider for commands that run in dir (an
	// absolute, existing directory): the policy of that directory's
	// project. Nil means the Decider given to New for every directory. An
	// error refuses the call with that error.
	DeciderFor func(dir string) (Decider, error)
	// Subreaper (Linux) makes the process a child subreaper
	// (PR_SET_CHILD_SUBREAPER), so that every process a command starts
	// stays a descendant of the server even when its parent exits, and
	// makes the server reap the orphans it adopts and kill every process
	// left when Run returns (see docs/mcp.md). Set it only in a process
	// that serves one server and starts no children of its own besides:
	// the server reaps children it did not start. shellguard mcp sets it.
	Subreaper bool
	// DefaultTimeout replaces the package's DefaultTimeout when positive.
	DefaultTimeout time.Duration
	// MaxTimeout replaces the package's MaxTimeout when positive. It bounds
	// timeout_seconds; it is never raised above MaxTimeout.
	MaxTimeout time.Duration
	// MaxOutput replaces DefaultMaxOutput when positive.
	MaxOutput int
	// ApprovalsFile is the approval store the Decider uses, when it is not
	// the user's default; the approval hint then names it (--approvals).
	ApprovalsFile string
	// Version is the server version announced to clients.
	Version string
	// Logger receives the SDK's log; nil discards it.
	Logger *slog.Logger
}

// RunInput is the argument of run_shell_command.
type RunInput struct {
	Command        string `json:"command" jsonschema:"the shell command line to run (it may hold several lines)"`
	Cwd            string `json:"cwd,omitempty" jsonschema:"working directory; relative paths are taken from the server's directory; default: the server's directory"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" jsonschema:"seconds before the command and everything it started is killed; default 60, at most 600"`
}

// RunOutput is the structured result of run_shell_command.
type RunOutput struct {
	// ExitCode is the shell's exit status; 128+N when it was killed by
	// signal N (so 137 after a timeout).
	ExitCode int `json:"exit_code" jsonschema:"exit status of the shell; 128+N when killed by signal N"`
	// Output is standard output and standard error, interleaved as written.
	Output string `json:"output" jsonschema:"standard output and standard error combined, in the order written"`
	// Truncated reports that Output was cut (see the marker line in it).
	Truncated bool `json:"truncated" jsonschema:"true when the output exceeded the cap and its middle was left out"`
	// TimedOut reports that the timeout killed the command.
	TimedOut bool `json:"timed_out" jsonschema:"true when the command was killed because the timeout expired"`
}

// CheckInput is the argument of check_command.
type CheckInput struct {
	Command string `json:"command" jsonschema:"the shell command line to check"`
	Cwd     string `json:"cwd,omitempty" jsonschema:"working directory the command would run in (recorded only)"`
}

// server holds the state shared by every session of one *mcp.Server.
type server struct {
	d              Decider
	cwd            string
	shell          []string
	env            []string
	minimalEnv     bool // env holds only the minimal set
	deciderFor     func(string) (Decider, error)
	procs          *procTable
	defaultTimeout time.Duration
	maxTimeout     time.Duration
	maxOutput      int
	approvalsFile  string

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*sessionState
	closed   bool           // no command may start any more
	running  sync.WaitGroup // commands being run
}

// New returns an MCP server offering run_shell_command and check_command,
// whose verdicts come from d. A nil d refuses every command. When a session
// ends, the commands it still has running are killed.
func New(d Decider, opts Options) *mcp.Server {
	return newServer(d, opts).mcpServer(opts)
}

// Run serves one session over t until the client closes it or ctx is done,
// like New(d, opts).Run(ctx, t), and then kills the commands still running
// and waits for them before it returns, so none outlives the server.
func Run(ctx context.Context, d Decider, opts Options, t mcp.Transport) error {
	s := newServer(d, opts)
	err := s.mcpServer(opts).Run(ctx, t)
	s.shutdown()
	return err
}

// shutdown kills every running command, refuses new ones and waits; with
// Subreaper it then kills every process the commands left behind.
func (s *server) shutdown() {
	s.mu.Lock()
	s.closed = true
	for _, st := range s.sessions {
		st.cancel()
	}
	s.mu.Unlock()
	s.running.Wait()
	s.procs.killAll()
}

// start registers a command about to run; false means the server is
// shutting down.
func (s *server) start() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.running.Add(1)
	return true
}

func (s *server) mcpServer(opts Options) *mcp.Server {
	version := opts.Version
	if version == "" {
		version = "devel"
	}
	ms := mcp.NewServer(&mcp.Implementation{Name: "shellguard", Title: "shellguard", Version: version}, &mcp.ServerOptions{
		Instructions: "Run shell commands through run_shell_command: shellguard checks each command line first. " +
			"Safe commands run at once; risky ones need the user's approval (asked through elicitation when the client supports it); " +
			"dangerous ones are refused. Use check_command to see the verdict without running anything.",
		Logger: opts.Logger,
	})
	mcp.AddTool(ms, runTool(), s.handleRun)
	mcp.AddTool(ms, checkTool(), s.handleCheck)
	return ms
}

func newServer(d Decider, opts Options) *server {
	if d == nil {
		d = refuseAll{}
	}
	s := &server{
		d:              d,
		cwd:            opts.Cwd,
		shell:          append([]string(nil), opts.Shell...),
		env:            opts.Env,
		deciderFor:     opts.DeciderFor,
		procs:          newProcTable(opts.Subreaper),
		approvalsFile:  opts.ApprovalsFile,
		defaultTimeout: DefaultTimeout,
		maxTimeout:     MaxTimeout,
		maxOutput:      DefaultMaxOutput,
		sessions:       make(map[*mcp.ServerSession]*sessionState),
	}
	if len(s.shell) == 0 {
		s.shell = DefaultShell()
	}
	if s.env == nil {
		s.env = MinimalEnv(os.Environ(), opts.ExtraEnv)
		if s.env == nil {
			s.env = []string{} // not nil: nil would give the command the server's environment
		}
	}
	s.minimalEnv = envIsMinimal(s.env)
	if opts.MaxTimeout > 0 && opts.MaxTimeout < MaxTimeout {
		s.maxTimeout = opts.MaxTimeout
	}
	if opts.DefaultTimeout > 0 {
		s.defaultTimeout = opts.DefaultTimeout
	}
	s.defaultTimeout = min(s.defaultTimeout, s.maxTimeout)
	if opts.MaxOutput > 0 {
		s.maxOutput = opts.MaxOutput
	}
	return s
}

// DefaultShell returns the shell commands run with: {"bash", "-c"} when bash
// is on PATH (the dialect shellguard parses), otherwise {"/bin/sh", "-c"}.
func DefaultShell() []string {
	if p, err := exec.LookPath("bash"); err == nil {
		return []string{p, "-c"}
	}
	return []string{"/bin/sh", "-c"}
}

// refuseAll is the Decider of a server built without one: fail closed.
type refuseAll struct{}

func (refuseAll) Decide(req policy.Request) policy.Decision {
	return policy.Decision{Command: req.Command, Verdict: policy.Deny, Reason: "shellguard MCP server has no policy configured"}
}

func (refuseAll) Approve(string, bool, approval.Scope, *approval.SessionStore, string) error {
	return errors.New("shellguard MCP server has no policy configured")
}

func runTool() *mcp.Tool {
	t := true
	return &mcp.Tool{
		Name:  ToolRun,
		Title: "Run a shell command (checked by shellguard)",
		Description: "Run a shell command line after shellguard has checked it. " +
			"Safe commands run at once; commands that need approval are put to the user (or, when this client cannot ask, refused with the command the user can run to approve them); " +
			"dangerous commands are refused with the reason. " +
			"The command runs with bash -c (or /bin/sh -c without bash), standard input from /dev/null, a minimal environment, in cwd (default: the server's directory), " +
			"for at most timeout_seconds (default 60, at most 600; the command and every process it started are killed then). " +
			"The result holds exit_code, output (stdout and stderr combined, capped at 1 MiB: the middle of longer output is left out), truncated and timed_out.",
		Annotations: &mcp.ToolAnnotations{
			Title:           "Run shell command",
			DestructiveHint: &t,
			OpenWorldHint:   &t,
			ReadOnlyHint:    false,
			IdempotentHint:  false,
		},
		InputSchema: runInputSchema(),
	}
}

func checkTool() *mcp.Tool {
	f := false
	return &mcp.Tool{
		Name:  ToolCheck,
		Title: "Check a shell command with shellguard",
		Description: "Say what shellguard would decide for a shell command line, without running it: " +
			"the decision (allow, ask or deny), the reason, the danger level and warnings, and for each invocation its approval prefix and whether an approval covers it.",
		Annotations: &mcp.ToolAnnotations{
			Title:          "Check shell command",
			ReadOnlyHint:   true,
			IdempotentHint: true,
			OpenWorldHint:  &f,
		},
		OutputSchema: decisionSchema(),
	}
}

// sessionState is what one MCP session owns: its session approvals and the
// approval questions it has outstanding.
type sessionState struct {
	store *approval.SessionStore
	// ctx ends with the session; it kills the session's commands.
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	pending map[string]pendingAsk // by token
	order   []string              // tokens, oldest first
}

// pendingAsk is an approval question that was put to the person.
type pendingAsk struct {
	command string
	cwd     string
}

// maxPending bounds the questions a session keeps outstanding; the oldest
// are forgotten first (their answers are then refused).
const maxPending = 32

func newSessionState() *sessionState {
	ctx, cancel := context.WithCancel(context.Background())
	return &sessionState{store: approval.NewSessionStore(), ctx: ctx, cancel: cancel, pending: make(map[string]pendingAsk)}
}

// session returns the state of ss, creating it on first use. The state is
// dropped when the session ends.
func (s *server) session(ss *mcp.ServerSession) *sessionState {
	if ss == nil {
		return newSessionState()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.sessions[ss]
	if !ok {
		st = newSessionState()
		s.sessions[ss] = st
		if s.closed {
			st.cancel()
		}
		go func() {
			_ = ss.Wait()
			st.cancel()
			s.mu.Lock()
			delete(s.sessions, ss)
			s.mu.Unlock()
		}()
	}
	return st
}

// addPending records a question and returns its token.
func (st *sessionState) addPending(p pendingAsk) (string, error) {
	tok, err := newToken()
	if err != nil {
		return "", err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.pending[tok] = p
	st.order = append(st.order, tok)
	for len(st.order) > maxPending {
		delete(st.pending, st.order[0])
		st.order = st.order[1:]
	}
	return tok, nil
}

// takePending removes the question with token tok and reports whether it
// was outstanding and asked about exactly p.
func (st *sessionState) takePending(tok string, p pendingAsk) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	got, ok := st.pending[tok]
	if !ok {
		return false
	}
	delete(st.pending, tok)
	for i, t := range st.order {
		if t == tok {
			st.order = append(st.order[:i:i], st.order[i+1:]...)
			break
		}
	}
	return got == p
}

// resolveCwd returns the absolute directory a call asked for.
func (s *server) resolveCwd(cwd string) (string, error) {
	base := s.cwd
	if base == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("cannot find the server's working directory: %w", err)
		}
		base = wd
	}
	dir := cwd
	if dir == "" {
		dir = base
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(base, dir)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if strings.ContainsRune(dir, 0) {
		return "", errors.New("cwd contains a NUL byte")
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return "", fmt.Errorf("cwd: %w", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("cwd %s is not a directory", dir)
	}
	return dir, nil
}

func (s *server) timeout(seconds int) (time.Duration, error) {
	switch {
	case seconds < 0:
		return 0, fmt.Errorf("timeout_seconds must not be negative (got %d)", seconds)
	case seconds == 0:
		return s.defaultTimeout, nil
	case time.Duration(seconds) > s.maxTimeout/time.Second:
		return 0, fmt.Errorf("timeout_seconds must be at most %d (got %d)", int(s.maxTimeout/time.Second), seconds)
	}
	return time.Duration(seconds) * time.Second, nil
}

// handleRun implements run_shell_command.
func (s *server) handleRun(ctx context.Context, req *mcp.CallToolRequest, in RunInput) (*mcp.CallToolResult, *RunOutput, error) {
	if strings.TrimSpace(in.Command) == "" {
		return nil, nil, errors.New("command is empty")
	}
	timeout, err := s.timeout(in.TimeoutSeconds)
	if err != nil {
		return nil, nil, err
	}
	dir, err := s.resolveCwd(in.Cwd)
	if err != nil {
		return nil, nil, err
	}
	var ss *mcp.ServerSession
	if req != nil {
		ss = req.Session
	}
	st := s.session(ss)
	dec, err := s.decider(dir)
	if err != nil {
		return nil, nil, err
	}
	d := dec.Decide(s.request(in.Command, dir, st))

	switch d.Verdict {
	case policy.Allow:
		// Run below.
	case policy.Ask:
		res, err := s.ask(req, st, dec, d, in.Command, dir)
		if res != nil || err != nil {
			return res, nil, err
		}
		// Approved: run below.
	case policy.Deny:
		return nil, nil, fmt.Errorf("shellguard refused to run this command: %s", reasonOf(d))
	default:
		return nil, nil, fmt.Errorf("shellguard refused to run this command: invalid verdict %d", int(d.Verdict))
	}

	out, err := s.execute(ctx, st.ctx, in.Command, dir, timeout)
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out.text()}}}, out, nil
}

// text renders out for people and models: the output, then a status line.
// The structured content carries the same facts exactly.
func (out *RunOutput) text() string {
	var b strings.Builder
	b.WriteString(out.Output)
	if out.Output != "" && !strings.HasSuffix(out.Output, "\n") {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "[exit code: %d", out.ExitCode)
	if out.TimedOut {
		b.WriteString("; timed out")
	}
	if out.Truncated {
		b.WriteString("; output truncated")
	}
	b.WriteString("]")
	return b.String()
}

// handleCheck implements check_command.
func (s *server) handleCheck(_ context.Context, req *mcp.CallToolRequest, in CheckInput) (*mcp.CallToolResult, any, error) {
	if strings.TrimSpace(in.Command) == "" {
		return nil, nil, errors.New("command is empty")
	}
	var ss *mcp.ServerSession
	if req != nil {
		ss = req.Session
	}
	st := s.session(ss)
	dir, err := s.resolveCwd(in.Cwd)
	if err != nil {
		return nil, nil, err
	}
	dec, err := s.decider(dir)
	if err != nil {
		return nil, nil, err
	}
	d := dec.Decide(s.request(in.Command, dir, st))
	out, err := decisionJSON(d)
	if err != nil {
		return nil, nil, err
	}
	return nil, out, nil
}

// decider returns the Decider for commands that run in dir.
func (s *server) decider(dir string) (Decider, error) {
	if s.deciderFor == nil {
		return s.d, nil
	}
	d, err := s.deciderFor(dir)
	if err != nil {
		return nil, fmt.Errorf("shellguard refused to run this command: cannot load the configuration for %s: %w", dir, err)
	}
	if d == nil {
		return refuseAll{}, nil
	}
	return d, nil
}

// request is the policy request for command run in dir by session st.
func (s *server) request(command, dir string, st *sessionState) policy.Request {
	root := s.cwd // the project, whatever cwd the call names
	if root == "" {
		if wd, err := os.Getwd(); err == nil {
			root = wd
		} else {
			root = dir
		}
	}
	return policy.Request{Command: command, Cwd: dir, Root: root, Session: st.store, MinimalEnv: s.minimalEnv}
}

func reasonOf(d policy.Decision) string {
	if r := strings.TrimSpace(d.Reason); r != "" {
		return r
	}
	return "no reason given"
}
