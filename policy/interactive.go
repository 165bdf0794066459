package policy

import (
	"strings"

	"github.com/shellguard/shellguard/shellparse"
)

// Programs that read commands from the terminal. Under an agent whose
// shell tool can keep a terminal session open and type into it (Codex's
// exec_command with tty, then write_stdin), whatever is typed into such a
// program never reaches a hook: shellguard sees `bash` and nothing after.
// For those agents (agents.Spec.TerminalSessions) an invocation that would
// read commands from the terminal is denied.
//
// Knowledge is data: each entry says how a program can be told to run
// something given (a script, -c, -e, ...) instead of reading its input,
// and the code below only reads argv the way these programs do.

// termUse says how a program takes commands from the terminal.
type termUse uint8

const (
	// readsInput: it reads commands from standard input when it is given
	// nothing to run (shells, interpreters, database clients, ssh host):
	// interactive when its stdin is the terminal.
	readsInput termUse = iota + 1
	// readsKeys: it reads keys from the terminal itself whatever its
	// standard input is (editors and pagers with shell escapes, terminal
	// multiplexers, top's kill key).
	readsKeys
)

// interactiveProgram describes one program (or several of the same kind).
type interactiveProgram struct {
	names []string
	use   termUse
	// sub, when set, is the first operand that selects this entry
	// ("vagrant ssh", "deno repl").
	sub string
	// runs are options after which the program runs what it was given
	// instead of reading the terminal (-c, -e, --command=...); forces are
	// options that make it interactive even so (python -i).
	runs, forces []string
	// values are options that take a separate value, so that the value
	// is not counted as an operand.
	values []string
	// operands is how many operands make it run something given (a
	// script: 1; ssh host COMMAND: 2); 0 means operands never do.
	operands int
	// onlyForced: interactive only with one of forces (sudo -i).
	onlyForced bool
	// quiet are first operands (subcommands) or options that do not start
	// a session (tmux ls, screen -ls, man -k).
	quiet []string
	// replModules are `python -m` modules that are themselves REPLs.
	replModules []string
}

var shellValues = []string{"-o", "+o", "-O", "+O", "--rcfile", "--init-file"}

