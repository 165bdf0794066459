package policy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/internal/audit"
	"github.com/shellguard/shellguard/internal/xdg"
	"github.com/shellguard/shellguard/shellparse"
)

// EnvApprovals names the environment variable that selects the approval
// store when Options.ApprovalsFile is empty.
const EnvApprovals = "SHELLGUARD_APPROVALS"

// Options selects the configuration a Guard is built from.
type Options struct {
	// Cwd selects the project configuration (.shellguard.toml, found by
	// walking up from it). Empty means the process's working directory.
	Cwd string
	// ConfigFile is an extra configuration file (--config or
	// SHELLGUARD_CONFIG), applied last.
	ConfigFile string
	// ApprovalsFile overrides the user's approval store (--approvals or
	// SHELLGUARD_APPROVALS).
	ApprovalsFile string
	// Env reads the environment; nil means os.Getenv. Tests set it.
	Env func(string) string
	// Source names the caller in the audit log ("hook:claude", "cli").
	Source string
	// Budget is how long one Decide may take (see DefaultBudget); zero
	// means DefaultBudget.
	Budget time.Duration
	// ManagedDir and ManagedUID move the managed configuration and the
	// owner its files must have (see config.LoadOptions); tests set them.
	ManagedDir string
	ManagedUID int
}

func (o *Options) getenv(k string) string {
	if o.Env != nil {
		return o.Env(k)
	}
	return os.Getenv(k)
}

// Guard decides command lines. It is safe for concurrent use.
type Guard struct {
	cfg      *config.Config
	detector *danger.Detector
	parser   *shellparse.Parser
	store    *approval.Store // nil when no store could be located
	// refusals is the recent refusals and their allow-once codes, beside
	// the store; nil without a store.
	refusals *approval.Refusals
	source   string
	// self holds what the self-guard looks up once (see selfguard.go).
	self selfCache
	// env reads the environment (Options.Env); nil means os.Getenv.
	env     func(string) string
	notices []string
	home    string // $HOME, for ~ in read-only operands; "" means os.Getenv

	// budget bounds each Decide; light says whether a short line may be
	// analysed without a watchdog (see maxInlineBytes); watch runs the
	// watched calls.
	budget time.Duration
	light  bool
	watch  *watch

	mu sync.Mutex
	// snap is the approval store as last loaded, and snapIx its active
	// entries indexed; haveSnap is false until the first load and after
	// an Approve.
	snap     approval.Snapshot
	snapIx   *approval.Index
	haveSnap bool
}

// Load builds a Guard from the built-in defaults and the configuration
// files that opts selects. A configuration error is returned; callers
// must not fall back to allowing anything when it fails.
func Load(opts Options) (*Guard, error) {
	cfg, err := config.Load(config.LoadOptions{
		Cwd:          opts.Cwd,
		Explicit:     opts.ConfigFile,
		Env:          opts.Env,
		BuiltinLevel: builtinLevel,
		ManagedDir:   opts.ManagedDir,
		ManagedUID:   opts.ManagedUID,
	})
	if err != nil {
		return nil, err
	}
	g, err := New(cfg)
	if err != nil {
		return nil, err
	}
	g.source = opts.Source
	g.env = opts.Env
	g.home = opts.getenv("HOME")
	if opts.Budget > 0 {
		g.budget = opts.Budget
	}
	path := opts.ApprovalsFile
	if path == "" {
		path = opts.getenv(EnvApprovals)
	}
	if path == "" {
		path, err = approvalsDefault(opts)
		if err != nil {
			g.notices = append(g.notices, "no approval store: "+err.Error())
		}
	}
	if path != "" {
		g.WithStore(approval.NewStore(path))
	}
	return g, nil
}

func approvalsDefault(opts Options) (string, error) {
	if p := xdg.Config(opts.Env, "approvals.json"); p != "" {
		return p, nil
	}
	return "", errors.New("cannot locate the approvals file: neither $XDG_CONFIG_HOME nor $HOME is an absolute path")
}

func builtinLevel(name string) (danger.Level, bool) { return danger.BuiltinLevel(name) }

