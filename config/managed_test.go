package config

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/internal/testbin"
)

// managedSetup writes the managed files (name -> content) with mode 0644
// in a folder of the test's, and returns options that read them.
func managedSetup(t *testing.T, files map[string]string) (LoadOptions, string) {
	t.Helper()
	dir := t.TempDir()
	opts := isolated(dir)
	md := filepath.Join(dir, "managed")
	testbin.WriteTree(t, md, files, 0o644)
	return opts, dir
}

func hasNotice(c *Config, file string, line int, key string) bool {
	prefix := file + ":" + strconv.Itoa(line) + ": ignored " + key + ": "
	return slices.ContainsFunc(c.Notices, func(n string) bool { return strings.HasPrefix(n, prefix) })
}

func TestManagedFloor(t *testing.T) {
	opts, dir := managedSetup(t, map[string]string{
		"config.toml": `deny_at = "high"
ask_at = "low"
read_only = false

[rules]
deny = ["terraform destroy *"]

[builtin.git_reset_hard]
level = "high"

[[pattern]]
name = "drop_db"
regex = 'DROP\s+DATABASE'
level = "critical"

[managed]
forbid_exempt = true
forbid_allow_rules = true
forbid_warn_mode = true
forbid_approvals = ["git_push_force"]
`,
		"config.d/10-more.toml": `[rules]
ask = ["kubectl delete *"]
`,
		"config.d/.hidden.toml": `deny_at = "low"`,
		"config.d/notes.txt":    `deny_at = "low"`,
	})
	user := write(t, opts.UserFile, `deny_at = "critical"
read_only = true
mode = "warn"
exempt = ["rm_rf_root"]

[rules]
allow = ["make *"]

[builtin.git_reset_hard]
level = "low"
disabled = true

[[pattern]]
name = "drop_db"
regex = "nothing"
level = "low"
`)
	c := mustLoad(t, opts)
	md := filepath.Join(dir, "managed")
	if len(c.Files) < 3 || c.Files[0].Layer != LayerManaged || c.Files[0].File != filepath.Join(md, "config.toml") ||
		c.Files[1].File != filepath.Join(md, "config.d", "10-more.toml") || c.Files[2].Layer != LayerUser {
		t.Fatalf("files: %+v", c.Files)
	}
	if c.DenyAt != danger.High || c.ReadOnly || c.Mode != ModeEnforce || len(c.Exempt) != 0 || len(c.Allow) != 0 {
		t.Errorf("the user loosened the floor: deny_at %v read_only %v mode %q exempt %v allow %v", c.DenyAt, c.ReadOnly, c.Mode, c.Exempt, c.Allow)
	}
	if c.Provenance["deny_at"].Layer != LayerManaged {
		t.Errorf("deny_at from %v", c.Provenance["deny_at"])
	}
	if o := c.Relevel["git_reset_hard"]; o.Level != danger.High {
		t.Errorf("git_reset_hard level %v", o.Level)
	}
	if _, off := c.Disabled["git_reset_hard"]; off {
		t.Error("the user disabled a rule the managed configuration sets")
	}
	if p, _ := c.Pattern("drop_db"); p.Level != danger.Critical {
		t.Errorf("the user redefined the managed pattern: %+v", p)
	}
	if len(c.Deny) != 1 || len(c.Ask) != 1 {
		t.Errorf("managed rules: deny %v ask %v", c.Deny, c.Ask)
	}
	for _, n := range []struct {
		line int
		key  string
	}{{1, "deny_at"}, {2, "read_only"}, {3, "mode"}, {4, "exempt[0]"}, {7, "rules.allow[0]"}, {10, "builtin.git_reset_hard.level"}, {11, "builtin.git_reset_hard.disabled"}, {13, "pattern[0]"}} {
		if !hasNotice(c, user, n.line, n.key) {
			t.Errorf("no notice for %s:%d %s in\n%s", user, n.line, n.key, strings.Join(c.Notices, "\n"))
		}
	}
	if !c.Managed.ForbidExempt || !c.Managed.ApprovalForbidden("git_push_force", "") || c.Managed.ApprovalForbidden("rm_rf_root", "") {
		t.Errorf("managed: %+v", c.Managed)
	}
	// Tightening stays possible.
	write(t, opts.UserFile, `deny_at = "medium"
[builtin.git_reset_hard]
level = "critical"
`)
	c = mustLoad(t, opts)
	if c.DenyAt != danger.Medium || c.Relevel["git_reset_hard"].Level != danger.Critical || len(c.Notices) != 0 {
		t.Errorf("tightening: deny_at %v level %v notices %v", c.DenyAt, c.Relevel["git_reset_hard"].Level, c.Notices)
	}
	// The explicit file is bound too.
	explicit := write(t, filepath.Join(dir, "explicit.toml"), `deny_at = "critical"`)
	opts.Explicit = explicit
	c = mustLoad(t, opts)
	if c.DenyAt != danger.Medium || !hasNotice(c, explicit, 1, "deny_at") {
		t.Errorf("explicit: deny_at %v notices %v", c.DenyAt, c.Notices)
	}
}

