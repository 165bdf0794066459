package shellparse

import (
	"fmt"
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
)

// scOpt is one option found in an argv.
type scOpt struct {
	// name is the option as the rows name it: "-c", "--command" (the
	// full name when an abbreviation was written), "+" for +CMD; options
	// of a single-dash program (gdb -ex) are named with two dashes.
	name string
	val  Arg
	has  bool
}

// scanned is an argv split into options and operands.
type scanned struct {
	opts     []scOpt
	operands []Arg
	// after is the number of operands before an option of ends (gdb
	// --args) or before "--".
	after int
	// first is the index in the scanned words of the first operand, or
	// the number of words.
	first int
}

// has reports whether one of the options in list (space-separated) was
// given.
func (s *scanned) has(list string) bool {
	for _, o := range s.opts {
		if hasWord(list, o.name) {
			return true
		}
	}
	return false
}

// hasAny reports whether one of the options of a data list was given.
func (s *scanned) hasAny(list programs.List) bool {
	for _, o := range s.opts {
		if list.Has(o.name) {
			return true
		}
	}
	return false
}

// scanOptions splits args (argv without the program) by the syntax sx.
func scanOptions(args []Arg, sx optSyntax) (s scanned) {
	return scanOptionsInto(args, sx, nil, nil)
}

// scanOptionsInto is scanOptions appending to opts and operands (room
// the caller has, so that short argvs allocate nothing).
func scanOptionsInto(args []Arg, sx optSyntax, opts []scOpt, operands []Arg) (s scanned) {
	s.opts, s.operands = opts, operands
	s.first = len(args)
	ended := false
	posix, single, plus := sx.posix(), sx.single(), sx.plus()
	operand := func(i int, a Arg) {
		if len(s.operands) == 0 {
			s.first = i
		}
		s.operands = append(s.operands, a)
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if ended || a.Dynamic && !strings.HasPrefix(a.Raw, "-") {
			operand(i, a)
			if posix {
				ended = true
			}
			continue
		}
		if a.Dynamic {
			s.opts = append(s.opts, scOpt{name: a.Raw})
			continue
		}
		if i == 0 && v != "" && v[0] != '-' && sx.oldTar() {
			// tar cvfI ARCHIVE PROG: each letter that takes a value
			// takes the next word, in order.
			for j := 0; j < len(v); j++ {
				o := scOpt{name: "-" + string(v[j])}
				if i+1 < len(args) && sx.takes(o.name) {
					i++
					o.val, o.has = args[i], true
				}
				s.opts = append(s.opts, o)
			}
			continue
		}
		switch {
		case v == "--":
			s.opts = append(s.opts, scOpt{name: "--"})
			s.after = len(s.operands)
			ended = true
			continue
		case v == "-" && sx.ends(v):
			// bash -: the end of the options, like --.
			s.opts = append(s.opts, scOpt{name: v})
			s.after = len(s.operands)
			ended = true
			continue
		case plus && len(v) > 0 && v[0] == '+':
			s.opts = append(s.opts, scOpt{name: "+", val: Arg{Value: v[1:], Raw: a.Raw}, has: true})
			continue
		case len(v) < 2 || v[0] != '-':
			operand(i, a)
			if posix {
				ended = true
			}
			continue
		}
		if !single && sx.ends(v) {
			s.opts = append(s.opts, scOpt{name: v})
			s.after = len(s.operands)
			ended = true
			continue
		}
		if sx.singleDash(v) {
			// screen -Logfile FILE: a single-dash long option.
			o := scOpt{name: v}
			if i+1 < len(args) && sx.takes(v) {
				i++
				o.val, o.has = args[i], true
			}
			s.opts = append(s.opts, o)
			continue
		}
		if single || strings.HasPrefix(v, "--") {
			name, val, hasVal := strings.Cut(strings.TrimLeft(v, "-"), "=")
			name = resolveLong(name, sx)
			o := scOpt{name: "--" + name}
			if !single && !strings.HasPrefix(v, "--") {
				o.name = v
			}
			if single && sx.ends(o.name) {
				s.opts = append(s.opts, o)
				s.after = len(s.operands)
				ended = true
				continue
			}
			switch {
			case hasVal:
				o.val, o.has = Arg{Value: val, Raw: a.Raw, Dynamic: a.Dynamic}, true
			case i+1 < len(args) && sx.takes(o.name):
				i++
				o.val, o.has = args[i], true
			case i+2 < len(args) && sx.two(o.name):
				o.val, o.has = args[i+1], true
				i += 2
			}
			s.opts = append(s.opts, o)
			continue
		}
		// A cluster of short options.
		for j := 1; j < len(v); j++ {
			c := v[j]
			o := scOpt{name: "-" + string(c)}
			if c == 'T' && j == 1 && len(v) >= 3 && v[2] == 'T' && sx.takes("-TT") {
				// zip -TT CMD: a two-letter option.
				o.name = "-TT"
				if len(v) > 3 {
					o.val, o.has = Arg{Value: v[3:], Raw: a.Raw}, true
				} else if i+1 < len(args) {
					i++
					o.val, o.has = args[i], true
				}
				s.opts = append(s.opts, o)
				break
			}
			if sx.optional(o.name) {
				if j+1 < len(v) {
					o.val, o.has = Arg{Value: v[j+1:], Raw: a.Raw}, true
				}
				s.opts = append(s.opts, o)
				break
			}
			if sx.takes(o.name) {
				switch {
				case j+1 < len(v):
					o.val, o.has = Arg{Value: v[j+1:], Raw: a.Raw}, true
				case i+1 < len(args):
					i++
					o.val, o.has = args[i], true
				}
				s.opts = append(s.opts, o)
				break
			}
			s.opts = append(s.opts, o)
		}
	}
	return s
}