// New builds a Guard from an already loaded configuration, with no
// approval store (see WithStore).
func New(cfg *config.Config) (*Guard, error) {
	if cfg == nil {
		cfg = config.Default()
	}
	det, err := detectorFor(cfg)
	if err != nil {
		return nil, err
	}
	g := &Guard{
		cfg:      cfg,
		detector: det,
		parser:   shellparse.New(shellparse.Limits{}),
		notices:  append([]string(nil), cfg.Notices...),
		budget:   DefaultBudget,
		watch:    newWatch(),
	}
	g.light = light(g)
	// The watch's workers hold the watch, not the Guard.
	runtime.AddCleanup(g, (*watch).stop, g.watch)
	return g, nil
}

// WithBudget sets how long one Decide may take (see DefaultBudget). It
// returns g.
func (g *Guard) WithBudget(d time.Duration) *Guard {
	if d > 0 {
		g.budget = d
	}
	return g
}

// WithStore sets the approval store the Guard reads (and Approve writes
// with scope Always). It returns g.
func (g *Guard) WithStore(s *approval.Store) *Guard {
	g.store = s
	g.refusals = nil
	if s != nil && s.Path() != "" {
		g.refusals = approval.NewRefusals(approval.RefusalsPath(s.Path()))
	}
	return g
}

// detectorFor builds the danger detector a configuration describes: the
// built-in patterns of the packs it leaves on (each pack's default, or as
// [packs] says), less the disabled rules, re-levelled, then the custom
// patterns.
func detectorFor(cfg *config.Config) (*danger.Detector, error) {
	if len(cfg.Disabled) == 0 && len(cfg.Relevel) == 0 && len(cfg.Patterns) == 0 && !cfg.PacksChanged() {
		// The built-in registry as it stands: static data, nothing to
		// copy or compile (the common case, and a hook's start-up).
		return danger.Default(), nil
	}
	var ps []danger.Pattern
	var builtin []danger.Pattern
	for _, pk := range danger.Packs() {
		if cfg.PackOn(pk.Name) {
			pps, _ := danger.PackPatterns(pk.Name)
			builtin = append(builtin, pps...)
		}
	}
	for _, p := range builtin {
		if _, off := cfg.Disabled[p.Name]; off {
			continue
		}
		if o, ok := cfg.Relevel[p.Name]; ok {
			p.Level = o.Level
		}
		ps = append(ps, p)
	}
	ps = append(ps, cfg.Patterns...)
	return danger.NewDetector(ps)
}

// Config returns the configuration the Guard was built from. Callers must
// not modify it.
func (g *Guard) Config() *config.Config { return g.cfg }

// DangerDetector returns the Guard's detector.
func (g *Guard) DangerDetector() *danger.Detector { return g.detector }

// Parser returns the Guard's parser.
func (g *Guard) Parser() *shellparse.Parser { return g.parser }

// Store returns the approval store, or nil.
func (g *Guard) Store() *approval.Store { return g.store }

// Notices returns what loading found worth telling the user (ignored
// project keys, untrusted approval files, ...).
func (g *Guard) Notices() []string {
	out := append([]string(nil), g.notices...)
	if g.store != nil {
		if sn, _ := g.snapshot(); sn.Problem != nil {
			out = append(out, sn.Problem.Error())
		}
	}
	return out
}

// snapshot returns the approval store's content and its active entries
// indexed, read again when anything it depends on changed since the last
// call: the file, a symbolic link on its way, or the owner or mode of the
// file or of a folder whose trust decides whether it may approve (see
// approval.Store.Fresh).
func (g *Guard) snapshot() (approval.Snapshot, *approval.Index) {
	if sn, ix, ok := g.cachedSnapshot(); ok {
		return sn, ix
	}
	sn := g.store.Load()
	ix := approval.NewIndex(sn.Active())
	g.mu.Lock()
	g.snap, g.snapIx, g.haveSnap = sn, ix, true
	g.mu.Unlock()
	return sn, ix
}

// cachedSnapshot returns the store as last loaded, when it is still fresh
// (or there is no store).
func (g *Guard) cachedSnapshot() (approval.Snapshot, *approval.Index, bool) {
	if g.store == nil {
		return approval.Snapshot{Trusted: true, Missing: true}, nil, true
	}
	g.mu.Lock()
	sn, ix, have := g.snap, g.snapIx, g.haveSnap
	g.mu.Unlock()
	return sn, ix, have && g.store.Fresh(&sn)
}