// InteractivePrograms is the table; see InteractiveProgramNames for the
// names it covers.
var interactivePrograms = []interactiveProgram{
	// Shells: a script operand or -c runs it; -i forces a session.
	{names: []string{"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "tcsh", "csh", "rbash"},
		use: readsInput, runs: []string{"-c"}, forces: []string{"-i"}, values: shellValues, operands: 1},
	{names: []string{"fish"}, use: readsInput, runs: []string{"-c", "--command"}, forces: []string{"-i", "--interactive", "-C", "--init-command"},
		values: []string{"-C", "--init-command", "-d", "--debug", "-o", "--debug-output"}, operands: 1},
	{names: []string{"pwsh", "powershell"}, use: readsInput,
		runs:   []string{"-c", "-command", "-Command", "--command", "-f", "-file", "-File", "-e", "-ec", "-EncodedCommand"},
		forces: []string{"-noexit", "-NoExit"}, values: []string{"-ExecutionPolicy", "-ex", "-wd", "-WorkingDirectory"}, operands: 1},
	{names: []string{"nu", "xonsh", "elvish"}, use: readsInput, runs: []string{"-c", "--commands"}, forces: []string{"-i", "--interactive"}, operands: 1},
	{names: []string{"busybox"}, sub: "sh", use: readsInput, runs: []string{"-c"}, forces: []string{"-i"}, operands: 1},
	{names: []string{"busybox"}, sub: "ash", use: readsInput, runs: []string{"-c"}, forces: []string{"-i"}, operands: 1},
	// Interpreters with a REPL.
	{names: []string{"python", "python2", "python3", "pypy", "pypy3"}, use: readsInput,
		runs: []string{"-c", "-m"}, forces: []string{"-i"}, values: []string{"-W", "-X"}, operands: 1,
		replModules: []string{"code", "asyncio", "pdb", "ipdb", "IPython", "idlelib", "bpython", "ptpython", "sqlite3", "pyrepl"}},
	{names: []string{"ipython", "ipython3", "bpython", "ptpython"}, use: readsInput, runs: []string{"-c", "-m"}, forces: []string{"-i"}, operands: 1},
	{names: []string{"node", "nodejs", "ts-node"}, use: readsInput,
		runs:     []string{"-e", "--eval", "-p", "--print", "--test", "--run"},
		forces:   []string{"-i", "--interactive"},
		values:   []string{"-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions", "--input-type", "--env-file", "--title", "--inspect-port"},
		operands: 1},
	{names: []string{"deno", "bun"}, sub: "repl", use: readsInput},
	{names: []string{"deno"}, use: readsInput, operands: 1},
	{names: []string{"ruby"}, use: readsInput, runs: []string{"-e"}, values: []string{"-I", "-r", "-C", "-E", "-F"}, operands: 1},
	{names: []string{"irb", "pry", "ghci", "iex", "utop", "groovysh", "jshell", "maxima", "swipl", "gforth"}, use: readsInput},
	{names: []string{"scala", "sbt", "clj", "clojure"}, use: readsInput, runs: []string{"-e", "--eval", "-m", "-M", "-X", "-x", "--script"}, operands: 1},
	{names: []string{"perl"}, use: readsInput, runs: []string{"-e", "-E"}, forces: []string{"-d"}, values: []string{"-I", "-M", "-m", "-x"}, operands: 1},
	{names: []string{"php"}, use: readsInput, runs: []string{"-r", "-f", "-l", "-S"}, forces: []string{"-a"}, values: []string{"-c", "-d", "-z", "-t"}, operands: 1},
	{names: []string{"lua", "luajit", "tclsh", "wish", "expect", "guile", "racket", "ocaml", "octave", "dc", "R"},
		use: readsInput, runs: []string{"-e", "-c", "-f", "--file", "--eval", "-x", "-r", "--script", "-s"}, forces: []string{"-i", "--interactive"},
		values: []string{"-l"}, operands: 1},
	{names: []string{"julia"}, use: readsInput, runs: []string{"-e", "-E", "--eval", "--print"}, forces: []string{"-i"},
		values: []string{"-J", "-L", "-p", "-t", "--project", "--sysimage", "--load", "--procs", "--threads"}, operands: 1},
	{names: []string{"erl"}, use: readsInput, runs: []string{"-noshell", "-noinput", "-detached"}},
	{names: []string{"sbcl", "clisp"}, use: readsInput, runs: []string{"--script", "--non-interactive", "-x"}, operands: 0},
	{names: []string{"lein"}, sub: "repl", use: readsInput},
	// Database and service clients.
	{names: []string{"psql"}, use: readsInput, runs: []string{"-c", "--command", "-f", "--file", "-l", "--list"},
		values: []string{"-d", "--dbname", "-h", "--host", "-p", "--port", "-U", "--username", "-v", "--set", "--variable", "-P", "--pset", "-o", "--output", "-L", "--log-file", "-T", "-F", "-R"}},
	{names: []string{"mysql", "mariadb"}, use: readsInput, runs: []string{"-e", "--execute"},
		values: []string{"-h", "--host", "-u", "--user", "-P", "--port", "-D", "--database", "-S", "--socket"}},
	{names: []string{"sqlite3", "duckdb"}, use: readsInput, runs: []string{"-c", "-version", "--version"},
		values: []string{"-cmd", "-separator", "-newline", "-nullvalue", "-init", "-vfs", "-mmap", "-lookaside", "-pagecache", "-heap", "-maxsize"}, operands: 2},
	{names: []string{"redis-cli", "valkey-cli"}, use: readsInput, runs: []string{"--eval", "-x", "--scan", "--stat", "--bigkeys"},
		values: []string{"-h", "-p", "-a", "-n", "-u", "--user", "--pass", "-s", "-r", "-i"}, operands: 1},
	{names: []string{"mongosh", "mongo"}, use: readsInput, runs: []string{"--eval", "-f", "--file"}, values: []string{"--host", "--port", "-u", "--username", "-p", "--password"}},
	{names: []string{"cqlsh"}, use: readsInput, runs: []string{"-e", "--execute", "-f", "--file"}},
	{names: []string{"clickhouse-client"}, use: readsInput, runs: []string{"-q", "--query", "--queries-file"}},
	{names: []string{"sqlplus", "usql"}, use: readsInput, runs: []string{"-c", "--command", "-f", "--file"}},
	{names: []string{"gdb", "lldb", "pdb", "jdb"}, use: readsInput, runs: []string{"-batch", "--batch", "-b"}},
	{names: []string{"ftp", "telnet", "ncftp"}, use: readsInput},
	{names: []string{"sftp"}, use: readsInput, runs: []string{"-b"}, values: []string{"-P", "-i", "-o", "-F", "-J", "-s", "-S", "-B", "-R", "-l", "-D"}},
	{names: []string{"lftp"}, use: readsInput, runs: []string{"-c", "-f"}, values: []string{"-e", "-u", "-p"}},
	{names: []string{"smbclient"}, use: readsInput, runs: []string{"-c", "--command", "-L", "--list"}, values: []string{"-U", "--user", "-W", "-p", "-I"}},
	// Remote and other-user shells: a command operand runs it.
	{names: []string{"ssh"}, use: readsInput, runs: []string{"-N", "-V", "-G", "-Q", "-O"},
		values: []string{"-b", "-B", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-o", "-p", "-R", "-S", "-W", "-w"}, operands: 2},
	{names: []string{"mosh"}, use: readsInput, values: []string{"--ssh", "--port", "-p", "--server", "--predict"}, operands: 2},
	{names: []string{"vagrant"}, sub: "ssh", use: readsInput, runs: []string{"-c", "--command"}},
	{names: []string{"su", "runuser"}, use: readsInput, runs: []string{"-c", "--command", "--session-command"},
		values: []string{"-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment"}},
	{names: []string{"sudo"}, use: readsInput, onlyForced: true, forces: []string{"-i", "-s", "--login", "--shell"},
		values: []string{"-u", "--user", "-g", "--group", "-C", "--close-from", "-D", "--chdir", "-h", "--host", "-p", "--prompt", "-R", "--chroot", "-r", "--role", "-t", "--type", "-T", "--command-timeout", "-U", "--other-user"}},
	{names: []string{"doas"}, use: readsInput, onlyForced: true, forces: []string{"-s"}, values: []string{"-u", "-C"}},
	{names: []string{"login", "newgrp"}, use: readsInput},
	{names: []string{"sg"}, use: readsInput, runs: []string{"-c"}, operands: 2},
	{names: []string{"machinectl"}, sub: "shell", use: readsInput, operands: 2},
	{names: []string{"machinectl"}, sub: "login", use: readsInput},
	{names: []string{"nsenter", "unshare"}, use: readsInput,
		values:   []string{"-t", "--target", "-S", "--setuid", "-G", "--setgid", "-w", "--wd", "-r", "--root", "--map-user", "--map-group"},
		operands: 1},
	{names: []string{"chroot"}, use: readsInput, values: []string{"--userspec", "--groups"}, operands: 2},
	{names: []string{"systemd-run"}, use: readsInput, onlyForced: true, forces: []string{"--shell", "-S"}},
	{names: []string{"at", "batch"}, use: readsInput, runs: []string{"-f", "-l", "-r", "-d", "-c", "-V"}, values: []string{"-q", "-t"}},
	{names: []string{"crontab"}, use: readsInput, runs: []string{"-l", "-r", "-V", "-T"}, forces: []string{"-e"}, values: []string{"-u"}, operands: 1},
	// Programs that read keys from the terminal itself.
	{names: []string{"vi", "vim", "nvim", "view", "vimdiff", "gvim", "ex", "ed", "red", "nano", "pico", "joe", "mg", "jed", "micro", "hx", "helix", "kak", "emacs", "emacsclient"},
		use: readsKeys, quiet: []string{"--batch", "-batch", "--script"}},
	{names: []string{"less", "more", "most", "pg", "man"}, use: readsKeys, quiet: []string{"-k", "-f", "-w", "--where", "--path", "-K"}},
	{names: []string{"top", "htop", "atop", "btop"}, use: readsKeys, quiet: []string{"-b", "--batch"}},
	{names: []string{"script"}, use: readsKeys},
	{names: []string{"tmux", "byobu"}, use: readsKeys, quiet: []string{"ls", "list-sessions", "list-windows", "lsw", "list-panes", "lsp",
		"list-clients", "lsc", "list-buffers", "list-keys", "list-commands", "has-session", "has", "show-options", "show", "show-environment",
		"display-message", "display", "capture-pane", "capturep", "kill-session", "kill-server", "kill-window", "kill-pane", "-V"}},
	{names: []string{"screen"}, use: readsKeys, quiet: []string{"-ls", "-list", "-v", "-version", "-wipe"}},
	{names: []string{"zellij"}, use: readsKeys, quiet: []string{"ls", "list-sessions", "kill-session", "kill-all-sessions", "delete-session"}},
}

// InteractiveProgramNames returns the names of the programs shellguard
// knows to read commands from the terminal, sorted as listed.
func InteractiveProgramNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range interactivePrograms {
		for _, n := range p.names {
			name := n
			if p.sub != "" {
				name += " " + p.sub
			}
			if !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	return append(out, "xargs (arguments from the terminal)", "docker/podman/nerdctl exec|run|attach -i", "docker compose exec|run", "kubectl/oc exec|attach|run|debug -i", "lxc/incus exec")
}

// interactive reports whether inv would read commands (or arguments, or
// keys) from the terminal, and a short description of why.
func interactive(inv *shellparse.Invocation) (string, bool) {
	if inv.NotRun || inv.NameDynamic() {
		return "", false
	}
	for f := inv.Where; f != nil; f = f.Parent {
		if f.Kind == shellparse.FrameRemote {
			if tool, _, _ := strings.Cut(f.Detail, " "); containerTools[tool] || podTools[tool] || tool == "docker-compose" || tool == "lxc" || tool == "incus" {
				// The container's command: judged with its container
				// (whether -i gives it the terminal), see containerSession.
				return "", false
			}
		}
	}
	argv := inv.Argv()
	stdinTTY := stdinIsTerminal(inv)
	if inv.ArgsFromInput && stdinTTY {
		return "xargs takes the arguments of " + inv.Name + " from the terminal", true
	}
	return interactiveArgv(inv.Name, argv, stdinTTY, 0)
}

// interactiveArgv decides for an argv (argv[0] named name).
func interactiveArgv(name string, argv []string, stdinTTY bool, depth int) (string, bool) {
	if depth > 4 || len(argv) == 0 {
		return "", false
	}
	if why, ok, handled := containerSession(name, argv, depth); handled {
		return why, ok
	}
	for i := range interactivePrograms {
		p := &interactivePrograms[i]
		if !p.covers(name) {
			continue
		}
		args := argv[1:]
		if p.sub != "" {
			first := firstOperand(args, p.values)
			if first < 0 || args[first] != p.sub {
				continue
			}
			args = append(append([]string{}, args[:first]...), args[first+1:]...)
		}
		if why, ok := p.decide(name, args, stdinTTY); ok {
			return why, true
		}
		return "", false
	}
	return "", false
}

func (p *interactiveProgram) covers(name string) bool {
	for _, n := range p.names {
		if n == name {
			return true
		}
		// python3.12, pypy3.10
		if (n == "python" || n == "pypy") && strings.HasPrefix(name, n) && strings.Trim(name[len(n):], "0123456789.") == "" {
			return true
		}
	}
	return false
}

// lists reports whether opt is one of the entry's options (a long option
// written with one dash: -cmd, -batch, -noshell).
func (p *interactiveProgram) lists(opt string) bool {
	return contains(p.runs, opt) || contains(p.forces, opt) || contains(p.values, opt) || contains(p.quiet, opt)
}

func (p *interactiveProgram) decide(name string, args []string, stdinTTY bool) (string, bool) {
	label := name
	if p.sub != "" {
		label += " " + p.sub
	}
	var runs, forced, quiet bool
	operands := 0
	replModule := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if operands > 0 && p.use == readsInput {
			// Options after the first operand belong to what it runs.
			operands++
			continue
		}
		if a == "--" {
			operands += len(args) - i - 1
			break
		}
		if contains(p.quiet, a) && (operands == 0 || p.use == readsKeys) {
			quiet = true
		}
		if a == "--version" || a == "--help" {
			return "", false
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			if a != "-" { // "-" is standard input
				operands++
			}
			continue
		}
		if opt, _, _ := strings.Cut(a, "="); strings.HasPrefix(a, "--") || len(opt) > 2 && (p.lists(opt) || !isShortCluster(a)) {
			opt, _, hasValue := strings.Cut(a, "=")
			switch {
			case contains(p.runs, opt):
				runs = true
			case contains(p.forces, opt):
				forced = true
			}
			if !hasValue && contains(p.values, opt) {
				i++
			}
			continue
		}
		// A cluster of short options: -lc, -it, -W arg, -Warg.
		for j := 1; j < len(a); j++ {
			opt := string(a[0]) + string(a[j])
			if contains(p.runs, opt) {
				runs = true
				if opt == "-m" && len(p.replModules) > 0 {
					mod := a[j+1:]
					if mod == "" && i+1 < len(args) {
						mod = args[i+1]
					}
					replModule = contains(p.replModules, mod)
				}
			}
			if contains(p.forces, opt) {
				forced = true
			}
			if contains(p.values, opt) || contains(p.runs, opt) && takesCode(opt) {
				if j == len(a)-1 {
					i++
				}
				break
			}
		}
		if runs && len(p.replModules) == 0 && p.use == readsInput && p.operands > 0 {
			// -c CODE / -m MOD end the options of shells and interpreters.
			break
		}
	}
	switch p.use {
	case readsKeys:
		if quiet {
			return "", false
		}
		return label + " reads keys from the terminal", true
	case readsInput:
		if replModule {
			return label + " -m starts an interactive interpreter", true
		}
		if forced {
			return label + " starts an interactive session", true
		}
		if p.onlyForced || runs || quiet || p.operands > 0 && operands >= p.operands || !stdinTTY {
			return "", false
		}
		return label + " would read commands from the terminal", true
	}
	return "", false
}

// takesCode reports options whose value is code or a file, taken from the
// next word when not attached (-c CMD, -e CODE).
func takesCode(opt string) bool {
	switch opt {
	case "-c", "-e", "-E", "-m", "-f", "-r", "-x":
		return true
	}
	return false
}

func isShortCluster(a string) bool {
	// -Command, -NoExit (PowerShell) are long options written with one
	// dash; treat a dash word with an upper-case letter after the first
	// as one option.
	for i := 2; i < len(a); i++ {
		if a[i] >= 'A' && a[i] <= 'Z' || a[i] == '=' {
			return false
		}
	}
	return true
}

// firstOperand returns the index of the first operand of args (skipping
// options and the values of options in values), or -1.
func firstOperand(args []string, values []string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) {
				return i + 1
			}
			return -1
		}
		if len(a) > 1 && a[0] == '-' {
			if !strings.Contains(a, "=") && contains(values, a) {
				i++
			}
			continue
		}
		return i
	}
	return -1
}

