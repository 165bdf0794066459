package testbin

import (
	"bytes"
	"encoding/json"
	"testing"
)

// JSONLine returns v as a json.Encoder with HTML escaping off writes it,
// newline included: what the hand-written encoders of the audit log and
// the refusals file must write byte for byte. An error encoding it fails
// t.
func JSONLine(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
