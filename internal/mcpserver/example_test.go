package mcpserver_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/internal/mcpserver"
	"github.com/shellguard/shellguard/policy"
)

// allowList allows the listed command lines and asks about the rest. A
// program uses a *policy.Guard instead.
type allowList map[string]bool

func (a allowList) Decide(req policy.Request) policy.Decision {
	if a[req.Command] {
		return policy.Decision{Command: req.Command, Verdict: policy.Allow, Reason: "listed"}
	}
	return policy.Decision{Command: req.Command, Verdict: policy.Ask, Reason: "not listed"}
}

func (a allowList) Approve(string, bool, approval.Scope, *approval.SessionStore, string) error {
	return nil
}

// An MCP client calls run_shell_command. The server is connected in
// memory here; `shellguard mcp` serves the same over stdio.
func ExampleNew() {
	ctx := context.Background()
	server := mcpserver.New(allowList{"echo hello": true}, mcpserver.Options{})
	clientT, serverT := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverT, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "v1"}, nil)
	cs, err := client.Connect(ctx, clientT, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	for _, command := range []string{"echo hello", "make build"} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{
			Name:      mcpserver.ToolRun,
			Arguments: map[string]any{"command": command},
		})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: error=%v structured=%v\n", command, res.IsError, res.StructuredContent != nil)
		if !res.IsError {
			fmt.Println(res.Content[0].(*mcp.TextContent).Text)
		}
	}
	// Output:
	// echo hello: error=false structured=true
	// hello
	// [exit code: 0]
	// make build: error=true structured=false
}

// The environment of the commands keeps only the minimal variables and
// those the user listed ([mcp] env), never a token of the server's.
func ExampleMinimalEnv() {
	server := []string{"PATH=/usr/bin:/bin", "HOME=/home/me", "ANTHROPIC_API_KEY=sk-ant-x", "LC_ALL=C.UTF-8", "GOPATH=/home/me/go", "GOFLAGS=-mod=mod"}
	fmt.Println(mcpserver.MinimalEnv(server, nil))
	fmt.Println(mcpserver.MinimalEnv(server, []string{"GO*"}))
	// Output:
	// [PATH=/usr/bin:/bin HOME=/home/me LC_ALL=C.UTF-8]
	// [PATH=/usr/bin:/bin HOME=/home/me LC_ALL=C.UTF-8 GOPATH=/home/me/go GOFLAGS=-mod=mod]
}
