package shellparse

import (
	"encoding/json"
	"strings"
)

// runnerCommand recognises programs whose arguments are a command to run
// somewhere else: in a container (docker/podman exec and run, compose exec
// and run), a pod (kubectl exec/run/debug), a machine (lxc/incus/multipass
// exec, vagrant ssh -c, gcloud compute ssh --command), a nix shell
// (nix-shell --run), a package runner (npm/yarn/pnpm exec), or a
// configuration tool (ansible -m shell -a). It returns a label for the
// frame ("docker exec"), the inner argv, or a shell string to re-parse.
// label is "" when the program runs nothing of the kind.
func runnerCommand(name string, args []Arg) (label string, inner []Arg, job *reparseJob) {
	switch name {
	case "docker", "podman", "podman-remote", "nerdctl", "docker-compose", "podman-compose":
		i, sub := subcommand(args, dockerGlobalValues)
		if name == "docker-compose" || name == "podman-compose" {
			sub = "compose " + sub
		} else if sub == "compose" || sub == "container" {
			j, sub2 := subcommand(args[i:], dockerGlobalValues)
			i += j
			sub = sub + " " + sub2
		}
		if ep := entrypoint(args[i:]); ep != nil && (strings.HasSuffix(sub, "run") || strings.HasSuffix(sub, "create")) {
			// --entrypoint PROG: the container runs PROG with the words
			// after the image as its arguments.
			_, rest, _ := runner("", args[i:], dockerRunValues, 1)
			return name + " " + sub, append([]Arg{*ep}, rest...), nil
		}
		switch sub {
		case "exec", "container exec", "compose exec":
			return runner(name+" "+sub, args[i:], dockerExecValues, 1)
		case "run", "create", "container run", "container create", "compose run":
			return runner(name+" "+sub, args[i:], dockerRunValues, 1)
		}
	case "kubectl", "oc", "lxc", "incus", "multipass":
		_, sub := subcommand(args, kubectlGlobalValues)
		switch sub {
		case "exec", "run", "debug", "shell":
			if rest := afterDashDash(args); rest != nil {
				return name + " " + sub, rest, nil
			}
			return "", nil, nil
		}
	case "npm", "pnpm", "yarn", "bun":
		i, sub := subcommand(args, nil)
		switch sub {
		case "exec", "x":
			if rest := afterDashDash(args[i:]); rest != nil {
				return name + " " + sub, rest, nil
			}
			if name != "npm" {
				return runner(name+" "+sub, args[i:], nil, 0)
			}
		}
	case "tmux", "screen":
		// tmux new-session/new-window/split-window/respawn-pane ... 'CMD':
		// the last operand is a shell command.
		i, sub := subcommand(args, tmuxValues)
		switch sub {
		case "new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp",
			"respawn-window", "respawnw", "run-shell", "run", "display-popup", "popup":
			_, rest, _ := runner("", args[i:], tmuxCommandValues, 0)
			if len(rest) > 0 {
				parts := make([]string, len(rest))
				dyn := false
				for k, a := range rest {
					parts[k] = a.Value
					dyn = dyn || a.Dynamic
				}
				return name + " " + sub, nil, &reparseJob{text: strings.Join(parts, " "), dynamic: dyn, by: name + " " + sub}
			}
		}
	case "direnv", "mise", "rtx", "asdf", "conda", "mamba", "micromamba", "pdm", "hatch", "rye", "pixi", "poetry",
		"pipenv", "uv", "op", "doppler", "infisical", "aws-vault", "sops", "envchain", "dotenvx", "devbox", "flox",
		"bundle", "bundler", "just", "task":
		// Tool and secret managers that run a command in an environment:
		// direnv exec DIR CMD, mise exec -- CMD, conda run -n ENV CMD,
		// op run -- CMD, aws-vault exec PROFILE -- CMD, bundle exec CMD ...
		i, sub := subcommand(args, envToolValues)
		switch sub {
		case "exec", "run", "x", "exec-env", "exec-file":
			if rest := afterDashDash(args[i:]); rest != nil {
				return name + " " + sub, rest, nil
			}
			skip := 0
			switch name + " " + sub {
			case "direnv exec", "aws-vault exec", "sops exec-env", "sops exec-file", "envchain exec":
				skip = 1
			}
			if name == "just" || name == "task" || name == "pixi" && sub == "run" && !strings.Contains(argsString(args[i:]), " ") {
				return "", nil, nil
			}
			return runner(name+" "+sub, args[i:], envToolValues, skip)
		}
	case "toolbox", "distrobox":
		i, sub := subcommand(args, envToolValues)
		if sub == "run" || sub == "enter" {
			if rest := afterDashDash(args[i:]); rest != nil {
				return name + " " + sub, rest, nil
			}
			if sub == "run" {
				return runner(name+" "+sub, args[i:], envToolValues, 0)
			}
		}
	case "perf":
		i, sub := subcommand(args, nil)
		switch sub {
		case "record", "stat", "trace", "top", "sched", "mem", "kvm", "c2c", "lock":
			return runner(name+" "+sub, args[i:], perfValues, 0)
		}
	case "vagrant":
		if v := optionValue(args, "c", "--command"); v != nil {
			return "vagrant ssh", nil, &reparseJob{text: v.Value, dynamic: v.Dynamic, by: "vagrant ssh -c", remote: true}
		}
	case "gcloud":
		if v := optionValue(args, "", "--command"); v != nil {
			return "gcloud ssh", nil, &reparseJob{text: v.Value, dynamic: v.Dynamic, by: "gcloud --command", remote: true}
		}
	case "nix-shell":
		for _, long := range []string{"--run", "--command"} {
			if v := optionValue(args, "", long); v != nil {
				return "nix-shell", nil, &reparseJob{text: v.Value, dynamic: v.Dynamic, by: "nix-shell " + long}
			}
		}
	case "ansible":
		// ansible HOSTS [-m MODULE] -a ARGS: the command, shell and raw
		// modules (command by default, ansible.builtin.shell written in
		// full) run ARGS on every host.
		module, mod := optionValue(args, "m", "--module-name"), "command"
		if module != nil {
			mod = strings.TrimPrefix(strings.TrimPrefix(module.Value, "ansible.builtin."), "ansible.legacy.")
		}
		if module == nil || !module.Dynamic && (mod == "shell" || mod == "command" || mod == "raw" || mod == "win_shell" || mod == "win_command") {
			if v := optionValue(args, "a", "--args"); v != nil {
				return "ansible", nil, &reparseJob{text: v.Value, dynamic: v.Dynamic, by: "ansible -m " + mod, remote: true}
			}
		}
	default:
		if job := fanoutJob(name, args); job != nil {
			return job.by, nil, job
		}
	}
	return "", nil, nil
}

