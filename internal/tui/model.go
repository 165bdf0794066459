package tui

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/textinput"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/policy"
)

// DecideFunc returns the decision for a request; (*policy.Guard).Decide
// is one.
type DecideFunc func(policy.Request) policy.Decision

// Config holds what a Model needs. Only Decide is required.
type Config struct {
	// Decide decides every line typed at the prompt. nil denies every
	// command (fail closed).
	Decide DecideFunc
	// Runner runs the commands; nil means ShellRunner{}.
	Runner Runner
	// HistoryPath is the history file; "" keeps the history in memory.
	HistoryPath string
	// HistorySize is how many lines the history keeps; 0 means
	// DefaultHistorySize.
	HistorySize int
	// Cwd is the starting directory; "" means the process's.
	Cwd string
	// Home is the directory of a bare `cd`; "" means the user's home.
	Home string
	// Width and Height are the initial size of the screen; 0 means 80x24.
	// A tea.WindowSizeMsg changes them.
	Width, Height int
	// NoColor turns colours off (set it when NO_COLOR is set).
	NoColor bool
	// Session is passed to Decide with every request.
	Session *approval.SessionStore
	// Notices are shown at the top of the transcript (load warnings).
	Notices []string
	// MaxTranscript bounds the transcript kept for scrolling, in bytes;
	// 0 means 1 MiB. The oldest lines are dropped first.
	MaxTranscript int
	// Settle is how long the overlay must have been shown with no key
	// pressed before it takes an answer; 0 means DefaultSettle.
	Settle time.Duration
	// AnswerQuiet is how long no other key may follow `p` for it to count
	// as an answer; 0 means DefaultAnswerQuiet.
	AnswerQuiet time.Duration
}

// DefaultSettle is how long the confirmation overlay waits, with no key
// pressed, before it takes an answer. Every key that arrives earlier —
// typed ahead while the line was being decided, or part of a paste — is
// ignored and starts the wait again, so a key answers the overlay only
// when it was pressed after the overlay had been on screen, untouched,
// for this long. People read a warning for longer than that; a typist
// typing ahead leaves well under it between two keys.
const DefaultSettle = 500 * time.Millisecond

// DefaultAnswerQuiet is how long no other key may follow `p` for the
// command to run: a `p` followed at once by more keys is the start of a
// word being typed or pasted (`pwd`), not an answer.
const DefaultAnswerQuiet = 100 * time.Millisecond

type mode int

const (
	modePrompt  mode = iota // typing a line
	modeConfirm             // the danger overlay is shown
	modeRunning             // a command runs
)

// pending is a command whose decision is ask, waiting for the user's
// answer in the overlay.
type pending struct {
	id       int // tells the ticks of this overlay from those of earlier ones
	line     string
	terminal bool
	decision policy.Decision

	// armed: the overlay takes an answer (it has been shown, untouched,
	// for the settle time). quietUntil is when it may arm; ticking says
	// whether an armMsg is on its way.
	armed      bool
	quietUntil time.Time
	ticking    bool
	// proceeding: `p` was pressed and the command runs unless another key
	// follows within the answer quiet time; answer counts the `p`s.
	proceeding bool
	answer     int
}

// armMsg tells overlay id that its settle time may have passed.
type armMsg struct{ id int }

// proceedMsg tells overlay id that answer number n (a `p`) was not
// followed by another key.
type proceedMsg struct{ id, n int }

// running is the command being run.
type running struct {
	id     int
	line   string
	proc   Process // nil for a command that has the terminal
	ch     chan runMsg
	w      *chanWriter
	cancel context.CancelFunc
	stops  int // how many times Ctrl+C was pressed while it runs
}

// runMsg carries output of run id and, when done is set, its end.
type runMsg struct {
	id   int
	data []byte
	done bool
	code int
	err  error
}

