package shellparse

import "strings"

// wrapSpec describes how a wrapper program's own arguments are read.
type wrapSpec struct {
	// argShort lists the short options that take an argument.
	argShort string
	// optShort lists short options whose argument, if any, must be
	// attached (xargs -i[R], -e[EOF], -l[N]).
	optShort string
	// argLong lists the long options (without --) that take an argument
	// as the next word when not written with =.
	argLong []string
	// operands is the number of operands the wrapper itself consumes
	// after its options (timeout's DURATION, chroot's NEWROOT).
	operands int
	// assigns: leading NAME=value operands are environment assignments.
	assigns bool
	// numericFlag: -N is a flag (nice -10).
	numericFlag bool
	// shellFlag names the short option whose argument is a shell string
	// (flock -c, env -S); shellLong is its long form.
	shellFlag byte
	shellLong string
	// noPeel lists short flags that mean the wrapper does not run a
	// command at all (command -v).
	noPeel string
}

// wrapperSpec returns the spec of a wrapper program. It is a function, not
// a table in a variable, so that nothing at package level can be changed.
func wrapperSpec(name string) (wrapSpec, bool) {
	switch name {
	case "sudo":
		return wrapSpec{argShort: "ugChpUrtTD", argLong: []string{"user", "group", "close-from", "host", "prompt", "other-user", "role", "type", "command-timeout", "chdir"}, noPeel: "lveKk", assigns: true}, true
	case "doas":
		return wrapSpec{argShort: "uC"}, true
	case "env":
		return wrapSpec{argShort: "uCS", argLong: []string{"unset", "chdir", "split-string", "default-signal", "ignore-signal", "block-signal"}, assigns: true, shellFlag: 'S', shellLong: "split-string"}, true
	case "nice":
		return wrapSpec{argShort: "n", argLong: []string{"adjustment"}, numericFlag: true}, true
	case "nohup", "builtin", "busybox", "toybox", "unbuffer", "setsid", "torsocks", "catchsegv", "noglob", "fakeroot", "fakeroot-ng", "firejail":
		return wrapSpec{}, true
	case "command":
		return wrapSpec{noPeel: "vV"}, true
	case "time":
		return wrapSpec{argShort: "fo", argLong: []string{"format", "output"}}, true
	case "exec":
		return wrapSpec{argShort: "a"}, true
	case "stdbuf":
		return wrapSpec{argShort: "ioe", argLong: []string{"input", "output", "error"}}, true
	case "ionice":
		return wrapSpec{argShort: "cnp", argLong: []string{"class", "classdata", "pid", "pgid", "uid"}}, true
	case "chroot":
		return wrapSpec{argLong: []string{"userspec", "groups"}, operands: 1}, true
	case "timeout":
		return wrapSpec{argShort: "sk", argLong: []string{"signal", "kill-after"}, operands: 1}, true
	case "strace", "ltrace":
		return wrapSpec{argShort: "oepsuEaIbXPUAn", argLong: []string{"output", "expr", "attach", "string-limit", "user", "env"}}, true
	case "xargs":
		// --replace[=R], --eof[=E] and --max-lines[=N] take a value only
		// after "=".
		return wrapSpec{argShort: "aEdILnPs", optShort: "iel", argLong: []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"}}, true
	case "flock":
		return wrapSpec{argShort: "wEc", argLong: []string{"timeout", "conflict-exit-code", "command"}, operands: 1, shellFlag: 'c', shellLong: "command"}, true
	case "proxychains", "proxychains4":
		return wrapSpec{argShort: "f"}, true
	case "chronic", "dumb-init", "tini", "valgrind", "setpriv", "flatpak-spawn", "dotenv", "catatonit", "ts":
		// Run their command after options written as --name=value or
		// single flags.
		return wrapSpec{argShort: "eps"}, true
	case "xvfb-run":
		return wrapSpec{argShort: "nsfepl", argLong: []string{"server-num", "server-args", "auth-file", "error-file", "xauth-protocol"}}, true
	case "numactl":
		return wrapSpec{argShort: "NmCpiPw", argLong: []string{"cpunodebind", "membind", "physcpubind", "preferred", "interleave"}}, true
	case "proot":
		return wrapSpec{argShort: "rbwqkRS", argLong: []string{"rootfs", "bind", "cwd", "qemu", "kernel-release"}}, true
	case "qemu-x86_64", "qemu-aarch64", "qemu-arm", "qemu-riscv64":
		return wrapSpec{argShort: "LEUgBRsd", argLong: []string{}}, true
	case "gosu", "su-exec":
		return wrapSpec{operands: 1}, true
	case "chrt":
		return wrapSpec{operands: 1}, true
	case "taskset":
		return wrapSpec{operands: 1}, true
	}
	return wrapSpec{}, false
}

type peelExtra struct {
	assigns     []Assign
	shellString *Arg
	flag        string
}

// peel splits a wrapper's argv into the wrapper (with its options) and the
// command it runs. ok is false when the wrapper runs nothing (command -v,
// sudo -l) and must be kept as the invocation itself.
func peel(name string, spec wrapSpec, args []Arg) (rest []Arg, wr Wrapper, extra peelExtra, ok bool) {
	wr.Name = name
	i := 1
	for i < len(args) {
		a := args[i]
		v := a.Value
		if a.Dynamic {
			// An option we cannot read: assume it is an option of the
			// wrapper, which keeps the real command visible after it.
			if strings.HasPrefix(v, "-") || strings.HasPrefix(v, "\"-") {
				wr.Args = append(wr.Args, v)
				i++
				continue
			}
			break
		}
		if v == "--" {
			wr.Args = append(wr.Args, v)
			i++
			break
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		if spec.numericFlag && isDigits(v[1:]) {
			wr.Args = append(wr.Args, v)
			i++
			continue
		}
		if strings.HasPrefix(v, "--") {
			long := v[2:]
			val := ""
			hasVal := false
			if eq := strings.IndexByte(long, '='); eq >= 0 {
				long, val, hasVal = long[:eq], long[eq+1:], true
			}
			wr.Args = append(wr.Args, v)
			i++
			takes := false
			for _, l := range spec.argLong {
				if l == long {
					takes = true
				}
			}
			if takes && !hasVal && i < len(args) {
				val = args[i].Value
				wr.Args = append(wr.Args, val)
				if spec.shellLong == long {
					x := args[i]
					extra.shellString, extra.flag = &x, "--"+long
				}
				i++
			} else if hasVal && spec.shellLong == long {
				extra.shellString, extra.flag = &Arg{Value: val}, "--"+long
			}
			continue
		}
		// A cluster of short options.
		wr.Args = append(wr.Args, v)
		i++
		for j := 1; j < len(v); j++ {
			c := v[j]
			if strings.IndexByte(spec.noPeel, c) >= 0 {
				return nil, wr, extra, false
			}
			if strings.IndexByte(spec.optShort, c) >= 0 {
				break
			}
			if strings.IndexByte(spec.argShort, c) >= 0 {
				var val Arg
				if j+1 < len(v) {
					val = Arg{Value: v[j+1:]}
				} else if i < len(args) {
					val = args[i]
					wr.Args = append(wr.Args, val.Value)
					i++
				}
				if spec.shellFlag == c {
					x := val
					extra.shellString, extra.flag = &x, "-"+string(c)
				}
				break
			}
		}
	}
	if spec.assigns {
		for i < len(args) {
			v := args[i].Value
			eq := strings.IndexByte(v, '=')
			if args[i].Dynamic || eq <= 0 || !isName(v[:eq]) {
				break
			}
			extra.assigns = append(extra.assigns, Assign{Name: v[:eq], Value: v[eq+1:], Via: name})
			wr.Args = append(wr.Args, v)
			i++
		}
	}
	for n := 0; n < spec.operands && i < len(args); n++ {
		wr.Args = append(wr.Args, args[i].Value)
		i++
	}
	// flock FILE -c CMD: the documented order puts the shell string
	// after the operand.
	if spec.operands > 0 && spec.shellFlag != 0 && extra.shellString == nil && i+1 < len(args) && !args[i].Dynamic &&
		(args[i].Value == "-"+string(spec.shellFlag) || spec.shellLong != "" && args[i].Value == "--"+spec.shellLong) {
		wr.Args = append(wr.Args, args[i].Value)
		x := args[i+1]
		extra.shellString, extra.flag = &x, args[i].Value
		i += 2
	}
	if extra.shellString != nil {
		// The string is the command; whatever follows are its arguments.
		return nil, wr, extra, true
	}
	if i >= len(args) {
		return nil, wr, extra, false
	}
	return args[i:], wr, extra, true
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// IsShell reports whether name is a shell that runs its -c argument or
// its standard input as commands.
func IsShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "fish", "csh", "tcsh", "rbash":
		return true
	}
	return false
}

// shellCommand reads a shell's argv. It returns the -c string to re-parse,
// or reads=true when the shell reads commands from standard input. A
// script given as a process substitution (bash <(echo ...)) is read by
// codeRows.
func (w *walker) shellCommand(args []Arg) (job *reparseJob, reads bool) {
	name := ""
	if len(args) > 0 {
		name = args[0].Value
	}
	hasC := false
	i := 1
	for i < len(args) {
		a := args[i]
		v := a.Value
		if a.Dynamic {
			if hasC {
				break
			}
			if strings.HasPrefix(a.Raw, "<(") && len(w.procs) > 0 {
				return nil, false // read by codeRows
			}
			// A dynamic first operand: a script name or options we
			// cannot see.
			return &reparseJob{dynamic: true, by: name}, false
		}
		if v == "--" || v == "-" {
			i++
			break
		}
		if len(v) < 2 || (v[0] != '-' && v[0] != '+') {
			break
		}
		i++
		if strings.HasPrefix(v, "--") {
			switch v {
			case "--rcfile", "--init-file":
				i++
			}
			continue
		}
		for j := 1; j < len(v); j++ {
			switch v[j] {
			case 'c':
				hasC = true
			case 'o', 'O':
				if j == len(v)-1 {
					i++
				}
			}
		}
	}
	if hasC {
		if i >= len(args) {
			return nil, false
		}
		a := args[i]
		return &reparseJob{text: a.Value, dynamic: a.Dynamic, by: name + " -c", positional: args[i+1:], hasPositional: true}, false
	}
	if i >= len(args) {
		return nil, true
	}
	if a := args[i]; a.Dynamic {
		// bash -- $script: a script name we cannot see.
		if strings.HasPrefix(a.Raw, "<(") && len(w.procs) > 0 {
			return nil, false // read by codeRows
		}
		return &reparseJob{dynamic: true, by: name}, false
	}
	// A script file: its content is not part of the line.
	return nil, false
}

// optionValue returns the argument of short option c or long option long
// in args (su -c CMD, su --command=CMD).
func optionValue(args []Arg, short string, long string) *Arg {
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if args[i].Dynamic {
			continue
		}
		if v == "--" {
			break
		}
		if strings.HasPrefix(v, long+"=") {
			return &Arg{Value: v[len(long)+1:]}
		}
		if v == long && i+1 < len(args) {
			return &args[i+1]
		}
		if len(v) >= 2 && v[0] == '-' && v[1] != '-' {
			if k := strings.Index(v, short); k > 0 {
				if k+1 < len(v) {
					return &Arg{Value: v[k+1:]}
				}
				if i+1 < len(args) {
					return &args[i+1]
				}
			}
		}
	}
	return nil
}

