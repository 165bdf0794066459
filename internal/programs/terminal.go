package programs

import "strings"

// Terminal is one way a program takes commands, keys or arguments from
// the terminal (data: terminal in internal/programs/data/terminal.toml).
// Under an agent whose shell tool keeps a terminal session open and types
// into it, what is typed into such a program never reaches a hook; the TUI
// gives these programs the terminal.
type Terminal struct {
	// Sub is the first operand that selects the entry ("busybox sh",
	// "deno repl"), or "".
	Sub string
	// Use says how it takes them.
	Use TermUse
	// Runs are options after which the program runs what it was given
	// instead of reading the terminal (-c, -e, --command=...); Forces
	// are options that make it interactive even so (python -i).
	Runs, Forces List
	// Values are options that take a separate value, besides the
	// program's own values, so that the value is not counted as an
	// operand ("+o" for shells).
	Values List
	// Operands is how many operands make it run something given (a
	// script: 1; ssh HOST COMMAND: 2); 0 means operands never do.
	Operands int
	// OnlyForced: interactive only with one of Forces (sudo -i).
	OnlyForced bool
	// Quiet are first operands (subcommands) or options that start no
	// session (tmux ls, screen -ls, man -k).
	Quiet List
	// ReplModules are `python -m` modules that are themselves REPLs.
	ReplModules List
}

// TermUse says how a program takes commands from the terminal.
type TermUse uint8

const (
	// TermInput: it reads commands from standard input when it is given
	// nothing to run (shells, interpreters, database clients, ssh HOST):
	// interactive when its standard input is the terminal.
	TermInput TermUse = iota + 1
	// TermKeys: it reads keys from the terminal itself whatever its
	// standard input is (editors and pagers with shell escapes, terminal
	// multiplexers, top's kill key).
	TermKeys
	// TermScreen: it draws the whole screen but reads no commands
	// (watch): the TUI gives it the terminal, agents need not care.
	TermScreen
)

// ReadsTerminal reports whether the program called name, run with argv
// (argv[0] is the program; the words as the shell passes them), would
// read commands, keys or arguments from the terminal, and a short
// description of why. stdinTTY says whether its standard input is the
// terminal. A program that only draws the screen (TermScreen) does not.
func ReadsTerminal(name string, argv []string, stdinTTY bool) (why string, ok bool) {
	why, ok, _ = terminalUse(name, argv, stdinTTY)
	return why, ok
}

// NeedsTerminal reports whether the program called name, run with argv
// from a terminal, needs that terminal: it would read commands or keys
// from it, or it draws the whole screen (the TUI runs such a line in the
// terminal instead of capturing its output).
func NeedsTerminal(name string, argv []string) bool {
	_, ok, screen := terminalUse(name, argv, true)
	return ok || screen
}

// terminalUse decides for ReadsTerminal; screen reports a TermScreen
// entry that applies.
func terminalUse(name string, argv []string, stdinTTY bool) (why string, ok, screen bool) {
	p := Lookup(name)
	if p == nil || len(p.Terminal) == 0 || len(argv) == 0 {
		return "", false, false
	}
	for i := range p.Terminal {
		e := &p.Terminal[i]
		args := argv[1:]
		if e.Sub != "" {
			first := FirstOperand(args, func(o string) bool { return e.Values.Has(o) || p.TakesValueAt("", o) })
			if first < 0 || args[first] != e.Sub {
				continue
			}
			args = append(append([]string{}, args[:first]...), args[first+1:]...)
		}
		return e.decide(p, name, args, stdinTTY)
	}
	return "", false, false
}

// InteractivePrograms returns the sorted names of the programs that need
// a terminal whatever they are given: editors, pagers, full-screen
// programs (TermKeys and TermScreen entries without a sub). Shells,
// interpreters and clients need it only when given nothing to run.
func InteractivePrograms() []string {
	return namesWith(func(p *Program) bool {
		for _, e := range p.Terminal {
			if e.Sub == "" && (e.Use == TermKeys || e.Use == TermScreen) {
				return true
			}
		}
		return false
	})
}

