package agents

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// The mock model server stands in for the vendors' model APIs, on
// 127.0.0.1 only, one server per sandbox:
//
//	Anthropic Messages API   POST .../messages (SSE or JSON)        Claude Code, Copilot CLI, ...
//	OpenAI Responses API     POST .../responses (SSE), GET .../models   Codex
//	OpenAI Chat Completions  POST .../chat/completions (SSE or JSON)   OpenCode, Qwen Code, Pi, ...
//	Gemini API               POST /v1beta/models/M:streamGenerateContent?alt=sse
//	                         and :generateContent, :countTokens     Gemini CLI
//
// A "main" request is one whose tool list holds a shell tool (shellTools:
// the names the agents give their shell tool); the mock calls it with the
// scenario's command, filling the tool's other required arguments from its
// JSON schema.
// The conversation state is read from each request: the server counts the
// results of its own shell tool calls the client sent back; while steps of
// the scenario remain it asks for the next one, then it records the
// results and ends the turn with a text. Any other request (titles,
// routing, reviews) gets a short text.

// step is one tool call the mock asks for.
type step struct {
	// Command is the shell command (the agent's shell tool).
	Command string
	// Tool and Args, when Tool is set, name another tool and its
	// arguments (Codex: exec_command with tty, write_stdin); "$SID" in a
	// string argument is replaced by the session id the previous output
	// named.
	Tool string
	Args map[string]any
	// Before, when set, runs once in the test process just before the
	// mock asks for this step (to change what the hook will see: break
	// the configuration, delete the hook program). It must not call
	// t.Fatal.
	Before func() `json:"-"`
}

// scenario is what the mock asks for in one agent run.
type scenario struct {
	Tag   string
	Steps []step
}

// toolResult is one tool result the client sent back.
type toolResult struct {
	Text    string
	IsError bool
}

// outcome is what the mock saw of one run.
type outcome struct {
	// Called reports that the mock asked for the first tool call.
	Called bool
	// Final reports that the conversation came back with every result.
	Final bool
	// Results are the tool results of the final request, in order (or
	// of the last request, when the run stopped before the end).
	Results []toolResult
	// CallAt and FinalAt time the round trip.
	CallAt, FinalAt time.Time
	// asked counts the steps asked for (their Before has run).
	asked int
}

// Text joins the results' texts.
func (o outcome) Text() string {
	var parts []string
	for _, r := range o.Results {
		parts = append(parts, r.Text)
	}
	return strings.Join(parts, "\n")
}

type mockServer struct {
	t   testing.TB
	srv *http.Server
	URL string // http://127.0.0.1:PORT

	// stepMu serialises next, so that a step's Before has finished before
	// any request is answered with that step.
	stepMu sync.Mutex
	mu     sync.Mutex
	sc     scenario
	out    map[string]*outcome // by tag
	trace  []string            // one line per request, for failure reports
	// live prints the trace as it goes (TestServeMock).
	live bool
}

func startMock(t testing.TB) *mockServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &mockServer{t: t, out: map[string]*outcome{}, URL: "http://" + ln.Addr().String()}
	m.srv = &http.Server{Handler: http.HandlerFunc(m.serve), ReadHeaderTimeout: 10 * time.Second}
	go m.srv.Serve(ln)
	t.Cleanup(func() { m.srv.Close() })
	return m
}

// set makes sc the scenario of the next run.
func (m *mockServer) set(sc scenario) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sc = sc
	m.out[sc.Tag] = &outcome{}
}

func (m *mockServer) outcome(tag string) outcome {
	m.mu.Lock()
	defer m.mu.Unlock()
	if o := m.out[tag]; o != nil {
		return *o
	}
	return outcome{}
}

func (m *mockServer) traceText() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return strings.Join(m.trace, "\n")
}

func (m *mockServer) note(format string, a ...any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.trace) < 400 {
		m.trace = append(m.trace, fmt.Sprintf(format, a...))
	}
	if m.live {
		fmt.Fprintf(os.Stderr, "  "+format+"\n", a...)
	}
}

// current returns the scenario and its outcome record.
func (m *mockServer) current() (scenario, *outcome) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o := m.out[m.sc.Tag]
	if o == nil {
		o = &outcome{}
		m.out[m.sc.Tag] = o
	}
	return m.sc, o
}

func (m *mockServer) record(f func(o *outcome)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if o := m.out[m.sc.Tag]; o != nil {
		f(o)
	}
}