// resolveLong returns the long option an abbreviation stands for when sx
// accepts abbreviations and exactly one of its long options starts with
// it.
func resolveLong(name string, sx optSyntax) string {
	if len(name) < 3 || !sx.abbrev() {
		return name
	}
	match, ambiguous := "", false
	if sx.eachLong(func(w string) bool {
		return w == name
	}) {
		return name
	}
	sx.eachLong(func(w string) bool {
		if strings.HasPrefix(w, name) && w != match {
			if match != "" {
				ambiguous = true
				return true
			}
			match = w
		}
		return false
	})
	if match == "" || ambiguous {
		return name
	}
	return match
}

// codeJob is code an invocation runs, found in its arguments, environment
// or input.
type codeJob struct {
	// label says who runs it ("awk system()", "git -c core.pager").
	label string
	// text is a shell command line to re-parse, or argv a command.
	text string
	argv []Arg
	// stdin: the text came on standard input; remote: it runs on
	// another machine; fromInput: the program read the code holding it
	// from standard input (awk -f -), so it runs with the rest of it.
	stdin, remote, fromInput bool
	// dynamic: what runs is not known statically (text, if any, holds
	// placeholders for what is unknown).
	dynamic bool
	// argsFromInput: the command gets words from input at run time that
	// the parser cannot know (parallel CMD fed unknown input).
	argsFromInput bool
}

// maxCodeJobs bounds the commands found in one invocation's code.
const maxCodeJobs = 64

