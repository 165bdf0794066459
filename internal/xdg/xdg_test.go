package xdg

import (
	"fmt"
	"testing"
)

func TestDirs(t *testing.T) {
	for _, tt := range []struct {
		env           map[string]string
		config, state string
	}{
		{map[string]string{"HOME": "/home/u"}, "/home/u/.config/shellguard/f", "/home/u/.local/state/shellguard/f"},
		{map[string]string{"HOME": "/home/u", "XDG_CONFIG_HOME": "/x/c", "XDG_STATE_HOME": "/x/s"}, "/x/c/shellguard/f", "/x/s/shellguard/f"},
		// Relative base directories are ignored (XDG Base Directory spec).
		{map[string]string{"HOME": "/home/u", "XDG_CONFIG_HOME": "rel/c", "XDG_STATE_HOME": "./s"}, "/home/u/.config/shellguard/f", "/home/u/.local/state/shellguard/f"},
		{map[string]string{"XDG_CONFIG_HOME": "/x/c"}, "/x/c/shellguard/f", ""},
		{map[string]string{"HOME": "home"}, "", ""},
		{map[string]string{"HOME": "/home/u/../v/"}, "/home/v/.config/shellguard/f", "/home/v/.local/state/shellguard/f"},
		{map[string]string{}, "", ""},
	} {
		getenv := func(k string) string { return tt.env[k] }
		if got := Config(getenv, "f"); got != tt.config {
			t.Errorf("%v: Config = %q, want %q", tt.env, got, tt.config)
		}
		if got := State(getenv, "f"); got != tt.state {
			t.Errorf("%v: State = %q, want %q", tt.env, got, tt.state)
		}
	}
	if got := Config(func(k string) string { return map[string]string{"HOME": "/h"}[k] }, ""); got != "/h/.config/shellguard" {
		t.Errorf("folder = %q", got)
	}
}

func TestProcess(t *testing.T) {
	t.Setenv("HOME", "/home/p")
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_STATE_HOME", "/s")
	if got := Config(nil, "config.toml"); got != "/home/p/.config/shellguard/config.toml" {
		t.Errorf("Config = %q", got)
	}
	if got := State(nil, "audit.jsonl"); got != "/s/shellguard/audit.jsonl" {
		t.Errorf("State = %q", got)
	}
}

func ExampleConfig() {
	env := map[string]string{"HOME": "/home/jo", "XDG_STATE_HOME": "/var/state/jo"}
	getenv := func(k string) string { return env[k] }
	fmt.Println(Config(getenv, "approvals.json"))
	fmt.Println(State(getenv, "audit.jsonl"))
	// Output:
	// /home/jo/.config/shellguard/approvals.json
	// /var/state/jo/shellguard/audit.jsonl
}
