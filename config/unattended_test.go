package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestUnattended(t *testing.T) {
	for _, c := range []struct {
		name, user, project string
		want                string
		notice, err         bool
	}{
		{name: "default", want: UnattendedDeny},
		{name: "user ask", user: `unattended = "ask"`, want: UnattendedAsk},
		{name: "user deny", user: `unattended = "deny"`, want: UnattendedDeny},
		{name: "project may tighten", user: `unattended = "ask"`, project: `unattended = "deny"`, want: UnattendedDeny},
		{name: "project may not loosen", project: `unattended = "ask"`, want: UnattendedDeny, notice: true},
		{name: "project repeats the user's ask", user: `unattended = "ask"`, project: `unattended = "ask"`, want: UnattendedAsk},
		{name: "bad value", user: `unattended = "allow"`, err: true},
		{name: "not a string", user: `unattended = true`, err: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			opts := isolated(dir)
			if c.user != "" {
				write(t, opts.UserFile, c.user+"\n")
			}
			if c.project != "" {
				write(t, filepath.Join(dir, "repo", ProjectFileName), c.project+"\n")
			}
			cfg, err := Load(opts)
			if c.err {
				if err == nil || !strings.Contains(err.Error(), "unattended") {
					t.Fatalf("err = %v, want an error naming unattended", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Unattended != c.want {
				t.Errorf("unattended = %q, want %q", cfg.Unattended, c.want)
			}
			if got := len(cfg.Notices) > 0; got != c.notice {
				t.Errorf("notices %q, want notice %v", cfg.Notices, c.notice)
			}
		})
	}
}
