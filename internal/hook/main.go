package hook

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/policy"
)

// PolicyDecider returns the DecideFunc the CLI uses: it loads the
// configuration for the request's cwd (built-in defaults, user file,
// the project files found from cwd, then configFile) and the approval
// store (approvalsFile, or $SHELLGUARD_APPROVALS, or the user's), and
// decides. Empty configFile means $SHELLGUARD_CONFIG, as for every
// command. The agent and whether the run is unattended reach the policy
// (see policy.Request). Loading and deciding share one budget (policy.DefaultBudget):
// past it the decision is an ask with Problem over_budget, which Run
// answers with the protocol's ask or blocking form.
func PolicyDecider(configFile, approvalsFile, source string) DecideFunc {
	return func(r Request) (policy.Decision, error) {
		deadline := time.Now().Add(policy.DefaultBudget)
		g, err := policy.LoadBy(policy.Options{Cwd: r.Cwd, ConfigFile: configFile, ApprovalsFile: approvalsFile, Source: source}, deadline)
		if errors.Is(err, policy.ErrOverBudget) {
			return policy.BudgetExceeded(r.Command, policy.DefaultBudget, "loading its configuration"), nil
		}
		if err != nil {
			return policy.Decision{}, fmt.Errorf("shellguard configuration error: %w", err)
		}
		return g.Decide(policy.Request{Command: r.Command, Cwd: r.Cwd, Deadline: deadline,
			Agent: string(r.Agent), Unattended: r.Unattended, SessionID: r.SessionID}), nil
	}
}

// Main is the whole of the lean hook program, shellguard-hook:
//
//	shellguard-hook [--config FILE] [--approvals FILE] AGENT
//
// It answers exactly as "shellguard hook AGENT" does, from a binary that
// links only what deciding needs (no CLI framework, terminal UI or MCP
// server), so that the process an agent starts before every command starts
// as fast as a Go program can. It returns the exit code.
func Main(args []string, in io.Reader, out, errOut io.Writer) int {
	fs := flag.NewFlagSet("shellguard-hook", flag.ContinueOnError)
	fs.SetOutput(errOut)
	configFile := fs.String("config", "", "extra configuration file (default $SHELLGUARD_CONFIG)")
	approvalsFile := fs.String("approvals", "", "approval store (default $SHELLGUARD_APPROVALS)")
	fs.Usage = func() {
		fmt.Fprintln(errOut, "usage: shellguard-hook [--config FILE] [--approvals FILE] "+strings.Join(agentNames(), "|"))
	}
	if err := fs.Parse(args); err != nil {
		// Exit 2 is the blocking answer in all three protocols.
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	agent, err := agents.ParseAgent(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(errOut, "shellguard-hook:", err)
		return 2
	}
	return Run(agent, in, out, errOut, PolicyDecider(*configFile, *approvalsFile, "hook:"+string(agent)))
}

func agentNames() []string {
	var out []string
	for _, a := range agents.Agents() {
		out = append(out, string(a))
	}
	return out
}