// codeRuns returns what inv runs from the code it is given, as the
// program's code runs (internal/programs) describe.
func (w *walker) codeRuns(inv *Invocation, in *input) []codeJob {
	if inv.NameDynamic() || inv.NotRun {
		return nil
	}
	var jobs []codeJob
	if p := programs.Lookup(inv.Name); p != nil && len(p.CodeRuns) > 0 {
		jobs = w.programCode(inv, p, in, jobs)
	}
	for k := range inv.Wrappers {
		wr := &inv.Wrappers[k]
		if len(inv.Assigns) == 0 {
			continue
		}
		if p := programs.Lookup(wr.Name); p != nil {
			for ri := range p.CodeRuns {
				if row := &p.CodeRuns[ri]; row.At == programs.AtEnv {
					jobs = w.envCode(inv, row, wr.Name, jobs)
				}
			}
		}
	}
	for k := range jobs {
		// A shell with neither a command nor a script (core.pager=sh,
		// --to-command=bash) runs whatever the program feeds it.
		if jobs[k].text != "" && shellReadsInput(jobs[k].text) {
			jobs[k].dynamic = true
		}
	}
	if len(jobs) > maxCodeJobs {
		w.limit(fmt.Sprintf("more than %d commands in the code %s runs", maxCodeJobs, inv.Name))
		jobs = jobs[:maxCodeJobs]
	}
	return jobs
}

// subScan is the argv of a subcommand: its name path ("submodule
// foreach") and its options and operands.
type subScan struct {
	path string
	s    scanned
}

// programCode applies the code runs of inv's program p.
func (w *walker) programCode(inv *Invocation, p *programs.Program, in *input, jobs []codeJob) []codeJob {
	name := inv.Name
	sx := optSyntax{p: p}
	args := inv.Args[1:]
	var optBuf [8]scOpt
	var opBuf [8]Arg
	top := scanOptionsInto(args, sx, optBuf[:0], opBuf[:0])
	// Subcommands, as deep as the data knows them: git submodule
	// foreach CMD, git bisect run CMD.
	var subBuf [4]subScan
	subs := subBuf[:0]
	if len(top.operands) > 0 && sx.subs() {
		cur, rest, path := sx, args, ""
		first, operands := top.first, top.operands
		for len(operands) > 0 && !operands[0].Dynamic && len(subs) < len(subBuf) && cur.subs() {
			sub := operands[0].Value
			if path != "" {
				path += " "
			}
			path += sub
			rest = rest[first+1:]
			cur = optSyntax{p: p, path: path}
			s := scanOptions(rest, cur)
			subs = append(subs, subScan{path: path, s: s})
			first, operands = s.first, s.operands
		}
	}
	for ri := range p.CodeRuns {
		row := &p.CodeRuns[ri]
		s := &top
		sub := -1
		if row.Sub != "" {
			for k := range subs {
				if subMatch(row.Sub, subs[k].path) {
					sub = k
				}
			}
			if sub < 0 {
				continue
			}
			s = &subs[sub].s
		}
		if row.When != "" && !s.hasAny(row.When) || row.Unless != "" && s.hasAny(row.Unless) {
			continue
		}
		base := name
		if sub >= 0 {
			base = name + " " + subs[sub].path
		}
		switch row.At {
		case programs.AtOption:
			for _, o := range s.opts {
				if !o.has || !row.Names.Has(o.name) {
					continue
				}
				label := base + " " + o.name
				if o.name == "+" {
					label = base + " +"
				}
				if row.Label != "" {
					label = base + " " + row.Label
				}
				jobs = w.readValue(row, label, o.val, inv, s, in, jobs)
			}
		case programs.AtOperand:
			if len(s.operands) <= row.N || len(s.operands) < row.Min {
				continue
			}
			label := base
			if row.Label != "" && row.Label != "-" {
				label = base + " " + row.Label
			}
			jobs = w.readValue(row, label, s.operands[row.N], inv, s, in, jobs)
		case programs.AtOperands:
			from := row.N
			if row.When != "" && (row.When.Has("--") || sx.hasEnds()) && s.after > 0 {
				from += s.after
			}
			if len(s.operands) <= from {
				continue
			}
			jobs = w.readWordList(row, base, s.operands[from:], inv, s, in, jobs)
		case programs.AtEnv:
			jobs = w.envCode(inv, row, name, jobs)
		case programs.AtStdin:
			text, alt, present, static := stdinText(inv, in)
			if !present || !static && text == "" && row.Quiet {
				continue
			}
			label := base
			if row.When != "" {
				for _, o := range s.opts {
					if row.When.Has(o.name) {
						label += " " + o.name
						break
					}
				}
			}
			if !static && text == "" {
				jobs = append(jobs, codeJob{label: label, dynamic: true, stdin: true})
				continue
			}
			jobs = w.readApprox(row, label, text, !static, true, inv, s, jobs)
			if alt != "" {
				// echo's output as sh and zsh print it.
				jobs = w.readApprox(row, label, alt, false, true, inv, s, jobs)
			}
		}
	}
	return jobs
}

