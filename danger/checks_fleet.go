package danger

import (
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
	"github.com/shellguard/shellguard/internal/shquote"
	"github.com/shellguard/shellguard/shellparse"
)

// The fleet pack's checks (danger/checks.toml): a command run on many
// hosts at once. The parser re-parses what the fan-out tools run (ansible
// -m shell, salt cmd.run, pssh, pdsh, clush, mussh, knife ssh, fab) into
// invocations in a remote frame named after the tool; a remote command
// (ssh HOST CMD, kubectl exec, docker exec) is fanned out too when the
// command that runs it is repeated over hosts: fed by xargs, or in a loop
// whose words it reads (for h in ...; do ssh "$h" CMD; done).

// fanoutTool reports a remote frame's label that names a fan-out tool.
func fanoutTool(label string) bool {
	for _, p := range []string{"ansible", "salt ", "salt-ssh ", "pssh", "parallel-ssh", "pdsh", "clush", "mussh", "knife ssh", "fab", "aws ssm", "consul exec"} {
		if strings.HasPrefix(label, p) {
			return true
		}
	}
	return false
}

// fannedOut reports whether invocation i runs on many hosts: inside the
// remote frame of a fan-out tool, or run remotely by a command that is
// itself repeated over hosts.
func fannedOut(sc *scan, i int) bool {
	res := sc.res
	for f := res.Invocations[i].Where; f != nil; f = f.Parent {
		if f.Kind == shellparse.FrameRemote && fanoutTool(f.Detail) {
			return true
		}
	}
	for k, guard := i, 0; k >= 0 && k < len(res.Invocations) && guard < 64; guard++ {
		inv := &res.Invocations[k]
		a := inv.Parent
		if a < 0 || a == k || a >= len(res.Invocations) {
			break
		}
		// k runs remotely, in a frame a opened (not one a is in).
		if f := inv.Where.Find(shellparse.FrameRemote); f != nil && f != res.Invocations[a].Where.Find(shellparse.FrameRemote) && repeated(sc, a) {
			return true
		}
		k = a
	}
	return false
}

// repeated reports an invocation run once per input line (xargs runs it,
// or a command that runs it) or once per word of a loop whose variable
// names its target (the host of ssh, the pod of kubectl exec: a dynamic
// first operand, or second after a subcommand).
func repeated(sc *scan, a int) bool {
	res := sc.res
	for k, guard := a, 0; k >= 0 && k < len(res.Invocations) && guard < 64; guard++ {
		inv := &res.Invocations[k]
		if inv.HasWrapper("xargs") || inv.ArgsFromInput {
			return true
		}
		if inv.Parent == k {
			break
		}
		k = inv.Parent
	}
	inv := &res.Invocations[a]
	loop := false
	for f := inv.Where; f != nil; f = f.Parent {
		if f.Kind == shellparse.FrameControl && (f.Detail == "for" || f.Detail == "while" || f.Detail == "until" || f.Detail == "select") {
			loop = true
			break
		}
	}
	if !loop {
		return false
	}
	args := sc.args(a)
	if len(args) < 2 {
		return false
	}
	n := 2
	switch sc.name(a) {
	case "ssh", "sshpass", "autossh", "mosh":
		n = 1
	}
	s := scannerFor(sc.invs[a].prog, args[1:], "")
	for seen, items := 0, 0; seen < n && items < 256; items++ {
		it, ok := s.Next()
		if !ok {
			break
		}
		if it.Kind != programs.Operand {
			continue
		}
		// As written: a loop variable is $h even where the parser
		// resolves it to each word of a literal list.
		if raw := args[1+it.Word].Raw; it.Dynamic || strings.ContainsAny(raw, "$`") || strings.Contains(it.Value, "{}") {
			return true
		}
		seen++
	}
	return false
}

// checkFannedOut: the invocation runs on many hosts (see fannedOut).
func checkFannedOut(sc *scan, i int) bool {
	return fannedOut(sc, i)
}

// checkFanoutDestructive: a destructive command (another rule matches
// it) run on many hosts; or GNU parallel running ssh over a list of hosts
// with a command that destroys.
func checkFanoutDestructive(sc *scan, i int) bool {
	if sc.name(i) == "parallel" {
		return parallelFanout(sc, i)
	}
	return fannedOut(sc, i) && otherRuleMatches(sc, i, Low)
}

// remoteRunners are the programs that run their command on another host
// or in a container: GNU parallel running one over a list fans it out.
func remoteRunner(name string) bool {
	switch name {
	case "ssh", "sshpass", "autossh", "mosh", "kubectl", "oc", "docker", "podman", "gcloud", "vagrant", "lxc", "incus":
		return true
	}
	return false
}

// parallelFanout reports GNU parallel running a remote runner (ssh {}
// CMD ::: HOSTS) with a command that destroys: the command is checked as
// xargs would run it, once per host.
func parallelFanout(sc *scan, i int) bool {
	lines := parallelCommands(sc.args(i)[1:])
	if len(lines) == 0 {
		return false
	}
	// parallel -S HOSTS (--sshlogin, --slf, --onall, --nonall) runs the
	// commands on remote hosts itself.
	for _, a := range sc.args(i)[1:] {
		v := a.Value
		if v == "--" || v == ":::" || v == "::::" {
			break
		}
		if v == "-S" || strings.HasPrefix(v, "--sshlogin") || strings.HasPrefix(v, "--slf") || v == "--onall" || v == "--nonall" ||
			strings.HasPrefix(v, "-S") && len(v) > 2 {
			return destroys(sc, "xargs ssh host "+shquote.Quote(lines[0]))
		}
	}
	first, _, _ := strings.Cut(strings.TrimSpace(lines[0]), " ")
	if !remoteRunner(progName(baseName(first))) {
		return false
	}
	return destroys(sc, "xargs "+lines[0])
}

// checkAnsibleModuleDestroy: an ansible ad-hoc module that removes or
// stops things on every host: state=absent (file, user, package, service,
// database, ...), state=stopped, or the reboot and shutdown modules. The
// command, shell and raw modules are re-parsed as commands instead.
func checkAnsibleModuleDestroy(sc *scan, i int) bool {
	if sc.name(i) != "ansible" {
		return false
	}
	args := sc.args(i)
	s := scannerFor(sc.invs[i].prog, args[1:], "")
	module, margs := "", ""
	for {
		it, ok := s.Next()
		if !ok {
			break
		}
		if it.Kind != programs.Option || !it.HasValue {
			continue
		}
		switch it.Name {
		case "-m", "--module-name":
			module = it.Value
		case "-a", "--args":
			margs = it.Value
		}
	}
	module = strings.TrimPrefix(strings.TrimPrefix(module, "ansible.builtin."), "ansible.legacy.")
	module = strings.TrimPrefix(module, "community.general.")
	switch module {
	case "reboot", "win_reboot", "shutdown":
		return true
	case "", "command", "shell", "raw", "win_shell", "win_command", "script":
		return false
	}
	compact := strings.NewReplacer(" ", "", "\t", "", "\n", "", `"`, "", "'", "").Replace(margs)
	for _, st := range []string{"state=absent", "state:absent", "state=stopped", "state:stopped", "state=removed", "state:removed"} {
		if strings.Contains(compact, st) {
			return true
		}
	}
	return false
}