// fanoutJob recognises the tools that run one shell command on many hosts
// (salt TARGET cmd.run CMD, pssh/parallel-ssh/pdsh/clush HOSTS CMD,
// mussh -c CMD, knife ssh QUERY CMD, fab -H HOSTS -- CMD) and salt-call's
// local cmd.run; the job's by names the tool (and the function) and is
// the label of the remote frame.
func fanoutJob(name string, args []Arg) *reparseJob {
	text := func(words []Arg, by string, remote bool) *reparseJob {
		if len(words) == 0 {
			return nil
		}
		parts := make([]string, len(words))
		dyn := false
		for k, a := range words {
			parts[k] = a.Value
			dyn = dyn || a.Dynamic
		}
		return &reparseJob{text: strings.Join(parts, " "), dynamic: dyn, by: by, remote: remote}
	}
	switch name {
	case "salt", "salt-ssh", "salt-call":
		ops := operands(args, saltValues, false)
		if name != "salt-call" {
			if len(ops) < 1 {
				return nil
			}
			ops = ops[1:] // the target
		}
		if len(ops) < 2 {
			return nil
		}
		switch ops[0].Value {
		case "cmd.run", "cmd.run_all", "cmd.run_stdout", "cmd.run_stderr", "cmd.run_bg", "cmd.shell", "cmd.retcode":
		default:
			return nil
		}
		var words []Arg
		for _, a := range ops[1:] {
			if k := strings.IndexByte(a.Value, '='); k > 0 && !a.Dynamic && saltKwarg(a.Value[:k]) {
				continue
			}
			words = append(words, a)
		}
		return text(words, name+" "+ops[0].Value, name != "salt-call")
	case "pssh", "parallel-ssh", "pdsh", "clush":
		for _, a := range args {
			switch a.Value {
			case "-c", "--copy", "--rcopy":
				return nil // clush copies files
			}
		}
		return text(operands(args, fanoutValues, true), name, true)
	case "mussh":
		if v := optionValue(args, "c", "-c"); v != nil {
			return &reparseJob{text: v.Value, dynamic: v.Dynamic, by: name, remote: true}
		}
	case "knife":
		ops := operands(args, knifeValues, false)
		if len(ops) >= 3 && ops[0].Value == "ssh" {
			return text(ops[2:], "knife ssh", true)
		}
	case "fab":
		if optionValue(args, "H", "--hosts") != nil {
			return text(afterDashDash(args), "fab", true)
		}
	case "consul":
		// consul exec [-node=N] [-service=S] CMD runs CMD on every
		// matching node of the cluster.
		ops := operands(args, consulValues, false)
		if len(ops) >= 2 && ops[0].Value == "exec" {
			return text(ops[1:], "consul exec", true)
		}
	case "aws":
		// aws ssm send-command --document-name AWS-RunShellScript
		// --parameters commands=CMD runs CMD on every target instance.
		ops := operands(args, func(string) bool { return false }, false)
		if len(ops) < 2 || ops[0].Value != "ssm" || ops[1].Value != "send-command" {
			return nil
		}
		v := optionValue(args, "", "--parameters")
		if v == nil {
			return nil
		}
		if cmds := ssmCommands(v.Value); cmds != "" {
			return &reparseJob{text: cmds, dynamic: v.Dynamic, by: "aws ssm send-command", remote: true}
		}
	}
	return nil
}

