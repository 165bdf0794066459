package policy

import (
	"strings"

	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/shellparse"
)

// terminalSession denies, under an agent whose shell tool can keep a
// terminal session open and type into it, a line that would start a
// program reading commands from the terminal: what is typed into it later
// never reaches a hook.
func terminalSession(req Request, res *shellparse.Result, d *Decision) {
	if req.Agent == "" || d.Verdict == Deny {
		return
	}
	spec, ok := agents.Lookup(req.Agent)
	if !ok || !spec.TerminalSessions {
		return
	}
	for i := range res.Invocations {
		why, ok := interactive(&res.Invocations[i])
		if !ok {
			continue
		}
		d.Verdict = Deny
		d.Reason = "denied under " + spec.Title + ": " + why + ", and what is typed into a terminal session later never reaches shellguard. " +
			"Run the commands themselves instead (bash -c '...', python3 -c '...', psql -c '...', ssh HOST COMMAND)"
		d.Problem = ""
		return
	}
}

// unattended turns an ask with an opinion into deny when no person will
// see a prompt, unless the configuration keeps the ask.
func (g *Guard) unattended(req Request, d *Decision) {
	if !req.Unattended || d.Verdict != Ask || g.cfg.Unattended == config.UnattendedAsk {
		return
	}
	if len(d.Warnings) == 0 && d.Level == nil && len(d.Rules) == 0 && d.Problem == "" {
		// Merely not approved: the agent's own permission flow decides.
		return
	}
	d.Verdict = Deny
	r := strings.TrimSuffix(strings.TrimSpace(d.Reason), ".")
	if r != "" {
		r += "; "
	}
	d.Reason = r + "it needs a person's approval and no one will see a prompt in this unattended run, so it is denied (unattended = \"deny\")"
}
