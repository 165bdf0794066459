package programs

import "strings"

// maxRunnerDepth bounds how many runners deep (npx npx npx ...) widening
// and runner lookups follow.
const maxRunnerDepth = 4

// Widening returns the first option, operand or word of a command (the
// program name as invoked and its arguments, without the program) that
// makes it run other code, write elsewhere or widen what it does, and
// why; ("", "") when there is none. The rules are the program's Widen
// data, its interpreter options (Code, Load, reading the program from
// standard input), and a named extractor for what data cannot describe.
// A runner's program is checked too (npx node -e CODE).
func Widening(name string, args []string) (flag, why string) {
	return widening(Lookup(name), name, args, 0)
}

func widening(p *Program, name string, args []string, depth int) (string, string) {
	if !p.Has(Widens) && !p.Has(Runs) {
		return "", ""
	}
	if p.Lang != "" && (len(p.Code)+len(p.Load) > 0 || p.Has(StdinProgram)) {
		return interpreterWidening(p, name, args)
	}
	switch p.Extract {
	case "sed":
		return sedWidening(p, args)
	case "awk":
		return awkWidening(p, name, args)
	case "docker":
		return dockerWidening(p, args)
	case "trap":
		return trapWidening(p, args)
	case "env_assign":
		for _, a := range args {
			if eq := strings.IndexByte(a, '='); eq > 0 && EnvWidens(a[:eq]) {
				return a[:eq], "sets a variable that changes what programs run or load"
			}
		}
		return "", ""
	}
	if p.Has(Widens) {
		if f, y := ruleWidening(p, name, args); f != "" {
			return f, y
		}
	}
	if p.Has(Runs) && depth < maxRunnerDepth {
		if k, inner, ok := RunTarget(p, args, nil); ok {
			return widening(Lookup(inner), inner, args[k+1:], depth+1)
		}
	}
	return "", ""
}

// scanned is an argv split by the program's syntax.
type scanned struct {
	opts     []Item
	operands []string
	path     string
}

// scanAll splits args into ob and pb (buffers on the caller's stack, which
// short argvs fit in).
func scanAll(p *Program, args []string, ob []Item, pb []string) scanned {
	sc := scanned{opts: ob[:0], operands: pb[:0]}
	s := NewScanner(p, args, nil, "")
	for {
		it, ok := s.Next()
		if !ok {
			break
		}
		switch it.Kind {
		case Option:
			sc.opts = append(sc.opts, it)
		case Operand:
			sc.operands = append(sc.operands, it.Value)
		}
	}
	sc.path = s.Path()
	return sc
}

// ruleWidening applies the program's Widen rules: options before the
// subcommand (in argv order), then what the nodes do whatever their
// options (Always, Operand), then the other options, then raw words.
func ruleWidening(p *Program, name string, args []string) (string, string) {
	var ob [8]Item
	var pb [8]string
	sc := scanAll(p, args, ob[:], pb[:])
	// Options before the subcommand, against the root's rules.
	for _, o := range sc.opts {
		if !o.Before {
			continue
		}
		for k := range p.Root.Widen {
			if w := &p.Root.Widen[k]; p.optRule(w, o, sc.opts) {
				return label(w, name, o.Name, o.Value, ""), why(w, name)
			}
		}
	}
	// Nodes that widen whatever their options, or by an operand.
	var found, foundWhy string
	p.along(sc.path, func(n *Node) bool {
		for k := range n.Widen {
			w := &n.Widen[k]
			switch {
			case w.Always && !p.unlessFlags(w, sc.opts):
				found, foundWhy = label(w, name, "", "", n.Path), why(w, name)
				return true
			case w.Operand != "":
				for _, op := range sc.operands {
					if w.Operand == "*" || op == w.Operand || w.Operand == "=" && strings.IndexByte(op, '=') > 0 {
						found, foundWhy = label(w, name, "", "", op), why(w, name)
						return true
					}
				}
			}
		}
		return false
	})
	if found != "" {
		return found, foundWhy
	}
	// The other options, against the rules of the root and of every node
	// along the subcommand path.
	for _, o := range sc.opts {
		if o.Before {
			continue
		}
		p.along(sc.path, func(n *Node) bool {
			for k := range n.Widen {
				if w := &n.Widen[k]; !w.Before && p.optRule(w, o, sc.opts) {
					found, foundWhy = label(w, name, o.Name, o.Value, ""), why(w, name)
					return true
				}
			}
			return false
		})
		if found != "" {
			return found, foundWhy
		}
	}
	// Raw words.
	p.along(sc.path, func(n *Node) bool {
		for k := range n.Widen {
			w := &n.Widen[k]
			if w.Prefix == "" && w.Words == "" && w.Contains == "" {
				continue
			}
			for _, a := range args {
				hit := w.Words.Has(a) || w.Prefix.Each(func(pre string) bool { return strings.HasPrefix(a, pre) }) ||
					w.Contains.Each(func(c string) bool { return strings.Contains(a, c) })
				if hit {
					found, foundWhy = label(w, name, "", "", a), why(w, name)
					return true
				}
			}
		}
		return false
	})
	return found, foundWhy
}

