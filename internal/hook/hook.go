package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/shellguard/shellguard/internal/agents"
	"github.com/shellguard/shellguard/policy"

	"github.com/shellguard/shellguard/internal/shquote"
)

// MaxInput is the largest hook input Run accepts, in bytes. Larger inputs
// are refused (fail closed) rather than read without bound.
const MaxInput = 1 << 20

// Request is what a hook call asks about: a shell command an agent wants
// to run.
type Request struct {
	// Command is the command line; Cwd the directory it would run in
	// (the hook input's cwd, with Gemini CLI's dir_path applied);
	// SessionID the agent's session.
	Command, Cwd, SessionID string
	// Agent is the agent asking.
	Agent agents.Agent
	// Mode is the permission mode the agent reports (permission_mode:
	// "default", "acceptEdits", "bypassPermissions", "dontAsk", ...), or
	// "" when it reports none.
	Mode string
	// Unattended reports that no person will see a prompt (see Attended);
	// it is set only for agents whose protocol can ask.
	Unattended bool
}

// DecideFunc returns the policy decision for a request. The CLI passes a
// function that loads the Guard for the request's cwd and calls Decide
// (see PolicyDecider); tests inject their own.
type DecideFunc func(Request) (policy.Decision, error)

// Action is what a hook answer asks the agent to do.
type Action int

// The actions, from the least to the most restrictive.
const (
	// NoOpinion writes nothing: the agent's own permission flow applies.
	NoOpinion Action = iota
	// AllowAction lets the command run without a prompt.
	AllowAction
	// AskAction asks a person to approve the command.
	AskAction
	// DenyAction blocks the command.
	DenyAction
)