// watchCommand returns the command watch runs through sh -c.
func watchCommand(args []Arg) *reparseJob {
	i := 0
	exec := false
	for i < len(args) {
		v := args[i].Value
		if args[i].Dynamic || len(v) < 2 || v[0] != '-' {
			break
		}
		i++
		if v == "--" {
			break
		}
		switch v {
		case "-n", "--interval", "-q", "--equexit":
			i++
			continue
		case "-x", "--exec":
			exec = true
			continue
		}
		if !strings.HasPrefix(v, "--") && strings.ContainsRune(v, 'x') {
			exec = true
		}
	}
	if i >= len(args) {
		return nil
	}
	parts := make([]string, 0, len(args)-i)
	dyn := false
	for _, a := range args[i:] {
		if exec {
			parts = append(parts, quote(a.Value))
		} else {
			parts = append(parts, a.Value)
		}
		dyn = dyn || a.Dynamic
	}
	return &reparseJob{text: strings.Join(parts, " "), dynamic: dyn, by: "watch"}
}

// sshCommands returns the remote command of ssh and the commands its
// options run locally (-o ProxyCommand=..., LocalCommand).
func sshCommands(args []Arg) []reparseJob {
	var jobs []reparseJob
	const argShort = "BbcDEeFIiJLlmOoPpQRSWw"
	optionJob := func(opt string) {
		k, v, ok := strings.Cut(opt, "=")
		if !ok {
			k, v, ok = strings.Cut(opt, " ")
		}
		if !ok {
			return
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "proxycommand", "localcommand", "knownhostscommand":
			jobs = append(jobs, reparseJob{text: strings.TrimSpace(v), by: "ssh -o " + strings.TrimSpace(k)})
		}
	}
	i := 0
	for i < len(args) {
		a := args[i]
		v := a.Value
		if a.Dynamic || len(v) < 2 || v[0] != '-' {
			break
		}
		i++
		if v == "--" {
			break
		}
		for j := 1; j < len(v); j++ {
			c := v[j]
			if strings.IndexByte(argShort, c) < 0 {
				continue
			}
			val := v[j+1:]
			if val == "" && i < len(args) {
				val = args[i].Value
				i++
			}
			if c == 'o' {
				optionJob(val)
			}
			break
		}
	}
	if i >= len(args) {
		return jobs
	}
	i++ // destination
	if i >= len(args) {
		return jobs
	}
	parts := make([]string, 0, len(args)-i)
	dyn := false
	for _, a := range args[i:] {
		parts = append(parts, a.Value)
		dyn = dyn || a.Dynamic
	}
	return append(jobs, reparseJob{text: strings.Join(parts, " "), dynamic: dyn, by: "ssh", remote: true})
}

// findExecs returns the commands of find's -exec, -execdir, -ok and
// -okdir actions, each starting with the action's name.
func findExecs(args []Arg) [][]Arg {
	var out [][]Arg
	for i := 0; i < len(args); i++ {
		switch args[i].Value {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		start := i
		j := i + 1
		for j < len(args) && args[j].Value != ";" && args[j].Value != "+" {
			j++
		}
		if j > start+1 {
			cmd := make([]Arg, 0, j-start)
			cmd = append(cmd, args[start])
			cmd = append(cmd, args[start+1:j]...)
			out = append(out, cmd)
		}
		i = j
	}
	return out
}
