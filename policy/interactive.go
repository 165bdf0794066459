package policy

import (
	"slices"
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
	"github.com/shellguard/shellguard/shellparse"
)

// Programs that read commands from the terminal. Under an agent whose
// shell tool can keep a terminal session open and type into it (Codex's
// exec_command with tty, then write_stdin), whatever is typed into such a
// program never reaches a hook: shellguard sees `bash` and nothing after.
// For those agents (agents.Spec.TerminalSessions) an invocation that would
// read commands from the terminal is denied.
//
// Knowledge is data: how each program can be told to run something given
// (a script, -c, -e, ...) instead of reading its input is the terminal
// facts of the program data (internal/programs/data/terminal.toml), read
// by programs.ReadsTerminal. The code below adds what is not one program's
// argv: standard input, xargs, and the commands container and pod tools
// run with a terminal.

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
	return programs.ReadsTerminal(name, argv, stdinTTY)
}

// isShortCluster reports a dash word that is a cluster of one-letter
// options (-it), not a long option written with one dash (-Command).
func isShortCluster(a string) bool {
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
	return programs.FirstOperand(args, func(o string) bool { return slices.Contains(values, o) })
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
		if slices.Contains(long, a) || strings.HasPrefix(a, "--interactive=true") || strings.HasPrefix(a, "--stdin=true") {
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