// String returns "no-opinion", "allow", "ask" or "deny".
func (a Action) String() string {
	if a >= NoOpinion && a <= DenyAction {
		return [...]string{NoOpinion: "no-opinion", AllowAction: "allow", AskAction: "ask", DenyAction: "deny"}[a]
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// ActionFor maps a policy decision to a hook action, the same way for every
// agent:
//
//   - Deny -> DenyAction.
//   - Ask with warnings, a danger level, a matching configuration rule or a
//     Problem (over budget, audit log not written, internal error) ->
//     AskAction.
//   - Ask without any of these (the command is merely not approved) ->
//     NoOpinion, so the agent's own permission flow decides.
//   - Allow -> AllowAction only when there is at least one invocation and
//     every invocation is approved; otherwise NoOpinion.
//   - Anything else (an invalid verdict) -> AskAction: fail closed.
func ActionFor(d policy.Decision) Action {
	if d.Shadow {
		// mode = "warn": decided and logged, not enforced (the guard's own
		// self-protection denies are never Shadow).
		return NoOpinion
	}
	switch d.Verdict {
	case policy.Deny:
		return DenyAction
	case policy.Ask:
		if d.HasOpinion() {
			return AskAction
		}
		return NoOpinion
	case policy.Allow:
		if len(d.Invocations) == 0 {
			return NoOpinion
		}
		for _, inv := range d.Invocations {
			if !inv.Approved {
				return NoOpinion
			}
		}
		return AllowAction
	}
	return AskAction
}

// Run answers one hook call of agent: it reads the agent's JSON from in
// (at most MaxInput bytes), decides the shell command it carries with
// decide, writes the answer to out and returns the process exit code.
//
// Every answer is in the form the agent's protocol documents as
// preferred: JSON on out with exit code 0 for most agents; for agents that
// read only exit codes (Windsurf), the reason on errOut and exit code 2
// to block. Only when the answer cannot be written does Run fall back to
// exit code 2 with the reason on errOut, which every protocol documents as
// "block". Run never panics.
//
// Run reads the process's environment and ancestry to tell whether a
// person will see a prompt (see Attended); RunWith takes them from env.
func Run(agent agents.Agent, in io.Reader, out, errOut io.Writer, decide DecideFunc) (exitCode int) {
	return RunWith(agent, in, out, errOut, decide, ProcessEnv())
}

// RunWith is Run with the environment env.
func RunWith(agent agents.Agent, in io.Reader, out, errOut io.Writer, decide DecideFunc, env Env) (exitCode int) {
	spec, ok := agents.Lookup(string(agent))
	if !ok {
		fmt.Fprintf(errOut, "shellguard: unknown agent %q (want %s)\n", agent, agents.Names())
		return 2
	}
	h := &hookCall{spec: spec, env: env, event: spec.Event}
	ans := h.answer(in, decide)
	res, err := h.encode(ans)
	if err == nil && len(res.stdout) > 0 {
		_, err = out.Write(res.stdout)
	}
	if err == nil && len(res.stderr) > 0 {
		_, err = errOut.Write(res.stderr)
	}
	if err != nil {
		fmt.Fprintf(errOut, "shellguard: cannot write the hook answer (%v); blocking: %s\n", err, ans.modelReason)
		return 2
	}
	return res.code
}

// answer is the protocol-independent result of one hook call.
type answer struct {
	action Action
	// event is the event answered (the agent's Event, or its
	// PermissionEvent).
	event string
	// modelReason is written for the model (deny), userReason for the
	// person (ask, and Gemini's systemMessage).
	modelReason, userReason string
	// failure is set when the answer comes from a problem rather than a
	// decision (it is then ask or a block).
	failure bool
}

// hookCall is one hook call being answered.
type hookCall struct {
	spec agents.Spec
	env  Env
	// event is the event being answered.
	event string
	// attended is computed once, when first needed (or read from the
	// input, AttendanceInput).
	attended *bool
	// argKey is the member of the tool's arguments the command came from,
	// and argList reports a list of command lines (Cline's overrideInput
	// replaces it).
	argKey  string
	argList bool
}

// isAttended reports whether a person will see a prompt the agent shows.
func (h *hookCall) isAttended() bool {
	if h.attended == nil {
		a := Attended(h.spec, h.env)
		h.attended = &a
	}
	return *h.attended
}

// canAsk reports whether an ask answer will reach a person: the
// protocol has one, and (where an unanswered ask would hang) a person is
// there.
func (h *hookCall) canAsk() bool {
	switch h.spec.Ask {
	case agents.AskAlways:
		return true
	case agents.AskAttended:
		return h.isAttended()
	}
	return false
}

// The members shellguard reads from an agent's hook input are those its
// agents.Input names, by their exact (case-sensitive) keys: the event,
// the tool, the tool's arguments (in them the command, or a list of
// commands, and a directory), the cwd (or a list of workspace roots),
// the session, the permission mode, and whether a person is there. The
// agents send more; other members are ignored. The agents read their JSON
// with exact keys, and encoding/json matches struct fields
// case-insensitively (the last of "command" and "Command" wins), so the
// input is read member by member instead (see members), and an object
// holding the same key twice, or two keys that differ only in case, is
// answered as a problem: which of them the agent runs cannot be known.

func (h *hookCall) answer(in io.Reader, decide DecideFunc) (ans answer) {
	agent := h.spec.Name
	inp := h.spec.Input
	failure := h.failure
	defer func() {
		if r := recover(); r != nil {
			ans = h.failure(fmt.Sprintf("internal error: %v", r))
		}
	}()
	data, err := io.ReadAll(io.LimitReader(in, MaxInput+1))
	if err != nil {
		return failure(fmt.Sprintf("cannot read the hook input: %v", err))
	}
	if len(data) > MaxInput {
		return failure(fmt.Sprintf("the hook input is larger than %d bytes", MaxInput))
	}
	top, err := members(data)
	switch {
	case errors.Is(err, errTrailingData):
		return failure("the hook input has data after the JSON object")
	case errors.Is(err, errAmbiguous):
		return failure("the hook input is " + err.Error())
	case err != nil:
		return failure(fmt.Sprintf("the hook input is not valid JSON for %s: %v", agent.Title(), err))
	}
	if inp.Attended != "" && h.spec.Attendance == agents.AttendanceInput {
		a, err := boolAt(top, inp.Attended)
		if err != nil {
			return failure(err.Error())
		}
		h.attended = &a
	}
	event, err := stringAt(top, inp.Event)
	if err != nil {
		return failure(err.Error())
	}
	switch {
	case event == "" || event == h.spec.Event:
	case event == h.spec.PermissionEvent && event != "":
		h.event = event
	default:
		// Registered on another event: not a command about to run.
		return answer{action: NoOpinion}
	}
	foreign := false
	if inp.Tool != "" {
		toolName, err := stringAt(top, inp.Tool)
		if err != nil {
			return failure(err.Error())
		}
		foreign = h.spec.IsForeignShellTool(toolName)
		if !h.spec.IsShellTool(toolName) && !foreign {
			if toolName == "" {
				return failure("the hook input names no tool (" + inp.Tool + " is missing)")
			}
			return answer{action: NoOpinion}
		}
	}
	args := top
	argsName := ""
	if inp.Args != "" {
		argsName = inp.Args + "."
		if args, err = h.argsAt(top, inp); err != nil {
			return failure(err.Error())
		}
	}
	inpCwd, err := stringAt(top, inp.Cwd)
	if err != nil {
		return failure(err.Error())
	}
	if inpCwd == "" && inp.Roots != "" {
		if inpCwd, err = firstAt(top, inp.Roots); err != nil {
			return failure(err.Error())
		}
	}
	sessionID, err := stringAt(top, inp.Session)
	if err != nil {
		return failure(err.Error())
	}
	mode, err := stringAt(top, inp.Mode)
	if err != nil {
		return failure(err.Error())
	}
	var dir string
	for _, key := range inp.Dirs {
		d, err := stringMember(args, key)
		if err != nil {
			return failure(argsName + err.Error())
		}
		dir = firstNonEmpty(dir, d)
	}
	var commands []string
	h.argKey = inp.Command
	if raw, ok := args[inp.Commands]; ok && inp.Commands != "" && string(raw) != "null" {
		h.argKey, h.argList = inp.Commands, true
		if commands, err = commandList(raw, argsName+inp.Commands); err != nil {
			return failure(err.Error())
		}
	} else {
		command, err := commandLine(args[inp.Command], argsName+inp.Command)
		if err != nil {
			return failure(err.Error())
		}
		if strings.TrimSpace(command) == "" {
			return failure(argsName + inp.Command + " is empty")
		}
		commands = []string{command}
	}
	cwd := inpCwd
	if dir != "" {
		if filepath.IsAbs(dir) || cwd == "" {
			cwd = dir
		} else {
			cwd = filepath.Join(cwd, dir)
		}
	}
	if decide == nil {
		return failure("no decision function")
	}
	var worst answer
	for i, command := range commands {
		req := Request{Command: command, Cwd: cwd, SessionID: sessionID, Agent: agent, Mode: mode}
		if h.spec.Ask != agents.AskNever && h.event == h.spec.Event {
			req.Unattended = !h.isAttended()
		}
		d, err := decide(req)
		if err != nil {
			return failure(err.Error())
		}
		a := h.forDecision(command, d, foreign)
		if i == 0 || severity(a.action) > severity(worst.action) {
			worst = a
		}
	}
	return worst
}

// severity orders actions for a call that carries several commands: the
// answer is the most restrictive one's, and allow only when every command
// is allowed.
func severity(a Action) int {
	switch a {
	case AllowAction:
		return 0
	case NoOpinion:
		return 1
	case AskAction:
		return 2
	}
	return 3
}

// argsAt reads the tool's arguments object at inp.Args: an object, or
// where the agent may send it so (Copilot CLI), a JSON string holding
// one.
func (h *hookCall) argsAt(top map[string]json.RawMessage, inp agents.Input) (map[string]json.RawMessage, error) {
	raw, err := rawAt(top, inp.Args)
	if err != nil {
		return nil, err
	}
	if len(raw) == 0 || string(raw) == "null" {
		return nil, errors.New("the hook input has no " + inp.Args)
	}
	if inp.ArgsString && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("%s is malformed: %v", inp.Args, err)
		}
		raw = json.RawMessage(s)
	}
	args, err := members(raw)
	if errors.Is(err, errAmbiguous) {
		return nil, errors.New(inp.Args + " is " + err.Error())
	}
	if err != nil {
		return nil, fmt.Errorf("%s is malformed: %v", inp.Args, err)
	}
	return args, nil
}

