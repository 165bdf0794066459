package policy

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/internal/audit"
)

// minSettleWait is how long settling an ask or deny (reading and writing
// the recent refusals) may take even when the analysis used up the
// budget.
const minSettleWait = 100 * time.Millisecond

// settle finishes an ask or deny that reaches a model or a person, after
// the analysis:
//
//  1. approvals given for the agent's session (allow last --session) are
//     applied, and may turn it into an allow;
//  2. an allow-once approval of this exact line in this folder (allow
//     once CODE) is used up, and turns it into an allow;
//  3. otherwise the refusal goes into the recent refusals with its
//     allow-once code, which the Reason then names;
//  4. in shadow mode (mode = "warn") what is left is marked Shadow: shown
//     and logged, never enforced.
//
// A line about shellguard itself (SelfGuard) gets no code and is never
// softened. Problems with the refusals file never loosen the decision:
// they only leave it without a code (CodeProblem).
func (g *Guard) settle(req Request, d *Decision, deadline time.Time) {
	if d.Verdict == Allow {
		return
	}
	shadow := g.cfg.Mode == config.ModeWarn
	defer func() {
		if shadow && d.Verdict != Allow && !d.SelfGuard {
			d.Shadow = true
		}
	}()
	if g.refusals == nil {
		d.CodeProblem = "no approvals file is configured, so no allow-once code can be kept"
		return
	}
	cwd := req.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	cwd = approval.CleanCwd(cwd)
	if cwd == "" {
		d.CodeProblem = "the folder the command runs in is unknown"
		return
	}
	now := time.Now()
	locked := ""
	switch {
	case d.SelfGuard:
		locked = "it would change shellguard itself, which only a person at a terminal may do"
	case g.forbidsApproving(*d):
		locked = "the managed configuration forbids approving it"
	case g.managedDeny(*d):
		locked = "a deny rule of the managed configuration matches it"
	case shadow:
		locked = "shadow mode (mode = \"warn\") blocks nothing"
	}
	if until := time.Until(deadline); until < minSettleWait {
		deadline = time.Now().Add(minSettleWait)
	}
	if locked == "" && req.SessionID != "" && d.Problem == "" {
		if g.sessionApproves(req, d, now, deadline) {
			return
		}
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	rec := approval.Refusal{
		Command: req.Command,
		Cwd:     cwd,
		Verdict: d.Verdict.String(),
		Reason:  d.Reason,
		Rules:   append(warningNames(d.Warnings), d.Rules...),
		Source:  g.sourceOf(req),
		Session: req.SessionID,
		Locked:  locked != "",
	}
	if d.Level != nil {
		rec.Level = strings.ToLower(d.Level.String())
	}
	rec.Prefixes, rec.PrefixReason = d.prefixes, d.prefixReason
	if len(rec.Prefixes) == 0 && rec.PrefixReason == "" {
		rec.PrefixReason = "shellguard could not classify the line"
	}
	res, err := g.refusals.Record(ctx, rec, now, 0)
	if err != nil {
		d.CodeProblem = err.Error()
		return
	}
	if res.Once {
		code := res.Refusal.Code
		d.Verdict, d.Problem = Allow, ""
		d.Reason = fmt.Sprintf("allowed once: a person approved this exact command in %s with code %s", cwd, code)
		for i := range d.Invocations {
			d.Invocations[i].Approved, d.Invocations[i].ApprovedBy = true, Approver{Kind: ByOnce, Name: code}
		}
		d.Cwd = cwd
		return
	}
	if locked != "" {
		d.CodeProblem = "no allow-once code: " + locked
		return
	}
	d.Code, d.CodeExpires, d.Cwd = res.Refusal.Code, res.Refusal.Expires, cwd
	if t := codeSentence(*d); t != "" && !promptsInPlace(g.sourceOf(req)) {
		d.Reason = strings.TrimRight(d.Reason, " ") + " " + t
		d.codeText = t
	}
}

// promptsInPlace reports an entry point whose person answers the
// question right there (the TUI's overlay, the shell snippet's "Proceed?
// [y/N]"): the code is kept (Code, and the recent refusals) but the
// reason does not spell it out.
func promptsInPlace(source string) bool { return source == "tui" || source == "shell" }

// codeSentence returns the sentence about d's allow-once code that ends its
// Reason, or "" without a code. It is written for the model that reads
// the answer as much as for a person: it says what a person may do, and
// that an agent cannot do it.
func codeSentence(d Decision) string {
	if d.Code == "" {
		return ""
	}
	mins := int(time.Until(d.CodeExpires).Round(time.Minute) / time.Minute)
	within := "within 10 minutes"
	switch {
	case mins <= 1:
		within = "within a minute"
	case mins != 10:
		within = fmt.Sprintf("within %d minutes", mins)
	}
	return fmt.Sprintf("To allow this exact command once in %s, a person can run `shellguard allow once %s` in their own terminal %s (shellguard refuses that command from an agent).",
		d.Cwd, d.Code, within)
}

// prefixesOf returns what approving a classified line by prefix records,
// or why it cannot be.
func prefixesOf(cls approval.Classification) ([]string, string) {
	var out []string
	for _, e := range approval.PrefixEntries(cls) {
		out = append(out, e.Pattern)
	}
	return out, cls.Reason
}

// sessionApproves applies the approvals recorded for the request's agent
// session; it reports whether they allow the line (d is then replaced).
// The analysis runs again, within deadline.
func (g *Guard) sessionApproves(req Request, d *Decision, now, deadline time.Time) bool {
	entries := g.refusals.SessionEntries(req.SessionID, g.sourceOf(req), now)
	if len(entries) == 0 {
		return false
	}
	sess := approval.NewSessionStore()
	for _, e := range req.Session.Entries() {
		sess.Add(e)
	}
	for _, e := range entries {
		sess.Add(e)
	}
	r := req
	r.Session = sess
	var ix *approval.Index
	if g.store != nil {
		_, ix = g.snapshot()
	}
	d2, ok := run(g.watch, deadline, func() Decision {
		return g.analyse(r, ix)
	})
	if !ok || d2.Verdict != Allow {
		return false
	}
	*d = d2
	return true
}

// sourceOf returns where req comes from.
func (g *Guard) sourceOf(req Request) string {
	if req.Source != "" {
		return req.Source
	}
	return g.source
}

// approvalForbidden reports whether the managed configuration forbids
// approving warnings of w's rule or of its pack.
func (g *Guard) approvalForbidden(w danger.Warning) bool {
	if len(g.cfg.Managed.ForbidApprovals) == 0 {
		return false
	}
	return g.cfg.Managed.ApprovalForbidden(w.Pattern.Name, packOf(w.Pattern))
}

// forbidsApproving reports whether d carries a warning no approval may
// lift (see config.Managed.ForbidApprovals).
func (g *Guard) forbidsApproving(d Decision) bool {
	for _, w := range d.Warnings {
		if g.approvalForbidden(w) {
			return true
		}
	}
	return false
}

// managedDeny reports a deny by a rule of the managed configuration: a
// floor no person's approval lifts.
func (g *Guard) managedDeny(d Decision) bool {
	if d.Verdict != Deny {
		return false
	}
	for _, r := range d.Rules {
		p, ok := strings.CutPrefix(r, "deny: ")
		if !ok {
			continue
		}
		for _, cr := range g.cfg.Deny {
			if cr.Pattern == p && cr.Source.Layer == config.LayerManaged {
				return true
			}
		}
	}
	return false
}

// packOf returns the built-in rule pack that holds p (core.git for
// git_push_force; see danger.Packs), or "" for a custom pattern, whose
// name may not be a built-in rule's.
func packOf(p danger.Pattern) string { return danger.PackOf(p.Name) }

// warningNames returns "rule:level" for each warning.
func warningNames(ws []danger.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Pattern.Name+":"+strings.ToLower(w.Level.String()))
	}
	return out
}