// optRule reports whether the option o triggers the rule w.
func (p *Program) optRule(w *Widen, o Item, all []Item) bool {
	if w.Opts == "" || !p.optIn(o.Name, w.Opts, !w.Exact) {
		return false
	}
	v := o.Value
	switch {
	case w.HasValue && !o.HasValue:
		return false
	case w.ValuePrefix != "" && !strings.HasPrefix(v, w.ValuePrefix):
		return false
	case w.UnlessPrefix != "" && strings.HasPrefix(v, w.UnlessPrefix):
		return false
	case w.Remote && !remotePath(v):
		return false
	}
	if w.Unless.Each(func(u string) bool { return u == v || u == "@stdout" && toStdout(v) }) {
		return false
	}
	if w.ValueContains != "" && !w.ValueContains.Each(func(c string) bool { return strings.Contains(v, c) }) {
		return false
	}
	return !p.unlessFlags(w, all)
}

func (p *Program) unlessFlags(w *Widen, all []Item) bool {
	for _, o := range all {
		if p.optIn(o.Name, w.UnlessFlags, true) {
			return true
		}
	}
	return false
}

// optIn reports whether the option name is one of list: the same option,
// the same single-dash word with one or two dashes for a NoCluster
// program, or (abbrev, for an Abbrev program) an unambiguous abbreviation
// of three letters or more of a long option that is not itself a whole
// option of the program (tar --checkpoint, git --text).
func (p *Program) optIn(name string, list List, abbrev bool) bool {
	if p.hasOpt(list, name) {
		return true
	}
	if !abbrev || !p.Has(Abbrev) || !strings.HasPrefix(name, "--") || len(name) < 5 || p.Whole.Has(name) {
		return false
	}
	return list.Each(func(w string) bool { return strings.HasPrefix(w, name) && strings.HasPrefix(w, "--") })
}

func label(w *Widen, name, opt, value, word string) string {
	l := w.Label
	if l == "" {
		if word != "" && opt == "" {
			return word
		}
		return opt
	}
	if !strings.Contains(l, "{") {
		return l
	}
	r := strings.NewReplacer("{opt}", opt, "{value}", value, "{name}", name, "{word}", word, "{var}", varName(word))
	return r.Replace(l)
}

func varName(op string) string {
	if eq := strings.IndexByte(op, '='); eq > 0 {
		return op[:eq]
	}
	return op
}

func why(w *Widen, name string) string {
	if strings.Contains(w.Why, "{name}") {
		return strings.ReplaceAll(w.Why, "{name}", name)
	}
	return w.Why
}

// interpreterWidening flags an interpreter given code (or code to load)
// on its command line, or reading its program from standard input.
func interpreterWidening(p *Program, name string, args []string) (string, string) {
	var ob [8]Item
	var pb [8]string
	sc := scanAll(p, args, ob[:], pb[:])
	for _, o := range sc.opts {
		if p.hasOpt(p.Code, o.Name) || p.hasOpt(p.Load, o.Name) {
			return o.Name, "gives " + name + " code to run (or to load) on the command line"
		}
	}
	if !p.Has(StdinProgram) {
		return "", ""
	}
	if len(sc.operands) > 0 && sc.operands[0] == "-" {
		return "-", "makes " + name + " read its program from standard input"
	}
	if len(sc.operands) == 0 && !infoOnly(sc.opts) {
		for _, o := range sc.opts {
			if p.IsScript(o.Name) {
				return "", ""
			}
		}
		return "(no script)", "makes " + name + " read its program from standard input"
	}
	return "", ""
}

// infoOnly reports options that make a program print information and
// exit (--version, -h).
func infoOnly(opts []Item) bool {
	for _, o := range opts {
		switch o.Name {
		case "-V", "-v", "--version", "-h", "--help", "-?":
			return true
		}
	}
	return false
}

// remotePath reports a file name of the form HOST:PATH.
func remotePath(s string) bool {
	c := strings.IndexByte(s, ':')
	if c <= 0 {
		return false
	}
	sl := strings.IndexByte(s, '/')
	return sl < 0 || c < sl
}

// toStdout reports an output file that is standard output or /dev/null.
func toStdout(v string) bool {
	return v == "-" || v == "/dev/null" || v == "/dev/stdout"
}

// trapWidening flags trap given code to run later (trap 'CMD' SIGNAL);
// trap - SIGNAL and trap ” SIGNAL reset or ignore a signal.
func trapWidening(p *Program, args []string) (string, string) {
	var ob [8]Item
	var pb [8]string
	sc := scanAll(p, args, ob[:], pb[:])
	if len(sc.operands) >= 2 && sc.operands[0] != "-" && sc.operands[0] != "" {
		return "trap", "sets shell code to run later"
	}
	return "", ""
}