func (m *mockServer) serve(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	path := r.URL.Path
	switch {
	case r.Method == http.MethodHead:
		w.WriteHeader(http.StatusOK)
	case r.Method == http.MethodGet && strings.HasSuffix(path, "/models"):
		m.note("GET %s", path)
		writeJSON(w, map[string]any{"object": "list",
			"data":   []any{map[string]any{"id": "mock-model", "object": "model", "created": 1700000000, "owned_by": "mock"}},
			"models": []any{}})
	case r.Method != http.MethodPost:
		http.NotFound(w, r)
	case strings.HasSuffix(path, "/messages/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 10})
	case strings.HasSuffix(path, "/messages"):
		m.anthropic(w, body)
	case strings.HasSuffix(path, "/chat/completions"):
		m.chat(w, body)
	case strings.HasSuffix(path, "/responses"):
		m.responses(w, body)
	case strings.Contains(path, ":streamGenerateContent"), strings.Contains(path, ":generateContent"):
		m.gemini(w, body, strings.Contains(path, ":streamGenerateContent"))
	case strings.Contains(path, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 10})
	default:
		m.note("POST %s: unknown path", path)
		http.NotFound(w, r)
	}
}

func readBody(r *http.Request) ([]byte, error) {
	var rd io.Reader = io.LimitReader(r.Body, 64<<20)
	if r.Header.Get("Content-Encoding") == "gzip" {
		z, err := gzip.NewReader(rd)
		if err != nil {
			return nil, err
		}
		rd = z
	}
	return io.ReadAll(rd)
}

