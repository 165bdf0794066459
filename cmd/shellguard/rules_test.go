package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRulesBinary: rules lists packs and rules, --pack one pack, --json
// the same as data, rules show one rule with its examples.
func TestRulesBinary(t *testing.T) {
	out, code := runSG(t, "", "rules")
	if code != 0 || !strings.Contains(out, "core.filesystem") || !strings.Contains(out, "rm_rf_root") || !strings.Contains(out, "Critical") {
		t.Fatalf("rules: exit %d\n%s", code, out)
	}
	out, code = runSG(t, "", "rules", "--pack", "core.git")
	if code != 0 || !strings.Contains(out, "git_reset_hard") || strings.Contains(out, "rm_rf_root") {
		t.Errorf("rules --pack core.git: exit %d\n%s", code, out)
	}
	if out, code = runSG(t, "", "rules", "--pack", "nosuch"); code != 2 || !strings.Contains(out, "nosuch") {
		t.Errorf("rules --pack nosuch: exit %d\n%s", code, out)
	}
	out, code = runSG(t, "", "rules", "--json")
	var packs []rulesPackJSON
	if err := json.Unmarshal([]byte(out), &packs); err != nil || code != 0 {
		t.Fatalf("rules --json: exit %d, %v\n%s", code, err, out)
	}
	names := map[string]bool{}
	for _, p := range packs {
		names[p.Name] = true
		if p.Description == "" || len(p.Rules) == 0 || p.On != p.Default {
			t.Errorf("pack %+v", p)
		}
	}
	for _, want := range []string{"core.filesystem", "core.git", "core.shell", "core.remote-code", "disks", "system"} {
		if !names[want] {
			t.Errorf("rules --json lacks pack %s", want)
		}
	}
	out, code = runSG(t, "", "rules", "show", "git_clean_force")
	for _, want := range []string{"git_clean_force (pack core.git, High)", "subcommands = clean", "hit (each gets this rule):", "  git clean -fdx", "miss (none gets this rule):", "  git clean -n"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("rules show: exit %d, lacks %q\n%s", code, want, out)
		}
	}
	out, code = runSG(t, "", "rules", "show", "--json", "rm_rf_home")
	var one struct {
		Pack string   `json:"pack"`
		Name string   `json:"name"`
		Hit  []string `json:"hit"`
		Miss []string `json:"miss"`
	}
	if err := json.Unmarshal([]byte(out), &one); err != nil || code != 0 || one.Pack != "core.filesystem" || len(one.Hit) == 0 || len(one.Miss) == 0 {
		t.Errorf("rules show --json: exit %d %v %+v\n%s", code, err, one, out)
	}
	if out, code = runSG(t, "", "rules", "show", "no_such_rule"); code != 2 {
		t.Errorf("rules show no_such_rule: exit %d\n%s", code, out)
	}
}

