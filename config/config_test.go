package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/internal/testbin"
)

// env returns an Env func backed by m; it never reads the real
// environment, so tests cannot pick up the developer's configuration.
func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// mustLoad loads the configuration opts names, and fails the test on an
// error.
func mustLoad(t *testing.T, opts LoadOptions) *Config {
	t.Helper()
	c, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func write(t *testing.T, path, content string) string {
	t.Helper()
	testbin.WriteFile(t, path, content)
	return path
}

// builtins is a stand-in for the danger registry.
var builtins = map[string]danger.Level{
	"git_push_force": danger.High,
	"rm_rf_root":     danger.Critical,
	"git_reset_hard": danger.Medium,
}

func builtinLevel(name string) (danger.Level, bool) {
	l, ok := builtins[name]
	return l, ok
}

// isolated returns options that read only files under dir.
func isolated(dir string) LoadOptions {
	return LoadOptions{
		Cwd:          filepath.Join(dir, "repo", "sub"),
		UserFile:     filepath.Join(dir, "user", "config.toml"),
		Env:          env(map[string]string{"HOME": filepath.Join(dir, "home")}),
		BuiltinLevel: builtinLevel,
		ManagedDir:   filepath.Join(dir, "managed"),
		ManagedUID:   os.Geteuid(),
	}
}

func TestDefault(t *testing.T) {
	c := Default()
	if c.DenyAt != danger.Critical || c.AskAt != danger.Low || !c.ReadOnly || c.AuditLog != "" {
		t.Fatalf("Default() = deny_at %v ask_at %v read_only %v audit_log %q", c.DenyAt, c.AskAt, c.ReadOnly, c.AuditLog)
	}
	for _, k := range []string{"deny_at", "ask_at", "read_only", "audit_log"} {
		if c.Provenance[k].Layer != LayerDefault {
			t.Errorf("Provenance[%s] = %v, want default", k, c.Provenance[k])
		}
	}
}

func TestLoadNoFiles(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(isolated(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Files) != 0 || c.DenyAt != danger.Critical {
		t.Fatalf("got files %v deny_at %v", c.Files, c.DenyAt)
	}
}

func TestStrictErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		want      string
	}{
		{"unknown top key", "deny_at = \"high\"\n\ncolour = \"red\"\n", 3, `unknown key "colour"`},
		{"misspelt case", "Deny_At = \"high\"\n", 1, `unknown key "Deny_At"`},
		{"unknown rules key", "[rules]\nallow = []\nallways = [\"ls\"]\n", 3, `unknown key "rules.allways"`},
		{"unknown key in second pattern", `
[[pattern]]
name = "a"
regex = "x"
level = "low"

[[pattern]]
name = "b"
regex = "y"
level = "low"
severity = "high"
`, 11, `unknown key "pattern[1].severity"`},
		{"unknown builtin key", "[builtin.git_push_force]\nenabled = false\n", 2, `unknown key "builtin.git_push_force.enabled"`},
		{"bad level", "deny_at = \"huge\"\n", 1, `unknown danger level "huge"`},
		{"bad level in pattern", "[[pattern]]\nname = \"a\"\nregex = \"x\"\nlevel = \"extreme\"\n", 4, `unknown danger level "extreme"`},
		{"bad builtin level", "[builtin.git_push_force]\nlevel = \"meh\"\n", 2, `unknown danger level "meh"`},
		{"bad regex", "\n[[pattern]]\nname = \"a\"\nregex = '(unclosed'\nlevel = \"low\"\n", 4, "missing closing )"},
		{"bad regex in second of two", "[[pattern]]\nname = \"a\"\nregex = 'ok'\nlevel = \"low\"\n[[pattern]]\nname = \"b\"\nregex = '[z-a]'\nlevel = \"low\"\n", 7, "invalid character class range"},
		{"wrong type", "read_only = \"yes\"\n", 1, "read_only: want true or false, got a string"},
		{"wrong element type", "[rules]\ndeny = [\n  \"rm *\",\n  3,\n]\n", 4, "rules.deny[1]: want a string, got an integer"},
		{"syntax error", "deny_at = \"high\"\nask_at = \n", 2, ""},
		{"duplicate key", "deny_at = \"high\"\ndeny_at = \"low\"\n", 2, ""},
		{"duplicate pattern name", "[[pattern]]\nname = \"a\"\nregex = \"x\"\nlevel = \"low\"\n[[pattern]]\nname = \"a\"\nregex = \"y\"\nlevel = \"low\"\n", 6, "defined twice"},
		{"pattern without level", "[[pattern]]\nname = \"a\"\nregex = \"x\"\n", 1, "missing level"},
		{"pattern without name", "# first\n[[pattern]]\nregex = \"x\"\nlevel = \"low\"\n", 2, "missing name"},
		{"pattern without matcher", "[[pattern]]\nname = \"a\"\nlevel = \"low\"\n", 1, "needs a regex or a match table"},
		{"pattern named like a builtin", "[[pattern]]\nname = \"rm_rf_root\"\nregex = \"x\"\nlevel = \"low\"\n", 2, "is a built-in rule"},
		{"unknown builtin", "[builtin.no_such_rule]\ndisabled = true\n", 1, `no built-in rule is called "no_such_rule"`},
		{"unknown exempt", "exempt = [\"git_push_force\", \"nope\"]\n", 1, `no built-in or custom rule is called "nope"`},
		{"other tool rule", "[rules]\nallow = [\"Read(./secrets)\"]\n", 2, "only Bash(...) rules"},
		{"empty rule", "[rules]\nask = [\"\", \"x\"]\n", 2, "empty rule"},
		{"pattern not a table array", "pattern = \"x\"\n", 1, "want an array of tables"},
		{"bad match key", "[[pattern]]\nname = \"a\"\nlevel = \"low\"\n[pattern.match]\nprogram = [\"x\"]\n", 5, `unknown key "pattern[0].match.program"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, _, err := loadUser(t, t.TempDir(), tt.src)
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			prefix := fmt.Sprintf("%s:%d: ", opts.UserFile, tt.line)
			if !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error %q does not start with %q", err, prefix)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.File != opts.UserFile || ce.Line != tt.line {
				t.Errorf("error is not *Error{File: %q, Line: %d}: %#v", opts.UserFile, tt.line, err)
			}
			// CheckFile reports the same problem (without the
			// built-in list, name checks do not apply).
			if cerr := CheckFile(opts.UserFile); cerr == nil && !strings.Contains(tt.want, "built-in") {
				t.Errorf("CheckFile accepted what Load rejected (%v)", err)
			}
		})
	}
}

const userTOML = `# user configuration
deny_at = "high"
ask_at = "medium"
read_only = false
audit_log = "~/.local/state/shellguard/audit.jsonl"
exempt = ["git_push_force"]

[rules]
allow = ["git status *", "Bash(npm run:*)"]
ask = ["git push *"]

[[pattern]]
name = "drop_database"
regex = '\bDROP\s+DATABASE\b'
level = "high"
description = "DROP DATABASE deletes the database."

[builtin.git_push_force]
level = "medium"

[builtin.git_reset_hard]
disabled = true
`

func TestLayering(t *testing.T) {
	dir := t.TempDir()
	opts := isolated(dir)
	write(t, opts.UserFile, userTOML)
	project := write(t, filepath.Join(dir, "repo", ProjectFileName), `
deny_at = "medium"
[rules]
deny = ["terraform destroy *"]
[[pattern]]
name = "kubectl_delete_ns"
regex = 'kubectl\s+delete\s+(ns|namespace)'
level = "critical"
`)
	explicit := write(t, filepath.Join(dir, "explicit.toml"), `
deny_at = "critical"
audit_log = "audit.jsonl"
[[pattern]]
name = "drop_database"
regex = 'DROP DATABASE'
level = "critical"
case_sensitive = true
[builtin.git_reset_hard]
disabled = false
`)
	if err := os.MkdirAll(opts.Cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	opts.Explicit = explicit
	c := mustLoad(t, opts)
	if len(c.Notices) != 0 {
		t.Errorf("unexpected notices: %q", c.Notices)
	}
	wantFiles := []Source{{Layer: LayerUser, File: opts.UserFile}, {Layer: LayerProject, File: project}, {Layer: LayerExplicit, File: explicit}}
	if !slices.Equal(c.Files, wantFiles) {
		t.Errorf("Files = %v, want %v", c.Files, wantFiles)
	}
	if c.DenyAt != danger.Critical || c.Provenance["deny_at"] != (Source{LayerExplicit, explicit, 2}) {
		t.Errorf("deny_at = %v from %v, want critical from explicit:2", c.DenyAt, c.Provenance["deny_at"])
	}
	if c.AskAt != danger.Medium || c.Provenance["ask_at"] != (Source{LayerUser, opts.UserFile, 3}) {
		t.Errorf("ask_at = %v from %v, want medium from user:3", c.AskAt, c.Provenance["ask_at"])
	}
	if c.ReadOnly {
		t.Error("read_only = true, want false from the user file")
	}
	if want := filepath.Join(dir, "audit.jsonl"); c.AuditLog != want {
		t.Errorf("audit_log = %q, want %q (relative to the explicit file)", c.AuditLog, want)
	}
	if !c.IsExempt("git_push_force") || c.ExemptSources["git_push_force"].Line != 6 {
		t.Errorf("exempt = %v %v", c.Exempt, c.ExemptSources)
	}
	if got := rulePatterns(c.Allow); !slices.Equal(got, []string{"git status *", "npm run *"}) {
		t.Errorf("allow = %q", got)
	}
	if c.Allow[1].Source.Line != 9 {
		t.Errorf("allow[1] source = %v, want line 9", c.Allow[1].Source)
	}
	if got := rulePatterns(c.Deny); !slices.Equal(got, []string{"terraform destroy *"}) {
		t.Errorf("deny = %q", got)
	}
	if len(c.Patterns) != 2 {
		t.Fatalf("patterns = %+v", c.Patterns)
	}
	db, _ := c.Pattern("drop_database")
	if db.Level != danger.Critical || !db.CaseSensitive || c.PatternSources["drop_database"].Layer != LayerExplicit {
		t.Errorf("drop_database = %+v from %v, want the explicit file's", db, c.PatternSources["drop_database"])
	}
	if _, ok := c.Pattern("kubectl_delete_ns"); !ok || c.PatternSources["kubectl_delete_ns"].Line != 5 {
		t.Errorf("kubectl_delete_ns from %v", c.PatternSources["kubectl_delete_ns"])
	}
	if _, ok := c.Disabled["git_reset_hard"]; ok {
		t.Error("git_reset_hard still disabled after the explicit file re-enabled it")
	}
	if o := c.Relevel["git_push_force"]; o.Level != danger.Medium || o.Source.Line != 19 {
		t.Errorf("relevel git_push_force = %+v", o)
	}
}

func rulePatterns(rs []Rule) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Pattern
	}
	return out
}

func TestProjectCannotLoosen(t *testing.T) {
	dir := t.TempDir()
	opts := isolated(dir)
	write(t, opts.UserFile, `
deny_at = "high"
ask_at = "medium"
read_only = false
exempt = ["rm_rf_root"]
[builtin.git_push_force]
level = "critical"
[builtin.git_reset_hard]
disabled = true
[[pattern]]
name = "mine"
regex = "mine"
level = "high"
`)
	project := write(t, filepath.Join(dir, "repo", ProjectFileName), `deny_at = "critical"
ask_at = "high"
read_only = true
audit_log = "/tmp/evil.jsonl"
exempt = ["git_push_force"]
[rules]
allow = ["curl *"]
ask = ["git push *"]
deny = ["rm *"]
[builtin.rm_rf_root]
disabled = true
level = "low"
[builtin.git_push_force]
level = "high"
[builtin.git_reset_hard]
disabled = false
level = "high"
[[pattern]]
name = "mine"
regex = "never matches"
level = "low"
[[pattern]]
name = "project_rule"
regex = "deploy"
level = "medium"
`)
	c := mustLoad(t, opts)
	wantNotices := []struct {
		line int
		key  string
	}{
		{1, "deny_at"},
		{2, "ask_at"},
		{3, "read_only"},
		{4, "audit_log"},
		{5, "exempt[0]"},
		{7, "rules.allow[0]"},
		{11, "builtin.rm_rf_root.disabled"},
		{12, "builtin.rm_rf_root.level"},
		{14, "builtin.git_push_force.level"},
		{18, "pattern[0]"},
	}
	for _, w := range wantNotices {
		prefix := fmt.Sprintf("%s:%d: ignored %s: ", project, w.line, w.key)
		if !slices.ContainsFunc(c.Notices, func(n string) bool { return strings.HasPrefix(n, prefix) }) {
			t.Errorf("no notice %q...", prefix)
		}
	}
	if len(c.Notices) != len(wantNotices) {
		t.Errorf("got %d notices, want %d:\n%s", len(c.Notices), len(wantNotices), strings.Join(c.Notices, "\n"))
	}

	// Loosening keys left the user's values alone.
	if c.DenyAt != danger.High || c.AskAt != danger.Medium || c.ReadOnly || c.AuditLog != opts.DefaultAuditLog() {
		t.Errorf("thresholds loosened: deny_at %v ask_at %v read_only %v audit_log %q", c.DenyAt, c.AskAt, c.ReadOnly, c.AuditLog)
	}
	if !slices.Equal(c.Exempt, []string{"rm_rf_root"}) {
		t.Errorf("exempt = %q", c.Exempt)
	}
	if len(c.Allow) != 0 {
		t.Errorf("allow = %v", c.Allow)
	}
	if _, ok := c.Disabled["rm_rf_root"]; ok {
		t.Error("project disabled rm_rf_root")
	}
	if o, ok := c.Relevel["rm_rf_root"]; ok {
		t.Errorf("project re-levelled rm_rf_root to %v", o.Level)
	}
	if o := c.Relevel["git_push_force"]; o.Level != danger.Critical || o.Source.Layer != LayerUser {
		t.Errorf("git_push_force = %+v, want the user's critical", o)
	}
	if p, _ := c.Pattern("mine"); p.Level != danger.High || p.Regex != "mine" {
		t.Errorf("project redefined pattern mine: %+v", p)
	}

	// Tightening keys were applied.
	if got := rulePatterns(c.Ask); !slices.Equal(got, []string{"git push *"}) {
		t.Errorf("ask = %q", got)
	}
	if got := rulePatterns(c.Deny); !slices.Equal(got, []string{"rm *"}) || c.Deny[0].Source.Layer != LayerProject {
		t.Errorf("deny = %v", c.Deny)
	}
	if _, ok := c.Disabled["git_reset_hard"]; ok {
		t.Error("project could not re-enable git_reset_hard")
	}
	if o := c.Relevel["git_reset_hard"]; o.Level != danger.High || o.Source != (Source{LayerProject, project, 17}) {
		t.Errorf("git_reset_hard relevel = %+v, want high from project:17", o)
	}
	if _, ok := c.Pattern("project_rule"); !ok {
		t.Error("project pattern not added")
	}
}

func TestProjectTightensThresholds(t *testing.T) {
	dir := t.TempDir()
	opts := isolated(dir)
	project := write(t, filepath.Join(dir, "repo", ProjectFileName), "deny_at = \"high\"\nread_only = false\n[builtin.git_reset_hard]\nlevel = \"critical\"\n")
	c := mustLoad(t, opts)
	if len(c.Notices) != 0 {
		t.Fatalf("notices: %q", c.Notices)
	}
	if c.DenyAt != danger.High || c.Provenance["deny_at"] != (Source{LayerProject, project, 1}) || c.ReadOnly {
		t.Errorf("deny_at %v from %v, read_only %v", c.DenyAt, c.Provenance["deny_at"], c.ReadOnly)
	}
	if c.Relevel["git_reset_hard"].Level != danger.Critical {
		t.Errorf("relevel = %+v", c.Relevel)
	}
}

// A nil BuiltinLevel means danger's built-in rules: names are checked and
// a project file may raise a built-in's level (it used to turn both off).
func TestBuiltinLevelDefault(t *testing.T) {
	dir := t.TempDir()
	opts := isolated(dir)
	opts.BuiltinLevel = nil
	project := filepath.Join(dir, "repo", ProjectFileName)
	write(t, project, "[builtin.git_reset_hard]\nlevel = \"critical\"\n")
	c, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if c.Relevel["git_reset_hard"].Level != danger.Critical || len(c.Notices) != 0 {
		t.Errorf("relevel %v notices %q: want it raised", c.Relevel, c.Notices)
	}
	write(t, project, "[builtin.git_reset_hard]\nlevel = \"low\"\n")
	if c, err = Load(opts); err != nil || len(c.Relevel) != 0 || len(c.Notices) != 1 {
		t.Errorf("lowering: relevel %v notices %q err %v: want it ignored with a notice", c.Relevel, c.Notices, err)
	}
	for src, want := range map[string]string{
		"[builtin.anything]\nlevel = \"critical\"\n":                           `no built-in rule is called "anything"`,
		"exempt = [\"nope\"]\n":                                                `no built-in or custom rule is called "nope"`,
		"[[pattern]]\nname = \"rm_rf_root\"\nregex = \"x\"\nlevel = \"low\"\n": "is a built-in rule",
	} {
		write(t, opts.UserFile, src)
		if _, err := Load(opts); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", src, err, want)
		}
		if err := CheckFile(opts.UserFile); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckFile %q: err %v, want %q", src, err, want)
		}
	}
}

func TestExplicitFromEnv(t *testing.T) {
	dir := t.TempDir()
	opts := isolated(dir)
	explicit := write(t, filepath.Join(dir, "ci.toml"), "ask_at = \"high\"\n")
	opts.Env = env(map[string]string{EnvConfig: explicit})
	c := mustLoad(t, opts)
	if c.AskAt != danger.High || c.Provenance["ask_at"].Layer != LayerExplicit {
		t.Errorf("ask_at %v from %v", c.AskAt, c.Provenance["ask_at"])
	}

	// --config wins over the variable, and must exist.
	opts.Explicit = filepath.Join(dir, "missing.toml")
	_, err := Load(opts)
	if err == nil || !strings.Contains(err.Error(), "missing.toml") {
		t.Errorf("missing explicit file: err = %v", err)
	}
}

func TestUserPath(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/shellguard/config.toml"},
		{map[string]string{"XDG_CONFIG_HOME": "relative", "HOME": "/h"}, "/h/.config/shellguard/config.toml"},
		{map[string]string{"HOME": "/h"}, "/h/.config/shellguard/config.toml"},
		{map[string]string{}, ""},
	}
	for _, tt := range tests {
		if got := (LoadOptions{Env: env(tt.env)}).UserPath(); got != tt.want {
			t.Errorf("UserPath(%v) = %q, want %q", tt.env, got, tt.want)
		}
	}
}

func TestUserFileFromXDG(t *testing.T) {
	dir := t.TempDir()
	xdg := filepath.Join(dir, "xdg")
	write(t, filepath.Join(xdg, "shellguard", "config.toml"), "deny_at = \"medium\"\n")
	c, err := Load(LoadOptions{Cwd: dir, NoProject: true, Env: env(map[string]string{"XDG_CONFIG_HOME": xdg})})
	if err != nil {
		t.Fatal(err)
	}
	if c.DenyAt != danger.Medium {
		t.Errorf("deny_at = %v", c.DenyAt)
	}
}

func TestProjectFileIsExplicitFile(t *testing.T) {
	dir := t.TempDir()
	opts := isolated(dir)
	p := write(t, filepath.Join(opts.Cwd, ProjectFileName), "[rules]\nallow = [\"make *\"]\n")
	opts.Explicit = p
	c := mustLoad(t, opts)
	if len(c.Files) != 1 || c.Files[0].Layer != LayerExplicit || len(c.Allow) != 1 || len(c.Notices) != 0 {
		t.Errorf("files %v allow %v notices %q", c.Files, c.Allow, c.Notices)
	}
}

func TestAuditLogHome(t *testing.T) {
	dir := t.TempDir()
	opts := isolated(dir)
	write(t, opts.UserFile, "audit_log = \"~/log/audit.jsonl\"\n")
	c := mustLoad(t, opts)
	if want := filepath.Join(dir, "home", "log", "audit.jsonl"); c.AuditLog != want {
		t.Errorf("audit_log = %q, want %q", c.AuditLog, want)
	}
	write(t, opts.UserFile, "audit_log = \"~bob/audit.jsonl\"\n")
	if _, err := Load(opts); err == nil || !strings.Contains(err.Error(), ":1: audit_log") {
		t.Errorf("~bob: err = %v", err)
	}
}

func TestCheckProjectFile(t *testing.T) {
	dir := t.TempDir()
	p := write(t, filepath.Join(dir, ProjectFileName), "[rules]\nallow = [\"ls *\"]\ndeny = [\"rm *\"]\n")
	notices, err := CheckProjectFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(notices) != 1 || !strings.HasPrefix(notices[0], p+":2: ignored rules.allow[0]") {
		t.Errorf("notices = %q", notices)
	}
	if err := CheckFile(p); err != nil {
		t.Errorf("CheckFile: %v", err)
	}
	if err := CheckFile(filepath.Join(dir, "nope.toml")); err == nil {
		t.Error("CheckFile of a missing file succeeded")
	}
	if _, err := CheckFileWith(p, "weird", LoadOptions{}); err == nil {
		t.Error("CheckFileWith accepted an unknown layer")
	}
}

func TestShow(t *testing.T) {
	dir := t.TempDir()
	opts := isolated(dir)
	write(t, opts.UserFile, userTOML)
	project := write(t, filepath.Join(dir, "repo", ProjectFileName), "[rules]\nallow = [\"curl *\"]\ndeny = [\"rm -rf *\"]\n")
	c, out := shown(t, opts)
	for _, want := range []string{
		"#   user     " + opts.UserFile,
		"#   project  " + project,
		`deny_at = "high"`, "# user " + opts.UserFile + ":2",
		`read_only = false`,
		`audit_log = "` + filepath.Join(dir, "home", ".local/state/shellguard/audit.jsonl") + `"`,
		`"npm run *",`, "# user " + opts.UserFile + ":9",
		`"rm -rf *",`, "# project " + project + ":3",
		`name = "drop_database"`,
		"[builtin.git_reset_hard]", "disabled = true",
		project + ":2: ignored rules.allow[0]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Show output lacks %q:\n%s", want, out)
		}
	}

	var b bytes.Buffer
	if err := c.ShowJSON(&b); err != nil {
		t.Fatal(err)
	}
	var j struct {
		DenyAt struct {
			Value  string
			Source Source
		} `json:"deny_at"`
		Rules   map[string][]Rule
		Builtin map[string]struct {
			Disabled *Source
			Level    string
		}
		Notices []string
	}
	if err := json.Unmarshal(b.Bytes(), &j); err != nil {
		t.Fatalf("ShowJSON output is not JSON: %v\n%s", err, b.String())
	}
	if j.DenyAt.Value != "high" || j.DenyAt.Source.Line != 2 || len(j.Rules["deny"]) != 1 || len(j.Notices) != 1 ||
		j.Builtin["git_reset_hard"].Disabled == nil || j.Builtin["git_push_force"].Level != "medium" {
		t.Errorf("ShowJSON = %s", b.String())
	}
}

func FuzzLoad(f *testing.F) {
	f.Add(userTOML)
	f.Add("[rules]\nallow = [\"Bash(git:*)\"]\n")
	f.Add("[[pattern]]\nname = \"x\"\nregex = '(a'\nlevel = \"low\"\n[pattern.match]\nprograms=[]")
	f.Add("a = [{b = [1, {c = '''x'''}]}]\n[[a.b]]\n")
	f.Add("[packs]\nenable = [\"core.git\"]\ndisable = [\"core.shell\"]\n")
	f.Fuzz(func(t *testing.T, src string) {
		for _, layer := range []string{LayerUser, LayerProject} {
			c := Default()
			err := applySource(c, &LoadOptions{BuiltinLevel: builtinLevel, Env: env(nil)}, "/h", layer, "/f.toml", []byte(src))
			if err != nil {
				var ce *Error
				if !errors.As(err, &ce) || ce.File != "/f.toml" {
					t.Fatalf("error %v is not an *Error naming the file", err)
				}
				continue
			}
			if layer == LayerProject && (len(c.Allow) > 0 || len(c.Exempt) > 0 || len(c.Disabled) > 0 || c.AuditLog != "" ||
				c.AskAt != danger.Low || !c.ReadOnly && c.Provenance["read_only"].Layer != LayerProject) {
				t.Fatalf("project file loosened the defaults: %+v", c)
			}
			for name, ps := range c.Packs {
				if layer == LayerProject && !ps.On {
					t.Fatalf("project file disabled pack %s", name)
				}
			}
			for name, o := range c.Relevel {
				if l, _ := builtinLevel(name); layer == LayerProject && o.Level < l {
					t.Fatalf("project file lowered %s to %v", name, o.Level)
				}
			}
			for _, p := range c.Patterns {
				if p.Name == "" || !p.Level.Valid() || !compiles(p.Regex, p.CaseSensitive) {
					t.Fatalf("invalid pattern accepted: %+v", p)
				}
			}
		}
	})
}

// TestDocExample loads the full example of docs/config.md, so the
// documentation cannot drift from the schema.
func TestDocExample(t *testing.T) {
	c := loadDocExample(t)
	if len(c.Patterns) != 2 || len(c.Allow) != 3 || c.Allow[2].Pattern != "make test *" ||
		c.Patterns[1].Match == nil || c.Relevel["git_push_force"].Level != danger.Medium {
		t.Errorf("example loaded as %+v", c)
	}
}

// loadUser writes src as the user's file of an isolated layout in dir
// and loads the configuration.
func loadUser(t *testing.T, dir, src string) (LoadOptions, *Config, error) {
	t.Helper()
	opts := isolated(dir)
	write(t, opts.UserFile, src)
	c, err := Load(opts)
	return opts, c, err
}

// shown loads opts and returns the configuration and what Show writes.
func shown(t *testing.T, opts LoadOptions) (*Config, string) {
	t.Helper()
	c := mustLoad(t, opts)
	var b strings.Builder
	if err := c.Show(&b); err != nil {
		t.Fatal(err)
	}
	return c, b.String()
}

// loadDocExample loads the first TOML example of docs/config.md as the
// user's file.
func loadDocExample(t *testing.T) *Config {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "config.md"))
	if err != nil {
		t.Skip("docs/config.md not found:", err)
	}
	_, rest, ok := strings.Cut(string(doc), "```toml\n")
	if !ok {
		t.Fatal("no ```toml block in docs/config.md")
	}
	example, _, _ := strings.Cut(rest, "```")
	_, c, err := loadUser(t, t.TempDir(), example)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func BenchmarkApplyUserFile(b *testing.B) {
	src := []byte(userTOML)
	opts := &LoadOptions{BuiltinLevel: builtinLevel, Env: env(nil)}
	for b.Loop() {
		if err := applySource(Default(), opts, "/h", LayerUser, "/f.toml", src); err != nil {
			b.Fatal(err)
		}
	}
}

func TestNotRegularFile(t *testing.T) {
	dir := t.TempDir()
	opts := isolated(dir)
	if err := os.MkdirAll(filepath.Join(dir, "repo"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A project file that is a symlink to a device is refused, not read.
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "repo", ProjectFileName)); err != nil {
		t.Skip("cannot create symlink:", err)
	}
	_, err := Load(opts)
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("err = %v, want not a regular file", err)
	}
}

func compiles(re string, caseSensitive bool) bool {
	_, err := checkRegex(re, caseSensitive)
	return err == nil
}
