// Command floor is the least any Go hook built on shellguard's parser can
// cost: it imports mvdan.cc/sh/v3/syntax, decodes the agent's hook JSON
// with encoding/json and parses the command, and does nothing else.
// bench.BenchmarkHookFloor runs shellguard-hook against it (issue 15: the
// hook within 1.3x of this floor).
package main

import (
	"encoding/json"
	"os"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

func main() {
	var in struct {
		ToolInput struct {
			Command string `json:"command"`
		} `json:"tool_input"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		os.Exit(2)
	}
	if _, err := syntax.NewParser().Parse(strings.NewReader(in.ToolInput.Command), ""); err != nil {
		os.Exit(1)
	}
	os.Stdout.WriteString("{}\n")
}
