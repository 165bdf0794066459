package tui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
)

// InteractivePrograms returns the sorted list of programs that get the
// terminal whatever they are given when a line starts with them (after
// `sudo`, `env` or `VAR=value` words): editors, pagers and full-screen
// programs. Shells, interpreters and clients (python3, psql, ssh HOST)
// get it when given nothing to run. Both come from the terminal facts of
// the program data (internal/programs/data/terminal.toml), which the
// guard also reads for agents' terminal sessions. Any other line can be
// given the terminal with the `!!` prefix.
func InteractivePrograms() []string { return programs.InteractivePrograms() }

// needsTerminal reports whether line starts with a program that needs the
// terminal, given the words after it.
func needsTerminal(line string) bool {
	words := strings.Fields(line)
	for i, w := range words {
		switch {
		case w == "sudo" || w == "env" || w == "command" || w == "exec" || w == "nohup":
			continue
		case strings.HasPrefix(w, "-"):
			continue // options of sudo/env
		case isAssignment(w):
			continue
		}
		name := filepath.Base(w)
		return programs.NeedsTerminal(name, append([]string{name}, words[i+1:]...))
	}
	return false
}

func isAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	if i <= 0 {
		return false
	}
	for j, r := range w[:i] {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || j > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// cdTarget reports whether line is a plain `cd [DIR]` and, if so, the
// directory it names (unresolved). Lines with anything a shell would have
// to interpret (;, &&, $, globs, ...) are not plain and are run by the
// shell (where a directory change does not last).
func cdTarget(line string) (arg string, ok bool) {
	line = strings.TrimSpace(line)
	if line != "cd" && !strings.HasPrefix(line, "cd ") && !strings.HasPrefix(line, "cd\t") {
		return "", false
	}
	rest := strings.TrimSpace(line[2:])
	if rest == "" {
		return "", true
	}
	if strings.ContainsAny(rest, ";&|<>()`$*?[]{}\n") {
		return "", false
	}
	if len(rest) >= 2 && (rest[0] == '\'' || rest[0] == '"') && rest[len(rest)-1] == rest[0] {
		inner := rest[1 : len(rest)-1]
		if strings.ContainsAny(inner, "'\"\\") {
			return "", false
		}
		return inner, true
	}
	if strings.ContainsAny(rest, " \t'\"\\") {
		return "", false
	}
	return rest, true
}

// resolveDir resolves a cd argument against cwd: "" and "~" are the home
// directory, "~/x" is below it, "-" is prev.
func resolveDir(arg, cwd, prev, home string) (string, error) {
	switch {
	case arg == "" || arg == "~":
		if home == "" {
			return "", errors.New("cd: HOME not set")
		}
		arg = home
	case strings.HasPrefix(arg, "~/"):
		if home == "" {
			return "", errors.New("cd: HOME not set")
		}
		arg = filepath.Join(home, arg[2:])
	case arg == "-":
		if prev == "" {
			return "", errors.New("cd: no previous directory")
		}
		arg = prev
	}
	if !filepath.IsAbs(arg) {
		arg = filepath.Join(cwd, arg)
	}
	arg = filepath.Clean(arg)
	fi, err := os.Stat(arg)
	if err != nil {
		return "", fmt.Errorf("cd: %w", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("cd: %s: not a directory", arg)
	}
	return arg, nil
}
