package policy

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/danger"
)

// DefaultBudget is how long shellguard may spend answering for one
// command line: loading the configuration (in a hook or `shellguard
// decide`, which load it for every call) and deciding together. It is
// well under the time agents give a hook (Claude Code, Gemini CLI and
// Codex are installed with a 30 s time-out, and a hook that times out does
// not block the command), so that a hostile project file or command line
// can never make shellguard miss its answer. An analysis that does not
// finish in time is answered ask, with Problem ProblemOverBudget; never
// allow.
const DefaultBudget = 1500 * time.Millisecond

// The values of Decision.Problem.
const (
	// ProblemOverBudget: the configuration load or the analysis did not
	// finish within the budget (see DefaultBudget).
	ProblemOverBudget = "over_budget"
	// ProblemAuditFailed: the audit record could not be written and the
	// configuration sets audit_required.
	ProblemAuditFailed = "audit_failed"
	// ProblemInternal: shellguard failed while deciding.
	ProblemInternal = "internal_error"
)

// ErrOverBudget is what LoadBy's error wraps when loading did not finish
// by the deadline.
var ErrOverBudget = errors.New("over budget")

// maxAbandoned bounds the analyses of one Guard that are still running
// after their deadline passed (Go cannot stop them; they finish in the
// background). Past it, Decide answers over budget at once rather than
// start another, so hostile lines cannot pile up work in a long-running
// process (an MCP server, a TUI).
const maxAbandoned = 4

// maxInlineBytes and maxInlineRuleBytes decide when Decide analyses on the
// caller's goroutine, without a watchdog: a line of at most
// maxInlineBytes, under a configuration that adds no custom pattern and
// whose rules add up to at most maxInlineRuleBytes, with the approval
// store already loaded (so never the first Decide of a hook or of
// `shellguard decide`). There the parser's and the detector's own limits
// bound the work: the worst 1 KiB line measured (eval sixteen times, then
// brace expansions) took 0.9 s on a loaded 2-core machine before the
// parser's per-line budget (issue 11 item 16), which bounds every line to
// well under 100 ms. Everything else runs on a goroutine of its own that
// Decide stops waiting for at the deadline. Starting that goroutine costs
// about 2 µs, a fifth of a typical Decide, which is why the common case
// (NL2Bash lines are under 200 bytes) does without.
const (
	maxInlineBytes     = 1 << 10
	maxInlineRuleBytes = 4 << 10
)

// BudgetExceeded returns the decision for a command whose configuration
// load or analysis did not finish within budget: ask, with Problem
// ProblemOverBudget and a reason saying what did not finish (what, e.g.
// "the analysis").
func BudgetExceeded(command string, budget time.Duration, what string) Decision {
	return Decision{
		Command:     command,
		Verdict:     Ask,
		Problem:     ProblemOverBudget,
		Reason:      fmt.Sprintf("shellguard could not finish %s within its budget of %s, so it cannot vouch for this command; asking instead", what, budget),
		Warnings:    []danger.Warning{},
		Invocations: []InvocationResult{},
	}
}

// light reports whether a configuration keeps every analysis of a short
// line bounded without a watchdog (see maxInlineBytes).
func light(g *Guard) bool {
	if len(g.cfg.Patterns) > 0 {
		return false
	}
	n := 0
	for _, rs := range [][]config.Rule{g.cfg.Allow, g.cfg.Ask, g.cfg.Deny} {
		for _, r := range rs {
			n += len(r.Pattern)
		}
	}
	return n <= maxInlineRuleBytes
}

// run calls f on a goroutine of its own and waits for it until deadline.
// It reports false when f did not return in time (f then goes on in the
// background, counted in abandoned) or when too many earlier calls are
// still running past their deadline.
func run[T any](abandoned *atomic.Int32, deadline time.Time, f func() T) (T, bool) {
	var zero T
	if abandoned.Load() >= maxAbandoned || !time.Now().Before(deadline) {
		return zero, false // too many given up, or out of time already
	}
	const (
		running int32 = iota
		delivered
		givenUp
	)
	var state atomic.Int32
	ch := make(chan T, 1)
	go func() {
		prefaultCheck(1)
		v := f()
		if state.CompareAndSwap(running, delivered) {
			ch <- v
			return
		}
		abandoned.Add(-1)
	}()
	t := time.NewTimer(max(time.Until(deadline), time.Nanosecond))
	defer t.Stop()
	select {
	case v := <-ch:
		return v, true
	case <-t.C:
		if state.CompareAndSwap(running, givenUp) {
			abandoned.Add(1)
			return zero, false
		}
		return <-ch, true // it finished as the timer fired
	}
}

// A goroutine starts with a small stack, and its work outgrows it, each
// growth copying every frame below it (the runtime decodes each frame's
// tables to move its pointers: tens of thousands of instructions for a
// deep stack, about a quarter of a one-line hook process). Growing it
// once at the start, while it holds one frame, costs a copy of that
// frame only: the runtime sizes the new stack to fit the frame at once.
// prefaultAnalysis serves a goroutine that runs a whole analysis
// (Decide's watchdog, a settled re-decision), prefaultCheck the short
// file-system checks. (A 32 KiB analysis prefault touched more pages of
// the new stack and saved no instruction in the hook.)

// prefaultAnalysis makes the stack at least 16 KiB deep.
//
//go:noinline
func prefaultAnalysis(n int) byte {
	var b [16 << 10]byte
	b[n&(len(b)-1)] = byte(n)
	return b[(n*7)&(len(b)-1)]
}

// prefaultCheck makes the stack at least 8 KiB deep.
//
//go:noinline
func prefaultCheck(n int) byte {
	var b [8 << 10]byte
	b[n&(len(b)-1)] = byte(n)
	return b[(n*7)&(len(b)-1)]
}

// LoadBy is Load, given up at deadline: when the configuration files and
// the detector are not ready by then, it returns an error wrapping
// ErrOverBudget (the load goes on in the background and is discarded).
// Hooks and `shellguard decide` load the configuration for every command,
// so their whole answer stays within one budget: LoadBy, then Decide with
// Request.Deadline set to the same deadline.
func LoadBy(opts Options, deadline time.Time) (*Guard, error) {
	type loaded struct {
		g   *Guard
		err error
	}
	var abandoned atomic.Int32
	l, ok := run(&abandoned, deadline, func() (l loaded) {
		defer func() {
			if r := recover(); r != nil {
				l = loaded{err: fmt.Errorf("shellguard failed while loading its configuration: %v", r)}
			}
		}()
		g, err := Load(opts)
		return loaded{g, err}
	})
	if !ok {
		return nil, fmt.Errorf("loading the configuration did not finish within the budget: %w", ErrOverBudget)
	}
	return l.g, l.err
}