// ssmCommands returns the commands of aws ssm send-command's --parameters,
// one per line: commands=CMD, commands=["A","B"] or {"commands":["A"]}.
func ssmCommands(v string) string {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "{") {
		var p map[string][]string
		if json.Unmarshal([]byte(v), &p) != nil {
			return ""
		}
		return strings.Join(p["commands"], "\n")
	}
	rest, ok := strings.CutPrefix(v, "commands=")
	if !ok {
		return ""
	}
	if strings.HasPrefix(rest, "[") {
		var list []string
		if json.Unmarshal([]byte(rest), &list) == nil {
			return strings.Join(list, "\n")
		}
		rest = strings.Trim(rest, "[]")
	}
	return rest
}

// operands returns the words of args that are neither options nor the
// values of the options values says take one; with posix, every word from
// the first operand on.
func operands(args []Arg, values func(string) bool, posix bool) []Arg {
	var out []Arg
	for i := 0; i < len(args); i++ {
		if posix && len(out) > 0 {
			return append(out, args[i:]...)
		}
		v := args[i].Value
		if v == "--" && !args[i].Dynamic {
			return append(out, args[i+1:]...)
		}
		if !args[i].Dynamic && strings.HasPrefix(v, "-") && len(v) > 1 {
			if values(v) && !strings.Contains(v, "=") {
				i++
			}
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// saltValues are the options of salt and salt-ssh that take a value.
func saltValues(f string) bool {
	switch f {
	case "-t", "--timeout", "-b", "--batch-size", "--batch", "--batch-wait", "-c", "--config-dir", "--out", "--output",
		"--out-file", "--output-file", "--out-indent", "--output-indent", "-l", "--log-level", "--log-file",
		"--log-file-level", "--return", "--return-config", "--return-kwargs", "-a", "--auth", "--eauth", "--external-auth",
		"--module-executors", "--delimiter", "--state-output", "--state-verbose", "--roster", "--roster-file", "--priv",
		"--user", "--passwd", "--ssh-option", "--extra-filerefs", "-s", "--saltfile", "--id", "--pillar-root",
		"--file-root", "--local-cache", "--retcode-passthrough", "--metadata", "--jid":
		return f != "--retcode-passthrough"
	}
	return false
}

// saltKwarg reports a keyword argument of salt's cmd functions (runas=,
// cwd=, ...), which is not part of the command.
func saltKwarg(k string) bool {
	switch k {
	case "runas", "cwd", "shell", "env", "timeout", "python_shell", "stdin", "umask", "output_loglevel", "group",
		"password", "template", "saltenv", "use_vt", "clean_env", "bg", "hide_output", "success_retcodes", "ignore_retcode":
		return true
	}
	return false
}

// fanoutValues are the options of pssh, parallel-ssh, pdsh and clush that
// take a value.
func fanoutValues(f string) bool {
	switch f {
	case "-h", "--hosts", "-H", "--host", "-l", "--user", "-p", "--par", "-o", "--outdir", "-e", "--errdir", "-t",
		"--timeout", "-O", "--option", "-x", "--extra-args", "-X", "--extra-arg", "-w", "-g", "--group", "-R", "-f",
		"--fanout", "-u", "--command-timeout", "-M", "--worker", "--hostfile", "--topology", "--pick", "--nodes",
		"--exclude", "--options", "--connect_timeout", "--command_timeout", "--diff":
		return f != "--diff"
	}
	return false
}

// consulValues are consul's options that take a value (Go flags: -node N
// or -node=N).
func consulValues(f string) bool {
	switch strings.TrimLeft(f, "-") {
	case "node", "service", "tag", "wait", "wait-repl", "datacenter", "prefix", "http-addr", "token", "token-file",
		"ca-file", "ca-path", "client-cert", "client-key", "tls-server-name", "namespace", "partition":
		return true
	}
	return false
}

// knifeValues are knife's options that take a value.
func knifeValues(f string) bool {
	switch f {
	case "-x", "--ssh-user", "-P", "--ssh-password", "-p", "--ssh-port", "-i", "--ssh-identity-file", "-a",
		"--attribute", "-C", "--concurrency", "-G", "--ssh-gateway", "-c", "--config", "-s", "--server-url", "-u",
		"--user", "-k", "--key", "-E", "--environment", "-F", "--format", "--profile", "--chef-zero-port":
		return true
	}
	return false
}

// subcommand returns the first operand (skipping options) and the index
// after it.
func subcommand(args []Arg, values func(string) bool) (int, string) {
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if strings.HasPrefix(v, "-") {
			if values != nil && values(v) && !strings.Contains(v, "=") {
				i++
			}
			continue
		}
		return i + 1, v
	}
	return len(args), ""
}

// runner skips options (those for which values reports a separate value
// take the next word) and skip operands (the container, the image), and
// returns the rest as the inner argv.
func runner(label string, args []Arg, values func(string) bool, skip int) (string, []Arg, *reparseJob) {
	i := 0
	for i < len(args) {
		v := args[i].Value
		if v == "--" {
			i++
			break
		}
		if strings.HasPrefix(v, "-") && len(v) > 1 {
			if values != nil && values(v) && !strings.Contains(v, "=") {
				i++
			}
			i++
			continue
		}
		if skip == 0 {
			break
		}
		skip--
		i++
	}
	if i >= len(args) {
		return label, nil, nil
	}
	return label, args[i:], nil
}

func afterDashDash(args []Arg) []Arg {
	for i, a := range args {
		if a.Value == "--" && !a.Dynamic {
			if i+1 < len(args) {
				return args[i+1:]
			}
			return nil
		}
	}
	return nil
}

func argsString(args []Arg) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.Value
	}
	return strings.Join(parts, " ")
}