// Approve records a person's approval of command. exact approves this
// command line only; otherwise each invocation's prefix is approved (the
// line must be classifiable). Scope Once records nothing; Session adds to
// session (which must not be nil); Always writes the approval store. via
// names the interface ("tui", "mcp", "cli").
func (g *Guard) Approve(command string, exact bool, scope approval.Scope, session *approval.SessionStore, via string) error {
	if scope == approval.Once {
		return nil
	}
	entries, err := g.entriesFor(command, exact, scope, via)
	if err != nil {
		return err
	}
	switch scope {
	case approval.Session:
		if session == nil {
			return fmt.Errorf("no session to record the approval in")
		}
		for _, e := range entries {
			session.Add(e)
		}
		return nil
	case approval.Always:
		if g.store == nil {
			return fmt.Errorf("no approval store is configured")
		}
		_, err := g.store.Add(entries...)
		g.mu.Lock()
		g.haveSnap = false
		g.mu.Unlock()
		return err
	}
	return fmt.Errorf("unknown approval scope %q", scope)
}

func (g *Guard) entriesFor(command string, exact bool, scope approval.Scope, via string) ([]approval.Entry, error) {
	now := time.Now().UTC()
	if exact {
		if strings.TrimSpace(command) == "" {
			return nil, fmt.Errorf("cannot approve an empty command")
		}
		return []approval.Entry{{Kind: approval.Exact, Pattern: strings.TrimSpace(command), Scope: scope, GrantedAt: now, GrantedVia: via, Command: command}}, nil
	}
	cls := approval.Classify(g.parser.Parse(command))
	if !cls.Approvable {
		return nil, fmt.Errorf("cannot approve by prefix: %s (approve the exact command instead)", cls.Reason)
	}
	var out []approval.Entry
	seen := map[string]bool{}
	for _, ic := range cls.Invocations {
		if ic.Prefix == "" || seen[ic.Prefix] {
			continue
		}
		seen[ic.Prefix] = true
		out = append(out, approval.Entry{Kind: approval.Prefix, Pattern: ic.Prefix, Scope: scope, GrantedAt: now, GrantedVia: via, Command: command})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("nothing to approve in %q", command)
	}
	return out, nil
}

// Decide returns the verdict for req. It never fails and never takes
// (much) longer than its budget (req.Deadline, or the Guard's budget from
// the call; see DefaultBudget): a problem becomes an Ask (or Deny) verdict
// whose Reason names it and whose Problem says which (an analysis past the
// deadline, an audit record that could not be written when the
// configuration requires one, an internal error).
func (g *Guard) Decide(req Request) Decision {
	if g.cfg.AuditLog != "" && req.Deadline.IsZero() {
		// The audit write counts against the budget too.
		req.Deadline = g.deadline(req)
	}
	var d Decision
	if ix, ok := g.inline(req.Command); ok {
		d = g.analyse(req, ix)
	} else {
		deadline := g.deadline(req)
		var done bool
		d, done = run(g.watch, deadline, func() Decision {
			_, ix := g.snapshot()
			req := req
			req.watched = true
			return g.analyse(req, ix)
		})
		switch {
		case done:
		case g.watch.abandoned.Load() >= maxAbandoned:
			d = BudgetExceeded(req.Command, g.budget, "the analysis (earlier commands are still being analysed past their budget)")
		default:
			d = BudgetExceeded(req.Command, g.budget, "the analysis")
		}
	}
	d.Verdict = clampVerdict(d.Verdict)
	g.unattended(req, &d)
	typed(req, &d)
	if !req.DryRun {
		g.settle(req, &d, g.deadline(req))
	}
	if g.cfg.AuditLog != "" && !req.DryRun {
		g.audit(req, &d, g.deadline(req))
	}
	return d
}

// deadline returns when Decide must have answered req.
func (g *Guard) deadline(req Request) time.Time {
	if !req.Deadline.IsZero() {
		return req.Deadline
	}
	return time.Now().Add(g.budget)
}

// inline reports whether req may be analysed on the caller's goroutine
// (see maxInlineBytes), and then the store's index.
func (g *Guard) inline(command string) (*approval.Index, bool) {
	if !g.light || len(command) > maxInlineBytes {
		return nil, false
	}
	_, ix, fresh := g.cachedSnapshot()
	return ix, fresh
}