// Model is the bubbletea model of `shellguard shell`. Build it with New;
// it is driven by bubbletea (Update and View are called from one
// goroutine), and Close stops a command still running when the program
// ends.
type Model struct {
	decide  DecideFunc
	runner  Runner
	hist    *History
	session *approval.SessionStore
	st      styles

	width, height int
	cwd, prevCwd  string
	home          string

	input textinput.Model
	vp    viewport.Model

	transcript    strings.Builder
	maxTranscript int

	mode    mode
	pending *pending
	run     *running
	nextID  int

	settle, answerQuiet time.Duration

	histPos int // index into the history while browsing it, -1 otherwise
	draft   string

	mu sync.Mutex // guards run for Close
}

// New returns a Model built from cfg. Problems (an unreadable history
// file) are shown in the transcript; New does not fail.
func New(cfg Config) *Model {
	m := &Model{
		decide:        cfg.Decide,
		runner:        cfg.Runner,
		session:       cfg.Session,
		st:            newStyles(cfg.NoColor),
		width:         cfg.Width,
		height:        cfg.Height,
		cwd:           cfg.Cwd,
		home:          cfg.Home,
		maxTranscript: cfg.MaxTranscript,
		histPos:       -1,
		settle:        cfg.Settle,
		answerQuiet:   cfg.AnswerQuiet,
	}
	if m.settle <= 0 {
		m.settle = DefaultSettle
	}
	if m.answerQuiet <= 0 {
		m.answerQuiet = DefaultAnswerQuiet
	}
	if m.decide == nil {
		m.decide = func(r policy.Request) policy.Decision {
			return policy.Decision{Command: r.Command, Verdict: policy.Deny, Reason: "no policy is configured"}
		}
	}
	if m.runner == nil {
		m.runner = ShellRunner{}
	}
	if m.width <= 0 {
		m.width = 80
	}
	if m.height <= 0 {
		m.height = 24
	}
	if m.maxTranscript <= 0 {
		m.maxTranscript = 1 << 20
	}
	if m.cwd == "" {
		if wd, err := os.Getwd(); err == nil {
			m.cwd = wd
		}
	}
	if m.home == "" {
		if h, err := os.UserHomeDir(); err == nil {
			m.home = h
		}
	}
	var herr error
	m.hist, herr = LoadHistory(cfg.HistoryPath, cfg.HistorySize)

	m.input = textinput.New()
	m.input.Prompt = "› "
	m.input.Placeholder = "!cmd runs · cmd explains"
	m.input.SetStyles(m.st.inputText)
	m.input.Focus()

	m.vp = viewport.New()
	m.vp.SoftWrap = true
	m.vp.KeyMap = viewport.KeyMap{} // keys go to the prompt; see scroll
	m.vp.MouseWheelEnabled = false

	for _, n := range cfg.Notices {
		m.appendLine(m.st.notice.Render("note: " + n))
	}
	if herr != nil {
		m.appendLine(m.st.notice.Render("note: " + herr.Error()))
	}
	m.layout()
	return m
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return nil }

// Cwd returns the directory commands run in.
func (m *Model) Cwd() string { return m.cwd }

// History returns the model's history.
func (m *Model) History() *History { return m.hist }

// Transcript returns the text of the scrollable view (with styling).
func (m *Model) Transcript() string { return m.transcript.String() }

// Close interrupts the command that is still running, if any. Call it
// when the program has ended.
func (m *Model) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.run != nil && m.run.cancel != nil {
		m.run.cancel()
	}
	if m.run != nil && m.run.w != nil {
		m.run.w.stop()
	}
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case runMsg:
		return m, m.output(msg)
	case armMsg:
		return m, m.arm(msg)
	case proceedMsg:
		return m, m.proceed(msg)
	case tea.PasteMsg, tea.PasteStartMsg, tea.PasteEndMsg:
		if m.mode == modeConfirm {
			// A paste never answers the overlay.
			return m, m.disarm()
		}
	}
	if m.mode == modePrompt {
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return m, cmd
	}
	return m, nil
}