// perfValues are perf record/stat/trace options that take a value.
func perfValues(f string) bool {
	switch f {
	case "-o", "--output", "-e", "--event", "-p", "--pid", "-t", "--tid", "-F", "--freq", "-c", "--count", "-C", "--cpu",
		"-G", "--cgroup", "-u", "--uid", "-I", "--interval-print", "-r", "--repeat", "--call-graph", "-m", "--mmap-pages":
		return true
	}
	return false
}

// envToolValues are options of environment and secret managers that take
// a value.
func envToolValues(f string) bool {
	switch f {
	case "-n", "--name", "-p", "--prefix", "-e", "--env", "--env-file", "-C", "--cd", "--profile", "--config",
		"--project", "-P", "--python", "--with", "--from", "--group", "--directory", "-d", "--environment", "--manifest-path":
		return true
	}
	return false
}

// entrypoint returns the value of --entrypoint, if any.
func entrypoint(args []Arg) *Arg {
	for i, a := range args {
		if a.Value == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a.Value, "--entrypoint="); ok {
			return &Arg{Value: v, Raw: a.Raw, Dynamic: a.Dynamic}
		}
		if a.Value == "--entrypoint" && i+1 < len(args) {
			return &args[i+1]
		}
	}
	return nil
}

// dockerGlobalValues are the options of docker, podman and compose (before
// the subcommand) that take a value.
func dockerGlobalValues(f string) bool {
	switch f {
	case "-l", "--log-level", "-H", "--host", "-c", "--context", "--config", "--tlscacert", "--tlscert", "--tlskey",
		"-f", "--file", "-p", "--project-name", "--env-file", "--profile", "--project-directory", "--url",
		"--connection", "--root", "--runroot", "--storage-driver", "--ansi", "--progress", "--parallel":
		return true
	}
	return false
}

