package bench

import (
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shellguard/shellguard/policy"
	"github.com/shellguard/shellguard/shellparse"
)

// worst are the most expensive lines of size bytes found for the per-line
// budget of issue 11 item 16 (docs/robustness.md, finding 43): each shape
// was the slowest or hungriest of a search over several hundred
// combinations of a head (nested eval, bash -c, ssh, argv runners,
// heredocs, loops) and repeated units (brace expansions, substitutions,
// shell strings, variables resolved by the parser, globs). The same list
// is decided by policy's TestHostilePerLineBudget.
func worst(size int) []corpus {
	// fillTo repeats units (in turn) after head while whole units fit,
	// pads with blanks, and ends with tail: exactly size bytes.
	fillTo := func(head, tail string, units ...string) string {
		var b strings.Builder
		b.WriteString(head)
		for i := 0; b.Len()+len(units[i%len(units)])+len(tail) <= size; i++ {
			b.WriteString(units[i%len(units)])
		}
		b.WriteString(strings.Repeat(" ", max(0, size-b.Len()-len(tail))))
		b.WriteString(tail)
		return b.String()
	}
	evals := strings.Repeat("eval ", 16)
	bashC := "rm -rf /tmp/x"
	for len(bashC) < size/3 {
		bashC = "bash -c " + shellDoubleQuote(bashC)
	}
	long := strings.Repeat("a", size/2)
	return []corpus{
		{"eval16_braces", []string{fillTo(evals, "", "{1..256} ")}},
		{"braces", []string{fillTo("", "", "{1..256} ")}},
		{"rm_braces", []string{fillTo("rm -rf ", "", "{1..256} ")}},
		{"brace_pairs", []string{fillTo("", "", "{a..z}{a..z} ")}},
		{"brace_long_word", []string{fillTo("echo {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", "", "a")}},
		{"eval16_words", []string{fillTo(evals, "", "a ")}},
		{"eval2_mixed", []string{fillTo("eval eval ", "", `\x7c`, "a ", "bash -c 'bash -c a' ")}},
		{"ssh16", []string{fillTo(strings.Repeat("ssh h ", 16), "", "a ")}},
		{"docker_exec16", []string{fillTo(strings.Repeat("docker exec c ", 16), "", "a ")}},
		{"find_exec16", []string{fillTo("find . "+strings.Repeat("-exec find . ", 15)+"-exec ", "", "a ")}},
		{"unknown_sh_c", []string{fillTo("x ", "", "sh -c a ")}},
		{"eval2_bash_c", []string{fillTo("eval eval ", "", "bash -c 'bash -c a' ")}},
		{"bash_c_nested", []string{fillTo(bashC+" ", "", "a ")}},
		{"heredoc_eval_braces", []string{fillTo("bash <<'E'\n", "\nE\n", "eval {1..256}\n")}},
		{"heredoc_bash_c", []string{fillTo("bash <<'E'\n", "\nE\n", "bash -c 'bash -c \"eval a\"'\n")}},
		{"ansi_c_pipes", []string{fillTo("bash -c $'", "'", `a\x7c`)}},
		{"arith", []string{fillTo("echo $((", "1))", "1+")}},
		{"heredoc_substs", []string{fillTo("cat <<E\n", "\nE\n", "$(a) `b` ${c:-$(d)}\n")}},
		{"vars", []string{fillTo("x=rm; ", "", "$x $x ")}},
		{"var_long", []string{fillTo("x="+long+"; ", "", "$x ")}},
		{"var_long_quoted", []string{fillTo("x="+long+"; ", "", `"$x" `)}},
		{"for_lists", []string{fillTo("", "", "for d in a b c d e f g h; do rm $d; done; ")}},
		{"for_nested", []string{fillTo(strings.Repeat("for a in 1 2 3 4 5 6 7 8; do ", 8), strings.Repeat("; done", 8), "echo $a $a; ")}},
		{"glob_programs", []string{fillTo("", "", "/???/?? -rf /; ")}},
		{"which", []string{fillTo("", "", "$(which rm) ")}},
		{"ifs", []string{fillTo("rm", "", "${IFS}-rf")}},
		{"dotdot", []string{fillTo("rm -rf /tmp", "", "/..")}},
		{"xargs_stdin", []string{fillTo("echo ", " | xargs rm -rf", "a b c d e f ")}},
		{"unknown_sh_words", []string{fillTo("x ", "", "sh ")}},
		{"runners_ifs_herestrings", []string{fillTo(strings.Repeat("docker exec c ", 16), "", "${IFS}", "sh <<< 'a;a' ", "-rf ")}},
		{"function_calls", []string{fillTo("f() { g $1 $1; }; g() { rm -rf $1 $2; }; ", "", "f a; ")}},
		{"function_recursion", []string{fillTo("f(){ f; g; }; g(){ f; }; ", "", "g; ")}},
		{"while_read", []string{fillTo("", "", "printf '%s\\n' a b c d e f g h | while read l; do rm -rf $l; done; ")}},
		{"loops_forks", []string{fillTo("", "", "for i in 1 2 3 4 5 6 7 8; do for j in 1 2 3 4 5 6 7 8; do echo $i$j; done; done; ")}},
		{"var_doubling", []string{fillTo("x=ab; ", "", "x=$x$x; echo $x; ")}},
		{"substs_nested", []string{fillTo("", "", "$(echo $(echo $(printf %s a))) ")}},
		{"glob_many", []string{fillTo("", "", "/???/?? /???/* /usr/bin/?? ")}},
	}
}

// shellDoubleQuote double-quotes s for the shell.
func shellDoubleQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`")
	return `"` + r.Replace(s) + `"`
}

// cpuTime is the CPU time the process has used (user and system, every
// thread: the garbage collector's work counts).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDecideWorst decides the worst lines at the parser's size limit;
// the target is 100 ms of CPU (cpu-ms/op, which counts the garbage
// collector and is less sensitive than ns/op to a loaded machine) and
// 64 MiB (B/op) each. The budget of Decide is lifted so that the whole
// analysis is measured.
func BenchmarkDecideWorst(b *testing.B) {
	g := newGuard(b).WithBudget(time.Hour)
	for _, c := range worst(64 << 10) {
		b.Run(c.name, func(b *testing.B) {
			line := c.lines[0]
			b.ReportAllocs()
			b.SetBytes(int64(len(line)))
			t0 := cpuTime()
			for b.Loop() {
				g.Decide(policy.Request{Command: line})
			}
			b.ReportMetric(float64(cpuTime()-t0)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

// TestWorstBounded decides the worst lines at the parser's size limit:
// each is built at its size, none is allowed, and none allocates more than
// 64 MiB in all (runtime.MemStats.TotalAlloc, an upper bound of the memory
// it holds at once). Time is the benchmark's business.
func TestWorstBounded(t *testing.T) {
	g := newGuard(t).WithBudget(time.Hour)
	size := shellparse.DefaultLimits().MaxBytes
	for _, c := range worst(size) {
		line := c.lines[0]
		if len(line) != size {
			t.Errorf("%s: %d bytes, want %d", c.name, len(line), size)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		d := g.Decide(policy.Request{Command: line})
		runtime.ReadMemStats(&after)
		if d.Verdict == policy.Allow || d.Problem == policy.ProblemOverBudget {
			t.Errorf("%s: %v (%s)", c.name, d.Verdict, d.Reason)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
			t.Errorf("%s: allocated %d MiB, over 64 MiB", c.name, n>>20)
		}
	}
}
