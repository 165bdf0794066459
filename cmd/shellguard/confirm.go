package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"
)

// interactive reports whether standard input is a terminal a person types
// at.
func interactive(s *streams) bool {
	f, ok := s.in.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// confirm asks question on standard error and reads the answer from
// standard input: only "y" or "yes" (any case) is yes.
func confirm(s *streams, question string) bool {
	fmt.Fprintf(s.err, "%s [y/N] ", question)
	line, err := bufio.NewReader(io.LimitReader(s.in, 1024)).ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(s.err)
		return false
	}
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "y" || a == "yes"
}