// analyse parses and decides req with the store's entries ix, recovering
// from a panic as an ask.
func (g *Guard) analyse(req Request, ix *approval.Index) (d Decision) {
	defer func() {
		if r := recover(); r != nil {
			d = Decision{Command: req.Command, Verdict: Ask, Problem: ProblemInternal,
				Reason:   fmt.Sprintf("shellguard failed while deciding (%v); asking instead", r),
				Warnings: []danger.Warning{}, Invocations: []InvocationResult{}}
		}
	}()
	res := g.parser.Parse(req.Command)
	d = g.decideParsed(req, res, ix)
	terminalSession(req, res, &d)
	return d
}

func clampVerdict(v Verdict) Verdict {
	switch v {
	case Allow, Ask, Deny:
		return v
	}
	return Ask
}

func (g *Guard) decideParsed(req Request, res *shellparse.Result, storeIx *approval.Index) Decision {
	d := Decision{Command: req.Command, Warnings: g.detector.CheckParsed(res)}
	d.Warnings = g.contextRule(req, res, d.Warnings)
	if d.Warnings == nil {
		d.Warnings = []danger.Warning{}
	}
	cls := approval.Classify(res)
	d.prefixes, d.prefixReason = prefixesOf(cls)

	// Approvals: the session's, then the persisted store's (if trusted),
	// each looked up through its index.
	sessionIx := req.Session.Index()
	var match approval.MatchResult // no entries approve nothing
	if sessionIx.Len() > 0 || storeIx.Len() > 0 {
		match = approval.MatchIndexes(cls, sessionIx, storeIx)
	}

	d.Invocations = make([]InvocationResult, len(res.Invocations))
	var readOnlyHere []bool // what the read-only list vouches for here (scope.go)
	if g.cfg.ReadOnly {
		readOnlyHere = g.readOnlyHere(req, res)
	}
	for i := range res.Invocations {
		inv := &res.Invocations[i]
		var ir InvocationResult
		if i < len(cls.Invocations) {
			ic := cls.Invocations[i]
			ir.Command = ic.Command
			ir.Prefix = ic.Prefix
			ir.Reason = ic.Reason
		} else {
			ir.Command = inv.String()
		}
		ir.Program = inv.Name
		if i < len(match.By) && match.By[i] != nil {
			ir.Approved, ir.ApprovedBy = true, approverOf(match.By[i])
		}
		if !ir.Approved && ir.Reason == "" {
			if r := g.allowRule(ir.Command); r != "" {
				ir.Approved, ir.ApprovedBy = true, Approver{Kind: ByRule, Name: r}
			} else if g.cfg.ReadOnly && readOnlyHere[i] {
				ir.Approved, ir.ApprovedBy = true, Approver{Kind: ByReadOnly, Name: inv.Name}
			}
		}
		d.Invocations[i] = ir
	}
	// Read-only programs and allow rules vouch for invocations, not for
	// the line: a line that prefix approvals could not cover (hidden
	// characters, a substitution, a function definition, ...) is allowed
	// only by an exact approval a person gave for that very line.
	everyApproved := len(d.Invocations) > 0 && res.OK() && (cls.Approvable || match.Approved)
	for _, ir := range d.Invocations {
		everyApproved = everyApproved && ir.Approved
	}

	// The guard guards itself: from an agent, a line that would change
	// shellguard is denied, whatever approves it.
	if g.guardSelf(req, res, &d) {
		return d
	}

	// Deny rules beat everything.
	if r, ok := ruleHits(&d, g.cfg.Deny, "deny"); ok {
		d.Verdict = Deny
		d.Reason = "denied by your rule " + r
		g.fillLevel(&d)
		return d
	}

	// Danger: the highest level among the warnings that count. A warning
	// counts unless the user's own configuration exempts its rule and an
	// approval or allow rule covers the line.
	// An allow rule never beats a Critical warning; only approvals a
	// person gave can, for an exempted rule.
	byApproval := everyApproved
	for _, ir := range d.Invocations {
		byApproval = byApproval && ir.ApprovedBy.fromPerson()
	}
	var counted []danger.Warning
	for _, w := range d.Warnings {
		if g.cfg.IsExempt(w.Pattern.Name) && !g.approvalForbidden(w) && (byApproval || everyApproved && w.Level < danger.Critical) {
			continue
		}
		counted = append(counted, w)
	}
	g.fillLevel(&d)
	if lvl, ok := danger.MaxLevel(counted); ok {
		top := counted[0]
		for _, w := range counted {
			if w.Level > top.Level {
				top = w
			}
		}
		switch {
		case lvl >= g.cfg.DenyAt:
			d.Verdict = Deny
			d.Reason = fmt.Sprintf("blocked: %s (%s, rule %s)", top.Pattern.Description, top.Level, top.Pattern.Name)
			return d
		case lvl >= g.cfg.AskAt:
			d.Verdict = Ask
			d.Reason = fmt.Sprintf("needs confirmation: %s (%s, rule %s)", top.Pattern.Description, top.Level, top.Pattern.Name)
			return d
		}
	}
	if !res.OK() {
		d.Verdict = Ask
		d.Reason = "shellguard could not analyse the whole command: " + res.Problems[0].Message
		return d
	}
	if r, ok := ruleHits(&d, g.cfg.Ask, "ask"); ok {
		d.Verdict = Ask
		d.Reason = "your rule " + r + " asks for confirmation"
		return d
	}
	if everyApproved {
		d.Verdict = Allow
		by := make([]string, 0, len(d.Invocations))
		for _, ir := range d.Invocations {
			by = append(by, ir.ApprovedBy.String())
		}
		d.Reason = "allowed: " + strings.Join(dedupe(by), "; ")
		return d
	}
	d.Verdict = Ask
	switch {
	case len(d.Invocations) == 0:
		d.Reason = "nothing to run was found in the command"
	case !cls.Approvable && cls.Reason != "":
		d.Reason = "not approved: " + cls.Reason
	default:
		missing := make([]string, 0, len(d.Invocations))
		for _, ir := range d.Invocations {
			if !ir.Approved {
				p := ir.Prefix
				if p == "" {
					p = ir.Command
				}
				missing = append(missing, p)
			}
		}
		d.Reason = "not approved yet: " + strings.Join(dedupe(missing), ", ")
	}
	return d
}

