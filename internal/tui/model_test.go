package tui

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/policy"
)

// fakeRunner records what it is asked to run.
type fakeRunner struct {
	mu          sync.Mutex
	started     []string
	dirs        []string
	interactive []string
	output      string
	code        int
	block       bool // Wait blocks until Interrupt
	procs       []*fakeProc
}

func (f *fakeRunner) Start(ctx context.Context, line, dir string, out io.Writer) (Process, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.started = append(f.started, line)
	f.dirs = append(f.dirs, dir)
	text := f.output
	if text == "" {
		text = "ran: " + line + "\n"
	}
	if _, err := io.WriteString(out, text); err != nil {
		return nil, err
	}
	p := &fakeProc{code: f.code}
	if f.block {
		p.stop = make(chan struct{})
	}
	f.procs = append(f.procs, p)
	return p, nil
}

func (f *fakeRunner) Interactive(line, dir string) tea.ExecCommand {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.interactive = append(f.interactive, line)
	return nil
}

func (f *fakeRunner) ran() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.started...)
}

type fakeProc struct {
	code        int
	stop        chan struct{}
	once        sync.Once
	interrupted bool
	signals     []string // Interrupt, Terminate and Kill calls, in order
	ignoreInt   bool     // Interrupt does not stop it (a command that traps SIGINT)
}

func (p *fakeProc) Wait() (int, error) {
	if p.stop != nil {
		<-p.stop
		return 130, nil
	}
	return p.code, nil
}

func (p *fakeProc) Interrupt() error {
	p.interrupted = true
	p.signals = append(p.signals, "INT")
	if p.stop != nil && !p.ignoreInt {
		p.once.Do(func() { close(p.stop) })
	}
	return nil
}

func (p *fakeProc) Terminate() error {
	p.signals = append(p.signals, "TERM")
	return nil
}

func (p *fakeProc) Kill() error {
	p.signals = append(p.signals, "KILL")
	if p.stop != nil {
		p.once.Do(func() { close(p.stop) })
	}
	return nil
}

// twoWarnings is a decide func that flags anything containing "rm" with
// two warnings.
func twoWarnings(r policy.Request) policy.Decision {
	if !strings.Contains(r.Command, "rm") {
		return policy.Decision{Command: r.Command, Verdict: policy.Allow, Reason: "read-only"}
	}
	crit := danger.Critical
	return policy.Decision{
		Command: r.Command,
		Verdict: policy.Ask,
		Reason:  "dangerous command",
		Level:   &crit,
		Warnings: []danger.Warning{
			danger.NewWarning(r.Command, danger.Pattern{Name: "canary", Level: danger.High, Description: "Deletes the canary file."}, r.Command),
			danger.NewWarning(r.Command, danger.Pattern{Name: "second", Level: danger.Critical, Description: "Also very bad."}, r.Command),
		},
	}
}

// decideRecorder wraps a decide func and records the requests.
type decideRecorder struct {
	mu   sync.Mutex
	reqs []policy.Request
	f    DecideFunc
}

func (d *decideRecorder) decide(r policy.Request) policy.Decision {
	d.mu.Lock()
	d.reqs = append(d.reqs, r)
	d.mu.Unlock()
	return d.f(r)
}

// The tests' overlays arm as soon as their tick is delivered (drive
// delivers it): what a test does not drive has not happened yet.
const (
	testSettle      = time.Nanosecond
	testAnswerQuiet = time.Nanosecond
)

// warnedModel returns a test model whose decider warns twice about
// every line (twoWarnings), and the fake runner it runs commands with.
func warnedModel(t *testing.T) (*Model, *fakeRunner) {
	t.Helper()
	r := &fakeRunner{}
	return newTestModel(t, twoWarnings, r), r
}

func newTestModel(t *testing.T, decide DecideFunc, r Runner) *Model {
	t.Helper()
	return New(Config{
		Decide:      decide,
		Runner:      r,
		Cwd:         t.TempDir(),
		Home:        t.TempDir(),
		Width:       100,
		Height:      30,
		NoColor:     true,
		Settle:      testSettle,
		AnswerQuiet: testAnswerQuiet,
	})
}

// press sends one key and runs the commands it returns.
func press(t *testing.T, m *Model, k tea.KeyPressMsg) []tea.Msg {
	t.Helper()
	_, cmd := m.Update(k)
	return drive(t, m, cmd)
}

