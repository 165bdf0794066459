// Package policy turns what the other packages know about a command line —
// its danger warnings (package danger), its approvals (package approval)
// and the user's rules (package config) — into one verdict: allow, ask or
// deny.
//
// A Guard is built once (Load reads the configuration layers and locates
// the approval store) and is safe for concurrent use. Decide parses the
// line once and applies the default policy:
//
//   - a deny rule that matches any invocation denies;
//   - a warning at or above deny_at (Critical by default) denies;
//   - any other warning at or above ask_at asks — approvals and allow rules
//     never override a warning unless the user's own configuration lists
//     the rule in exempt (and an allow rule never overrides a Critical one);
//   - an unparseable, unknowable or over-limit line asks;
//   - an ask rule asks;
//   - a line whose every invocation is approved (a session or persisted
//     approval, an allow rule, or the read-only list) is allowed; the
//     read-only list vouches only for reads inside the request's Root (by
//     default its Cwd) or of system files that hold no secret, never of a
//     credential store, and for printing the environment only where the
//     request says it is shellguard's minimal one (see scope.go);
//   - anything else asks.
//
// Before all of these, a line from an agent (Request.Source "hook:..." or
// "mcp") that would change shellguard itself — its configuration,
// approvals, codes, audit log or binaries, or the agents' hook settings —
// is denied (the guard guards itself). The context rule drops the warning
// of a recursive delete whose every target is a build or cache folder
// inside the project.
//
// An ask or deny that remains is settled: approvals given for the agent's
// session apply; an allow-once approval of that exact line in that folder
// is used up and allows it once; otherwise it is kept in the recent
// refusals with an allow-once code, which Decision.Code carries and the
// reason names. In shadow mode (mode = "warn") it is marked
// Decision.Shadow: entry points act on Decision.Enforced, which is then
// Allow.
//
// Decide never fails: an internal error becomes an Ask whose reason says so.
package policy
