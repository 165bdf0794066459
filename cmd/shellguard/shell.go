package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/internal/tui"
	"github.com/shellguard/shellguard/policy"
)

func newShellCmd(s *streams) *cobra.Command {
	var (
		configFile, approvals, history string
		noColor                        bool
	)
	c := &cobra.Command{
		Use:   "shell",
		Short: "A prompt that checks each command before it runs (!cmd runs it, cmd explains it)",
		Long: `shell opens a full-screen prompt where every line is decided by shellguard.

  !cmd      run cmd with $SHELL -c (or /bin/sh) after the decision: allow
            runs it, deny refuses it with the reason, ask shows an overlay
            first: [c]/Esc cancels, [p] proceeds (keys pressed before the
            overlay has been shown, untouched, for 0.5 s are ignored).
  !!cmd     the same, giving cmd the terminal (editors, pagers, top, ... get it
            without !!: ` + strings.Join(tui.InteractivePrograms(), ", ") + `;
            so do shells, interpreters and clients given nothing to run:
            python3, psql DB, ssh HOST).
  !cd DIR   change the directory later commands run in.
  !exit     quit (Ctrl+D on an empty prompt quits too).
  cmd       do not run: show the decision (verdict, invocations, prefixes,
            warnings).

Up/Down browse the history ($XDG_STATE_HOME/shellguard/history), PgUp/PgDn
scroll the output, Ctrl+C interrupts the running command (again: SIGTERM,
a third time: SIGKILL) or clears the prompt. NO_COLOR turns colours off.
See docs/shell.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in, inOK := s.in.(*os.File)
			out, outOK := s.out.(*os.File)
			if !inOK || !outOK || !term.IsTerminal(in.Fd()) || !term.IsTerminal(out.Fd()) {
				return &exitError{code: exitUsage, err: errors.New("shell needs a terminal (standard input and output)")}
			}
			cwd, err := os.Getwd()
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			guards := &guardCache{opts: policy.Options{ConfigFile: configFile, ApprovalsFile: approvals, Source: "tui"}}
			var notices []string
			g, err := guards.get(cwd, time.Now().Add(policy.DefaultBudget))
			switch {
			case errors.Is(err, policy.ErrOverBudget):
				// Start anyway: commands are asked until the load ends.
				notices = append(notices, "the configuration is still loading (past the budget of "+policy.DefaultBudget.String()+"): commands are asked until it is ready")
			case err != nil:
				return &exitError{code: exitUsage, err: err}
			default:
				notices = append(notices, g.Notices()...)
			}
			if history == "" {
				if history, err = tui.DefaultHistoryPath(); err != nil {
					notices = append(notices, err.Error()+" (history is not saved)")
				}
			}
			m := tui.New(tui.Config{
				Decide:      guards.decide,
				HistoryPath: history,
				Cwd:         cwd,
				NoColor:     noColor || os.Getenv("NO_COLOR") != "",
				Session:     approval.NewSessionStore(),
				Notices:     notices,
			})
			p := tea.NewProgram(m, tea.WithInput(in), tea.WithOutput(out), tea.WithContext(cmd.Context()))
			_, err = p.Run()
			m.Close()
			if err != nil && !errors.Is(err, tea.ErrInterrupted) {
				return &exitError{code: exitUsage, err: err}
			}
			return nil
		},
	}
	c.Flags().StringVar(&configFile, "config", "", "extra configuration file, applied last (default $SHELLGUARD_CONFIG)")
	c.Flags().StringVar(&approvals, "approvals", "", "approval store (default $SHELLGUARD_APPROVALS or the user's store)")
	c.Flags().StringVar(&history, "history", "", "history file (default $XDG_STATE_HOME/shellguard/history)")
	c.Flags().BoolVar(&noColor, "no-color", false, "no colours (also when NO_COLOR is set)")
	return c
}

// guardCache holds a Guard per working directory, since the project
// configuration is found from the directory and `!cd` changes it. Every
// decision, the configuration load included, is answered within the
// budget (policy.DefaultBudget): a load still running at the deadline
// goes on in the background, one per directory, and the command is asked
// with the budget as the reason until the load has finished.
type guardCache struct {
	opts policy.Options
	// budget bounds each decision; 0 means policy.DefaultBudget.
	budget time.Duration
	// load loads the Guard of a directory; nil means policy.Load.
	load  func(policy.Options) (*policy.Guard, error)
	mu    sync.Mutex
	loads map[string]*guardLoad
}

// guardLoad is the load of one directory's Guard; done is closed when g
// and err are set.
type guardLoad struct {
	done chan struct{}
	g    *policy.Guard
	err  error
}

func (c *guardCache) budgetOrDefault() time.Duration {
	if c.budget > 0 {
		return c.budget
	}
	return policy.DefaultBudget
}

// get returns the Guard of dir, waiting for its load until deadline at
// most (then the error wraps policy.ErrOverBudget). A load that failed is
// tried again by the next get.
func (c *guardCache) get(dir string, deadline time.Time) (*policy.Guard, error) {
	c.mu.Lock()
	l := c.loads[dir]
	if l != nil {
		select {
		case <-l.done:
			if l.err != nil {
				l = nil
			}
		default:
		}
	}
	if l == nil {
		l = &guardLoad{done: make(chan struct{})}
		if c.loads == nil {
			c.loads = map[string]*guardLoad{}
		}
		c.loads[dir] = l
		opts := c.opts
		opts.Cwd = dir
		load := c.load
		if load == nil {
			load = policy.Load
		}
		go func() {
			defer close(l.done)
			defer func() {
				if r := recover(); r != nil {
					l.g, l.err = nil, fmt.Errorf("shellguard failed while loading its configuration: %v", r)
				}
			}()
			l.g, l.err = load(opts)
		}()
	}
	c.mu.Unlock()
	wait := time.Until(deadline)
	if wait <= 0 {
		wait = time.Nanosecond
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-l.done:
		return l.g, l.err
	case <-t.C:
		select {
		case <-l.done:
			return l.g, l.err
		default:
		}
		return nil, fmt.Errorf("loading the configuration did not finish within the budget: %w", policy.ErrOverBudget)
	}
}

// decide decides r with the Guard of its directory, the load and the
// decision within one budget. A configuration that cannot be loaded, or
// not in time, is asked (never allowed, and never refused: the person at
// the keyboard sees the reason and may proceed).
func (c *guardCache) decide(r policy.Request) policy.Decision {
	budget := c.budgetOrDefault()
	deadline := time.Now().Add(budget)
	g, err := c.get(r.Cwd, deadline)
	switch {
	case errors.Is(err, policy.ErrOverBudget):
		return policy.BudgetExceeded(r.Command, budget, "loading its configuration")
	case err != nil:
		return policy.Decision{Command: r.Command, Verdict: policy.Ask,
			Reason:   "shellguard could not load its configuration (" + err.Error() + "), so it cannot vouch for this command; asking instead",
			Warnings: []danger.Warning{}, Invocations: []policy.InvocationResult{}}
	}
	r.Deadline = deadline
	return g.Decide(r)
}