// rawAt returns the value at path (members joined by dots) in top, nil
// when a member on the way is absent or null. Every object on the way is
// read strictly (see members).
func rawAt(top map[string]json.RawMessage, path string) (json.RawMessage, error) {
	if path == "" {
		return nil, nil
	}
	m := top
	parts := strings.Split(path, ".")
	for i, key := range parts {
		raw, ok := m[key]
		if !ok || string(raw) == "null" {
			return nil, nil
		}
		if i == len(parts)-1 {
			return raw, nil
		}
		next, err := members(raw)
		name := strings.Join(parts[:i+1], ".")
		if errors.Is(err, errAmbiguous) {
			return nil, errors.New(name + " is " + err.Error())
		}
		if err != nil {
			return nil, fmt.Errorf("%s is malformed: %v", name, err)
		}
		m = next
	}
	return nil, nil
}

// stringAt returns the string at path, "" when it is absent or null, and
// an error when it is something else.
func stringAt(top map[string]json.RawMessage, path string) (string, error) {
	raw, err := rawAt(top, path)
	if err != nil || raw == nil {
		return "", err
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%s is not a string", path)
	}
	return s, nil
}

// boolAt returns the boolean at path, false when it is absent or null.
func boolAt(top map[string]json.RawMessage, path string) (bool, error) {
	raw, err := rawAt(top, path)
	if err != nil || raw == nil {
		return false, err
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil {
		return false, fmt.Errorf("%s is not a boolean", path)
	}
	return b, nil
}

// firstAt returns the first string of the list at path ("" when absent or
// empty).
func firstAt(top map[string]json.RawMessage, path string) (string, error) {
	raw, err := rawAt(top, path)
	if err != nil || raw == nil {
		return "", err
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return "", fmt.Errorf("%s is not a list of strings", path)
	}
	if len(list) == 0 {
		return "", nil
	}
	return list[0], nil
}

// members reads the JSON object data into its members, by exact key. It
// fails when data is not one JSON object (with nothing after it), and when
// the object holds the same key twice or two keys that differ only in case
// (as Unicode folds them, which is how encoding/json matches: "Command",
// "COMMAND" and "\u212aind" against "kind" all count).
func members(data []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	out := map[string]json.RawMessage{}
	folded := map[string]string{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("%w: the key %q appears twice", errAmbiguous, key)
		}
		f := foldKey(key)
		if other, dup := folded[f]; dup {
			return nil, fmt.Errorf("%w: the keys %q and %q differ only in case", errAmbiguous, other, key)
		}
		out[key], folded[f] = raw, key
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errTrailingData
	}
	return out, nil
}

