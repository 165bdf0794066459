// Command shellguard reads shell commands the way the shell will, says how
// dangerous they are, remembers what a person approved, and answers allow,
// ask or deny. See the README for the commands and their exit codes.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