// subMatch reports whether the subcommand path matches one of the
// |-separated alternatives of want.
func subMatch(want, path string) bool {
	for want != "" {
		var alt string
		alt, want, _ = strings.Cut(want, "|")
		if alt == path {
			return true
		}
	}
	return false
}

// envCode reads the environment assignments of inv that row names.
func (w *walker) envCode(inv *Invocation, row *programs.CodeRun, name string, jobs []codeJob) []codeJob {
	for _, a := range inv.Assigns {
		if !row.Names.Has(a.Name) {
			continue
		}
		label := name + " " + a.Name
		value := a.Value
		if a.Dynamic {
			value = approxValue(a.Value)
		}
		if row.Read == programs.ReadUnknown {
			jobs = append(jobs, codeJob{label: label, dynamic: true})
			continue
		}
		start := len(jobs)
		if row.Read == programs.ReadLessOpen {
			jobs = lessOpenCode(label, a.Name, value, jobs)
		} else if strings.TrimSpace(value) != "" {
			jobs = append(jobs, codeJob{label: label, text: value})
		}
		if a.Dynamic && row.Read != programs.ReadSplit {
			markDynamic(jobs[start:])
		}
	}
	return jobs
}

// readValue reads one word that holds code (an option's value, an
// operand), or names the file that holds it.
func (w *walker) readValue(row *programs.CodeRun, label string, a Arg, inv *Invocation, s *scanned, in *input, jobs []codeJob) []codeJob {
	text := a.Value
	stdin, approx := false, false
	if row.File {
		t, alt, known, exists := w.fileText(a, inv, in)
		if !exists {
			return jobs
		}
		if !known && t == "" {
			return append(jobs, codeJob{label: label, dynamic: true, stdin: true})
		}
		if alt != "" {
			// echo's output as sh and zsh print it.
			jobs = w.readApprox(row, label, alt, false, true, inv, s, jobs)
		}
		text, stdin, approx = t, true, !known
	} else if a.Dynamic {
		text, approx = approxValue(a.Raw), true
	}
	return w.readApprox(row, label, text, approx, stdin, inv, s, jobs)
}

// readApprox reads text with the row's reader; approx reports text built
// at run time, with the shell's expansions as written ($x, $(cmd)): what
// it runs is marked as unverifiable, unless the program splits a command
// line into words itself (there, a variable is only an argument).
func (w *walker) readApprox(row *programs.CodeRun, label, text string, approx, stdin bool, inv *Invocation, s *scanned, jobs []codeJob) []codeJob {
	start := len(jobs)
	jobs = w.readText(row, label, text, stdin, inv, s, jobs)
	if approx && row.Read != programs.ReadSplit {
		markDynamic(jobs[start:])
	}
	return jobs
}

// markDynamic marks jobs as running code built at run time.
func markDynamic(jobs []codeJob) {
	for k := range jobs {
		jobs[k].dynamic = true
	}
}

