package tui

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Runner runs the command lines the user chose to run. The Model calls it
// from its own goroutine only; implementations need not be safe for
// concurrent use, but ShellRunner is.
type Runner interface {
	// Start starts line in directory dir. The command's standard output
	// and standard error are written to out as they arrive; out must not
	// be written to after the returned Process's Wait has returned.
	Start(ctx context.Context, line, dir string, out io.Writer) (Process, error)
	// Interactive returns the command that runs line in dir with the
	// terminal (editors, pagers, top). The Model runs it with tea.Exec,
	// which releases the terminal while it runs.
	Interactive(line, dir string) tea.ExecCommand
}

// Process is a command started by a Runner.
type Process interface {
	// Wait waits for the command to end and returns its exit code. A
	// command killed by a signal returns -1 and an error naming the
	// signal; a failure to run returns -1 and the error.
	Wait() (code int, err error)
	// Interrupt asks the command to stop (SIGINT to its process group).
	Interrupt() error
	// Terminate tells it to stop (SIGTERM to its process group).
	Terminate() error
	// Kill stops it (SIGKILL to its process group).
	Kill() error
}

// ShellRunner runs command lines as `$SHELL -c line`. The zero value uses
// $SHELL, or /bin/sh when it is unset, and the process's environment.
type ShellRunner struct {
	// Shell is the shell to run lines with; "" means $SHELL, then /bin/sh.
	Shell string
	// Env is the environment of the commands; nil means os.Environ(). PWD
	// is set to the command's directory either way.
	Env []string
}

// ShellPath returns the shell r runs lines with.
func (r ShellRunner) ShellPath() string {
	if r.Shell != "" {
		return r.Shell
	}
	if s := os.Getenv("SHELL"); s != "" {
		return s
	}
	return "/bin/sh"
}

func (r ShellRunner) command(ctx context.Context, line, dir string) *exec.Cmd {
	c := exec.CommandContext(ctx, r.ShellPath(), "-c", line)
	c.Dir = dir
	env := r.Env
	if env == nil {
		env = os.Environ()
	}
	if dir != "" {
		env = append(env[:len(env):len(env)], "PWD="+dir)
	}
	c.Env = env
	return c
}

// Start starts line without a terminal: standard input is /dev/null and
// the command runs in its own process group, so that Interrupt reaches
// every process of a pipeline.
func (r ShellRunner) Start(ctx context.Context, line, dir string, out io.Writer) (Process, error) {
	c := r.command(ctx, line, dir)
	c.Stdout = out
	c.Stderr = out
	setProcessGroup(c)
	c.Cancel = func() error { return interruptGroup(c) }
	// A background child that keeps the output open must not hang the
	// shell forever once the command itself has ended.
	c.WaitDelay = 2 * time.Second
	if err := c.Start(); err != nil {
		return nil, err
	}
	return &shellProcess{cmd: c}, nil
}

// Interactive returns the command for line with the terminal; it stays in
// the terminal's foreground process group so that job control and Ctrl+C
// work as in a shell.
func (r ShellRunner) Interactive(line, dir string) tea.ExecCommand {
	return &execCommand{Cmd: r.command(context.Background(), line, dir)}
}

type shellProcess struct{ cmd *exec.Cmd }

func (p *shellProcess) Wait() (int, error) { return exitStatus(p.cmd.Wait()) }

func (p *shellProcess) Interrupt() error { return interruptGroup(p.cmd) }

func (p *shellProcess) Terminate() error { return terminateGroup(p.cmd) }

func (p *shellProcess) Kill() error { return killGroup(p.cmd) }

// exitStatus turns the error of exec.Cmd.Wait or Run into an exit code.
func exitStatus(err error) (int, error) {
	if err == nil {
		return 0, nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if code := ee.ExitCode(); code >= 0 {
			return code, nil
		}
		return -1, ee
	}
	return -1, err
}

// execCommand adapts exec.Cmd to tea.ExecCommand.
type execCommand struct{ *exec.Cmd }

func (c *execCommand) SetStdin(r io.Reader) {
	if c.Stdin == nil {
		c.Stdin = r
	}
}

func (c *execCommand) SetStdout(w io.Writer) {
	if c.Stdout == nil {
		c.Stdout = w
	}
}

func (c *execCommand) SetStderr(w io.Writer) {
	if c.Stderr == nil {
		c.Stderr = w
	}
}