// TestPacksConfigBinary: [packs] disable turns a pack's rules off in the
// user file; a project file may only enable (its disable is ignored with a
// notice); rules and config show report it; an unknown pack is an error.
func TestPacksConfigBinary(t *testing.T) {
	home := t.TempDir()
	proj := t.TempDir()
	cfgDir := filepath.Join(home, ".config", "shellguard")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	writeCfg := func(path, content string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Defaults: git clean -f is High (ask), rm -rf ~ Critical (deny).
	if _, code := runIn(t, home, proj, "check", "--", "git clean -fdx"); code != 1 {
		t.Fatalf("check git clean -fdx: exit %d", code)
	}
	writeCfg(filepath.Join(cfgDir, "config.toml"), "[packs]\ndisable = [\"core.git\"]\n")
	if out, code := runIn(t, home, proj, "check", "--", "git clean -fdx"); code != 0 {
		t.Errorf("core.git disabled by the user: check exit %d\n%s", code, out)
	}
	if out, code := runIn(t, home, proj, "check", "--", "rm -rf ~"); code != 1 {
		t.Errorf("core.filesystem still on: exit %d\n%s", code, out)
	}
	out, _ := runIn(t, home, proj, "rules", "--pack", "core.git")
	if !strings.Contains(out, "off (configured)") {
		t.Errorf("rules does not show core.git off:\n%s", out)
	}
	out, _ = runIn(t, home, proj, "config", "show")
	if !strings.Contains(out, "[packs]") || !strings.Contains(out, `"core.git",`) || !strings.Contains(out, "config.toml:2") {
		t.Errorf("config show:\n%s", out)
	}
	// A project file may enable (back) but not disable.
	writeCfg(filepath.Join(proj, ".shellguard.toml"), "[packs]\nenable = [\"core.git\"]\ndisable = [\"core.filesystem\"]\n")
	if out, code := runIn(t, home, proj, "check", "--", "git clean -fdx"); code != 1 {
		t.Errorf("core.git enabled by the project: exit %d\n%s", code, out)
	}
	if out, code := runIn(t, home, proj, "check", "--", "rm -rf ~"); code != 1 {
		t.Errorf("project disabled core.filesystem: exit %d\n%s", code, out)
	}
	if out, code := runIn(t, home, proj, "decide", "--", "rm -rf ~"); code != exitDeny {
		t.Errorf("project disabled core.filesystem: decide exit %d\n%s", code, out)
	}
	out, _ = runIn(t, home, proj, "config", "show")
	if !strings.Contains(out, `ignored packs.disable[0]: a project file may not disable rule pack "core.filesystem"`) {
		t.Errorf("config show lacks the notice:\n%s", out)
	}
	// An unknown pack is a configuration error (exit 2, never an allow).
	writeCfg(filepath.Join(proj, ".shellguard.toml"), "[packs]\nenable = [\"core.nosuch\"]\n")
	if out, code := runIn(t, home, proj, "decide", "--", "ls"); code != 2 || !strings.Contains(out, `no built-in rule pack is called "core.nosuch"`) {
		t.Errorf("unknown pack: exit %d\n%s", code, out)
	}
}

// TestRunnersAndDryRunsBinary (issue 12 section 6): runners are read as
// the program they run, with the nearest harmless forms; dry runs get no
// destructive warning; an approval of a runner's program uses that
// program's own arity.
func TestRunnersAndDryRunsBinary(t *testing.T) {
	for _, tc := range []struct {
		line, rule string // rule "" means no warning at all
	}{
		{"npx rimraf ~", "rm_rf_home"},
		{"npx --yes rimraf \"$HOME\"", "rm_rf_home"},
		{"pnpm dlx rimraf ~/", "rm_rf_home"},
		{"yarn dlx rimraf /", "rm_rf_root"},
		{"bunx rimraf ~", "rm_rf_home"},
		{"bun x rimraf ~/.config", "rm_rf_home_folder"},
		{"npx del-cli ~ --force", "rm_rf_home"},
		{"pnpm exec rimraf $HOME", "rm_rf_home"},
		{"npm exec --yes -- rimraf /", "rm_rf_root"},
		{"npm exec -c 'rm -rf ~'", "rm_rf_home"},
		{"uv run -- rm -rf ~", "rm_rf_home"},
		{"poetry run rm -rf ~/.config", "rm_rf_home_folder"},
		{"deno run -A npm:rimraf ~", "rm_rf_home"},
		{"sudo npx rimraf /usr/local/lib/node_modules", "sudo_rm"},
		{"npx shx rm -rf ~", "rm_rf_home"},
		{"rimraf ~", "rm_rf_home"},
		{"uvx --from trash-cli trash-empty", "trash_empty"},
		{"npx trash ~/.ssh", "trash_home"},
		{"cargo run -- rm -rf /", "rm_rf_root"},
		{"npx prettier --check .", ""},
		{"npx rimraf dist", "rm_recursive"},
		{"pnpm dlx create-vite app", ""},
		{"uvx ruff check .", ""},
		{"cargo run --release", ""},
		// Dry runs.
		{"git clean -n", ""},
		{"git clean --dry-run -fdx", ""},
		{"git clean -fdx", "git_clean_force"},
		{"git push --dry-run --force origin main", ""},
		{"git push --force origin main", "git_push_force"},
		{"rsync -n -av --delete src/ dest/", ""},
		{"rsync -av --delete src/ dest/", "rsync_delete"},
		{"rclone sync ./backup remote:backup --dry-run", ""},
		{"aws s3 rm s3://b/logs/ --recursive --dryrun", ""},
		{"aws s3 rm s3://b/logs/ --recursive", "cloud_storage_delete"},
		{"mkfs.ext4 -n /dev/sdb1", ""},
		{"sfdisk --no-act --delete /dev/sda 1", ""},
		{"sfdisk --delete /dev/sda 1", "sfdisk_delete"},
	} {
		out, code := runSG(t, "", "check", "--json", "--", tc.line)
		var res struct {
			Warnings []struct {
				Name string `json:"name"`
			} `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%q: %v\n%s", tc.line, err, out)
		}
		var got []string
		for _, w := range res.Warnings {
			got = append(got, w.Name)
		}
		switch {
		case tc.rule == "" && (code != 0 || len(got) > 0):
			t.Errorf("%q: exit %d, warnings %v, want none", tc.line, code, got)
		case tc.rule != "" && !strings.Contains(","+strings.Join(got, ",")+",", ","+tc.rule+","):
			t.Errorf("%q: exit %d, warnings %v, want %s", tc.line, code, got, tc.rule)
		}
	}
	// Approving npx prisma generate does not approve migrate reset.
	home := t.TempDir()
	if out, code := runIn(t, home, home, "allow", "add", "--", "npx prisma generate"); code != 0 || !strings.Contains(out, "npx prisma generate *") {
		t.Fatalf("allow add: exit %d\n%s", code, out)
	}
	if out, code := runIn(t, home, home, "decide", "--", "npx prisma generate --schema db.prisma"); code != exitAllow {
		t.Errorf("approved npx prisma generate: decide exit %d\n%s", code, out)
	}
	if out, code := runIn(t, home, home, "decide", "--", "npx prisma migrate reset --force"); code == exitAllow {
		t.Errorf("approving npx prisma generate approved migrate reset\n%s", out)
	}
}
