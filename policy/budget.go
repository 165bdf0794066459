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
// well under 100 ms. Everything else runs on a worker goroutine of the
// Guard's watch that Decide stops waiting for at the deadline. Handing the
// call over costs about 2 µs, which is why the common case (NL2Bash lines
// are under 200 bytes) does without; its read-only file checks, which may
// meet a file system that hangs, still run on a worker.
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

// watch runs calls on goroutines that it watches (see run). It counts the
// calls still running past their deadline, and it keeps a few goroutines
// that finished a call waiting for the next one: starting a goroutine and
// growing its stack cost more than the read-only check of a typical line
// that runs on it. A Guard's workers end when it is collected (stop).
type watch struct {
	abandoned atomic.Int32
	// idle holds workers waiting for a call; nil: start a goroutine for
	// every call.
	idle    chan *worker
	stopped atomic.Bool
	workers atomic.Int32 // running or waiting
	started atomic.Int32 // ever
}

// maxIdle is how many workers a watch keeps waiting.
const maxIdle = 2

func newWatch() *watch { return &watch{idle: make(chan *worker, maxIdle)} }

// A worker runs calls one after another; state says whether it waits in
// idle (workerIdle), was taken for a call (workerBusy) or was ended by
// stop (workerGone). A caller that takes it from idle and stop settle it
// with one compare-and-swap.
type worker struct {
	state atomic.Int32
	calls chan func() // one call at a time: capacity 1; closed by stop
}

const (
	workerBusy int32 = iota
	workerIdle
	workerGone
)

// start runs call on a waiting worker, or on a new one.
func (w *watch) start(call func()) {
	for {
		select {
		case k := <-w.idle: // never ready when idle is nil
			if k.state.CompareAndSwap(workerIdle, workerBusy) {
				k.calls <- call
				return
			}
			// stop ended it: try the next.
		default:
			w.workers.Add(1)
			w.started.Add(1)
			go w.work(call)
			return
		}
	}
}

// stop ends the waiting workers, and those that finish a call after it.
func (w *watch) stop() {
	w.stopped.Store(true)
	for {
		select {
		case k := <-w.idle:
			if k.state.CompareAndSwap(workerIdle, workerGone) {
				close(k.calls)
			}
		default:
			return
		}
	}
}

// work runs call and the calls given to it after, until idle is full or
// stop ends it. It grows its stack once, at the start, while it holds one
// frame: growing it later copies every frame below (the runtime decodes
// each frame's tables to move its pointers: tens of thousands of
// instructions for a deep stack, about a quarter of a one-line hook
// process); grown at the start, it costs a copy of that frame only, the
// runtime sizing the new stack to fit it at once.
func (w *watch) work(call func()) {
	defer w.workers.Add(-1)
	prefaultAnalysis(1)
	k := &worker{calls: make(chan func(), 1)}
	for {
		call()
		call = nil // it may hold the Guard, which stop waits to see collected
		k.state.Store(workerIdle)
		select {
		case w.idle <- k: // never ready when idle is nil
		default:
			return // enough wait already
		}
		if w.stopped.Load() {
			w.stop() // it came back after stop emptied idle
		}
		var ok bool
		if call, ok = <-k.calls; !ok {
			return
		}
	}
}

// run calls f on a goroutine that w watches and waits for it until
// deadline. It reports false when f did not return in time (f then goes on
// in the background, counted in w.abandoned) or when too many earlier
// calls are still running past their deadline.
func run[T any](w *watch, deadline time.Time, f func() T) (T, bool) {
	var zero T
	if w.abandoned.Load() >= maxAbandoned || !time.Now().Before(deadline) {
		return zero, false // too many given up, or out of time already
	}
	const (
		running int32 = iota
		delivered
		givenUp
	)
	var state atomic.Int32
	ch := make(chan T, 1)
	w.start(func() {
		v := f()
		if state.CompareAndSwap(running, delivered) {
			ch <- v
			return
		}
		w.abandoned.Add(-1)
	})
	t := time.NewTimer(max(time.Until(deadline), time.Nanosecond))
	defer t.Stop()
	select {
	case v := <-ch:
		return v, true
	case <-t.C:
		if state.CompareAndSwap(running, givenUp) {
			w.abandoned.Add(1)
			return zero, false
		}
		return <-ch, true // it finished as the timer fired
	}
}

// prefaultAnalysis makes the stack at least 16 KiB deep, enough for the
// analysis of a line.
//
//go:noinline
func prefaultAnalysis(n int) byte {
	var b [16 << 10]byte
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
	l, ok := run(&watch{}, deadline, func() (l loaded) {
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
