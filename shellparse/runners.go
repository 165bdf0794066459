package shellparse

import (
	"encoding/json"
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
)

// runnerCommand recognises programs whose arguments are a command to run
// somewhere else: in a container (docker/podman exec and run, compose exec
// and run), a pod (kubectl exec/run/debug), a machine (lxc/incus/multipass
// exec, vagrant ssh -c, gcloud compute ssh --command), a nix shell
// (nix-shell --run), a package runner (npm/yarn/pnpm exec), or a
// configuration tool (ansible -m shell -a). It returns a label for the
// frame ("docker exec"), the inner argv, or a shell string to re-parse.
// label is "" when the program runs nothing of the kind. Which programs
// these are, their subcommands and the options that take a value are the
// launcher facts of internal/programs (internal/programs/data/
// launchers.toml); the code here is how each kind finds the command.
func runnerCommand(name string, args []Arg) (label string, inner []Arg, job *reparseJob) {
	p := programs.Lookup(name)
	if p.Has(programs.Runs) {
		if label, inner, job := fetchedRun(p, name, args); label != "" {
			return label, inner, job
		}
	}
	if p == nil || p.Launcher == nil {
		return "", nil, nil
	}
	l := p.Launcher
	globals, values, runValues := optionsIn(l.Globals), optionsIn(l.Values), optionsIn(l.RunValues)
	switch l.Kind {
	case "container":
		i, sub := subcommand(args, globals)
		if name == "docker-compose" || name == "podman-compose" {
			sub = "compose " + sub
		} else if sub == "compose" || sub == "container" {
			j, sub2 := subcommand(args[i:], globals)
			i += j
			sub = sub + " " + sub2
		}
		if ep := entrypoint(args[i:]); ep != nil && (strings.HasSuffix(sub, "run") || strings.HasSuffix(sub, "create")) {
			// --entrypoint PROG: the container runs PROG with the words
			// after the image as its arguments.
			_, rest, _ := runner("", args[i:], runValues, 1)
			return name + " " + sub, append([]Arg{*ep}, rest...), nil
		}
		switch sub {
		case "exec", "container exec", "compose exec":
			return runner(name+" "+sub, args[i:], values, 1)
		case "run", "create", "container run", "container create", "compose run":
			return runner(name+" "+sub, args[i:], runValues, 1)
		}
	case "pod":
		_, sub := subcommand(args, globals)
		if l.Subs.Has(sub) {
			if rest := afterDashDash(args); rest != nil {
				return name + " " + sub, rest, nil
			}
			return "", nil, nil
		}
	case "package":
		i, sub := subcommand(args, nil)
		if l.Subs.Has(sub) {
			if rest := afterDashDash(args[i:]); rest != nil {
				return name + " " + sub, rest, nil
			}
			if name != "npm" {
				return runner(name+" "+sub, args[i:], nil, 0)
			}
		}
	case "terminal":
		// tmux new-session/new-window/split-window/respawn-pane ... 'CMD':
		// the last operand is a shell command.
		i, sub := subcommand(args, globals)
		if l.Subs.Has(sub) {
			_, rest, _ := runner("", args[i:], values, 0)
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
	case "env_tool":
		// Tool and secret managers that run a command in an environment:
		// direnv exec DIR CMD, mise exec -- CMD, conda run -n ENV CMD,
		// op run -- CMD, aws-vault exec PROFILE -- CMD, bundle exec CMD ...
		i, sub := subcommand(args, values)
		if l.Subs.Has(sub) {
			if rest := afterDashDash(args[i:]); rest != nil {
				return name + " " + sub, rest, nil
			}
			skip := 0
			switch name + " " + sub {
			case "direnv exec", "aws-vault exec", "sops exec-env", "sops exec-file", "envchain exec", "nvm exec", "rustup run":
				skip = 1
			case "nvm run":
				// nvm run VERSION ARGS runs node ARGS.
				if len(args) > i+1 {
					node := append([]Arg{{Value: "node", Raw: "node"}}, args[i+1:]...)
					return name + " " + sub, node, nil
				}
				return "", nil, nil
			}
			if name == "just" || name == "task" || name == "pixi" && sub == "run" && !strings.Contains(argsString(args[i:]), " ") {
				return "", nil, nil
			}
			return runner(name+" "+sub, args[i:], values, skip)
		}
	case "toolbox":
		i, sub := subcommand(args, values)
		if l.Subs.Has(sub) {
			if rest := afterDashDash(args[i:]); rest != nil {
				return name + " " + sub, rest, nil
			}
			if sub == "run" {
				return runner(name+" "+sub, args[i:], values, 0)
			}
		}
	case "perf":
		i, sub := subcommand(args, nil)
		if l.Subs.Has(sub) {
			return runner(name+" "+sub, args[i:], values, 0)
		}
	case "vagrant":
		if v := optionValue(args, "c", "--command"); v != nil {
			return "vagrant ssh", nil, &reparseJob{text: v.Value, dynamic: v.Dynamic, by: "vagrant ssh -c", remote: true}
		}
	case "gcloud":
		if v := optionValue(args, "", "--command"); v != nil {
			return "gcloud ssh", nil, &reparseJob{text: v.Value, dynamic: v.Dynamic, by: "gcloud --command", remote: true}
		}
	case "nix_shell":
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
		if job := fanoutJob(name, l, args); job != nil {
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
func fanoutJob(name string, l *programs.Launcher, args []Arg) *reparseJob {
	values := optionsIn(l.Values)
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
	switch l.Kind {
	case "salt":
		ops := operands(args, values, false)
		if name != "salt-call" {
			if len(ops) < 1 {
				return nil
			}
			ops = ops[1:] // the target
		}
		if len(ops) < 2 {
			return nil
		}
		if !l.Subs.Has(ops[0].Value) {
			return nil
		}
		var words []Arg
		for _, a := range ops[1:] {
			if k := strings.IndexByte(a.Value, '='); k > 0 && !a.Dynamic && l.Kwargs.Has(a.Value[:k]) {
				continue
			}
			words = append(words, a)
		}
		return text(words, name+" "+ops[0].Value, name != "salt-call")
	case "fanout":
		for _, a := range args {
			switch a.Value {
			case "-c", "--copy", "--rcopy":
				return nil // clush copies files
			}
		}
		return text(operands(args, values, true), name, true)
	case "mussh":
		if v := optionValue(args, "c", "-c"); v != nil {
			return &reparseJob{text: v.Value, dynamic: v.Dynamic, by: name, remote: true}
		}
	case "knife":
		ops := operands(args, values, false)
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
		ops := operands(args, func(f string) bool { return values("-" + strings.TrimLeft(f, "-")) }, false)
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

// optionsIn returns the test of the options in l (those that take a
// value), for subcommand, runner and operands.
func optionsIn(l programs.List) func(string) bool {
	if l == "" {
		return noOptions
	}
	return l.Has
}

func noOptions(string) bool { return false }

// fetchedRun reads a package runner (npx -p PKG sh -c CMD, yarn dlx -p PKG
// bash x.sh, uvx --from PKG python -c CODE) whose program is one that runs
// code: a shell, a wrapper, a launcher, or a program with code of its own
// (an interpreter). The runner puts the package's programs on the PATH
// and runs that program, which the parser follows like any other. Any
// other program it runs, fetched from a registry, is read by danger as
// the runner's (npx rimraf ~ is rimraf ~).
func fetchedRun(p *programs.Program, name string, args []Arg) (string, []Arg, *reparseJob) {
	dyn := make([]bool, len(args))
	for i, a := range args {
		dyn[i] = a.Dynamic
	}
	k, target, ok := programs.RunTarget(p, argValues(args), dyn)
	if !ok || !runsCode(target) {
		return "", nil, nil
	}
	return name + " " + target, args[k:], nil
}

// runsCode reports a program that runs code it is given: a shell or a
// command interpreter, a wrapper, a launcher, or one with code runs.
func runsCode(name string) bool {
	q := programs.Lookup(name)
	return q != nil && (programs.StartsShell(name) || q.Wrapper != nil || q.Launcher != nil || len(q.CodeRuns) > 0)
}
