package mcpserver

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/internal/shquote"
	"github.com/shellguard/shellguard/policy"
)

// The choices of the approval form, in the order they are offered.
const (
	ChoiceOnce    = "once"
	ChoiceSession = "session"
	ChoiceAlways  = "always"
	ChoiceDeny    = "deny"
)

// approvalKey is the key of the approval question in InputRequests.
const approvalKey = "shellguard_approval"

// Meta keys set on the elicitation request, for clients that want to show
// the command themselves.
const (
	MetaCommand = "shellguard/command"
	MetaCwd     = "shellguard/cwd"
)

// ask handles an Ask verdict. It returns (nil, nil) when the person
// approved the command and it may run; otherwise the result to return (an
// input request) or the error that refuses the command.
func (s *server) ask(req *mcp.CallToolRequest, st *sessionState, dec Decider, d policy.Decision, command, dir string) (*mcp.CallToolResult, error) {
	var params *mcp.CallToolParamsRaw
	if req != nil {
		params = req.Params
	}
	p := pendingAsk{command: command, cwd: dir}

	// A retry carrying the person's answer.
	if params != nil && (params.RequestState != "" || len(params.InputResponses) > 0) {
		if params.RequestState == "" || !st.takePending(params.RequestState, p) {
			return nil, errors.New("shellguard refused to run this command: the approval answer does not belong to an approval question " +
				"this server asked for this command in this session; call run_shell_command again to be asked anew")
		}
		choice, err := answerChoice(params.InputResponses[approvalKey])
		if err != nil {
			return nil, err
		}
		return nil, s.honour(choice, st, dec, command)
	}

	if !supportsElicitation(req) {
		return nil, fmt.Errorf("shellguard did not run this command: it needs a person's approval (%s), "+
			"and this MCP client cannot ask the user (it does not support elicitation). "+
			"Ask the user to approve it in a terminal with\n\n    %s\n\n"+
			"(or, to approve only this exact command line,\n\n    %s\n\n), then call run_shell_command again",
			reasonOf(d), AllowCommand(s.approvalsFile, false, command), AllowCommand(s.approvalsFile, true, command))
	}

	tok, err := st.addPending(p)
	if err != nil {
		return nil, fmt.Errorf("shellguard did not run this command: cannot ask for approval: %w", err)
	}
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{approvalKey: &mcp.ElicitParams{
			Meta:            mcp.Meta{MetaCommand: command, MetaCwd: dir},
			Mode:            "form",
			Message:         approvalMessage(d, command, dir),
			RequestedSchema: approvalSchema(),
		}},
		RequestState: tok,
	}, nil
}

// honour carries out the person's choice: nil means run the command.
func (s *server) honour(choice string, st *sessionState, dec Decider, command string) error {
	switch choice {
	case ChoiceOnce:
		return nil
	case ChoiceSession:
		if err := dec.Approve(command, false, approval.Session, st.store, Via); err != nil {
			return fmt.Errorf("shellguard did not run this command: the session approval could not be recorded: %w", err)
		}
		return nil
	case ChoiceAlways:
		if err := dec.Approve(command, false, approval.Always, nil, Via); err != nil {
			return fmt.Errorf("shellguard did not run this command: the approval could not be saved: %w", err)
		}
		return nil
	case ChoiceDeny:
		return errors.New("shellguard did not run this command: the user denied it")
	}
	return fmt.Errorf("shellguard did not run this command: unknown approval choice %q", choice)
}

// answerChoice extracts the choice from the person's answer. Anything but
// an accepted form holding one of the four choices refuses the command.
func answerChoice(r mcp.InputResponse) (string, error) {
	er, ok := r.(*mcp.ElicitResult)
	if !ok || er == nil {
		return "", errors.New("shellguard did not run this command: no answer to the approval question")
	}
	switch er.Action {
	case "accept":
	case "decline":
		return "", errors.New("shellguard did not run this command: the user declined it")
	case "cancel":
		return "", errors.New("shellguard did not run this command: the user dismissed the approval question")
	default:
		return "", fmt.Errorf("shellguard did not run this command: unknown answer %q to the approval question", er.Action)
	}
	v, ok := er.Content["choice"].(string)
	if !ok {
		return "", errors.New("shellguard did not run this command: the approval answer holds no choice")
	}
	switch v {
	case ChoiceOnce, ChoiceSession, ChoiceAlways, ChoiceDeny:
		return v, nil
	}
	return "", fmt.Errorf("shellguard did not run this command: unknown approval choice %q", v)
}

// supportsElicitation reports whether the client that made req can answer
// a form elicitation.
func supportsElicitation(req *mcp.CallToolRequest) bool {
	if req == nil {
		return false
	}
	caps := req.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return false
	}
	// {} means form (before 2025-11-25); {"url":{}} alone means URL only.
	return caps.Elicitation.Form != nil || caps.Elicitation.URL == nil
}

