package hook

import (
	"bytes"
	"testing"

	"github.com/shellguard/shellguard/internal/testbin"
)

// FuzzAppendJSON holds every answer's appendJSON equal to what
// encoding/json writes for it (HTML escaping off).
func FuzzAppendJSON(f *testing.F) {
	f.Add("PreToolUse", "deny", "a \"reason\" <with> & \n\t\x00 é \xff \u2028", "")
	f.Add("", "", "", "")
	f.Fuzz(func(t *testing.T, a, b, c, d string) {
		for _, v := range []appender{
			hookSpecificOutput{hookSpecific{a, b, c}},
			hookSpecificOutput{permissionRequest{a, permissionDecision{b, c}}},
			geminiOutput{a, b, c},
			copilotOutput{a, b},
			cursorOutput{a, b, c},
			crushOutput{a, d},
			pluginOutput{a, c, d},
		} {
			got := append(v.appendJSON(nil), '\n')
			if want := testbin.JSONLine(t, v); !bytes.Equal(got, want) {
				t.Errorf("%T: appendJSON %s, encoding/json %s", v, got, want)
			}
		}
	})
}
