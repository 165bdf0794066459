package main

import (
	"errors"
	"os"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/shellguard/shellguard/approval"
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

  !cmd      run cmd with $SHELL -c (or /bin/sh) after the decision; a flagged
            command (danger warnings or a deny verdict) shows an overlay first:
            [c]/Esc cancels, [p] proceeds.
  !!cmd     the same, giving cmd the terminal (editors, pagers, top, ... get it
            without !!: ` + strings.Join(tui.InteractivePrograms(), ", ") + `).
  !cd DIR   change the directory later commands run in.
  !exit     quit (Ctrl+D on an empty prompt quits too).
  cmd       do not run: show the decision (verdict, invocations, prefixes,
            warnings).

Up/Down browse the history ($XDG_STATE_HOME/shellguard/history), PgUp/PgDn
scroll the output, Ctrl+C interrupts the running command or clears the
prompt. NO_COLOR turns colours off.`,
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
			g, err := guards.get(cwd)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			var notices []string
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
				Notices:     append(g.Notices(), notices...),
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
// configuration is found from the directory and `!cd` changes it.
type guardCache struct {
	opts   policy.Options
	mu     sync.Mutex
	guards map[string]*policy.Guard
}

func (c *guardCache) get(dir string) (*policy.Guard, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g, ok := c.guards[dir]; ok {
		return g, nil
	}
	opts := c.opts
	opts.Cwd = dir
	g, err := policy.Load(opts)
	if err != nil {
		return nil, err
	}
	if c.guards == nil {
		c.guards = map[string]*policy.Guard{}
	}
	c.guards[dir] = g
	return g, nil
}

// decide decides r with the Guard of its directory; a configuration that
// cannot be loaded denies (the overlay still lets the person proceed).
func (c *guardCache) decide(r policy.Request) policy.Decision {
	g, err := c.get(r.Cwd)
	if err != nil {
		return policy.Decision{Command: r.Command, Verdict: policy.Deny, Reason: "configuration error: " + err.Error()}
	}
	return g.Decide(r)
}