func TestManagedTableOnlyInManagedFiles(t *testing.T) {
	dir := t.TempDir()
	opts := isolated(dir)
	user := write(t, opts.UserFile, "[managed]\nforbid_exempt = false\n")
	c := mustLoad(t, opts)
	if !hasNotice(c, user, 1, "managed") {
		t.Errorf("notices: %v", c.Notices)
	}
	write(t, filepath.Join(dir, "managed", "config.toml"), "[managed]\nforbid_everything = true\n")
	if _, err := Load(opts); err == nil || !strings.Contains(err.Error(), "unknown key") {
		t.Errorf("an unknown [managed] key: %v", err)
	}
}

// TestManagedTrust: a managed file someone else could have written is an
// error (fail closed), never silently ignored.
func TestManagedTrust(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, md string)
	}{
		{"file writable by its group", func(t *testing.T, md string) {
			p := filepath.Join(md, "config.toml")
			if err := os.Chmod(p, 0o664); err != nil {
				t.Fatal(err)
			}
		}},
		{"folder writable by others", func(t *testing.T, md string) {
			if err := os.Chmod(md, 0o777); err != nil {
				t.Fatal(err)
			}
		}},
		{"drop-in folder writable by others", func(t *testing.T, md string) {
			d := filepath.Join(md, "config.d")
			if err := os.MkdirAll(d, 0o777); err != nil {
				t.Fatal(err)
			}
			_ = os.Chmod(d, 0o777)
			if err := os.WriteFile(filepath.Join(d, "x.toml"), []byte(`ask_at = "low"`), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"owned by another user", func(t *testing.T, md string) {
			if os.Geteuid() != 0 {
				t.Skip("needs root to give a file away")
			}
			if err := os.Chown(filepath.Join(md, "config.toml"), 1234, 1234); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts, dir := managedSetup(t, map[string]string{"config.toml": `deny_at = "high"`})
			tc.setup(t, filepath.Join(dir, "managed"))
			_, err := Load(opts)
			if err == nil || !strings.Contains(err.Error(), "not trusted") {
				t.Fatalf("Load = %v, want a trust error", err)
			}
		})
	}
}

func TestManagedDirFromEnv(t *testing.T) {
	if _, err := os.Lstat(DefaultManagedDir); err == nil {
		t.Skip(DefaultManagedDir + " exists: the variable is ignored, as it must be")
	}
	dir := t.TempDir()
	md := filepath.Join(dir, "m")
	write(t, filepath.Join(md, "config.toml"), `deny_at = "medium"`)
	opts := LoadOptions{Cwd: dir, Env: env(map[string]string{EnvManagedDir: md, "HOME": dir}), ManagedUID: os.Geteuid(), BuiltinLevel: builtinLevel}
	c := mustLoad(t, opts)
	if c.DenyAt != danger.Medium || c.Provenance["deny_at"].Layer != LayerManaged {
		t.Errorf("deny_at %v from %v", c.DenyAt, c.Provenance["deny_at"])
	}
}

func TestModeAndSafeDelete(t *testing.T) {
	dir := t.TempDir()
	opts := isolated(dir)
	write(t, opts.UserFile, `mode = "warn"
safe_delete = ["out/cache", "*.tmpbuild", "vendor"]
`)
	project := write(t, filepath.Join(dir, "repo", ".shellguard.toml"), `mode = "warn"
safe_delete = ["src"]
`)
	if err := os.MkdirAll(filepath.Join(dir, "repo", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(opts.Cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	c := mustLoad(t, opts)
	if c.Mode != ModeWarn || c.Provenance["mode"].Layer != LayerUser {
		t.Errorf("mode %q from %v", c.Mode, c.Provenance["mode"])
	}
	if !slices.Equal(c.SafeDelete, []string{"out/cache", "*.tmpbuild", "vendor"}) {
		t.Errorf("safe_delete %v", c.SafeDelete)
	}
	if !hasNotice(c, project, 1, "mode") || !hasNotice(c, project, 2, "safe_delete[0]") {
		t.Errorf("project notices: %v", c.Notices)
	}
	for _, bad := range []string{`mode = "off"`, `safe_delete = ["/tmp"]`, `safe_delete = ["../x"]`, `safe_delete = ["a/../../b"]`, `safe_delete = [".git"]`, `safe_delete = ["."]`, `safe_delete = ["~/x"]`, `safe_delete = ["["]`} {
		write(t, opts.UserFile, bad+"\n")
		if _, err := Load(opts); err == nil || !strings.Contains(err.Error(), opts.UserFile+":1:") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func TestAuditDefaults(t *testing.T) {
	dir := t.TempDir()
	opts := isolated(dir)
	c := mustLoad(t, opts)
	want := filepath.Join(dir, "home", ".local", "state", "shellguard", "audit.jsonl")
	if c.AuditLog != want || c.AuditMaxSize != DefaultAuditMaxSize {
		t.Errorf("default audit log %q max %d", c.AuditLog, c.AuditMaxSize)
	}
	opts.Env = env(map[string]string{"HOME": filepath.Join(dir, "home"), "XDG_STATE_HOME": "/state"})
	if c, _ := Load(opts); c.AuditLog != "/state/shellguard/audit.jsonl" {
		t.Errorf("XDG_STATE_HOME: %q", c.AuditLog)
	}
	write(t, opts.UserFile, "audit_log = \"\"\naudit_max_size = \"512KiB\"\n")
	c = mustLoad(t, opts)
	if c.AuditLog != "" || c.AuditMaxSize != 512<<10 {
		t.Errorf("off: %q %d", c.AuditLog, c.AuditMaxSize)
	}
	for _, bad := range []string{`audit_max_size = "10 parsecs"`, `audit_max_size = 10`, `audit_max_size = true`} {
		write(t, opts.UserFile, bad+"\n")
		if _, err := Load(opts); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestShowNamesLayers(t *testing.T) {
	opts, _ := managedSetup(t, map[string]string{"config.toml": "deny_at = \"high\"\n[managed]\nforbid_warn_mode = true\n"})
	write(t, opts.UserFile, "ask_at = \"medium\"\nmode = \"enforce\"\n")
	_, out := shown(t, opts)
	for _, want := range [][2]string{{`deny_at = "high"`, "# managed "}, {`ask_at = "medium"`, "# user "}, {`mode = "enforce"`, "# user "},
		{"audit_log = ", "# default"}, {"forbid_warn_mode = true", "# managed "}} {
		found := false
		for _, l := range strings.Split(out, "\n") {
			found = found || strings.HasPrefix(l, want[0]) && strings.Contains(l, want[1])
		}
		if !found {
			t.Errorf("show lacks %q ... %q:\n%s", want[0], want[1], out)
		}
	}
}
