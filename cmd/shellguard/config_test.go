package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// configEnv points every configuration source at dir, so the tests never
// read the developer's own files.
func cfgEnv(t *testing.T, dir string) {
	t.Setenv("HOME", filepath.Join(dir, "home"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "xdg"))
	t.Setenv("SHELLGUARD_CONFIG", "")
}

func cfgWriteFile(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func cfgRun(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestConfigCheck(t *testing.T) {
	dir := t.TempDir()
	cfgEnv(t, dir)
	good := cfgWriteFile(t, filepath.Join(dir, "good.toml"), "deny_at = \"high\"\n[rules]\nallow = [\"Bash(git status:*)\"]\n")
	bad := cfgWriteFile(t, filepath.Join(dir, "bad.toml"), "deny_at = \"high\"\n\n[[pattern]]\nname = \"x\"\nregex = '(oops'\nlevel = \"low\"\n")
	unknown := cfgWriteFile(t, filepath.Join(dir, "unknown.toml"), "deny_at = \"high\"\nverbose = true\n")
	project := cfgWriteFile(t, filepath.Join(dir, "repo", ".shellguard.toml"), "[rules]\nallow = [\"curl *\"]\ndeny = [\"rm *\"]\n")
	noRule := cfgWriteFile(t, filepath.Join(dir, "norule.toml"), "[builtin.no_such_rule]\ndisabled = true\n")
	builtin := cfgWriteFile(t, filepath.Join(dir, "builtin.toml"), "[builtin.rm_rf_root]\nlevel = \"high\"\n")

	tests := []struct {
		name      string
		args      []string
		code      int
		out, errs string
	}{
		{"valid", []string{"config", "check", good}, 0, good + ": ok\n", ""},
		{"bad regex", []string{"config", "check", bad}, 1, "", bad + ":5: "},
		{"unknown key", []string{"config", "check", unknown}, 1, "", unknown + `:2: unknown key "verbose"`},
		{"missing file", []string{"config", "check", filepath.Join(dir, "none.toml")}, 1, "", "none.toml"},
		{"project notices", []string{"config", "check", project}, 0, project + ": ok\n", "note: " + project + ":2: ignored rules.allow[0]"},
		{"project as user", []string{"config", "check", "--as", "user", project}, 0, project + ": ok\n", ""},
		{"unknown built-in", []string{"config", "check", noRule}, 1, "", noRule + `:1: builtin.no_such_rule: no built-in rule is called "no_such_rule"`},
		{"built-in re-levelled", []string{"config", "check", builtin}, 0, builtin + ": ok\n", ""},
		{"built-in lowered by a project", []string{"config", "check", "--as", "project", builtin}, 0, builtin + ": ok\n", "note: " + builtin + ":2: ignored builtin.rm_rf_root.level"},
		{"bad --as", []string{"config", "check", "--as", "root", good}, 2, "", "--as"},
		{"no file", []string{"config", "check"}, 2, "", ""},
		{"two files", []string{"config", "check", good, bad}, 2, "", ""},
		{"bare config", []string{"config"}, 2, "", "show"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := cfgRun(tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, errs)
			}
			if tt.out != "" && out != tt.out {
				t.Errorf("stdout %q, want %q", out, tt.out)
			}
			if !strings.Contains(errs, tt.errs) {
				t.Errorf("stderr %q lacks %q", errs, tt.errs)
			}
			if tt.errs == "" && tt.code == 0 && errs != "" {
				t.Errorf("unexpected stderr %q", errs)
			}
		})
	}
}

func TestConfigShow(t *testing.T) {
	dir := t.TempDir()
	cfgEnv(t, dir)
	user := cfgWriteFile(t, filepath.Join(dir, "xdg", "shellguard", "config.toml"), "ask_at = \"medium\"\n")
	repo := filepath.Join(dir, "repo")
	project := cfgWriteFile(t, filepath.Join(repo, ".shellguard.toml"), "deny_at = \"high\"\n[rules]\nallow = [\"curl *\"]\n")
	explicit := cfgWriteFile(t, filepath.Join(dir, "ci.toml"), "read_only = false\n")

	code, out, errs := cfgRun("config", "show", "--cwd", repo, "--config", explicit)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"# user " + user + ":1",
		"# project " + project + ":1",
		"# explicit " + explicit + ":1",
		project + ":3: ignored rules.allow[0]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}

	// SHELLGUARD_CONFIG stands in for --config; --json is JSON.
	t.Setenv("SHELLGUARD_CONFIG", explicit)
	code, out, errs = cfgRun("config", "show", "--cwd", repo, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var j struct {
		ReadOnly struct {
			Value  bool
			Source struct{ Layer, File string }
		} `json:"read_only"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if j.ReadOnly.Value || j.ReadOnly.Source.Layer != "explicit" || j.ReadOnly.Source.File != explicit {
		t.Errorf("read_only = %+v", j.ReadOnly)
	}

	// An invalid file is exit 1 with file:line.
	cfgWriteFile(t, explicit, "read_only = 1\n")
	code, _, errs = cfgRun("config", "show", "--cwd", repo)
	if code != 1 || !strings.Contains(errs, explicit+":1: read_only") {
		t.Errorf("invalid explicit file: exit %d, stderr %q", code, errs)
	}
	if code, _, _ := cfgRun("config", "show", "extra"); code != 2 {
		t.Errorf("show with an argument: exit %d, want 2", code)
	}
}