func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	ks := k.String()
	switch ks {
	case "pgup", "shift+up":
		m.vp.PageUp()
		return nil
	case "pgdown", "shift+down":
		m.vp.PageDown()
		return nil
	}
	switch m.mode {
	case modeConfirm:
		return m.confirmKey(ks)
	case modeRunning:
		if ks == "ctrl+c" {
			m.stopRunning()
		}
		return nil
	}
	switch ks {
	case "enter":
		line := m.input.Value()
		m.input.Reset()
		m.histPos = -1
		return m.submit(line)
	case "ctrl+c":
		m.input.Reset()
		m.histPos = -1
		return nil
	case "ctrl+d":
		if m.input.Value() == "" {
			return tea.Quit
		}
	case "ctrl+l":
		m.transcript.Reset()
		m.refresh()
		return nil
	case "up", "ctrl+p":
		m.historyMove(-1)
		return nil
	case "down", "ctrl+n":
		m.historyMove(1)
		return nil
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	return cmd
}

// historyMove browses the history: delta -1 is older, +1 newer; going
// past the newest line restores what was being typed.
func (m *Model) historyMove(delta int) {
	entries := m.hist.Entries()
	if m.histPos == -1 {
		if delta > 0 || len(entries) == 0 {
			return
		}
		m.draft = m.input.Value()
		m.histPos = len(entries)
	}
	pos := m.histPos + delta
	switch {
	case pos < 0:
		return
	case pos >= len(entries):
		m.histPos = -1
		m.input.SetValue(m.draft)
	default:
		m.histPos = pos
		m.input.SetValue(entries[pos])
	}
	m.input.CursorEnd()
}

// submit handles a line typed at the prompt.
func (m *Model) submit(line string) tea.Cmd {
	trimmed := strings.TrimSpace(line)
	if trimmed == "" {
		return nil
	}
	if err := m.hist.Add(trimmed); err != nil {
		m.appendLine(m.st.notice.Render("note: " + err.Error()))
	}
	if !strings.HasPrefix(trimmed, "!") {
		d := m.decide(m.request(trimmed))
		m.appendLine(m.analysis(trimmed, d))
		return nil
	}
	cmdline := trimmed[1:]
	terminal := false
	if strings.HasPrefix(cmdline, "!") {
		terminal = true
		cmdline = cmdline[1:]
	}
	cmdline = strings.TrimSpace(cmdline)
	switch cmdline {
	case "":
		m.appendLine(m.st.notice.Render("nothing to run: type !command"))
		return nil
	case "exit":
		return tea.Quit
	}
	d := m.decide(m.request(cmdline))
	switch d.Verdict {
	case policy.Allow:
		return m.execute(cmdline, terminal)
	case policy.Deny:
		m.refuse(cmdline, d)
		return nil
	}
	// Ask, or anything else (never run without an answer).
	m.nextID++
	m.pending = &pending{id: m.nextID, line: cmdline, terminal: terminal, decision: d}
	m.mode = modeConfirm
	return m.disarm()
}

// refuse records that line was denied: nothing runs.
func (m *Model) refuse(line string, d policy.Decision) {
	m.appendLine(m.st.echo.Render("$ "+oneLine(line)) + "  " + m.st.fail.Render("[refused]"))
	m.appendLine("  " + m.st.label.Render("verdict: ") + m.verdict(d))
	for _, w := range d.Warnings {
		s := "  " + m.st.level(w.Level).Render("["+levelName(w.Level)+"]") + " " + warningText(w)
		if w.Invocation != "" && w.Invocation != line {
			s += m.st.label.Render(" (in: " + oneLine(w.Invocation) + ")")
		}
		m.appendLine(s)
	}
}

// confirmKey handles a key while the overlay is shown. Ctrl+C always
// cancels. Any other key counts only once the overlay is armed (see
// DefaultSettle): before, it is ignored and the settle time starts
// again. Armed, c/n/Esc cancel and `p` proceeds unless another key
// follows within the answer quiet time; any other key disarms it.
func (m *Model) confirmKey(ks string) tea.Cmd {
	p := m.pending
	if p == nil {
		m.mode = modePrompt
		return nil
	}
	if ks == "ctrl+c" {
		m.cancelPending()
		return nil
	}
	if !p.armed || p.proceeding {
		return m.disarm()
	}
	switch ks {
	case "c", "C", "n", "N", "esc":
		m.cancelPending()
		return nil
	case "p":
		p.proceeding = true
		p.answer++
		id, n := p.id, p.answer
		return tea.Tick(m.answerQuiet, func(time.Time) tea.Msg { return proceedMsg{id: id, n: n} })
	}
	return m.disarm()
}

