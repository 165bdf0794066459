package danger

import (
	"strings"

	"github.com/shellguard/shellguard/shellparse"
)

// The checks of the system, disks, persistence, security and logs packs
// (danger/checks.toml): shapes argv cannot describe.

// checkTruncates: the invocation writes nothing through a truncating
// redirection (: > FILE, > FILE, cat /dev/null > FILE, echo -n > FILE,
// true > FILE): the file is emptied. An echo with no arguments writes one
// newline, which empties a file as well.
func checkTruncates(sc *scan, i int) bool {
	inv := &sc.res.Invocations[i]
	truncating := false
	for _, r := range inv.Redirs {
		switch r.Op {
		case ">", ">|", "&>":
			truncating = truncating || r.Fd == "" || r.Fd == "1"
		}
	}
	return truncating && printsNothing(sc.name(i), sc.args(i))
}

// printsNothing reports a command whose standard output is empty (or a
// lone newline): no program (a bare redirection), :, true, false, cat
// /dev/null, echo with no or empty arguments, printf ”.
func printsNothing(name string, args []shellparse.Arg) bool {
	if len(args) == 0 {
		return true
	}
	words := args[1:]
	switch name {
	case ":", "true", "false":
		return true
	case "cat":
		for _, a := range words {
			if a.Dynamic || a.Value != "/dev/null" {
				return false
			}
		}
		return len(words) > 0
	case "echo", "printf":
		for k, a := range words {
			if a.Dynamic {
				return false
			}
			if name == "echo" && k == 0 && (a.Value == "-n" || a.Value == "-e" || a.Value == "-ne" || a.Value == "-en") {
				continue
			}
			if a.Value != "" {
				return false
			}
		}
		return true
	}
	return false
}

// checkNoOperands: the invocation has no operands (pkill -u USER without a
// pattern kills every process of the user).
func checkNoOperands(sc *scan, i int) bool {
	if sc.name(i) == "" {
		return false
	}
	return len(sc.argv(i).pos) == 0
}

// checkStdinFed: the invocation reads its standard input from a pipe, a
// file, a here-string or a heredoc rather than from the terminal (a
// partition editor fed a script).
func checkStdinFed(sc *scan, i int) bool {
	inv := &sc.res.Invocations[i]
	for _, r := range inv.Redirs {
		switch r.Op {
		case "<", "<<", "<<-", "<<<":
			if r.Fd == "" || r.Fd == "0" {
				return true
			}
		}
	}
	p := inv.Where.Find(shellparse.FramePipeline)
	return p != nil && p.Stage > 0
}

// historyOff reports an invocation that stops the shell from saving its
// history: unset HISTFILE; HISTFILE=/dev/null or empty, HISTSIZE=0,
// HISTFILESIZE=0, SAVEHIST=0 (assigned, exported or declared); set +o
// history.
func historyOff(sc *scan, i int) bool {
	inv := &sc.res.Invocations[i]
	for _, a := range inv.Assigns {
		if !a.Dynamic && historyOffAssign(a.Name, a.Value) {
			return true
		}
	}
	args := sc.args(i)
	switch sc.name(i) {
	case "unset":
		for _, a := range args[1:] {
			if a.Value == "HISTFILE" {
				return true
			}
		}
	case "export", "declare", "typeset", "local", "readonly":
		for _, a := range args[1:] {
			if name, value, ok := strings.Cut(a.Value, "="); ok && !a.Dynamic && historyOffAssign(name, value) {
				return true
			}
		}
	case "set":
		for k := 1; k+1 < len(args); k++ {
			if args[k].Value == "+o" && args[k+1].Value == "history" {
				return true
			}
		}
	}
	return false
}

func historyOffAssign(name, value string) bool {
	switch name {
	case "HISTFILE":
		return value == "" || value == "/dev/null"
	case "HISTSIZE", "HISTFILESIZE", "SAVEHIST":
		return strings.Trim(value, "0") == "" // 0, 00, ""
	}
	return false
}

// checkHistoryOff: the shell stops saving its history.
func checkHistoryOff(sc *scan, i int) bool { return historyOff(sc, i) }

// settingOnly reports the builtins that only set the shell's state: after
// history is turned off they are not "work" the history would have kept.
func settingOnly(name string) bool {
	switch name {
	case "set", "unset", "export", "declare", "typeset", "local", "readonly", "history", "shopt", "setopt", "unsetopt", ":", "true":
		return true
	}
	return false
}

// checkHistoryOffThenCommand: the shell stops saving its history, and the
// line then runs something: what it runs leaves no trace in the history.
func checkHistoryOffThenCommand(sc *scan, i int) bool {
	if !historyOff(sc, i) {
		return false
	}
	for j := i + 1; j < len(sc.res.Invocations); j++ {
		inv := &sc.res.Invocations[j]
		if inv.NotRun || sc.name(j) == "" || inv.Parent == i || inv.Encloser == i {
			continue
		}
		if !settingOnly(sc.name(j)) {
			return true
		}
	}
	return false
}

// checkHistoryClearedToFile: history -c and history -w in the same line
// (or history -cw): the history list is emptied and the empty list is
// written over the history file.
func checkHistoryClearedToFile(sc *scan, i int) bool {
	if sc.name(i) != "history" {
		return false
	}
	c, w := historyFlags(sc.args(i))
	if !w {
		return false
	}
	if c {
		return true
	}
	for j := range sc.res.Invocations {
		if j != i && sc.name(j) == "history" {
			if c, _ := historyFlags(sc.args(j)); c {
				return true
			}
		}
	}
	return false
}

// historyFlags reports history's -c and -w (also inside clusters).
func historyFlags(args []shellparse.Arg) (c, w bool) {
	for _, a := range args[1:] {
		v := a.Value
		if len(v) < 2 || v[0] != '-' || v == "--" {
			continue
		}
		c = c || strings.ContainsRune(v[1:], 'c')
		w = w || strings.ContainsRune(v[1:], 'w')
	}
	return c, w
}