// Container and pod sessions: `docker exec -it c sh`, `kubectl exec -it
// pod -- bash`. With -i the command's stdin is the terminal; the command
// is then judged like any other (an empty one, the image's default, is
// taken to be a shell).
var (
	containerTools = map[string]bool{"docker": true, "podman": true, "nerdctl": true, "finch": true}
	podTools       = map[string]bool{"kubectl": true, "oc": true, "minikube": false}
	// dockerValues are docker exec/run options that take a value.
	dockerValues = []string{"-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "-v", "--volume", "-p", "--publish",
		"--name", "--network", "--net", "-h", "--hostname", "--mount", "-l", "--label", "--label-file", "--add-host", "--cpus",
		"-m", "--memory", "--device", "--cap-add", "--cap-drop", "--security-opt", "--restart", "--platform", "--pull",
		"--ulimit", "--log-driver", "--log-opt", "--tmpfs", "--dns", "--link", "--ipc", "--pid", "--uts", "--gpus",
		"--shm-size", "--runtime", "--stop-signal", "--cidfile", "--volumes-from", "-a", "--attach", "--expose",
		"--group-add", "--detach-keys", "--entrypoint", "--health-cmd", "--userns", "--cgroupns", "--memory-swap", "--cpuset-cpus"}
	kubectlValues = []string{"-n", "--namespace", "-c", "--container", "--context", "--kubeconfig", "--cluster", "--user",
		"-f", "--filename", "--image", "--pod-running-timeout", "--request-timeout", "-s", "--server", "--token", "--as",
		"--env", "--labels", "-l", "--overrides", "--port", "--restart", "--target", "--profile", "--copy-to", "--image-pull-policy"}
)