// disarm makes the overlay ignore keys until it has been left alone for
// the settle time, from now.
func (m *Model) disarm() tea.Cmd {
	p := m.pending
	if p == nil {
		return nil
	}
	p.armed, p.proceeding = false, false
	p.quietUntil = time.Now().Add(m.settle)
	if p.ticking {
		return nil // the tick on its way checks quietUntil again
	}
	p.ticking = true
	return armTick(p.id, m.settle)
}

func armTick(id int, d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return armMsg{id: id} })
}

// arm arms the overlay when its settle time has passed, or waits on.
func (m *Model) arm(msg armMsg) tea.Cmd {
	p := m.pending
	if m.mode != modeConfirm || p == nil || p.id != msg.id {
		return nil
	}
	p.ticking = false
	if rest := time.Until(p.quietUntil); rest > 0 {
		p.ticking = true
		return armTick(p.id, rest)
	}
	p.armed = true
	return nil
}

// proceed runs the pending command when its `p` was not followed by
// another key.
func (m *Model) proceed(msg proceedMsg) tea.Cmd {
	p := m.pending
	if m.mode != modeConfirm || p == nil || p.id != msg.id || !p.proceeding || p.answer != msg.n {
		return nil
	}
	m.pending = nil
	m.mode = modePrompt
	return m.execute(p.line, p.terminal)
}

// stopRunning escalates on each Ctrl+C while a command runs: SIGINT, then
// SIGTERM, then SIGKILL, each to the command's process group, so that a
// command that ignores SIGINT (or SIGTERM) can still be stopped.
func (m *Model) stopRunning() {
	if m.run == nil || m.run.proc == nil {
		return
	}
	m.run.stops++
	var err error
	switch m.run.stops {
	case 1:
		err = m.run.proc.Interrupt()
	case 2:
		m.appendLine(m.st.notice.Render("[ctrl+c again: SIGTERM to the command]"))
		err = m.run.proc.Terminate()
	default:
		m.appendLine(m.st.notice.Render("[ctrl+c again: SIGKILL to the command]"))
		err = m.run.proc.Kill()
	}
	if err != nil {
		m.appendLine(m.st.notice.Render("stop: " + err.Error()))
	}
}

func (m *Model) request(cmd string) policy.Request {
	return policy.Request{Command: cmd, Cwd: m.cwd, Session: m.session}
}

func (m *Model) cancelPending() {
	if m.pending != nil {
		m.appendLine(m.st.echo.Render("$ "+oneLine(m.pending.line)) + "  " + m.st.notice.Render("[cancelled]"))
	}
	m.pending = nil
	m.mode = modePrompt
}

// execute runs line now (it has been decided and, if flagged, confirmed).
func (m *Model) execute(line string, terminal bool) tea.Cmd {
	m.appendLine(m.st.echo.Render("$ " + line))
	if arg, ok := cdTarget(line); ok {
		dir, err := resolveDir(arg, m.cwd, m.prevCwd, m.home)
		if err != nil {
			m.appendLine(m.st.fail.Render(err.Error()))
			return nil
		}
		m.prevCwd, m.cwd = m.cwd, dir
		m.appendLine(m.st.ok.Render("cwd: " + dir))
		return nil
	}
	m.nextID++
	id := m.nextID
	if terminal || needsTerminal(line) {
		m.setRun(&running{id: id, line: line})
		m.mode = modeRunning
		c := m.runner.Interactive(line, m.cwd)
		return tea.Exec(c, func(err error) tea.Msg {
			code, err := exitStatus(err)
			return runMsg{id: id, done: true, code: code, err: err}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan runMsg, 64)
	w := &chanWriter{id: id, ch: ch, stopped: make(chan struct{})}
	proc, err := m.runner.Start(ctx, line, m.cwd, w)
	if err != nil {
		cancel()
		m.appendLine(m.st.fail.Render("[error: " + err.Error() + "]"))
		return nil
	}
	go func() {
		code, err := proc.Wait()
		w.close()
		select {
		case ch <- runMsg{id: id, done: true, code: code, err: err}:
		case <-w.stopped:
		}
		close(ch)
	}()
	m.setRun(&running{id: id, line: line, proc: proc, ch: ch, w: w, cancel: cancel})
	m.mode = modeRunning
	return listen(ch)
}

func (m *Model) setRun(r *running) {
	m.mu.Lock()
	m.run = r
	m.mu.Unlock()
}

// listen waits for the next output of a command, merging what is already
// there so that a chatty command does not cost a redraw per write.
func listen(ch chan runMsg) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-ch
		if !ok {
			return nil
		}
		for !msg.done && len(msg.data) < 64<<10 {
			select {
			case next, ok := <-ch:
				if !ok {
					return msg
				}
				msg.data = append(msg.data, next.data...)
				if next.done {
					msg.done, msg.code, msg.err = true, next.code, next.err
				}
				continue
			default:
			}
			break
		}
		return msg
	}
}