// kubectlGlobalValues are kubectl's global options that take a value.
func kubectlGlobalValues(f string) bool {
	switch f {
	case "-n", "--namespace", "--context", "--kubeconfig", "-s", "--server", "--cluster", "--user", "--token",
		"--as", "--as-group", "--certificate-authority", "--client-certificate", "--client-key", "--request-timeout",
		"--project", "--remote":
		return true
	}
	return false
}

func tmuxValues(f string) bool {
	switch f {
	case "-L", "-S", "-f", "-c", "-T":
		return true
	}
	return false
}

// tmuxCommandValues are the options of tmux's command-running commands
// that take a value.
func tmuxCommandValues(f string) bool {
	switch f {
	case "-s", "-n", "-c", "-t", "-x", "-y", "-e", "-F", "-f", "-l", "-p", "-w", "-h", "-T", "-b", "-d", "-E", "-S":
		return f != "-d" && f != "-h" && f != "-b" && f != "-E"
	}
	return false
}

func dockerExecValues(f string) bool {
	switch f {
	case "-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--detach-keys", "--index":
		return true
	}
	return false
}

func dockerRunValues(f string) bool {
	switch f {
	case "-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "-v", "--volume", "--mount", "-p", "--publish",
		"--name", "--network", "--net", "--entrypoint", "-l", "--label", "--label-file", "--platform", "-m", "--memory",
		"--cpus", "--cpu-shares", "-c", "-h", "--hostname", "--add-host", "--cap-add", "--cap-drop", "--device", "--gpus",
		"--restart", "--pull", "--log-driver", "--log-opt", "--shm-size", "--ulimit", "--tmpfs", "--security-opt",
		"--ipc", "--pid", "--uts", "--dns", "--dns-search", "--dns-option", "--expose", "--group-add", "--link",
		"--runtime", "--stop-signal", "--stop-timeout", "--volumes-from", "--workdir-from", "--cidfile", "--cgroupns",
		"--memory-swap", "--network-alias", "--ip", "--ip6", "--mac-address", "--health-cmd", "--userns",
		"--detach-keys", "--attach", "-a", "--storage-opt", "--sysctl", "--isolation", "--init-path", "--kernel-memory",
		"--oom-score-adj", "--blkio-weight", "--cpuset-cpus", "--cpuset-mems", "--device-cgroup-rule", "--annotation",
		"--service-ports", "--index":
		return true
	}
	return false
}