var (
	errAmbiguous    = errors.New("ambiguous")
	errTrailingData = errors.New("data after the JSON object")
)

// foldKey maps every rune of s to the smallest rune of its Unicode case
// folding orbit, so that two keys encoding/json would take for the same
// field fold to the same string.
func foldKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		min := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < min {
				min = f
			}
		}
		b.WriteRune(min)
	}
	return b.String()
}

// stringMember returns the string member key of m, "" when it is absent
// or null, and an error when it is something else.
func stringMember(m map[string]json.RawMessage, key string) (string, error) {
	raw, ok := m[key]
	if !ok || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%s is not a string", key)
	}
	return s, nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// commandLine decodes the command member named name (tool_input.command):
// a string, or an array of strings (an argv), which is turned into a shell
// line with every word quoted.
func commandLine(raw json.RawMessage, name string) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", errors.New(name + " is missing")
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var argv []string
	if err := json.Unmarshal(raw, &argv); err != nil || len(argv) == 0 {
		return "", errors.New(name + " is neither a string nor a list of strings")
	}
	words := make([]string, len(argv))
	for i, w := range argv {
		words[i] = shquote.Quote(w)
	}
	return strings.Join(words, " "), nil
}

// maxCommands bounds the command lines one hook call may carry.
const maxCommands = 100

