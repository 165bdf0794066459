package install

import (
	"testing"

	"github.com/shellguard/shellguard/internal/agents"
)

// Vectors from the reference implementation (the real-agent harness's
// codex_trust.py, itself checked against the hash Codex 0.169's /hooks
// wrote); e2e/agents checks the same against the real Codex.
func TestCodexHookHash(t *testing.T) {
	data := []byte(`{"hooks":{"PreToolUse":[{"matcher":"^Bash$","hooks":[{"type":"command","command":"'/opt/sg bin/shellguard-hook' codex || { echo \"shellguard: its hook program could not run (exit $?), so the command is blocked; run: shellguard doctor\" >&2; exit 2; }","timeout":30}]}],
"PermissionRequest":[{"matcher":"^Bash$","hooks":[{"type":"command","command":"/x/shellguard hook codex","timeout":30}]}]}}`)
	hooks, err := InstalledHooks(data, agents.Codex, "")
	if err != nil || len(hooks) != 2 {
		t.Fatalf("hooks %+v, %v", hooks, err)
	}
	want := map[string]string{
		"/h/hooks.json:pre_tool_use:0:0":       "sha256:de3edda66c485c1cdc5e2129295c5b9876396df7566ad32bf97fd111d82df8b6",
		"/h/hooks.json:permission_request:0:0": "sha256:0545300595769dca607777720cb48666adf05dd2b4d3882c8e00b487ead8fe98",
	}
	for _, h := range hooks {
		c := CheckCodexTrust(nil, "/h/hooks.json", "", h)
		if want[c.Key] != c.Hash {
			t.Errorf("%s: hash %s, want %s", c.Key, c.Hash, want[c.Key])
		}
		if c.Trusted() || c.Stale() {
			t.Errorf("%s: trusted with no record", c.Key)
		}
	}
	// No matcher, no timeout, characters JSON encoders like to escape.
	if got := CodexHookHash("Stop", nil, "echo <done> & tab\there", nil, nil, ""); got != "sha256:4b4b7cafb7afa86be76770a4141cc85e92fefe4d08dca1eab2286c76a836382b" {
		t.Errorf("stop hash %s", got)
	}
}

func TestCheckCodexTrust(t *testing.T) {
	m := "^Bash$"
	h := Hook{Event: "PreToolUse", Matcher: &m, Command: "/x/shellguard hook codex", Group: 0, Handler: 0}
	good := CheckCodexTrust(nil, "/h/hooks.json", "", h).Hash
	no := false
	for _, c := range []struct {
		name                   string
		state                  map[string]HookState
		trusted, stale, disabl bool
	}{
		{"none", nil, false, false, false},
		{"trusted", map[string]HookState{"/h/hooks.json:pre_tool_use:0:0": {TrustedHash: good}}, true, false, false},
		{"trusted via the resolved path", map[string]HookState{"/real/hooks.json:pre_tool_use:0:0": {TrustedHash: good}}, true, false, false},
		{"stale", map[string]HookState{"/h/hooks.json:pre_tool_use:0:0": {TrustedHash: "sha256:00"}}, false, true, false},
		{"disabled", map[string]HookState{"/h/hooks.json:pre_tool_use:0:0": {TrustedHash: good, Enabled: &no}}, false, false, true},
		{"another position", map[string]HookState{"/h/hooks.json:pre_tool_use:1:0": {TrustedHash: good}}, false, false, false},
	} {
		got := CheckCodexTrust(c.state, "/h/hooks.json", "/real/hooks.json", h)
		if got.Trusted() != c.trusted || got.Stale() != c.stale || got.Disabled != c.disabl {
			t.Errorf("%s: %+v", c.name, got)
		}
	}
}