// containerSession handles docker/podman/kubectl/lxc; handled is false for
// other programs.
func containerSession(name string, argv []string, depth int) (why string, ok, handled bool) {
	switch {
	case containerTools[name]:
		return dockerSession(name, argv[1:], depth)
	case name == "docker-compose":
		return composeSession(name, argv[1:], depth)
	case podTools[name]:
		return kubectlSession(name, argv[1:], depth)
	case name == "lxc" || name == "incus":
		return lxcSession(name, argv[1:], depth)
	}
	return "", false, false
}

// hasInteractiveFlag reports -i (alone or in a cluster: -it) or one of
// long among args, up to "--".
func hasInteractiveFlag(args []string, long ...string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if contains(long, a) || strings.HasPrefix(a, "--interactive=true") || strings.HasPrefix(a, "--stdin=true") {
			return true
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], 'i') >= 0 && isShortCluster(a) {
			return true
		}
	}
	return false
}

// nested judges the command a container runs: empty means the image's
// default command, taken to be a shell.
func nested(what string, cmd []string, depth int) (string, bool, bool) {
	if len(cmd) == 0 {
		return what + " with a terminal runs the image's default command, which reads the terminal", true, true
	}
	prog := cmd[0]
	if i := strings.LastIndexByte(prog, '/'); i >= 0 {
		prog = prog[i+1:]
	}
	why, ok := interactiveArgv(prog, cmd, true, depth+1)
	if ok {
		return what + ": " + why, true, true
	}
	return "", false, true
}