// readWordList reads operands that hold code.
func (w *walker) readWordList(row *programs.CodeRun, base string, words []Arg, inv *Invocation, s *scanned, in *input, jobs []codeJob) []codeJob {
	switch row.Read {
	case programs.ReadArgv:
		return append(jobs, codeJob{label: base, argv: append([]Arg(nil), words...)})
	case programs.ReadWords:
		if len(words) == 1 {
			return w.readValue(&programs.CodeRun{Read: programs.ReadShell}, base, words[0], inv, s, in, jobs)
		}
		return append(jobs, codeJob{label: base, argv: append([]Arg(nil), words...)})
	case programs.ReadJoined:
		text, dyn := joinWords(words)
		if dyn {
			return append(jobs, codeJob{label: base, text: text, dynamic: true})
		}
		return append(jobs, codeJob{label: base, text: text})
	case programs.ReadGitURL:
		for _, a := range words {
			if argv, ok := gitExtURL(a.Value); ok && !a.Dynamic {
				jobs = append(jobs, codeJob{label: base + " ext::", argv: argvArgs(argv)})
			}
		}
		return jobs
	case programs.ReadTmuxKeys:
		text, dyn := tmuxKeys(s, words)
		if dyn {
			return append(jobs, codeJob{label: base, dynamic: true})
		}
		if strings.TrimSpace(text) == "" {
			return jobs
		}
		return append(jobs, codeJob{label: base, text: text})
	case programs.ReadScreen:
		return screenCode(base, s, words, jobs)
	case programs.ReadParallel:
		return parallelCode(base, words, inv, in, jobs)
	case programs.ReadGitConfig:
		// git config [set] KEY VALUE: the key's value, stored.
		if len(words) > 0 && !words[0].Dynamic && words[0].Value == "set" {
			words = words[1:]
		}
		if len(words) < 2 || words[0].Dynamic || gitConfigAction(words[0].Value) {
			return jobs
		}
		key, val := words[0].Value, words[1]
		// A key whose effect cannot be read (core.hooksPath, insteadOf)
		// runs nothing when it is stored: what it points to is the
		// project's, read when it runs.
		if k := gitKeyKind(key); k == 0 || k == programs.ConfigUnknown {
			return jobs
		}
		if val.Dynamic {
			return append(jobs, codeJob{label: base + " " + key, dynamic: true})
		}
		var fc foundCode
		// A stored alias runs whenever it is typed: read it as typed.
		gitConfigCode(key+"="+val.Value, key[strings.IndexByte(key, '.')+1:], nil, &fc)
		return foundJobs(base, &fc, false, jobs)
	case programs.ReadAlias:
		for _, a := range words {
			name, value, ok := strings.Cut(a.Value, "=")
			if !ok || !aliasName(name) {
				continue // alias NAME prints the alias; a bad name defines none
			}
			if a.Dynamic {
				jobs = append(jobs, codeJob{label: base + " " + name, dynamic: true})
				continue
			}
			if t := strings.TrimLeft(value, " \t"); row.Label == "-g" && t != "" && strings.IndexByte("|&;<>", t[0]) >= 0 {
				// A global alias that starts with an operator is typed
				// after a command: read it after the null command.
				value = ": " + value
			}
			jobs = w.readValue(&programs.CodeRun{Read: programs.ReadShell}, base+" "+name, Arg{Value: value, Raw: value}, inv, s, in, jobs)
		}
		return jobs
	case programs.ReadElisp, programs.ReadSQLShell, programs.ReadShell:
		for _, a := range words {
			jobs = w.readValue(row, base, a, inv, s, in, jobs)
		}
		return jobs
	}
	return jobs
}