// output handles output and the end of the running command.
func (m *Model) output(msg runMsg) tea.Cmd {
	if m.run == nil || msg.id != m.run.id {
		return nil
	}
	if len(msg.data) > 0 {
		m.appendOutput(msg.data)
	}
	if !msg.done {
		return listen(m.run.ch)
	}
	m.endOutput()
	switch {
	case msg.err != nil:
		m.appendLine(m.st.fail.Render("[" + msg.err.Error() + "]"))
	case msg.code == 0:
		m.appendLine(m.st.ok.Render("[exit 0]"))
	default:
		m.appendLine(m.st.fail.Render(fmt.Sprintf("[exit %d]", msg.code)))
	}
	if m.run.cancel != nil {
		m.run.cancel()
	}
	m.setRun(nil)
	m.mode = modePrompt
	return nil
}

// chanWriter sends what a command writes to the model. Once stopped
// (the model has gone), writes are dropped instead of waiting for a
// reader that will never come.
type chanWriter struct {
	mu       sync.Mutex
	id       int
	ch       chan runMsg
	closed   bool
	stopped  chan struct{}
	stopOnce sync.Once
}

func (w *chanWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || len(p) == 0 {
		return len(p), nil
	}
	select {
	case w.ch <- runMsg{id: w.id, data: append([]byte(nil), p...)}:
	case <-w.stopped:
	}
	return len(p), nil
}

func (w *chanWriter) stop() { w.stopOnce.Do(func() { close(w.stopped) }) }

func (w *chanWriter) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
}

// appendLine adds a line (styled text) to the transcript.
func (m *Model) appendLine(s string) {
	m.endOutput()
	m.transcript.WriteString(s)
	m.transcript.WriteByte('\n')
	m.refresh()
}

// appendOutput adds command output, made safe for display.
func (m *Model) appendOutput(b []byte) {
	m.transcript.WriteString(sanitize(string(b)))
	m.refresh()
}

// endOutput ends an unfinished last line of output.
func (m *Model) endOutput() {
	if s := m.transcript.String(); s != "" && !strings.HasSuffix(s, "\n") {
		m.transcript.WriteByte('\n')
	}
}

// refresh gives the viewport the transcript, trimmed to its maximum size,
// and follows its end when it was at the end.
func (m *Model) refresh() {
	if m.transcript.Len() > m.maxTranscript {
		s := m.transcript.String()
		cut := len(s) - m.maxTranscript/2
		if i := strings.IndexByte(s[cut:], '\n'); i >= 0 {
			cut += i + 1
		}
		m.transcript.Reset()
		m.transcript.WriteString(s[cut:])
	}
	atBottom := m.vp.AtBottom()
	m.vp.SetContent(strings.TrimSuffix(m.transcript.String(), "\n"))
	if atBottom || m.mode != modePrompt {
		m.vp.GotoBottom()
	}
}

