package shellparse

import (
	"path"
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
)

// wrapperSpec returns how a wrapper program (sudo, env, timeout, nice,
// xargs, ...) reads its own arguments: the wrapper table of its facts in
// internal/programs (internal/programs/data/wrappers.toml).
func wrapperSpec(name string) (*programs.Wrapper, bool) {
	if p := programs.Lookup(name); p != nil && p.Wrapper != nil {
		return p.Wrapper, true
	}
	return nil, false
}

// shortOpt reports whether the one-letter option c (written -c) is in l.
func shortOpt(l programs.List, c byte) bool {
	o := [2]byte{'-', c}
	return l.Has(string(o[:]))
}

type peelExtra struct {
	assigns     []Assign
	shellString *Arg
	flag        string
}

// peel splits a wrapper's argv into the wrapper (with its options) and the
// command it runs. ok is false when the wrapper runs nothing (command -v,
// sudo -l) and must be kept as the invocation itself.
func peel(name string, spec *programs.Wrapper, args []Arg) (rest []Arg, wr Wrapper, extra peelExtra, ok bool) {
	wr.Name = name
	join := "" // a flag that runs the command as one shell line (sudo -s)
	i := 1
	for i < len(args) {
		if extra.shellString != nil && spec.Operands == 0 {
			// env -S: the split words come next, then the rest; env
			// reads options among them only before the first
			// non-option, which they start with.
			break
		}
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
		if spec.Numeric && isDigits(v[1:]) {
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
			opt := v
			if hasVal {
				opt = v[:2+len(long)]
			}
			if !hasVal && spec.Join.Has(opt) {
				join = opt
			}
			if spec.Values.Has(opt) && !hasVal && i < len(args) {
				val = args[i].Value
				wr.Args = append(wr.Args, val)
				if spec.Shell.Has(opt) {
					x := args[i]
					extra.shellString, extra.flag = &x, opt
				}
				i++
			} else if hasVal && spec.Shell.Has(opt) {
				extra.shellString, extra.flag = &Arg{Value: val}, opt
			}
			continue
		}
		// A cluster of short options.
		wr.Args = append(wr.Args, v)
		i++
		for j := 1; j < len(v); j++ {
			c := v[j]
			if shortOpt(spec.NoRun, c) {
				return nil, wr, extra, false
			}
			if shortOpt(spec.Join, c) {
				join = "-" + string(c)
			}
			if shortOpt(spec.Optional, c) {
				break
			}
			if shortOpt(spec.Values, c) {
				var val Arg
				if j+1 < len(v) {
					val = Arg{Value: v[j+1:]}
				} else if i < len(args) {
					val = args[i]
					wr.Args = append(wr.Args, val.Value)
					i++
				}
				if shortOpt(spec.Shell, c) {
					x := val
					extra.shellString, extra.flag = &x, "-"+string(c)
				}
				break
			}
		}
	}
	if spec.Assigns {
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
	for n := 0; n < spec.Operands && i < len(args); n++ {
		wr.Args = append(wr.Args, args[i].Value)
		i++
	}
	// flock FILE -c CMD: the documented order puts the shell string
	// after the operand.
	if spec.Operands > 0 && extra.shellString == nil && i+1 < len(args) && !args[i].Dynamic && spec.Shell.Has(args[i].Value) {
		wr.Args = append(wr.Args, args[i].Value)
		x := args[i+1]
		extra.shellString, extra.flag = &x, args[i].Value
		i += 2
	}
	if extra.shellString != nil {
		// The string is the command; whatever follows are its arguments
		// (env -S 'bash -c' 'rm -rf ~': the split string's words, then
		// these). A wrapper with operands (flock FILE) has none.
		if spec.Operands == 0 && i < len(args) {
			s := *extra.shellString
			var b strings.Builder
			b.WriteString(s.Value)
			for _, a := range args[i:] {
				b.WriteByte(' ')
				b.WriteString(quote(a.Value))
				s.Dynamic = s.Dynamic || a.Dynamic
			}
			s.Value = b.String()
			extra.shellString = &s
		}
		return nil, wr, extra, true
	}
	if i >= len(args) {
		return nil, wr, extra, false
	}
	if join != "" {
		if line, ok := joinedLine(args[i:]); ok {
			extra.shellString, extra.flag = &Arg{Value: line}, join
			return nil, wr, extra, true
		}
	}
	return args[i:], wr, extra, true
}

// joinedLine returns the shell line read for the command words of sudo
// -s: the words joined by spaces. sudo itself escapes every byte of them
// but a letter, a digit, '_', '-' and '$' with a backslash before it hands
// the line to $SHELL -c (parse_args), so only a '$' is expanded there
// (sudo -s 'rm$IFS-rf$IFS/' runs rm -rf /); the line read unescaped is
// what the words meant (sudo -s 'rm -rf ~'), and holds every reading of
// what runs. ok is false when that line is just the words (no word holds
// a blank, a '$' or another byte the shell reads), or a word is dynamic
// (read as the words, where its value is unknown).
func joinedLine(words []Arg) (line string, ok bool) {
	parts := make([]string, len(words))
	for k, w := range words {
		if w.Dynamic {
			return "", false
		}
		ok = ok || strings.ContainsAny(w.Value, " \t\n$;|&<>()`'\"\\*?[]{}!#")
		parts[k] = w.Value
	}
	if !ok {
		return "", false
	}
	return strings.Join(parts, " "), true
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

// isShell reports whether name is a shell that runs its -c argument or
// its standard input as commands: a program with shell = true in
// internal/programs/data/shells.toml (upper case is folded, as
// programs.Lookup folds it).
func isShell(name string) bool { return programs.IsShell(name) }

// shellCommand reads a shell's argv. It returns the -c string to re-parse,
// or reads=true when the shell reads commands from standard input. A
// script given as a process substitution (bash <(echo ...)) is read by
// codeRows.
func (w *walker) shellCommand(args []Arg) (job *reparseJob, reads bool) {
	name := ""
	if len(args) > 0 {
		name = args[0].Value
	}
	// The shell's options (internal/programs/data/shells.toml): code
	// options (-c, fish --command) make the first operand the command;
	// other options with a value (-o, --rcfile) skip the next word.
	p := programs.Lookup(path.Base(name))
	var code programs.List
	if p != nil {
		code = p.Code
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
			switch {
			case code.Has(v):
				hasC = true
			case p.TakesValueAt("", v):
				i++
			}
			continue
		}
		for j := 1; j < len(v); j++ {
			o := string([]byte{'-', v[j]})
			switch {
			case code.Has(o):
				hasC = true
			case j == len(v)-1 && p.TakesValueAt("", o):
				i++
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
// options run locally (-o ProxyCommand=..., LocalCommand). login reports
// a destination with no command and nothing that stops ssh from starting
// the remote login shell (-N, -W, -O, -V): that shell reads its commands
// from ssh's standard input.
func sshCommands(args []Arg) (jobs []reparseJob, login bool) {
	noShell := false
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
			if c == 'N' || c == 'W' || c == 'O' || c == 'V' {
				noShell = true
			}
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
		return jobs, false
	}
	i++ // destination
	if i >= len(args) {
		return jobs, !noShell
	}
	parts := make([]string, 0, len(args)-i)
	dyn := false
	for _, a := range args[i:] {
		parts = append(parts, a.Value)
		dyn = dyn || a.Dynamic
	}
	return append(jobs, reparseJob{text: strings.Join(parts, " "), dynamic: dyn, by: "ssh", remote: true}), false
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
