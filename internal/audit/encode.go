package audit

import "github.com/shellguard/shellguard/internal/jsonw"

// appendRecord appends r as encoding/json writes it (with HTML escaping
// off) followed by a newline. A hook writes one record per process, and
// the reflection encoding/json uses to learn Record's fields cost more
// than the rest of an allowed command's decision; TestAppendRecord and
// FuzzAppendRecord hold the two outputs equal.
func appendRecord(b []byte, r *Record) []byte {
	b = append(b, `{"time":`...)
	b = jsonw.AppendTime(b, r.Time)
	b = jsonw.AppendField(b, "cwd", r.Cwd, false)
	b = jsonw.AppendField(b, "command", r.Command, false)
	b = jsonw.AppendField(b, "verdict", r.Verdict, false)
	b = jsonw.AppendField(b, "level", r.Level, true)
	b = jsonw.AppendList(b, "rules", r.Rules)
	b = jsonw.AppendList(b, "approved_by", r.ApprovedBy)
	b = jsonw.AppendField(b, "reason", r.Reason, true)
	b = jsonw.AppendField(b, "source", r.Source, true)
	b = jsonw.AppendList(b, "warnings", r.Warnings)
	b = jsonw.AppendList(b, "programs", r.Programs)
	b = jsonw.AppendList(b, "prefixes", r.Prefixes)
	b = jsonw.AppendField(b, "code", r.Code, true)
	if r.Shadow {
		b = append(b, `,"shadow":true`...)
	}
	b = jsonw.AppendField(b, "problem", r.Problem, true)
	return append(b, "}\n"...)
}
