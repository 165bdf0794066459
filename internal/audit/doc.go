// Package audit writes shellguard's decision log (on by default, see
// config): a JSON Lines file with one Record per decision (time, working
// directory, command, verdict, danger level, warnings, matching rules,
// approving entries, programs, prefixes, allow-once code, shadow mode,
// reason), rotated to "<log>.1" past a size (AppendWith, Options.MaxSize),
// and read back, rotated part first, by Scan.
//
// Append is safe for many processes writing the same log at once (an agent
// hook, an MCP server and a person's shell, say): it holds an exclusive
// lock on ".<log>.shellguard-lock" while it writes each line with a single
// write to a file opened for appending, so no line is lost or interleaved;
// a write that stops short (a full disk) is cut back, so no line is torn.
// The log and its lock follow the approval store's trust rules (owned by
// the user, in folders no one else can write; links followed only to an
// existing regular file) and are never waited on (a FIFO is refused). A
// failed write is recorded beside the log for Check (and shellguard doctor).
//
// Before a record is written, Redact removes obvious secrets from its
// command, reason, rules and approvals: values of options such as
// --password and --token, Authorization headers, passwords in URLs, tokens
// with a known shape (ghp_..., AKIA..., sk-...), and variables such as
// GITHUB_TOKEN=.... Redaction is best effort; the log is created readable
// by its owner only (mode 0600).
//
// The package has no state of its own: every call names the log's path.
package audit
