package main

import (
	"bytes"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/policy"
)

func TestInitCmd(t *testing.T) {
	tests := []struct {
		args     []string
		bin      string
		wantCode int
		want     []string
	}{
		{[]string{"init", "bash"}, "/opt/sg/shellguard", 0, []string{"__shellguard_default_bin=/opt/sg/shellguard\n", "bind -m", `decide --cwd "$PWD" -`}},
		{[]string{"init", "zsh"}, "/opt/sg/shellguard", 0, []string{"__shellguard_default_bin=/opt/sg/shellguard\n", "zle -N $w __shellguard_w_$w"}},
		{[]string{"init", "bash"}, "/opt/my sg/shellguard", 0, []string{"__shellguard_default_bin='/opt/my sg/shellguard'\n"}},
		{[]string{"init", "bash"}, "", 0, []string{"__shellguard_default_bin=/"}},
		{[]string{"init", "fish"}, "", exitUsage, nil},
		{[]string{"init"}, "", exitUsage, nil},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " ")+tc.bin, func(t *testing.T) {
			t.Setenv("SHELLGUARD_BIN", tc.bin)
			var out, errb bytes.Buffer
			code := run(tc.args, strings.NewReader(""), &out, &errb)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tc.wantCode, errb.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q", w)
				}
			}
		})
	}
}

func TestShellNeedsTerminal(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"shell"}, strings.NewReader("!echo hi\n"), &out, &errb)
	if code != exitUsage || !strings.Contains(errb.String(), "needs a terminal") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// TestShellGuardCacheBudget: the shell's decisions share the budget with
// the configuration load, as decide and the hooks do: a load that has not
// finished is answered ask, over budget, at once for every later command
// (one load per directory, never one per command), and the Guard is used
// once it is there. At main the shell called policy.Load with no bound.
func TestShellGuardCacheBudget(t *testing.T) {
	release := make(chan struct{})
	var loads atomic.Int32
	c := &guardCache{budget: 20 * time.Millisecond, load: func(o policy.Options) (*policy.Guard, error) {
		loads.Add(1)
		<-release
		return policy.New(config.Default())
	}}
	for i := 0; i < 3; i++ {
		d := c.decide(policy.Request{Command: "ls", Cwd: "/work"})
		if d.Verdict != policy.Ask || d.Problem != policy.ProblemOverBudget {
			t.Fatalf("decision %d while loading: %+v", i, d)
		}
	}
	if n := loads.Load(); n != 1 {
		t.Errorf("%d loads started for one directory", n)
	}
	close(release)
	c.budget = time.Minute
	if d := c.decide(policy.Request{Command: "ls", Cwd: "/work"}); d.Verdict != policy.Allow {
		t.Errorf("after the load: %+v", d)
	}
	if d := c.decide(policy.Request{Command: "rm -rf /", Cwd: "/work"}); d.Verdict != policy.Deny {
		t.Errorf("rm -rf /: %+v", d)
	}
}

// TestShellGuardCacheLoadError: a configuration that does not load is
// asked with the error as the reason (the person may proceed), and loaded
// again for the next command.
func TestShellGuardCacheLoadError(t *testing.T) {
	var loads atomic.Int32
	c := &guardCache{load: func(o policy.Options) (*policy.Guard, error) {
		if loads.Add(1) == 1 {
			return nil, errors.New("bad config")
		}
		return policy.New(config.Default())
	}}
	d := c.decide(policy.Request{Command: "ls", Cwd: "/w"})
	if d.Verdict != policy.Ask || !strings.Contains(d.Reason, "bad config") {
		t.Errorf("load error: %+v", d)
	}
	if d := c.decide(policy.Request{Command: "ls", Cwd: "/w"}); d.Verdict != policy.Allow {
		t.Errorf("retried load: %+v", d)
	}
	p := &guardCache{load: func(policy.Options) (*policy.Guard, error) { panic("boom") }}
	if d := p.decide(policy.Request{Command: "ls", Cwd: "/w"}); d.Verdict != policy.Ask {
		t.Errorf("panicking load: %+v", d)
	}
}