// approvalMessage is the question put to the person.
func approvalMessage(d policy.Decision, command, dir string) string {
	var b strings.Builder
	b.WriteString("shellguard: the agent wants to run\n\n")
	for line := range strings.SplitSeq(command, "\n") {
		b.WriteString("    ")
		b.WriteString(line)
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\nin %s\n\n", dir)
	fmt.Fprintf(&b, "Why it needs your approval: %s\n", reasonOf(d))
	if d.Level != nil && d.Level.Valid() {
		fmt.Fprintf(&b, "Danger: %s\n", d.Level.String())
	}
	for _, w := range d.Warnings {
		if w.Message != "" {
			fmt.Fprintf(&b, "  - %s\n", w.Message)
		}
	}
	var prefixes []string
	for _, inv := range d.Invocations {
		if !inv.Approved && inv.Prefix != "" && !containsString(prefixes, inv.Prefix+" *") {
			prefixes = append(prefixes, inv.Prefix+" *")
		}
	}
	what := "this command"
	if len(prefixes) > 0 {
		what = strings.Join(prefixes, ", ")
	}
	fmt.Fprintf(&b, "\nonce: run it this time only\nsession: approve %s until this MCP session ends\nalways: approve %s from now on (saved)\ndeny: do not run it\n", what, what)
	return b.String()
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// approvalSchema is the form: one required enum field, "choice".
func approvalSchema() *jsonschema.Schema {
	entry := func(v, title string) *jsonschema.Schema {
		var c any = v
		return &jsonschema.Schema{Const: &c, Title: title}
	}
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"choice": {
				Type:        "string",
				Title:       "Run this command?",
				Description: "once: this time only; session: until this MCP session ends; always: from now on; deny: do not run it",
				OneOf: []*jsonschema.Schema{
					entry(ChoiceOnce, "Approve once"),
					entry(ChoiceSession, "Approve for this session"),
					entry(ChoiceAlways, "Approve always"),
					entry(ChoiceDeny, "Deny"),
				},
			},
		},
		Required: []string{"choice"},
	}
}

// AllowCommand returns the shell command a person runs to approve command
// for good: shellguard allow add -- COMMAND, with --approvals FILE when
// approvalsFile is not empty and --exact when exact is true, each word
// quoted for bash and zsh (internal/shquote).
func AllowCommand(approvalsFile string, exact bool, command string) string {
	var b strings.Builder
	b.WriteString("shellguard allow add ")
	if exact {
		b.WriteString("--exact ")
	}
	if approvalsFile != "" {
		b.WriteString("--approvals " + shquote.Quote(approvalsFile) + " ")
	}
	b.WriteString("-- " + shquote.Quote(command))
	return b.String()
}

func newToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// decisionJSON encodes d for check_command. A verdict that cannot be
// encoded is reported as an error rather than guessed.
func decisionJSON(d policy.Decision) (json.RawMessage, error) {
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("cannot encode the decision: %w", err)
	}
	return b, nil
}

// runInputSchema is the schema inferred from RunInput with its bounds.
func runInputSchema() *jsonschema.Schema {
	sc, err := jsonschema.For[RunInput](nil)
	if err != nil || sc.Properties == nil {
		// Cannot happen for a fixed struct; keep a usable schema anyway.
		sc = &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
			"command":         {Type: "string"},
			"cwd":             {Type: "string"},
			"timeout_seconds": {Type: "integer"},
		}, Required: []string{"command"}}
	}
	one := 1
	zero, maxSec := 0.0, MaxTimeout.Seconds()
	if p := sc.Properties["command"]; p != nil {
		p.MinLength = &one
	}
	if p := sc.Properties["timeout_seconds"]; p != nil {
		p.Minimum = &zero
		p.Maximum = &maxSec
	}
	return sc
}

// decisionSchema describes policy.Decision's JSON. It is deliberately
// lenient about what may be added later.
func decisionSchema() *jsonschema.Schema {
	str := func(desc string) *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Description: desc} }
	nullable := func(sc *jsonschema.Schema) *jsonschema.Schema {
		sc.Types = []string{sc.Type, "null"}
		sc.Type = ""
		return sc
	}
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"command":  str("the command line checked"),
			"decision": {Type: "string", Enum: []any{"allow", "ask", "deny"}, Description: "allow: runs at once; ask: needs a person's approval; deny: refused"},
			"reason":   str("why, in a sentence or two"),
			"level": {Types: []string{"string", "null"}, Enum: []any{"low", "medium", "high", "critical", nil},
				Description: "highest danger level found, or null"},
			"warnings": nullable(&jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
				"name":        str("pattern name"),
				"level":       str("pattern level"),
				"description": str("what the pattern detects"),
				"message":     str("the warning as shown to people"),
				"invocation":  str("the part of the line that matched"),
			}}}),
			"invocations": nullable(&jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
				"command":     str("the invocation as shellguard understood it"),
				"prefix":      str("its approval prefix, or empty when it cannot be classified"),
				"approved":    {Type: "boolean", Description: "whether an approval, rule or the read-only list covers it"},
				"approved_by": str("what approved it"),
				"reason":      str("why it is not approvable"),
			}}}),
			"rules": nullable(&jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"}}),
		},
		Required: []string{"command", "decision", "reason"},
	}
}
