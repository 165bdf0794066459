package policy

import (
	"strings"
	"testing"

	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/shellparse"
)

// firstInteractive returns the first invocation of line that would read
// commands from the terminal.
func firstInteractive(line string) (string, bool) {
	res := shellparse.Parse(line)
	for i := range res.Invocations {
		if why, ok := interactive(&res.Invocations[i]); ok {
			return why, true
		}
	}
	return "", false
}

func TestInteractive(t *testing.T) {
	yes := []string{
		// shells, every way of asking for one
		"bash", "sh -i", "zsh", "fish", "dash", "/bin/bash", "bash -l", "bash --login", "bash -s", "bash -o pipefail",
		"env FOO=1 bash", "sudo bash", "timeout 60 sh", "exec bash", "nice -n 5 zsh", "sh -i script.sh", "bash -", "pwsh",
		"bash; ls", "ls && bash", "echo $(python3)", "busybox sh", "fish -C 'echo hi'",
		// interpreters
		"python3", "python", "python3.12", "python3 -i script.py", "python3 -i -c 'x=1'", "python3 -", "python3 -m code",
		"python3 -m pdb app.py", "python3 -m asyncio", "ipython", "node", "node -r dotenv/config", "node -i", "deno", "deno repl",
		"bun repl", "irb", "ruby", "perl", "perl -de0", "php -a", "lua", "R", "julia", "ghci", "iex", "erl", "sbt", "clj",
		// database and remote clients
		"psql", "psql -h db.example.com -U app mydb", "mysql -uroot -p app", "sqlite3 app.db", "sqlite3 -cmd .tables app.db",
		"redis-cli", "redis-cli -h cache", "mongosh", "gdb ./prog", "sftp host", "telnet host 25",
		"ssh host", "ssh -t host", "ssh -p 2222 -i key user@host", "ssh host bash", "mosh host",
		"su", "su - bob", "sudo -i", "sudo -s", "sudo -u bob -i", "doas -s", "chroot /srv/root", "nsenter -t 1 -m",
		"at now + 1 minute", "crontab", "crontab -", "crontab -e", "vagrant ssh", "machinectl shell",
		"docker exec -it web sh", "docker exec -i web bash", "docker run -it ubuntu", "docker run -it --rm ubuntu bash",
		"docker run -it --entrypoint sh alpine", "podman exec -it c python3", "docker container exec -it c sh",
		"docker attach web", "docker start -ai web", "docker compose exec web sh", "docker compose run web", "docker-compose exec web bash",
		"kubectl exec -it pod -- bash", "kubectl exec -i pod -- sh", "kubectl -n prod exec -it pod -c app -- /bin/sh",
		"kubectl exec -it pod bash", "kubectl attach -it pod", "kubectl run -it debug --image=busybox", "oc exec -it pod -- sh",
		"lxc exec c -- bash", "lxc shell c",
		// programs that read keys
		"vim notes.txt", "vi", "nvim", "emacs -nw f", "nano f", "less README.md", "more f", "man ls", "top", "htop",
		"script", "script -q -c bash /dev/null", "tmux", "tmux new -s x", "tmux attach", "tmux send-keys -t x 'rm -rf ~' Enter",
		"screen", "screen -r", "cat f | less", "git log | less",
		// arguments from the terminal
		"xargs rm", "xargs -n1 echo",
	}
	no := []string{
		"bash -c 'ls'", "bash script.sh", "sh -c 'rm x'", "bash -lc 'make test'", "bash -s < script.sh", "echo ls | bash",
		"bash <<'EOF'\nls\nEOF", "bash <<< 'ls'", "zsh -c 'x'", "fish -c 'echo'", "pwsh -c 'Get-ChildItem'", "pwsh -File s.ps1",
		"python3 script.py", "python3 -c 'print(1)'", "python3 -m http.server", "python3 -m pytest", "python3 < in.py",
		"echo 'print(1)' | python3", "node app.js", "node -e 'console.log(1)'", "deno run x.ts", "bun run dev", "bun",
		"ruby x.rb", "ruby -e 'p 1'", "perl -e 1", "perl x.pl", "php x.php", "php -r 'echo 1;'", "lua x.lua", "R -f x.R",
		"R CMD build .", "julia x.jl", "sbt test", "clj -M -m app",
		"psql -c 'select 1'", "psql -f q.sql", "psql -l", "psql < dump.sql", "mysql -e 'select 1'", "mysql db < dump.sql",
		"sqlite3 app.db 'select 1'", "sqlite3 app.db < q.sql", "redis-cli ping", "redis-cli -h cache get k", "mongosh --eval 'db.x'",
		"gdb -batch -ex run ./prog", "sftp -b batch host",
		"ssh host ls", "ssh host 'uptime'", "ssh -N -L 8080:localhost:80 host", "ssh -V", "ssh host < script.sh",
		"su -c 'ls' bob", "sudo ls", "sudo -l", "sudo -u bob make", "chroot /srv/root ls",
		"at -f job.sh now", "echo 'ls' | at now", "at -l", "crontab -l", "crontab my.cron", "vagrant ssh -c 'ls'", "vagrant up",
		"docker exec web ls", "docker exec -it web ls", "docker run --rm ubuntu bash", "docker run -it ubuntu ls",
		"docker run -d -it ubuntu", "docker run -dit ubuntu", "docker ps", "docker compose up", "docker compose exec -d web sh",
		"docker exec web python -i",
		"kubectl exec pod -- ls", "kubectl exec -it pod -- ls", "kubectl get pods", "kubectl run x --image=y",
		"kubectl logs -f pod", "lxc exec c -- ls", "lxc list",
		"emacs --batch -l x.el", "man -k printf", "top -b -n 1", "tmux ls", "tmux list-sessions", "tmux kill-server",
		"screen -ls", "vim --version", "less --help", "bash --version", "python3 --version",
		"nohup bash &", "ls", "git status", "make", "cat f", "env", "echo bash", "grep python3 f", "command -v bash", "type python3",
		"find . -name '*.py' | xargs grep x", "xargs rm < list.txt",
	}
	for _, line := range yes {
		if _, ok := firstInteractive(line); !ok {
			t.Errorf("%q: not seen as reading commands from the terminal", line)
		}
	}
	for _, line := range no {
		if why, ok := firstInteractive(line); ok {
			t.Errorf("%q: seen as interactive (%s)", line, why)
		}
	}
}