func (g *Guard) fillLevel(d *Decision) {
	if lvl, ok := danger.MaxLevel(d.Warnings); ok {
		l := lvl
		d.Level = &l
	}
}

// ruleHits adds to d.Rules, as "kind: pattern", every rule that matches
// an invocation of d, in order; it returns the pattern of the first, and
// whether there was one.
func ruleHits(d *Decision, rules []config.Rule, kind string) (first string, ok bool) {
	for i := range d.Invocations {
		for _, r := range rules {
			if r.Match(d.Invocations[i].Command) {
				if !ok {
					first, ok = r.Pattern, true
				}
				d.Rules = append(d.Rules, kind+": "+r.Pattern)
			}
		}
	}
	return first, ok
}

func (g *Guard) allowRule(command string) string {
	for _, r := range g.cfg.Allow {
		if r.Match(command) {
			return r.Pattern
		}
	}
	return ""
}

// dedupe returns the distinct non-empty strings of ss, sorted. It may
// reorder ss and returns a slice of it.
func dedupe(ss []string) []string {
	sort.Strings(ss)
	out := ss[:0]
	for _, s := range ss {
		if s != "" && (len(out) == 0 || out[len(out)-1] != s) {
			out = append(out, s)
		}
	}
	return out
}

// audit appends d to the audit log, if one is configured, waiting for
// other writers until deadline at most (and at least a moment). When the
// record cannot be written and the configuration sets audit_required, an
// allow becomes an ask.
func (g *Guard) audit(req Request, d *Decision, deadline time.Time) {
	if g.cfg == nil || g.cfg.AuditLog == "" {
		return
	}
	rec := g.auditRecord(req, d)
	if until := time.Until(deadline); until < minAuditWait {
		deadline = time.Now().Add(minAuditWait)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	if err := audit.AppendWith(ctx, g.cfg.AuditLog, rec, audit.Options{MaxSize: g.cfg.AuditMaxSize}); err != nil {
		d.AuditError = err.Error()
		if g.cfg.AuditRequired && d.Verdict == Allow {
			d.Verdict = Ask
			d.Problem = ProblemAuditFailed
			d.Reason = "the audit log could not be written (" + err.Error() + ") and your configuration requires it (audit_required = true); asking instead of allowing"
		}
	}
}

// minAuditWait is how long an audit write may wait for other writers
// even when the decision used up its budget.
const minAuditWait = 100 * time.Millisecond