func writeJSON(w http.ResponseWriter, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

func startSSE(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

func sse(w http.ResponseWriter, event string, data any) {
	var b bytes.Buffer
	if event != "" {
		fmt.Fprintf(&b, "event: %s\n", event)
	}
	d, _ := json.Marshal(data)
	fmt.Fprintf(&b, "data: %s\n\n", d)
	w.Write(b.Bytes())
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// textOf flattens a tool result's content (a string or a list of blocks).
func textOf(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []any:
		var parts []string
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				if s, ok := m["text"].(string); ok {
					parts = append(parts, s)
					continue
				}
			}
			b, _ := json.Marshal(e)
			parts = append(parts, string(b))
		}
		return strings.Join(parts, "\n")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func newID(prefix string) string {
	return fmt.Sprintf("%s%d", prefix, time.Now().UnixNano())
}

// next decides the mock's answer: the index of the step to ask for, or
// -1 when every step has its result (results are then recorded).
func (m *mockServer) next(vendor string, results []toolResult) (scenario, int) {
	m.stepMu.Lock()
	defer m.stepMu.Unlock()
	sc, _ := m.current()
	i := len(results)
	if i >= len(sc.Steps) {
		m.record(func(o *outcome) {
			if !o.Final {
				o.Final, o.FinalAt = true, time.Now()
			}
			o.Results = results
		})
		m.note("%s %s: final after %d result(s): %q", vendor, sc.Tag, i, outcome{Results: results}.Text())
		return sc, -1
	}
	var before []func()
	m.record(func(o *outcome) {
		// The results so far, kept for a run the agent stops early.
		if len(results) >= len(o.Results) {
			o.Results = results
		}
		if !o.Called {
			o.Called, o.CallAt = true, time.Now()
		}
		for ; o.asked <= i; o.asked++ {
			if f := sc.Steps[o.asked].Before; f != nil {
				before = append(before, f)
			}
		}
	})
	for _, f := range before {
		f()
	}
	m.note("%s %s: asks for step %d", vendor, sc.Tag, i)
	return sc, i
}

// ---- Shell tools -----------------------------------------------------

// shellTools are the names the agents give their shell tool, in the order
// the mock prefers them when a request offers several.
var shellTools = []string{
	"Bash",              // Claude Code, Factory Droid (Execute), ...
	"exec_command",      // Codex
	"shell_command",     // Codex (older)
	"run_shell_command", // Gemini CLI, Qwen Code
	"bash",              // Copilot CLI, OpenCode, Kilo Code, Pi, Crush
	"Execute",           // Factory Droid
	"run_commands",      // Cline (a list of command lines)
	"execute_command",   // Cline (older)
	"launch-process",    // Augment
	"shell",             // Codex (older)
	"local_shell",       // Codex (older)
}

// tool is one tool a request offers: its name and its JSON schema.
type tool struct {
	Name   string
	Schema map[string]any
}

// decodeRequest reads the JSON body into req, or answers 400 and reports
// false.
func decodeRequest(w http.ResponseWriter, body []byte, req any) bool {
	if err := json.Unmarshal(body, req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return false
	}
	return true
}

// pickShell returns the shell tool among tools, or false.
func pickShell(tools []tool) (tool, bool) {
	for _, n := range shellTools {
		for _, t := range tools {
			if t.Name == n {
				return t, true
			}
		}
	}
	return tool{}, false
}

// argsFor builds the arguments of a shell tool call running command: the
// command goes into the schema's command property (a string, or an argv
// for an array), and every other required property gets a plain value.
func argsFor(t tool, command string) map[string]any {
	props, _ := t.Schema["properties"].(map[string]any)
	args := map[string]any{}
	key := "command"
	for _, k := range []string{"command", "cmd", "commands", "command_line", "script"} {
		if _, ok := props[k]; ok {
			key = k
			break
		}
	}
	switch p, _ := props[key].(map[string]any); {
	case p["type"] == "array" && key == "commands":
		args[key] = []string{command} // a list of whole command lines
	case p["type"] == "array":
		args[key] = []string{"bash", "-lc", command} // an argv
	default:
		args[key] = command
	}
	req, _ := t.Schema["required"].([]any)
	for _, r := range req {
		k, _ := r.(string)
		if _, done := args[k]; done || k == "" {
			continue
		}
		p, _ := props[k].(map[string]any)
		switch typ, _ := p["type"].(string); {
		case typ == "boolean":
			args[k] = k == "wait" // Augment's launch-process: wait for the output
		case typ == "integer" || typ == "number":
			args[k] = 30
		case typ == "array":
			args[k] = []any{}
		case typ == "object":
			args[k] = map[string]any{}
		default:
			if enum, _ := p["enum"].([]any); len(enum) > 0 {
				args[k] = enum[0]
			} else {
				args[k] = "mock-requested command"
			}
		}
	}
	if _, ok := props["description"]; ok {
		args["description"] = "mock-requested command"
	}
	return args
}

// callFor returns the tool name and arguments of step i.
func callFor(shell tool, st step) (string, map[string]any) {
	if st.Tool != "" {
		return st.Tool, st.Args
	}
	if shell.Name == "exec_command" {
		return shell.Name, map[string]any{"cmd": st.Command}
	}
	return shell.Name, argsFor(shell, st.Command)
}

// ---- Anthropic Messages -------------------------------------------------

func (m *mockServer) anthropic(w http.ResponseWriter, body []byte) {
	var req struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
		Tools  []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"input_schema"`
		} `json:"tools"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if !decodeRequest(w, body, &req) {
		return
	}
	var tools []tool
	for _, t := range req.Tools {
		tools = append(tools, tool{t.Name, t.InputSchema})
	}
	shell, main := pickShell(tools)
	if !main {
		m.anthropicReply(w, req.Model, req.Stream, "ok", "", "", nil)
		return
	}
	ours := map[string]bool{}
	var results []toolResult
	for _, msg := range req.Messages {
		var blocks []map[string]any
		if json.Unmarshal(msg.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			switch b["type"] {
			case "tool_use":
				if id, _ := b["id"].(string); id != "" && b["name"] == shell.Name {
					ours[id] = true
				}
			case "tool_result":
				if id, _ := b["tool_use_id"].(string); ours[id] {
					isErr, _ := b["is_error"].(bool)
					results = append(results, toolResult{Text: textOf(b["content"]), IsError: isErr})
				}
			}
		}
	}
	sc, i := m.next("anthropic", results)
	if i < 0 {
		m.anthropicReply(w, req.Model, req.Stream, "MOCK-DONE", "", "", nil)
		return
	}
	name, args := callFor(shell, sc.Steps[i])
	m.anthropicReply(w, req.Model, req.Stream, "", newID("toolu_"), name, args)
}

func (m *mockServer) anthropicReply(w http.ResponseWriter, model string, stream bool, text, toolID, name string, input map[string]any) {
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	block := map[string]any{"type": "text", "text": text}
	stop := "end_turn"
	if input != nil {
		block = map[string]any{"type": "tool_use", "id": toolID, "name": name, "input": input}
		stop = "tool_use"
	}
	id := newID("msg_")
	if !stream {
		writeJSON(w, map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
			"content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	startSSE(w)
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	if input != nil {
		in, _ := json.Marshal(input)
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": toolID, "name": name, "input": map[string]any{}}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
	} else {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": text}})
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// ---- OpenAI Chat Completions ----------------------------------------------

func (m *mockServer) chat(w http.ResponseWriter, body []byte) {
	var req struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
		Tools  []struct {
			Function struct {
				Name       string         `json:"name"`
				Parameters map[string]any `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
		Messages []struct {
			Role      string `json:"role"`
			Content   any    `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tool_calls"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
	}
	if !decodeRequest(w, body, &req) {
		return
	}
	var tools []tool
	for _, t := range req.Tools {
		tools = append(tools, tool{t.Function.Name, t.Function.Parameters})
	}
	shell, main := pickShell(tools)
	if !main {
		chatReply(w, req.Model, req.Stream, "ok", nil)
		return
	}
	sc, _ := m.current()
	ours := map[string]bool{}
	var results []toolResult
	for _, msg := range req.Messages {
		for _, tc := range msg.ToolCalls {
			if tc.Function.Name == shell.Name || stepTool(sc, tc.Function.Name) {
				ours[tc.ID] = true
			}
		}
		if msg.Role == "tool" && ours[msg.ToolCallID] {
			results = append(results, toolResult{Text: textOf(msg.Content)})
		}
	}
	sc, i := m.next("chat", results)
	if i < 0 {
		chatReply(w, req.Model, req.Stream, "MOCK-DONE", nil)
		return
	}
	name, args := callFor(shell, sc.Steps[i])
	chatReply(w, req.Model, req.Stream, "", &fnCall{name: name, id: newID("call_"), args: args})
}

// stepTool reports whether one of the scenario's steps calls the tool name.
func stepTool(sc scenario, name string) bool {
	for _, st := range sc.Steps {
		if st.Tool == name {
			return true
		}
	}
	return false
}

func chatReply(w http.ResponseWriter, model string, stream bool, text string, call *fnCall) {
	id := newID("chatcmpl-")
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	msg := map[string]any{"role": "assistant", "content": text}
	finish := "stop"
	var calls []any
	if call != nil {
		a, _ := json.Marshal(call.args)
		calls = []any{map[string]any{"index": 0, "id": call.id, "type": "function",
			"function": map[string]any{"name": call.name, "arguments": string(a)}}}
		msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": calls}
		finish = "tool_calls"
	}
	if !stream {
		writeJSON(w, map[string]any{"id": id, "object": "chat.completion", "created": time.Now().Unix(), "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	startSSE(w)
	chunk := func(delta map[string]any, finish any, usage any) {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			c["usage"] = usage
		}
		sse(w, "", c)
	}
	if call != nil {
		chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": calls}, nil, nil)
	} else {
		chunk(map[string]any{"role": "assistant", "content": text}, nil, nil)
	}
	chunk(map[string]any{}, finish, usage)
	w.Write([]byte("data: [DONE]\n\n"))
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// ---- OpenAI Responses (Codex) -----------------------------------------

var sessionIDRe = regexp.MustCompile(`session ID (\d+)`)

func (m *mockServer) responses(w http.ResponseWriter, body []byte) {
	var req struct {
		Model string           `json:"model"`
		Tools []map[string]any `json:"tools"`
		Input []map[string]any `json:"input"`
	}
	if !decodeRequest(w, body, &req) {
		return
	}
	var tools []tool
	for _, t := range req.Tools {
		n, _ := t["name"].(string)
		if n == "" {
			n, _ = t["type"].(string)
		}
		schema, _ := t["parameters"].(map[string]any)
		tools = append(tools, tool{n, schema})
	}
	shell, main := pickShell(tools)
	if !main {
		responsesReply(w, req.Model, "ok", nil)
		return
	}
	ours := map[string]bool{}
	var results []toolResult
	for _, it := range req.Input {
		id, _ := it["call_id"].(string)
		switch it["type"] {
		case "function_call", "local_shell_call", "custom_tool_call":
			n, _ := it["name"].(string)
			if n == "" {
				n, _ = it["type"].(string)
			}
			if n == "write_stdin" || n == shell.Name || n == "local_shell_call" {
				ours[id] = true
			}
		case "function_call_output", "local_shell_call_output", "custom_tool_call_output":
			if ours[id] {
				results = append(results, toolResult{Text: textOf(it["output"])})
			}
		}
	}
	sc, i := m.next("openai", results)
	if i < 0 {
		responsesReply(w, req.Model, "MOCK-DONE", nil)
		return
	}
	st := sc.Steps[i]
	name, args := callFor(shell, st)
	if st.Tool != "" {
		sid := ""
		for _, r := range results {
			if mm := sessionIDRe.FindStringSubmatch(r.Text); mm != nil {
				sid = mm[1]
			}
		}
		args = map[string]any{}
		for k, v := range st.Args {
			if s, ok := v.(string); ok && s == "$SID" {
				n := json.Number(sid)
				if sid == "" {
					n = "0"
				}
				v = n
			}
			args[k] = v
		}
	}
	responsesReply(w, req.Model, "", &fnCall{name: name, id: newID("call_"), args: args})
}

type fnCall struct {
	name, id string
	args     map[string]any
}

func responsesReply(w http.ResponseWriter, model, text string, call *fnCall) {
	rid := newID("resp_")
	startSSE(w)
	sse(w, "response.created", map[string]any{"type": "response.created", "response": map[string]any{
		"id": rid, "object": "response", "model": model, "status": "in_progress", "output": []any{}}})
	var item map[string]any
	if call != nil {
		a, _ := json.Marshal(call.args)
		item = map[string]any{"type": "function_call", "id": "fc_" + call.id, "call_id": call.id,
			"name": call.name, "arguments": string(a), "status": "completed"}
	} else {
		item = map[string]any{"type": "message", "id": "msg_" + rid, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
	}
	sse(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	if call == nil {
		sse(w, "response.output_text.delta", map[string]any{"type": "response.output_text.delta",
			"item_id": item["id"], "output_index": 0, "content_index": 0, "delta": text})
	}
	sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": rid, "object": "response", "model": model, "status": "completed", "output": []any{item},
		"usage": map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}}})
}

// ---- Gemini (Gemini CLI) ----------------------------------------------

func (m *mockServer) gemini(w http.ResponseWriter, body []byte, stream bool) {
	var req struct {
		Tools []struct {
			FunctionDeclarations []struct{ Name string } `json:"functionDeclarations"`
		} `json:"tools"`
		Contents []struct {
			Parts []map[string]any `json:"parts"`
		} `json:"contents"`
		GenerationConfig struct {
			ResponseMimeType string `json:"responseMimeType"`
		} `json:"generationConfig"`
	}
	if !decodeRequest(w, body, &req) {
		return
	}
	main := false
	for _, t := range req.Tools {
		for _, fd := range t.FunctionDeclarations {
			main = main || fd.Name == "run_shell_command"
		}
	}
	if !main {
		txt := "ok"
		if req.GenerationConfig.ResponseMimeType == "application/json" {
			b, _ := json.Marshal(map[string]any{"reasoning": "mock", "next_speaker": "user",
				"model_choice": "flash", "complexity_reasoning": "mock", "complexity_score": 1})
			txt = string(b)
		}
		geminiReply(w, stream, map[string]any{"text": txt})
		return
	}
	var results []toolResult
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			fr, ok := p["functionResponse"].(map[string]any)
			if !ok || fr["name"] != "run_shell_command" {
				continue
			}
			resp, _ := fr["response"].(map[string]any)
			if e, ok := resp["error"]; ok {
				results = append(results, toolResult{Text: textOf(e), IsError: true})
			} else if o, ok := resp["output"]; ok {
				results = append(results, toolResult{Text: textOf(o)})
			} else {
				results = append(results, toolResult{Text: textOf(resp)})
			}
		}
	}
	sc, i := m.next("gemini", results)
	if i < 0 {
		geminiReply(w, stream, map[string]any{"text": "MOCK-DONE"})
		return
	}
	geminiReply(w, stream, map[string]any{"functionCall": map[string]any{
		"name": "run_shell_command", "args": map[string]any{"command": sc.Steps[i].Command, "description": "mock-requested command"}}})
}

func geminiReply(w http.ResponseWriter, stream bool, part map[string]any) {
	resp := map[string]any{
		"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "mock",
	}
	if !stream {
		writeJSON(w, resp)
		return
	}
	startSSE(w)
	b, _ := json.Marshal(resp)
	w.Write([]byte("data: " + string(b) + "\r\n\r\n"))
}