// TerminalPrograms returns the sorted names of every program with
// terminal facts, "NAME SUB" for an entry that needs a first operand.
func TerminalPrograms() []string {
	var out []string
	for i := range nPrograms {
		p := program(i)
		if strings.HasSuffix(p.Name, "*") {
			continue
		}
		for _, e := range p.Terminal {
			if e.Sub != "" {
				out = append(out, p.Name+" "+e.Sub)
			} else {
				out = append(out, p.Name)
			}
		}
	}
	return out
}

// lists reports whether opt is one of the entry's options (a long option
// written with one dash: -cmd, -batch, -noshell).
func (e *Terminal) lists(p *Program, opt string) bool {
	return e.Runs.Has(opt) || e.Forces.Has(opt) || e.takesValue(p, opt) || e.Quiet.Has(opt)
}

// takesValue reports an option that takes a separate value: the entry's
// own values and the program's.
func (e *Terminal) takesValue(p *Program, opt string) bool {
	return e.Values.Has(opt) || p.TakesValueAt("", opt)
}

func (e *Terminal) decide(p *Program, name string, args []string, stdinTTY bool) (string, bool, bool) {
	label := name
	if e.Sub != "" {
		label += " " + e.Sub
	}
	var runs, forced, quiet bool
	operands := 0
	replModule := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if operands > 0 && e.Use == TermInput {
			// Options after the first operand belong to what it runs.
			operands++
			continue
		}
		if a == "--" {
			operands += len(args) - i - 1
			break
		}
		if e.Quiet.Has(a) && (operands == 0 || e.Use != TermInput) {
			quiet = true
		}
		if a == "--version" || a == "--help" {
			return "", false, false
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			if a != "-" { // "-" is standard input
				operands++
			}
			continue
		}
		if opt, _, _ := strings.Cut(a, "="); strings.HasPrefix(a, "--") || len(opt) > 2 && (e.lists(p, opt) || !isShortCluster(a)) {
			opt, _, hasValue := strings.Cut(a, "=")
			switch {
			case e.Runs.Has(opt):
				runs = true
			case e.Forces.Has(opt):
				forced = true
			}
			if !hasValue && e.takesValue(p, opt) {
				i++
			}
			continue
		}
		// A cluster of short options: -lc, -it, -W arg, -Warg.
		for j := 1; j < len(a); j++ {
			opt := string(a[0]) + string(a[j])
			if e.Runs.Has(opt) {
				runs = true
				if opt == "-m" && e.ReplModules != "" {
					mod := a[j+1:]
					if mod == "" && i+1 < len(args) {
						mod = args[i+1]
					}
					replModule = e.ReplModules.Has(mod)
				}
			}
			if e.Forces.Has(opt) {
				forced = true
			}
			if e.takesValue(p, opt) || e.Runs.Has(opt) && takesCode(opt) {
				if j == len(a)-1 {
					i++
				}
				break
			}
		}
		if runs && e.ReplModules == "" && e.Use == TermInput && e.Operands > 0 {
			// -c CODE / -m MOD end the options of shells and interpreters.
			break
		}
	}
	switch e.Use {
	case TermKeys:
		if quiet {
			return "", false, false
		}
		return label + " reads keys from the terminal", true, false
	case TermScreen:
		return "", false, !quiet
	case TermInput:
		if replModule {
			return label + " -m starts an interactive interpreter", true, false
		}
		if forced {
			return label + " starts an interactive session", true, false
		}
		if e.OnlyForced || runs || quiet || e.Operands > 0 && operands >= e.Operands || !stdinTTY {
			return "", false, false
		}
		return label + " would read commands from the terminal", true, false
	}
	return "", false, false
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

// isShortCluster reports a dash word that is a cluster of one-letter
// options: -Command, -NoExit (PowerShell) are long options written with one
// dash, so a dash word with an upper-case letter after the first, or an
// "=", is one option.
func isShortCluster(a string) bool {
	for i := 2; i < len(a); i++ {
		if a[i] >= 'A' && a[i] <= 'Z' || a[i] == '=' {
			return false
		}
	}
	return true
}

// FirstOperand returns the index of the first operand of args (skipping
// options and the values of options takesValue reports), or -1.
func FirstOperand(args []string, takesValue func(string) bool) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) {
				return i + 1
			}
			return -1
		}
		if len(a) > 1 && a[0] == '-' {
			if !strings.Contains(a, "=") && takesValue(a) {
				i++
			}
			continue
		}
		return i
	}
	return -1
}
