package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRulesJSONBinary: rules --json lists every pack with its
// description and rules, on as by default (testdata/script/rules.txtar
// covers the rest of the command).
func TestRulesJSONBinary(t *testing.T) {
	out, code := runSG(t, "", "rules", "--json")
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