// commandList decodes a list of whole command lines (Cline's
// run_commands): every one must be a non-empty string.
func commandList(raw json.RawMessage, name string) ([]string, error) {
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, errors.New(name + " is not a list of strings")
	}
	if len(list) == 0 {
		return nil, errors.New(name + " is empty")
	}
	if len(list) > maxCommands {
		return nil, fmt.Errorf("%s holds more than %d commands", name, maxCommands)
	}
	for i, c := range list {
		if strings.TrimSpace(c) == "" {
			return nil, fmt.Errorf("%s[%d] is empty", name, i)
		}
	}
	return list, nil
}

// failure is the fail-closed answer for a problem: ask where a person
// will see it, block elsewhere.
func (h *hookCall) failure(problem string) answer {
	ans := answer{action: DenyAction, event: h.event, failure: true}
	ans.modelReason = "shellguard could not check this command (" + problem + "), so it was blocked. " +
		"Do not try to run it another way; tell the user that shellguard needs attention (`shellguard doctor`)" + h.stop()
	ans.userReason = "shellguard could not check this command (" + problem + "), so it was blocked; run `shellguard doctor`."
	// Asked only where a person is known to be there: an agent that does
	// not tell would hand this text to the model when no one is.
	if h.event == h.spec.Event && h.canAsk() && h.isAttended() && h.spec.Attendance != agents.AttendanceNone {
		ans.action = AskAction
		ans.userReason = "shellguard could not check this command: " + problem + ". Approve it only if you have read the command yourself."
	}
	return ans
}

// stop ends a reason: "." unless the agent appends its own sentence
// (Codex: "REASON. Command: CMD").
func (h *hookCall) stop() string {
	if h.spec.AppendsCommand {
		return ""
	}
	return "."
}

// maxShown bounds how much of a command a reason quotes.
const maxShown = 200

