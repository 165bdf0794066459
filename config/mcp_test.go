package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMCPEnv: [mcp] env names the variables the MCP server passes on. The
// user file and the explicit file may add names; a project file may not
// (it is ignored with a notice); names are checked strictly.
func TestMCPEnv(t *testing.T) {
	dir := t.TempDir()
	opts := isolated(dir)
	write(t, opts.UserFile, "[mcp]\nenv = [\"GOPATH\", \"GOFLAGS\"]\n")
	explicit := write(t, filepath.Join(dir, "explicit.toml"), "mcp.env = [\"CARGO_*\", \"GOPATH\"]\n")
	project := write(t, filepath.Join(dir, "repo", ProjectFileName), "[mcp]\nenv = [\"AWS_SECRET_ACCESS_KEY\", \"GITHUB_*\"]\n")
	opts.Explicit = explicit
	c := mustLoad(t, opts)
	if want := []string{"GOPATH", "GOFLAGS", "CARGO_*"}; !slices.Equal(c.MCPEnv, want) {
		t.Errorf("MCPEnv = %q, want %q", c.MCPEnv, want)
	}
	if s := c.MCPEnvSources["GOPATH"]; s.Layer != LayerExplicit || s.File != explicit {
		t.Errorf("GOPATH source = %v, want the explicit file (the last to name it)", s)
	}
	var notes []string
	for _, n := range c.Notices {
		if strings.Contains(n, project) && strings.Contains(n, "mcp.env") {
			notes = append(notes, n)
		}
	}
	if len(notes) != 2 {
		t.Errorf("want 2 notices about the project's mcp.env, got %q", c.Notices)
	}

	var b bytes.Buffer
	if err := c.Show(&b); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "[mcp]") || !strings.Contains(out, `"CARGO_*",`) {
		t.Errorf("Show lacks [mcp] env:\n%s", out)
	}
	b.Reset()
	if err := c.ShowJSON(&b); err != nil {
		t.Fatal(err)
	}
	var j struct {
		MCP struct {
			Env []struct {
				Name   string
				Source Source
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &j); err != nil || len(j.MCP.Env) != 3 || j.MCP.Env[2].Name != "CARGO_*" {
		t.Errorf("ShowJSON mcp = %+v (%v)\n%s", j.MCP, err, b.String())
	}

	// A project file alone adds nothing either.
	opts.Explicit = ""
	write(t, opts.UserFile, "")
	c = mustLoad(t, opts)
	if len(c.MCPEnv) != 0 {
		t.Errorf("a project file added %q to the MCP environment", c.MCPEnv)
	}
}

func TestMCPEnvErrors(t *testing.T) {
	tests := []struct {
		src  string
		line int
		want string
	}{
		{"[mcp]\nenv = \"GOPATH\"\n", 2, "mcp.env: want an array of strings"},
		{"[mcp]\nenv = [\"GOPATH\", 1]\n", 2, "mcp.env[1]: want a string"},
		{"[mcp]\nenvs = []\n", 2, `unknown key "mcp.envs"`},
		{"mcp = 1\n", 1, "mcp: want a table"},
		{"[mcp]\nenv = [\"*\"]\n", 2, "is not an environment variable name"},
		{"[mcp]\nenv = [\"\"]\n", 2, "is not an environment variable name"},
		{"[mcp]\nenv = [\"A=B\"]\n", 2, "is not an environment variable name"},
		{"[mcp]\nenv = [\"1PATH\"]\n", 2, "is not an environment variable name"},
		{"[mcp]\nenv = [\"GO*PATH\"]\n", 2, "is not an environment variable name"},
		{"[mcp]\nenv = [\"GOPATH \"]\n", 2, "is not an environment variable name"},
		{"[mcp]\nenv = [\"GO**\"]\n", 2, "is not an environment variable name"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			dir := t.TempDir()
			opts, _, err := loadUser(t, dir, tt.src)
			var ce *Error
			if err == nil || !errors.As(err, &ce) || ce.Line != tt.line || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Load: %v; want line %d, %q", err, tt.line, tt.want)
			}
			// The same holds in a project file: an invalid name is an error there too.
			write(t, opts.UserFile, "")
			write(t, filepath.Join(dir, "repo", ProjectFileName), tt.src)
			if _, err := Load(opts); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("project: Load: %v; want %q", err, tt.want)
			}
		})
	}
}

// TestDocExampleMCPEnv: the full example of docs/config.md sets mcp.env.
func TestDocExampleMCPEnv(t *testing.T) {
	c := loadDocExample(t)
	if !slices.Equal(c.MCPEnv, []string{"GOPATH", "CARGO_*"}) {
		t.Errorf("mcp.env of the example = %q", c.MCPEnv)
	}
}