// dockerWidening applies docker's and podman's rules: global options that
// reach another engine or configuration, and run options that give the
// container the host's files, namespaces or power.
func dockerWidening(p *Program, args []string) (string, string) {
	i := 0
	for i < len(args) && len(args[i]) > 1 && args[i][0] == '-' {
		name, _, hasEq := strings.Cut(args[i], "=")
		switch name {
		case "-H", "--host", "-c", "--context", "--config", "--url", "--connection", "--remote", "-r":
			return name, "sends the command to another engine or reads another configuration"
		}
		if !hasEq && p.hasOpt(p.Globals, name) {
			i++
		}
		i++
	}
	rest := args[min(i, len(args)):]
	for _, a := range rest {
		if a == "--" {
			break
		}
		name, val, _ := strings.Cut(a, "=")
		switch name {
		case "-v", "--volume", "--mount":
			// A bind mount of host folders gives the container (and the
			// command in it) the host's files.
			return name, "mounts host files into the container"
		case "--entrypoint":
			return name, "replaces the program the container runs"
		case "--privileged", "--cap-add", "--security-opt", "--device", "--device-cgroup-rule":
			return name, "gives the container power over the host"
		case "--pid", "--network", "--net", "--userns", "--ipc", "--uts", "--cgroupns":
			if val == "host" {
				return a, "shares a host namespace with the container"
			}
		}
	}
	return "", ""
}

// sedWidening applies sed's rules: -i (in place, also in clusters such as
// -ni), script files, and the e, w and W commands (and the s///e and
// s///w flags) in scripts.
func sedWidening(p *Program, args []string) (string, string) {
	var ob [8]Item
	var pb [8]string
	sc := scanAll(p, args, ob[:], pb[:])
	var scripts []string
	sandbox := false
	for _, o := range sc.opts {
		switch {
		case o.Name == "-i" || p.optIn(o.Name, "--in-place", true):
			return o.Name, "makes sed edit files in place"
		case o.Name == "-f" || p.optIn(o.Name, "--file", true):
			return o.Name, "makes sed run a script from a file"
		case o.Name == "-e" || p.optIn(o.Name, "--expression", true):
			scripts = append(scripts, o.Value)
		case p.optIn(o.Name, "--sandbox", true):
			sandbox = true
		}
	}
	if len(scripts) == 0 && len(sc.operands) > 0 {
		scripts = append(scripts, sc.operands[0])
	}
	if sandbox {
		return "", ""
	}
	for _, s := range scripts {
		if cmd := SedDangerous(s); cmd != "" {
			return cmd, "sed command writes files or runs a program"
		}
	}
	return "", ""
}

// SedDangerous scans a sed script and returns the first command that runs
// a program or writes a file (e, w, W, s///e, s///w), "?" for a script it
// cannot read, or "".
func SedDangerous(s string) string {
	found := ""
	ok := SedScript(s, func(c SedCommand) bool {
		switch c.Name {
		case 'e':
			found = "e"
		case 'w', 'W':
			found = string(c.Name)
		case 's':
			if i := strings.IndexAny(c.Flags, "ew"); i >= 0 {
				found = "s///" + c.Flags[i:i+1]
			}
		}
		return found == ""
	})
	if !ok {
		return "?"
	}
	return found
}

// awkWidening flags awk programs that run commands (system(), pipes),
// write files (print > file), or come from a file or load extensions.
func awkWidening(p *Program, name string, args []string) (string, string) {
	var ob [8]Item
	var pb [8]string
	sc := scanAll(p, args, ob[:], pb[:])
	var progs []string
	for _, o := range sc.opts {
		switch {
		case o.Name == "-f" || o.Name == "-E" || o.Name == "-i" || o.Name == "-l" ||
			p.optIn(o.Name, "--file\x00--exec\x00--include\x00--load", true):
			return o.Name, "makes " + name + " run a program from a file or load an extension"
		case o.Name == "-e" || p.optIn(o.Name, "--source", true):
			progs = append(progs, o.Value)
		}
	}
	if len(progs) == 0 && len(sc.operands) > 0 {
		progs = append(progs, sc.operands[0])
	}
	for _, pr := range progs {
		switch {
		case strings.Contains(pr, "system"):
			return "system()", "makes " + name + " run a command"
		case strings.Contains(pr, "|"):
			return "|", "makes " + name + " run a command through a pipe"
		case strings.Contains(pr, "@load"):
			return "@load", "makes " + name + " load an extension"
		case printRedirect(pr):
			return "print >", "makes " + name + " write a file"
		}
	}
	return "", ""
}

// printRedirect reports a print or printf statement followed by ">"
// before the statement ends (a file redirection; a comparison inside a
// print must be parenthesised in awk, so this errs towards refusing).
func printRedirect(p string) bool {
	for i := 0; i+5 <= len(p); i++ {
		if p[i:i+5] != "print" {
			continue
		}
		for j := i + 5; j < len(p); j++ {
			switch p[j] {
			case ';', '}', '\n':
				j = len(p)
			case '>':
				return true
			}
		}
	}
	return false
}

// ReadsProgramFromStdin reports whether the interpreter p, run as name
// with args (its argv without the program), reads the program it runs
// from standard input: `-` as its script, or no script and no code on
// the command line (python3, node, perl; not python3 -m json.tool).
func (p *Program) ReadsProgramFromStdin(name string, args []string) bool {
	if p == nil {
		return false
	}
	opt, _ := interpreterWidening(p, name, args)
	return opt == "-" || opt == "(no script)"
}