func TestTerminalSessionOnlyForCodex(t *testing.T) {
	g, err := New(config.Default())
	if err != nil {
		t.Fatal(err)
	}
	for _, agent := range []string{"", "claude", "gemini", "nosuchagent"} {
		d := g.Decide(Request{Command: "bash", Agent: agent})
		if d.Verdict == Deny {
			t.Errorf("agent %q: bash denied (%s); only agents with terminal sessions deny it", agent, d.Reason)
		}
	}
	d := g.Decide(Request{Command: "bash", Agent: "codex"})
	if d.Verdict != Deny || !strings.Contains(d.Reason, "bash would read commands from the terminal") || !strings.Contains(d.Reason, "Codex") {
		t.Errorf("codex bash: %v %q", d.Verdict, d.Reason)
	}
	// Read-only lines stay allowed under Codex.
	if d := g.Decide(Request{Command: "ls -la", Agent: "codex"}); d.Verdict != Allow {
		t.Errorf("codex ls -la: %v %q", d.Verdict, d.Reason)
	}
}

func TestUnattended(t *testing.T) {
	cfg := config.Default()
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// An ask with a warning becomes deny; one without stays ask; allow and
	// deny are untouched.
	if d := g.Decide(Request{Command: "git push --force", Unattended: true}); d.Verdict != Deny || !strings.Contains(d.Reason, "unattended") {
		t.Errorf("unattended git push --force: %v %q", d.Verdict, d.Reason)
	}
	if d := g.Decide(Request{Command: "git push --force"}); d.Verdict != Ask {
		t.Errorf("attended git push --force: %v %q", d.Verdict, d.Reason)
	}
	if d := g.Decide(Request{Command: "make build", Unattended: true}); d.Verdict != Ask {
		t.Errorf("unattended make build (no opinion): %v %q", d.Verdict, d.Reason)
	}
	if d := g.Decide(Request{Command: "ls", Unattended: true}); d.Verdict != Allow {
		t.Errorf("unattended ls: %v", d.Verdict)
	}
	cfg2 := config.Default()
	cfg2.Unattended = config.UnattendedAsk
	g2, err := New(cfg2)
	if err != nil {
		t.Fatal(err)
	}
	if d := g2.Decide(Request{Command: "git push --force", Unattended: true}); d.Verdict != Ask {
		t.Errorf("unattended = ask: %v %q", d.Verdict, d.Reason)
	}
}

// FuzzInteractive: any line, decided under Codex, neither panics nor
// allows a line whose invocations include one seen as interactive.
func FuzzInteractive(f *testing.F) {
	for _, l := range []string{"bash", "docker exec -it c sh", "kubectl exec -it p -- bash -i", "python3 -m pdb x",
		"ssh -p 22 host", "sudo -u bob -i", "tmux send-keys -t x ls Enter", "xargs rm", "psql -c 'x'", "vim f"} {
		f.Add(l)
	}
	g, err := New(config.Default())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line string) {
		_, inter := firstInteractive(line)
		d := g.Decide(Request{Command: line, Agent: "codex"})
		if inter && d.Verdict != Deny && d.Problem == "" {
			t.Fatalf("%q: interactive but %v (%s)", line, d.Verdict, d.Reason)
		}
	})
}
