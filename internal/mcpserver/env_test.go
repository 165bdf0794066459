package mcpserver

import (
	"slices"
	"testing"
)

func TestMinimalEnv(t *testing.T) {
	env := []string{"PATH=/bin", "PATH=/evil", "NOEQUALS", "=x", "HOME=/h", "LC_CTYPE=C", "LCX=1", "TERMINFO=/t",
		"GITHUB_TOKEN=t", "GOPATH=/go", "GOPATHX=1", "SHELL=/bin/bash", "TMPDIR=/tmp", "USER=me", "LOGNAME=me", "TZ=UTC", "BASH_ENV=/x"}
	if got, want := MinimalEnv(env, nil), []string{"PATH=/bin", "HOME=/h", "LC_CTYPE=C", "SHELL=/bin/bash", "TMPDIR=/tmp", "USER=me", "LOGNAME=me", "TZ=UTC"}; !slices.Equal(got, want) {
		t.Errorf("MinimalEnv(nil) = %q, want %q", got, want)
	}
	if got, want := MinimalEnv(env, []string{"GOPATH"}), []string{"PATH=/bin", "HOME=/h", "LC_CTYPE=C", "GOPATH=/go", "SHELL=/bin/bash", "TMPDIR=/tmp", "USER=me", "LOGNAME=me", "TZ=UTC"}; !slices.Equal(got, want) {
		t.Errorf("MinimalEnv(GOPATH) = %q, want %q", got, want)
	}
	if !envIsMinimal(MinimalEnv(env, nil)) || envIsMinimal(MinimalEnv(env, []string{"GOPATH"})) || !envIsMinimal(MinimalEnv(env, []string{"UNSET"})) || !envIsMinimal(nil) {
		t.Error("envIsMinimal: a minimal environment is one of the minimal names only")
	}
}