// auditRecord returns the audit record of d.
func (g *Guard) auditRecord(req Request, d *Decision) audit.Record {
	reason := d.Reason
	if d.codeText != "" {
		reason = strings.TrimSuffix(reason, " "+d.codeText)
	}
	rec := audit.Record{Cwd: req.Cwd, Command: req.Command, Verdict: d.Verdict.String(), Reason: reason,
		Rules: d.Rules, Source: g.sourceOf(req), Code: d.Code, Shadow: d.Shadow, Problem: d.Problem,
		Warnings: warningNames(d.Warnings)}
	if d.Level != nil {
		rec.Level = strings.ToLower(d.Level.String())
	}
	seenP, seenX := map[string]bool{}, map[string]bool{}
	for _, ir := range d.Invocations {
		if by := ir.ApprovedBy.String(); by != "" {
			rec.ApprovedBy = append(rec.ApprovedBy, by)
		}
		if ir.Program != "" && !seenP[ir.Program] {
			seenP[ir.Program] = true
			rec.Programs = append(rec.Programs, ir.Program)
		}
		if ir.Prefix != "" && !seenX[ir.Prefix] {
			seenX[ir.Prefix] = true
			rec.Prefixes = append(rec.Prefixes, ir.Prefix)
		}
	}
	return rec
}