// readText reads code text with the row's reader.
func (w *walker) readText(row *programs.CodeRun, label, text string, stdin bool, inv *Invocation, s *scanned, jobs []codeJob) []codeJob {
	var fc foundCode
	switch row.Read {
	case programs.ReadShell, programs.ReadWords, programs.ReadJoined, programs.ReadArgv, programs.ReadSplit:
		if strings.TrimSpace(text) == "" || row.At == programs.AtOperand && row.Min > 0 && (text == "-" || isDigits(text)) {
			return jobs
		}
		return append(jobs, codeJob{label: label, text: text, stdin: stdin})
	case programs.ReadRemote:
		return append(jobs, codeJob{label: label, text: text, remote: true})
	case programs.ReadUnknown:
		if strings.TrimSpace(text) == "" {
			return jobs
		}
		return append(jobs, codeJob{label: label, dynamic: true})
	case programs.ReadAwk:
		awkCode(text, awkVars(s), &fc)
	case programs.ReadSed:
		sedCode(text, &fc)
	case programs.ReadVim:
		if row.Label == "call" {
			text = "call " + text
		}
		if row.Label == "+" {
			// less +CMD: only !CMD runs a shell.
			if !strings.HasPrefix(text, "!") {
				return jobs
			}
		}
		vimCode(text, &fc)
	case programs.ReadVimKeys:
		vimKeys(text, &fc)
	case programs.ReadElisp:
		elispCode(text, &fc)
	case programs.ReadGdb:
		gdbCode(text, &fc)
	case programs.ReadLldb:
		lldbCode(text, &fc)
	case programs.ReadMake:
		makeCode(text, &fc)
	case programs.ReadTcl:
		tclCode(text, &fc)
	case programs.ReadGitConfig:
		gitConfigCode(text, gitSub(inv), gitSubArgs(inv), &fc)
	case programs.ReadGitConfigEnv:
		gitConfigEnvCode(text, &fc)
	case programs.ReadLessOpen:
		return lessOpenCode(label, "", text, jobs)
	case programs.ReadCheckpoint:
		checkpointCode(text, &fc)
	case programs.ReadSSHOption:
		sshOptionCode(text, &fc)
	case programs.ReadAptOption:
		aptOptionCode(text, &fc)
	case programs.ReadBind:
		bindCode(text, &fc)
	case programs.ReadSQLShell:
		sqlShellCode(text, &fc)
	}
	return foundJobs(label, &fc, stdin, jobs)
}

// foundJobs turns what a reader found into jobs labelled label.
func foundJobs(label string, fc *foundCode, stdin bool, jobs []codeJob) []codeJob {
	for _, f := range fc.list {
		l := label
		if f.what != "" {
			l += " " + f.what
		}
		j := codeJob{label: l, text: f.shell, remote: f.remote, dynamic: f.dynamic, stdin: stdin && f.what == "", fromInput: stdin}
		if f.argv != nil {
			j.text = ""
			j.argv = argvArgs(f.argv)
		}
		if f.dynamic && j.text != "" && !hasLiteral(j.text) {
			j.text = ""
		}
		jobs = append(jobs, j)
	}
	if fc.over {
		jobs = append(jobs, codeJob{label: label, dynamic: true})
	}
	return jobs
}

// argvArgs turns the words of an argv found in code into argv entries;
// a word holding the placeholder of a value known only at run time is
// dynamic.
func argvArgs(words []string) []Arg {
	out := make([]Arg, len(words))
	for i, v := range words {
		out[i] = Arg{Value: v, Raw: quote(v)}
		if strings.Contains(v, dynPlaceholder) {
			out[i] = Arg{Value: v, Raw: v, Dynamic: true}
		}
	}
	return out
}

// hasLiteral reports text that holds more than placeholders and blanks.
func hasLiteral(text string) bool {
	return strings.TrimSpace(strings.ReplaceAll(text, dynPlaceholder, "")) != ""
}

// joinWords joins the values of words by spaces (dynamic words as their
// approximate value), and reports whether one is dynamic.
func joinWords(words []Arg) (string, bool) {
	parts := make([]string, len(words))
	dyn := false
	for i, a := range words {
		parts[i] = a.Value
		if a.Dynamic {
			parts[i] = approxValue(a.Raw)
			dyn = true
		}
	}
	return strings.Join(parts, " "), dyn
}

