package policy_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/policy"
)

// agentSources are the sources each entry point sets (internal/hook's
// PolicyDecider passes "hook:AGENT"; shellguard mcp "mcp").
var agentSources = []string{"hook:claude", "hook:gemini", "hook:codex", "mcp"}

// selfGuardHome is a home with shellguard and agents set up in it, and a
// fake shellguard binary on $PATH.
func selfGuardHome(t *testing.T) *home {
	t.Helper()
	h := newHome(t, "")
	h.write(t, ".claude/settings.json", "{}")
	h.write(t, "proj/.claude/settings.json", "{}")
	h.write(t, "proj/.claude/settings.local.json", "{}")
	h.write(t, ".config/shellguard/approvals.json", `{"version":2,"approvals":[]}`)
	bin := filepath.Join(h.dir, "bin")
	h.write(t, "bin/shellguard", "#!/bin/sh\n")
	h.write(t, "bin/shellguard-hook", "#!/bin/sh\n")
	for _, n := range []string{"shellguard", "shellguard-hook"} {
		if err := os.Chmod(filepath.Join(bin, n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return h
}

// TestSelfGuard: from an agent, lines that would change shellguard or the
// agents' hook settings are denied, whatever the spelling; from a person
// (cli, tui) they are decided as usual.
func TestSelfGuard(t *testing.T) {
	h := selfGuardHome(t)
	home := h.dir
	denied := []string{
		// shellguard's own commands
		"shellguard allow once ABCD2345",
		"shellguard allow add -- make deploy",
		"shellguard allow last --yes",
		"shellguard allow-once K7QM3XHP",
		"shellguard uninstall claude",
		"shellguard install gemini",
		"/usr/local/bin/shellguard allow once ABCD2345",
		"sudo shellguard allow once ABCD2345",
		"env FOO=1 shellguard allow once ABCD2345",
		"timeout 5 shellguard uninstall codex",
		"bash -c 'shellguard allow once ABCD2345'",
		"echo ok && shellguard allow once ABCD2345",
		"shellguard $SUB",
		// writes, by redirection
		"echo '{}' > ~/.claude/settings.json",
		"echo '{}' > $HOME/.claude/settings.json",
		`echo '{}' > "${HOME}/.gemini/settings.json"`,
		"echo '{}' > " + home + "/.codex/hooks.json",
		"echo '{\"disableAllHooks\":true}' >> .claude/settings.local.json",
		"cat > ~/.codex/config.toml <<'EOF'\n[features]\nhooks = false\nEOF",
		`echo 'mode = "warn"' >> ~/.config/shellguard/config.toml`,
		`echo 'mode = "warn"' >> ${XDG_CONFIG_HOME}/shellguard/config.toml`,
		`printf 'mode = "warn"\n' > "$XDG_CONFIG_HOME/shellguard/config.toml"`,
		"echo x > /etc/shellguard/config.toml",
		"echo > ~/.state/shellguard/audit.jsonl",
		// writes, by programs
		"tee ~/.claude/settings.json < /tmp/x",
		"cat /tmp/x | tee -a $HOME/.gemini/settings.json",
		"sed -i 's/shellguard/true/' ~/.claude/settings.json",
		"sed -i.bak -e 's/enforce/warn/' ${XDG_CONFIG_HOME}/shellguard/config.toml",
		"sed --in-place=.orig 's/x/y/' ~/.codex/config.toml",
		"sed -n 'w " + home + "/.claude/settings.json' /tmp/x",
		"sed -Ei 's/x/y/' .claude/settings.json",
		"perl -pi -e 's/shellguard//' ~/.claude/settings.json",
		"cp /tmp/x ~/.claude/settings.json",
		"cp /tmp/settings.json ~/.claude/",
		"cp -t ~/.claude /tmp/settings.json",
		"install -m 600 /tmp/evil ~/.config/shellguard/approvals.json",
		"mv ~/.claude/settings.json /tmp/",
		"mv .claude /tmp/elsewhere",
		"mv /tmp/x .claude/settings.local.json",
		"rm ~/.config/shellguard/approvals.json",
		"rm -f ~/.config/shellguard/refusals.json",
		"rm -rf ~/.config/shellguard",
		"rm -rf ~/.config",
		`rm -f "$XDG_STATE_HOME/shellguard/audit.jsonl"`,
		"unlink .claude/settings.json",
		"truncate -s 0 ~/.claude/settings.json",
		"shred -u ~/.codex/hooks.json",
		"ln -sf /dev/null ~/.codex/hooks.json",
		"ln -s /dev/null .claude/settings.local.json",
		"ln -s ~/.config/shellguard /tmp/sg",
		"dd if=/dev/null of=~/.claude/settings.json",
		"chmod 666 ~/.config/shellguard/approvals.json",
		"chmod -R go+w ~/.config",
		"chown nobody ~/.claude/settings.json",
		"touch ~/.gemini/settings.json",
		"vim ~/.claude/settings.json",
		"find ~/.config/shellguard -delete",
		"find . -name settings.local.json -delete",
		"find . -name 'settings*' -exec rm {} +",
		"rsync -a --delete /tmp/empty/ ~/.claude/",
		"cp -r /tmp/evil/. ~/.claude/",
		"tar -xf /tmp/x.tar -C ~/.claude",
		"unzip -o /tmp/x.zip -d ~/.config/shellguard",
		"$EDITOR ~/.claude/settings.json",
		"(cd ~/.claude; rm settings.json)",
		": > ~/.claude/settings.json",
		"exec 3> ~/.codex/hooks.json",
		"bash <<< 'rm ~/.claude/settings.json'",
		// interpreters
		`python3 -c "open('` + home + `/.claude/settings.json','w').write('{}')"`,
		`python3 -c "import os; os.remove(os.path.expanduser('~/.claude/settings.json'))"`,
		`node -e "require('fs').unlinkSync(process.env.HOME + '/.gemini/settings.json')"`,
		"python3 - <<'EOF'\nimport os\nos.remove(os.path.expanduser('~/.codex/hooks.json'))\nEOF",
		`ruby -e 'File.write(Dir.home + "/.claude/settings.json", "{}")'`,
		// git
		"git checkout -- .claude/settings.json",
		"git checkout HEAD~3 .claude/settings.local.json",
		"git restore .claude/settings.json",
		"git rm .claude/settings.json",
		"git -C ~/.claude checkout settings.json",
		"git clean -fdx",
		// moving around first
		"cd ~/.claude && rm settings.json",
		"cd ~ && rm .claude/settings.json",
		"cd && rm -f .codex/hooks.json",
		"cd $HOME/.config && rm -rf shellguard",
		"pushd ~/.config/shellguard; rm config.toml; popd",
		"cd ~/.claude; echo '{}' > settings.json",
		"cd /tmp && cd ~/.gemini && truncate -s0 settings.json",
		// the binaries
		"cp /tmp/evil " + home + "/bin/shellguard",
		"rm " + home + "/bin/shellguard-hook",
		"go build -o " + home + "/bin/shellguard ./cmd/shellguard",
		// the project's own settings, deleted with the project
		"rm -rf .",
		"rm -rf " + h.proj,
	}
	allowed := []string{
		"cat ~/.claude/settings.json",
		"grep -r hooks ~/.claude",
		"ls -la ~/.config/shellguard",
		"jq . ~/.codex/hooks.json",
		"diff ~/.claude/settings.json .claude/settings.json",
		"sed -n p ~/.claude/settings.json",
		"sed -e 's/a/b/' ~/.claude/settings.json",
		"sed -ne 's/a/b/p' ~/.claude/settings.json",
		"head -c 100 ~/.config/shellguard/approvals.json",
		"git diff .claude/settings.json",
		"git log -p -- .claude/settings.json",
		"git status",
		"git checkout .",
		"git add .claude/settings.json",
		"shellguard check -- rm -rf /",
		"shellguard decide -- ls",
		"shellguard explain -- git push",
		"shellguard config show",
		"shellguard log --since 1h",
		"shellguard stats",
		"cp ~/.claude/settings.json /tmp/backup.json",
		"cp /tmp/x ~/.claude/other.json",
		"echo hello > /tmp/out.txt",
		"echo 'mode = \"warn\"'",
		"rm -rf node_modules",
		"rm -rf ~/.cache/pip",
		"rm -rf /",
		"rm -rf ~",
		"find . -name '*.pyc' -delete",
		"mkdir -p ~/.config/nvim",
		"touch ~/.claude-notes.txt",
		"python3 -c 'print(1)'",
		"go build ./...",
		"go build -o bin/shellguard ./cmd/shellguard",
		"npm test",
		"cd ~/.claude && ls",
		"cd ~/.claude && cat settings.json",
		"ln -s /tmp/a /tmp/b",
		"cp -r ~/.claude /tmp/claude-backup",
		"tar -czf /tmp/backup.tgz ~/projects",
		"rsync -a src/ /tmp/dst/",
		"$EDITOR notes.txt",
	}
	for _, src := range agentSources {
		g := h.guard(t, src)
		for _, line := range denied {
			d := h.decide(t, g, line)
			if d.Verdict != policy.Deny || !d.SelfGuard {
				t.Errorf("%s: %q: %s (self-guard %v): %s", src, line, d.Verdict, d.SelfGuard, d.Reason)
				continue
			}
			if d.Code != "" || d.Shadow || !strings.Contains(d.Reason, "their own terminal") {
				t.Errorf("%s: %q: code %q shadow %v reason %q", src, line, d.Code, d.Shadow, d.Reason)
			}
		}
		for _, line := range allowed {
			if d := h.decide(t, g, line); d.SelfGuard {
				t.Errorf("%s: %q was denied as a change to shellguard: %s", src, line, d.Reason)
			}
		}
	}
	// A person decides such lines as usual.
	for _, src := range []string{"cli", "tui", ""} {
		g := h.guard(t, src)
		for _, line := range denied[:20] {
			if d := h.decide(t, g, line); d.SelfGuard {
				t.Errorf("%q from %q: self-guard", line, src)
			}
		}
	}
	// The request's source wins over the Guard's.
	g := h.guard(t, "cli")
	if d := g.Decide(policy.Request{Command: "shellguard allow once ABCD2345", Cwd: h.proj, Source: "hook:claude"}); !d.SelfGuard {
		t.Error("Request.Source was not used")
	}
}

// TestSelfGuardFollowsLinks: a protected file reached through a link, or
// a home whose .claude is a link to a dotfiles folder, is still
// protected.
func TestSelfGuardFollowsLinks(t *testing.T) {
	h := newHome(t, "")
	dots := filepath.Join(h.dir, "dotfiles", "claude")
	h.write(t, "dotfiles/claude/settings.json", "{}")
	if err := os.Symlink(dots, filepath.Join(h.dir, ".claude")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(h.dir, ".config", "shellguard"), filepath.Join(h.proj, "sg")); err != nil {
		t.Fatal(err)
	}
	g := h.guard(t, "hook:claude")
	for _, line := range []string{
		"rm " + filepath.Join(dots, "settings.json"),
		"echo x > ../dotfiles/claude/settings.json",
		"rm sg/approvals.json",
		"echo x > sg/config.toml",
	} {
		if d := h.decide(t, g, line); !d.SelfGuard {
			t.Errorf("%q: %s %s", line, d.Verdict, d.Reason)
		}
	}
}

// FuzzSelfGuard decides arbitrary lines as an agent's hook would, in a
// home with shellguard and agent settings in it: the self-guard and the
// context rule must never make Decide panic, and a line the self-guard
// denies is never softened or given a code.
func FuzzSelfGuard(f *testing.F) {
	for _, s := range []string{
		"cd ~/.claude && rm settings.json", "echo x > $HOME/.gemini/settings.json", "sed -i s/a/b/ ~/.codex/hooks.json",
		"cp -t ~/.claude /tmp/settings.json", "git -C ~/.claude checkout .", "find . -name 'settings*' -delete",
		"python3 -c \"open('x','w')\"", "rm -rf node_modules ../x dist/", "ln -s / build && rm -rf build/",
		"shellguard allow once K7QM3XHP", "$EDITOR ${XDG_CONFIG_HOME:-x}/shellguard/config.toml", "cd; cd -; cd ''",
		"mv a b c ~/.claude/", "dd of=", "tar -xC", "rsync -a --delete ./ ~", "echo \"${HOME}\"/.claude/settings.json > /dev/null",
	} {
		f.Add(s)
	}
	h := newHome(&testing.T{}, `audit_log = ""`)
	for _, d := range []string{".claude", "proj/.claude", "proj/node_modules", "proj/build"} {
		_ = os.MkdirAll(filepath.Join(h.dir, d), 0o700)
	}
	_ = os.WriteFile(filepath.Join(h.dir, ".claude", "settings.json"), []byte("{}"), 0o600)
	g := h.guard(&testing.T{}, "hook:claude")
	f.Fuzz(func(t *testing.T, line string) {
		d := g.Decide(policy.Request{Command: line, Cwd: h.proj, DryRun: true})
		if strings.HasPrefix(d.Reason, "shellguard failed while deciding") {
			t.Fatalf("%q: Decide panicked: %s", line, d.Reason)
		}
		if d.SelfGuard && (d.Verdict != policy.Deny || d.Shadow || d.Code != "") {
			t.Fatalf("%q: self-guard decision %s shadow %v code %q", line, d.Verdict, d.Shadow, d.Code)
		}
	})
}