func shown(command string) string {
	command = strings.TrimSpace(command)
	if len(command) > maxShown {
		cut := maxShown
		for cut > 0 && !isRuneStart(command[cut]) {
			cut--
		}
		command = command[:cut] + "…"
	}
	return "`" + command + "`"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// details lists the decision's reason, warnings and rules in one paragraph.
func details(d policy.Decision) string {
	var b strings.Builder
	if r := strings.TrimSpace(d.Reason); r != "" {
		b.WriteString(r)
		if !strings.HasSuffix(r, ".") {
			b.WriteByte('.')
		}
	}
	for _, w := range d.Warnings {
		if desc := w.Pattern.Description; desc != "" && strings.Contains(d.Reason, desc) {
			continue // the reason already says it
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		msg := strings.TrimSpace(w.Message)
		if msg == "" {
			msg = w.Pattern.Description
		}
		b.WriteString(strings.TrimSuffix(msg, "."))
		if w.Invocation != "" && w.Invocation != strings.TrimSpace(d.Command) {
			b.WriteString(" (in " + shown(w.Invocation) + ")")
		}
		b.WriteByte('.')
	}
	if len(d.Rules) > 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("Matching rules: " + strings.Join(d.Rules, "; ") + ".")
	}
	return b.String()
}

func (h *hookCall) forDecision(command string, d policy.Decision, foreign bool) answer {
	switch d.Verdict {
	case policy.Allow, policy.Ask, policy.Deny:
	default:
		return h.failure(fmt.Sprintf("the policy gave no valid verdict (%v)", d.Verdict))
	}
	act := ActionFor(d)
	why := details(d)
	if why != "" {
		why = " " + why
	}
	if foreign {
		// Another shell's command (PowerShell), read as POSIX shell: a
		// deny or a warning still counts, an allow never does.
		if why != "" {
			why = " (" + h.foreignNote() + ")" + why
		}
		if act == AllowAction {
			act = NoOpinion
		}
	}
	if h.event == h.spec.PermissionEvent && h.event != "" {
		// The agent is about to ask a person: approve what shellguard
		// approves, refuse what it denies, leave the rest to the person.
		switch act {
		case AllowAction:
			return answer{action: AllowAction, event: h.event}
		case DenyAction:
			return answer{action: DenyAction, event: h.event,
				modelReason: "shellguard denied " + shown(command) + "." + why + h.stop()}
		}
		return answer{action: NoOpinion, event: h.event}
	}
	switch act {
	case DenyAction:
		return answer{
			action: DenyAction, event: h.event,
			modelReason: "shellguard denied " + shown(command) + "." + why +
				" This is the user's safety policy, not an error: do not try to get the same effect another way " +
				"(rewording, splitting, other tools or scripts). Tell the user what you wanted to do and let them decide" + h.stop(),
			userReason: "shellguard denied " + shown(command) + "." + why,
		}
	case AskAction:
		ans := answer{
			action: AskAction, event: h.event,
			userReason: "shellguard: " + shown(command) + " needs your approval." + why,
			// For a plugin that cannot show its prompt, or whose user
			// declines: the block's reason.
			modelReason: "shellguard needs a person's approval before " + shown(command) + " runs, and it was not given, so it was blocked." + why +
				" Do not try to run it another way. Tell the user the command and why it is needed; " +
				"they can run it themselves, or approve it with `shellguard allow` and ask you to retry" + h.stop(),
		}
		if h.canAsk() {
			if (!h.isAttended() || h.spec.Attendance == agents.AttendanceNone) && h.spec.Output != agents.OutputPlugin {
				// unattended = "ask", or an agent that does not tell: the
				// agent refuses it when no one is there and hands this
				// reason to the model. (shellguard's own plugins block
				// with modelReason instead.)
				ans.userReason += " If no one can approve it, do not try to run it another way: tell the user what you wanted to do."
			}
			return ans
		}
		if h.spec.Ask == agents.AskAttended {
			// It could ask, but no person is there to answer: block.
			ans.action = DenyAction
			ans.userReason = "shellguard blocked " + shown(command) + ": it needs a person's approval and no one is there to give it." + why
			ans.modelReason = "shellguard needs a person's approval before " + shown(command) + " runs, and no one can give it in this run, so it was blocked." + why +
				" Do not try to run it another way. Tell the user the command and why it is needed; " +
				"they can run it themselves, or approve it with `shellguard allow` and ask you to retry" + h.stop()
			return ans
		}
		// No ask in this protocol: block, and let the person decide.
		ans.action = DenyAction
		ans.userReason = "shellguard blocked " + shown(command) + " until you approve it (run it yourself, or `shellguard allow` it)." + why
		ans.modelReason = "shellguard needs a person's approval before " + shown(command) + " runs, and " +
			h.spec.Title + " hooks cannot ask for it, so it was blocked." + why +
			" Do not try to run it another way. Show the user the command and why it is needed; " +
			"they can run it themselves, or approve it with `shellguard allow` and ask you to retry" + h.stop()
		return ans
	case AllowAction:
		return answer{action: AllowAction, event: h.event, userReason: "shellguard approved " + shown(command) + "." + why}
	}
	return answer{action: NoOpinion, event: h.event}
}

// foreignNote says how a foreign shell's command was read.
func (h *hookCall) foreignNote() string {
	return "a PowerShell command, read as POSIX shell: shellguard's rules are written for POSIX shells, so it never allows one"
}