// runCode re-parses the shell text and runs the argvs of jobs, found in
// the code of invocation idx, whose standard input is in (as it reads it).
//
// Shell text runs in a new shell (awk's system() is sh -c) with the
// variables bash passes it (see jobEnv), except what source and . read,
// which runs in this shell (whose variables are unknown after it: see
// effects); it reads in, as the string of bash -c does, or, when the code
// came on standard input, the rest of it. An argv is run by a program, as
// find -exec runs one: none of this shell's variables, and the program's
// standard input.
func (w *walker) runCode(jobs []codeJob, idx int, in *input, c ctx) {
	for _, j := range jobs {
		if w.stopped {
			return
		}
		w.codeBytes += len(j.text)
		for _, a := range j.argv {
			w.codeBytes += len(a.Value)
		}
		if w.codeBytes > maxCodeBytes(w.lim) {
			w.limit(fmt.Sprintf("more than %d bytes of code found in the arguments of programs", maxCodeBytes(w.lim)))
			return
		}
		switch {
		case j.text != "":
			n := len(w.res.Problems)
			job := reparseJob{text: j.text, by: j.label, stdin: j.stdin, remote: j.remote, in: in, argsFromInput: j.argsFromInput}
			if (j.stdin || j.fromInput) && in != nil {
				job.in = &input{from: in.from, loop: w.loops}
			}
			switch inv := &w.res.Invocations[idx]; inv.Name {
			case "source", ".":
			case "sudo", "doas":
				// sudo -s, doas -s: another user's shell.
				job.env = newEnv()
			default:
				job.env = w.jobEnv(inv, job, false, c)
			}
			w.reparse(job, idx, c)
			if j.dynamic {
				// Text built at run time, with placeholders where it is
				// unknown, need not parse: the invocation is already
				// marked as running code that cannot be verified.
				kept := w.res.Problems[:n]
				for _, p := range w.res.Problems[n:] {
					if p.Kind != ProblemSyntax {
						kept = append(kept, p)
					}
				}
				w.res.Problems = kept
			}
		case len(j.argv) > 0:
			if w.argvDepth+1 > w.lim.MaxReparse {
				w.limit(fmt.Sprintf("commands run by other commands nested more than %d deep", w.lim.MaxReparse))
				return
			}
			kind := FrameExec
			if j.remote {
				kind = FrameRemote
			}
			cc := c.with(kind, j.label)
			cc.in, cc.redirs = in, nil
			if j.fromInput && in != nil {
				cc.in = &input{from: in.from, loop: w.loops}
			}
			saved := w.env
			w.env = w.freshEnv()
			w.argvDepth++
			w.invocation(Invocation{Where: cc.f, Parent: idx, Encloser: idx, Depth: w.depth}, j.argv, nil, cc)
			w.argvDepth--
			w.env = saved
		}
	}
}

// markCode sets the flags of inv for the jobs found in its code: a shell
// string re-parsed, or code that cannot be verified.
func markCode(inv *Invocation, jobs []codeJob) {
	for _, j := range jobs {
		if j.text != "" {
			inv.RunsShellInput = true
		}
		if j.dynamic {
			inv.StdinUnknown = true
		}
	}
}

// maxCodeBytes bounds the text of the code, found in programs' arguments,
// that one line may have re-parsed: code can hold more code (awk's
// concatenations repeat text), and each piece is parsed again.
func maxCodeBytes(l Limits) int { return 4 * l.MaxBytes }

// aliasName reports whether bash or zsh would define an alias named name:
// not empty, and no blank, quote, expansion, slash or operator in it.
func aliasName(name string) bool {
	return name != "" && !strings.ContainsAny(name, " \t\n$`'\"\\/<>|&;()=")
}

// gitConfigAction reports the first word of git config's subcommands
// that set nothing (git config get KEY, git config unset KEY, ...).
func gitConfigAction(w string) bool {
	switch w {
	case "get", "unset", "list", "rename-section", "remove-section", "edit", "get-color", "get-colorbool":
		return true
	}
	return false
}