func dockerSession(name string, args []string, depth int) (string, bool, bool) {
	sub := firstOperand(args, []string{"-H", "--host", "--context", "-c", "--config", "-l", "--log-level"})
	if sub < 0 {
		return "", false, true
	}
	verb, rest := args[sub], args[sub+1:]
	if verb == "container" && len(rest) > 0 {
		verb, rest = rest[0], rest[1:]
	}
	switch verb {
	case "compose":
		return composeSession(name+" compose", rest, depth)
	case "attach":
		return name + " attach connects the terminal to a container", true, true
	case "start":
		if hasInteractiveFlag(rest, "--interactive") {
			return name + " start -i connects the terminal to a container", true, true
		}
		return "", false, true
	case "exec", "run":
		i := firstOperand(rest, dockerValues)
		if i < 0 {
			return "", false, true
		}
		// Its own options come before the container or image.
		if !hasInteractiveFlag(rest[:i], "--interactive") || detached(rest[:i]) {
			return "", false, true
		}
		cmd := rest[i+1:]
		if verb == "run" {
			if ep := wordOptionValue(rest[:i], "--entrypoint"); ep != "" {
				cmd = append([]string{ep}, cmd...)
			}
		}
		return nested(name+" "+verb+" -i", cmd, depth)
	}
	return "", false, true
}