// typeLine types s and presses Enter.
func typeLine(t *testing.T, m *Model, s string) []tea.Msg {
	t.Helper()
	typeKeys(t, m, s)
	return press(t, m, tea.KeyPressMsg{Code: tea.KeyEnter})
}

// typeKeys types s at the prompt, without Enter.
func typeKeys(t *testing.T, m *Model, s string) {
	t.Helper()
	for _, r := range s {
		press(t, m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// screenHas fails t for each of wants the screen s lacks.
func screenHas(t *testing.T, s string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}

// drive runs cmd and feeds the model the messages it produces, until
// there are none; it returns the messages the model was not given.
func drive(t *testing.T, m *Model, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	var other []tea.Msg
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		switch msg := msg.(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case runMsg, armMsg, proceedMsg:
			_, next := m.Update(msg)
			queue = append(queue, next)
		default:
			other = append(other, msg)
		}
	}
	return other
}

func key(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+d":
		return tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

func screen(m *Model) string { return ansi.Strip(m.View().Content) }

func TestOverlayShowsEveryWarning(t *testing.T) {
	m, r := warnedModel(t)
	typeLine(t, m, "!rm canary.txt")
	s := screen(m)
	screenHas(t, s,
		"Dangerous command detected",
		"[High] Deletes the canary file.",
		"[Critical] Also very bad.",
		"Command: rm canary.txt",
		"Verdict: ask — dangerous command",
		"[c] Cancel  [p] Proceed anyway",
	)
	if got := r.ran(); len(got) != 0 {
		t.Errorf("ran %q before confirmation", got)
	}
	if !strings.Contains(s, "┌") || !strings.Contains(s, "┘") {
		t.Errorf("overlay has no border:\n%s", s)
	}
}

func TestOverlayCancel(t *testing.T) {
	for _, k := range []string{"c", "C", "esc", "ctrl+c"} {
		t.Run(k, func(t *testing.T) {
			m, r := warnedModel(t)
			typeLine(t, m, "!rm canary.txt")
			press(t, m, key("x")) // other keys do nothing
			if !strings.Contains(screen(m), "Dangerous command detected") {
				t.Fatal("overlay gone after an unrelated key")
			}
			press(t, m, key(k))
			if got := r.ran(); len(got) != 0 {
				t.Errorf("cancel ran %q", got)
			}
			s := screen(m)
			if strings.Contains(s, "Dangerous command detected") {
				t.Errorf("overlay still shown:\n%s", s)
			}
			if !strings.Contains(s, "$ rm canary.txt  [cancelled]") {
				t.Errorf("no cancel note:\n%s", s)
			}
		})
	}
}

func TestOverlayProceed(t *testing.T) {
	r := &fakeRunner{output: "removed\n"}
	m := newTestModel(t, twoWarnings, r)
	typeLine(t, m, "!rm canary.txt")
	press(t, m, key("p"))
	if got := r.ran(); len(got) != 1 || got[0] != "rm canary.txt" {
		t.Fatalf("ran %q, want [rm canary.txt]", got)
	}
	s := screen(m)
	screenHas(t, s, "$ rm canary.txt", "removed", "[exit 0]")
	if strings.Contains(s, "Dangerous command detected") {
		t.Errorf("overlay still shown")
	}
}

func TestSafeCommandRunsAtOnce(t *testing.T) {
	r := &fakeRunner{output: "hello\n", code: 3}
	rec := &decideRecorder{f: twoWarnings}
	m := newTestModel(t, rec.decide, r)
	typeLine(t, m, "!echo hello")
	if got := r.ran(); len(got) != 1 || got[0] != "echo hello" {
		t.Fatalf("ran %q", got)
	}
	if r.dirs[0] != m.Cwd() {
		t.Errorf("ran in %q, want %q", r.dirs[0], m.Cwd())
	}
	if len(rec.reqs) != 1 || rec.reqs[0].Command != "echo hello" || rec.reqs[0].Cwd != m.Cwd() {
		t.Errorf("requests %+v", rec.reqs)
	}
	s := screen(m)
	if !strings.Contains(s, "hello") || !strings.Contains(s, "[exit 3]") {
		t.Errorf("screen:\n%s", s)
	}
}

// TestDenyRefuses: a deny verdict (here a deny rule, without any danger
// warning) runs nothing and offers no way to proceed; the reason is shown.
// Before issue 11 item 4 it showed the overlay and p ran it.
func TestDenyRefuses(t *testing.T) {
	r := &fakeRunner{}
	deny := func(q policy.Request) policy.Decision {
		return policy.Decision{Command: q.Command, Verdict: policy.Deny, Reason: "denied by your rule curl *", Rules: []string{"deny: curl *"}}
	}
	m := newTestModel(t, deny, r)
	typeLine(t, m, "!curl example.com")
	s := screen(m)
	if m.mode != modePrompt || strings.Contains(s, "[p]") {
		t.Errorf("deny offered to proceed:\n%s", s)
	}
	screenHas(t, s, "$ curl example.com  [refused]", "verdict: deny — denied by your rule curl *")
	press(t, m, key("p"))
	if got := r.ran(); len(got) != 0 {
		t.Errorf("ran %q", got)
	}
}

func TestNilDecideDenies(t *testing.T) {
	r := &fakeRunner{}
	m := newTestModel(t, nil, r)
	typeLine(t, m, "!ls")
	if !strings.Contains(screen(m), "verdict: deny — no policy is configured") {
		t.Errorf("nil Decide did not fail closed:\n%s", screen(m))
	}
	press(t, m, key("p"))
	if len(r.ran()) != 0 {
		t.Error("ran without a policy")
	}
}

func TestAnalysisLine(t *testing.T) {
	r := &fakeRunner{}
	crit := danger.Critical
	decide := func(q policy.Request) policy.Decision {
		return policy.Decision{
			Command: q.Command,
			Verdict: policy.Deny,
			Reason:  "rm -rf / deletes everything",
			Level:   &crit,
			Warnings: []danger.Warning{danger.NewWarning(q.Command,
				danger.Pattern{Name: "rm_rf_root", Level: danger.Critical, Description: "Deletes the filesystem root."}, "rm -rf /")},
			Invocations: []policy.InvocationResult{
				{Command: "ls", Prefix: "ls", Approved: true, ApprovedBy: policy.Approver{Kind: policy.ByReadOnly, Name: "ls"}},
				{Command: "rm -rf /", Prefix: "rm", Reason: "dangerous"},
			},
			Rules: []string{"deny: rm -rf *"},
		}
	}
	m := newTestModel(t, decide, r)
	typeLine(t, m, "ls && rm -rf /")
	if len(r.ran()) != 0 {
		t.Fatal("analysis ran the command")
	}
	s := screen(m)
	screenHas(t, s,
		"? ls && rm -rf /",
		"verdict: deny — rm -rf / deletes everything",
		"level: Critical",
		"ls  prefix: ls  approved by read-only: ls",
		"rm -rf /  prefix: rm  not approved: dangerous",
		"[Critical] Deletes the filesystem root. (in: rm -rf /)",
		"rules: deny: rm -rf *",
	)
	if strings.Contains(s, "Dangerous command detected") {
		t.Error("analysis showed the overlay")
	}
}

func TestHistory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "shellguard", "history")
	newModel := func() *Model {
		return New(Config{Decide: twoWarnings, Runner: &fakeRunner{}, HistoryPath: path, Cwd: t.TempDir(), NoColor: true})
	}
	m := newModel()
	typeLine(t, m, "!echo one")
	typeLine(t, m, "two")
	typeLine(t, m, "two") // a repeat is not added
	for _, r := range "draft" {
		press(t, m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	steps := []struct{ key, want string }{
		{"up", "two"},
		{"up", "!echo one"},
		{"up", "!echo one"}, // stays at the oldest
		{"down", "two"},
		{"down", "draft"}, // back to what was typed
		{"down", "draft"},
	}
	for i, s := range steps {
		press(t, m, key(s.key))
		if got := m.input.Value(); got != s.want {
			t.Fatalf("step %d (%s): input %q, want %q", i, s.key, got, s.want)
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("history mode %v, want 0600", perm)
	}
	// A new model reads the file.
	m2 := newModel()
	press(t, m2, key("up"))
	if got := m2.input.Value(); got != "two" {
		t.Errorf("reloaded history: up gives %q, want two", got)
	}
	if got := m2.History().Entries(); len(got) != 2 {
		t.Errorf("entries %q", got)
	}
}

func TestCd(t *testing.T) {
	r := &fakeRunner{}
	rec := &decideRecorder{f: twoWarnings}
	m := newTestModel(t, rec.decide, r)
	start := m.Cwd()
	if err := os.Mkdir(filepath.Join(start, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	typeLine(t, m, "!cd sub")
	want := filepath.Join(start, "sub")
	if m.Cwd() != want {
		t.Fatalf("cwd %q, want %q", m.Cwd(), want)
	}
	typeLine(t, m, "!pwd")
	if r.dirs[len(r.dirs)-1] != want {
		t.Errorf("ran in %q", r.dirs[len(r.dirs)-1])
	}
	if got := rec.reqs[len(rec.reqs)-1].Cwd; got != want {
		t.Errorf("Request.Cwd %q", got)
	}
	typeLine(t, m, "!cd -")
	if m.Cwd() != start {
		t.Errorf("cd - gave %q", m.Cwd())
	}
	typeLine(t, m, "!cd nowhere")
	if m.Cwd() != start || !strings.Contains(screen(m), "cd: ") {
		t.Errorf("bad cd changed cwd to %q:\n%s", m.Cwd(), screen(m))
	}
	if got := r.ran(); len(got) != 1 {
		t.Errorf("cd went to the shell: %q", got)
	}
}

func TestCtrlKeysAtPrompt(t *testing.T) {
	m := newTestModel(t, twoWarnings, &fakeRunner{})
	for _, r := range "abc" {
		press(t, m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if other := press(t, m, key("ctrl+d")); len(other) != 0 {
		t.Errorf("ctrl+d on a non-empty prompt returned %v", other)
	}
	press(t, m, key("ctrl+c"))
	if v := m.input.Value(); v != "" {
		t.Errorf("ctrl+c left %q", v)
	}
	other := press(t, m, key("ctrl+d"))
	if len(other) != 1 {
		t.Fatalf("ctrl+d on an empty prompt: %v", other)
	}
	if _, ok := other[0].(tea.QuitMsg); !ok {
		t.Errorf("ctrl+d gave %T, want tea.QuitMsg", other[0])
	}
}

func TestCtrlCInterruptsCommand(t *testing.T) {
	r := &fakeRunner{block: true}
	m := newTestModel(t, twoWarnings, r)
	typeKeys(t, m, "!sleep 100")
	// Enter, but do not run the returned command yet: it waits for the end.
	_, listenCmd := m.Update(key("enter"))
	if m.mode != modeRunning || !strings.Contains(screen(m), "running: sleep 100") {
		t.Fatalf("not running:\n%s", screen(m))
	}
	press(t, m, key("x")) // ignored while running
	m.Update(key("ctrl+c"))
	if !r.procs[0].interrupted {
		t.Fatal("ctrl+c did not interrupt")
	}
	drive(t, m, listenCmd)
	if m.mode != modePrompt || !strings.Contains(screen(m), "[exit 130]") {
		t.Errorf("after interrupt:\n%s", screen(m))
	}
}

func TestInteractiveCommandsGetTheTerminal(t *testing.T) {
	tests := []struct {
		line, wantRun string
		terminal      bool
	}{
		{"!vim notes.txt", "vim notes.txt", true},
		{"!!git log", "git log", true},
		{"!git log", "git log", false},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			m, r := warnedModel(t)
			for _, c := range tc.line {
				press(t, m, tea.KeyPressMsg{Code: c, Text: string(c)})
			}
			_, cmd := m.Update(key("enter"))
			if tc.terminal {
				if len(r.interactive) != 1 || r.interactive[0] != tc.wantRun || len(r.started) != 0 {
					t.Fatalf("interactive %q started %q", r.interactive, r.started)
				}
				if cmd == nil || m.mode != modeRunning {
					t.Fatal("no exec command")
				}
				// What tea.Exec's callback sends when the program ends.
				m.Update(runMsg{id: m.run.id, done: true, code: 1})
				if m.mode != modePrompt || !strings.Contains(screen(m), "[exit 1]") {
					t.Errorf("after exec:\n%s", screen(m))
				}
				return
			}
			drive(t, m, cmd)
			if len(r.interactive) != 0 || len(r.ran()) != 1 {
				t.Errorf("interactive %q started %q", r.interactive, r.started)
			}
		})
	}
}

var sgrColor = regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7]|10[0-7])[;m]`)

func TestNoColor(t *testing.T) {
	for _, noColor := range []bool{true, false} {
		m := New(Config{Decide: twoWarnings, Runner: &fakeRunner{}, Cwd: t.TempDir(), NoColor: noColor})
		typeLine(t, m, "!rm canary.txt")
		got := sgrColor.MatchString(m.View().Content)
		if got == noColor {
			t.Errorf("NoColor=%v: colour sequences present=%v", noColor, got)
		}
	}
}

func TestLayoutWidths(t *testing.T) {
	for _, size := range [][2]int{{40, 12}, {41, 20}, {80, 24}, {200, 50}} {
		w, h := size[0], size[1]
		m := newTestModel(t, twoWarnings, &fakeRunner{output: strings.Repeat("x", 300) + "\n"})
		m.Update(tea.WindowSizeMsg{Width: w, Height: h})
		typeLine(t, m, "!echo long")
		typeLine(t, m, "!rm canary.txt with a rather long argument list that wraps")
		s := screen(m)
		lines := strings.Split(s, "\n")
		if len(lines) != h {
			t.Errorf("%dx%d: %d lines", w, h, len(lines))
		}
		for i, l := range lines {
			if lw := ansi.StringWidth(l); lw > w {
				t.Errorf("%dx%d: line %d is %d wide: %q", w, h, i, lw, l)
			}
		}
		for _, want := range []string{"Dangerous command detected", "Deletes the canary", "Proceed anyway"} {
			if !strings.Contains(s, want) {
				t.Errorf("%dx%d: lacks %q:\n%s", w, h, want, s)
			}
		}
	}
}

func TestStartErrorShown(t *testing.T) {
	m := newTestModel(t, twoWarnings, errRunner{})
	typeLine(t, m, "!true")
	if !strings.Contains(screen(m), "[error: no shell]") || m.mode != modePrompt {
		t.Errorf("screen:\n%s", screen(m))
	}
}

type errRunner struct{}

func (errRunner) Start(context.Context, string, string, io.Writer) (Process, error) {
	return nil, errors.New("no shell")
}
func (errRunner) Interactive(string, string) tea.ExecCommand { return nil }

func TestSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain\n", "plain\n"},
		{"\x1b[31mred\x1b[0m", "red"},
		{"a\r\nb", "a\nb"},
		{"tab\there", "tab    here"},
		{"bell\a and \x1b]0;title\a", "bell and "},
		{"nul\x00", "nul"},
	}
	for _, tc := range tests {
		if got := sanitize(tc.in); got != tc.want {
			t.Errorf("sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTranscriptIsBounded(t *testing.T) {
	m := New(Config{Decide: twoWarnings, Runner: &fakeRunner{output: strings.Repeat("line\n", 1000)}, Cwd: t.TempDir(), MaxTranscript: 4096})
	for i := 0; i < 5; i++ {
		typeLine(t, m, "!seq")
	}
	if n := len(m.Transcript()); n > 4096 {
		t.Errorf("transcript %d bytes", n)
	}
	if !strings.Contains(m.Transcript(), "[exit 0]") {
		t.Error("lost the end")
	}
}

func TestTinyScreen(t *testing.T) {
	// Below 20x5 the command and the choices cannot both be promised, but
	// nothing breaks: the view has the screen's size.
	for _, size := range [][2]int{{1, 1}, {5, 3}, {20, 4}, {0, 0}, {-3, -3}} {
		m := newTestModel(t, twoWarnings, &fakeRunner{})
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		typeLine(t, m, "!echo hi")
		typeLine(t, m, "!rm canary.txt")
		if m.mode != modeConfirm {
			t.Fatalf("%v: overlay not shown", size)
		}
		w, h := max(size[0], 1), max(size[1], 1)
		lines := strings.Split(screen(m), "\n")
		if len(lines) != h {
			t.Errorf("%v: %d lines", size, len(lines))
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > w {
				t.Errorf("%v: line %q wider than %d", size, l, w)
			}
		}
	}
}