// sanitize removes escape sequences and control characters from command
// output so that it cannot disturb the screen.
func sanitize(s string) string {
	s = ansi.Strip(s)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteRune(r)
		case r == '\t':
			b.WriteString("    ")
		case r == '\r':
			b.WriteRune('\n')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\uFFFD':
			// drop
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// layout sizes the parts of the screen.
func (m *Model) layout() {
	w := max(m.width, 1)
	m.vp.SetWidth(w)
	m.vp.SetHeight(max(m.height-3, 1))
	m.input.SetWidth(max(w-lipgloss.Width(m.input.Prompt)-1, 1))
	m.refresh()
}

// fullScreenOverlay is the height below which the overlay takes the
// whole screen (no header, status or prompt line), so that the command
// and the choices keep room on a small terminal.
const fullScreenOverlay = 10

// View implements tea.Model.
func (m *Model) View() tea.View {
	w := max(m.width, 1)
	bodyHeight := max(m.height-3, 1)
	if m.mode == modeConfirm && m.pending != nil && m.height < fullScreenOverlay {
		h := max(m.height, 1)
		body := lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, m.overlay(w, h))
		v := tea.NewView(clipWidth(clipLines(body, h), w))
		v.AltScreen = true
		v.WindowTitle = "shellguard shell"
		return v
	}

	header := m.st.header.Render(fit(" shellguard shell · "+fitLeft(m.cwd, w-20), w))

	var body string
	if m.mode == modeConfirm && m.pending != nil {
		body = lipgloss.Place(w, bodyHeight, lipgloss.Center, lipgloss.Center, m.overlay(w, bodyHeight))
		// Text that lipgloss measures otherwise than the wrapping did
		// (invalid UTF-8 in a description, found by FuzzOverlayLayout)
		// must not widen the screen.
		body = clipWidth(clipLines(body, bodyHeight), w)
	} else {
		// The viewport's soft wrap can disagree with the terminal about
		// the width of some lines (wide runes next to the edge, found by
		// FuzzSubmit), giving one line too many: clip, so the layout
		// never overflows (keeping the newest line when following the end).
		body = m.vp.View()
		if lines := strings.Split(body, "\n"); len(lines) > bodyHeight && m.vp.AtBottom() {
			body = strings.Join(lines[len(lines)-bodyHeight:], "\n")
		}
		body = clipWidth(clipLines(body, bodyHeight), w)
	}

	var status string
	switch m.mode {
	case modeConfirm:
		status = m.st.keys.Render(fit("[c] Cancel  [p] Proceed anyway", w))
	case modeRunning:
		line := ""
		if m.run != nil {
			line = m.run.line
		}
		hint := " · ctrl+c interrupts"
		if m.run != nil && m.run.proc != nil {
			switch m.run.stops {
			case 0:
			case 1:
				hint = " · ctrl+c again: SIGTERM"
			default:
				hint = " · ctrl+c again: SIGKILL"
			}
		}
		// The hint stays visible; the command is cut first.
		line = ansi.Truncate(line, max(w-ansi.StringWidth("running: "+hint), 1), "…")
		status = m.st.notice.Render(fit("running: "+line+hint, w))
	default:
		status = m.st.help.Render(fit("!cmd run · !!cmd with terminal · cmd explain · ↑↓ history · pgup/pgdn scroll · ctrl+d quit", w))
	}

	prompt := m.input.View()
	if m.mode != modePrompt {
		prompt = m.st.help.Render(fit(m.input.Prompt, w))
	}

	v := tea.NewView(strings.Join([]string{header, body, status, prompt}, "\n"))
	v.AltScreen = true
	v.WindowTitle = "shellguard shell"
	return v
}

// fit truncates s to width cells and pads it to that width.
func fit(s string, width int) string {
	s = ansi.Truncate(s, width, "…")
	if pad := width - ansi.StringWidth(s); pad > 0 {
		s += strings.Repeat(" ", pad)
	}
	return s
}

// fitLeft shortens s to width cells by dropping its start (a path keeps
// its last parts).
func fitLeft(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	if width <= 1 {
		return "…"
	}
	r := []rune(s)
	for len(r) > 0 && ansi.StringWidth(string(r)) > width-1 {
		r = r[1:]
	}
	return "…" + string(r)
}

// clipWidth truncates every line of s to width cells.
func clipWidth(s string, width int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = ansi.Truncate(l, width, "")
		}
	}
	return strings.Join(lines, "\n")
}

func clipLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