func composeSession(name string, args []string, depth int) (string, bool, bool) {
	values := []string{"-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--project-directory", "-e", "--env", "-u", "--user", "-w", "--workdir", "--index", "--entrypoint", "-v", "--volume", "--name", "-l", "--label"}
	sub := firstOperand(args, values)
	if sub < 0 {
		return "", false, true
	}
	verb, rest := args[sub], args[sub+1:]
	if verb != "exec" && verb != "run" {
		return "", false, true
	}
	// Compose attaches standard input by default (-T only drops the
	// terminal).
	i := firstOperand(rest, values)
	if i < 0 || detached(rest[:i]) {
		return "", false, true
	}
	return nested(name+" "+verb, rest[i+1:], depth)
}

func kubectlSession(name string, args []string, depth int) (string, bool, bool) {
	sub := firstOperand(args, kubectlValues)
	if sub < 0 {
		return "", false, true
	}
	verb, rest := args[sub], args[sub+1:]
	interactiveFlag := hasInteractiveFlag(rest, "--stdin")
	switch verb {
	case "attach", "debug", "run":
		if interactiveFlag {
			return name + " " + verb + " -i connects the terminal to a pod", true, true
		}
	case "exec":
		if !interactiveFlag {
			return "", false, true
		}
		for i, a := range rest {
			if a == "--" {
				return nested(name+" exec -i", rest[i+1:], depth)
			}
		}
		// The old form: kubectl exec -it POD COMMAND.
		if i := firstOperand(rest, kubectlValues); i >= 0 {
			return nested(name+" exec -i", rest[i+1:], depth)
		}
	}
	return "", false, true
}

func lxcSession(name string, args []string, depth int) (string, bool, bool) {
	sub := firstOperand(args, nil)
	if sub < 0 || args[sub] != "exec" && args[sub] != "shell" && args[sub] != "console" {
		return "", false, true
	}
	if args[sub] != "exec" {
		return name + " " + args[sub] + " connects the terminal to a container", true, true
	}
	rest := args[sub+1:]
	for i, a := range rest {
		if a == "--" {
			return nested(name+" exec", rest[i+1:], depth)
		}
	}
	if i := firstOperand(rest, []string{"--env", "--cwd", "--user", "--group", "--mode"}); i >= 0 {
		return nested(name+" exec", rest[i+1:], depth)
	}
	return "", false, true
}

func detached(opts []string) bool {
	for _, a := range opts {
		if a == "-d" || a == "--detach" || strings.HasPrefix(a, "--detach=true") ||
			len(a) > 2 && a[0] == '-' && a[1] != '-' && isShortCluster(a) && strings.IndexByte(a, 'd') > 0 {
			return true
		}
	}
	return false
}

func wordOptionValue(args []string, opt string) string {
	for i, a := range args {
		if a == opt && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, opt+"="); ok {
			return v
		}
	}
	return ""
}

// stdinIsTerminal reports whether inv's standard input is (as far as the
// line says) the terminal: not redirected, not fed by a pipe, a heredoc, a
// here-string or the shell input it was re-parsed from, not a background
// job.
func stdinIsTerminal(inv *shellparse.Invocation) bool {
	for _, r := range inv.Redirs {
		if r.Fd != "" && r.Fd != "0" {
			continue
		}
		switch r.Op {
		case "<", "<<", "<<-", "<<<", "<>":
			return false
		case "<&":
			if r.Target != "0" {
				return false
			}
		}
	}
	for f := inv.Where; f != nil; f = f.Parent {
		switch f.Kind {
		case shellparse.FramePipeline:
			if f.Stage > 0 {
				return false
			}
		case shellparse.FrameBackground, shellparse.FrameProcSubst, shellparse.FrameShellStdin:
			return false
		}
	}
	return true
}
