package bench

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/policy"
	"github.com/shellguard/shellguard/shellparse"
)

// newGuard returns the Guard of the default configuration, with no
// approval store, as the benchmarks decide with.
func newGuard(tb testing.TB) *policy.Guard {
	tb.Helper()
	g, err := policy.New(config.Default())
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// perLine runs f over the corpus, one line per b.Loop iteration (so ns/op
// and allocs/op are per command line), and reports lines/s.
func perLine(b *testing.B, lines []string, f func(string)) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		f(lines[n%len(lines)])
		n++
	}
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(n)/s, "lines/s")
	}
}

// eachCorpus runs one sub-benchmark per corpus.
func eachCorpus(b *testing.B, f func(b *testing.B, lines []string)) {
	for _, c := range corpora(b) {
		b.Run(c.name, func(b *testing.B) { f(b, c.lines) })
	}
}

// sink keeps results alive so that the compiler cannot drop the calls.
type sink struct{ n int }

func (s *sink) add(n int) { s.n += n }

func BenchmarkParse(b *testing.B) {
	p := shellparse.New(shellparse.Limits{})
	var s sink
	eachCorpus(b, func(b *testing.B, lines []string) {
		perLine(b, lines, func(l string) { s.add(len(p.Parse(l).Invocations)) })
	})
}

func BenchmarkCheck(b *testing.B) {
	d := danger.Default()
	var s sink
	eachCorpus(b, func(b *testing.B, lines []string) {
		perLine(b, lines, func(l string) { s.add(len(d.Check(l))) })
	})
}

// BenchmarkCheckParsed measures the danger rules alone, on lines parsed
// beforehand.
func BenchmarkCheckParsed(b *testing.B) {
	d := danger.Default()
	var s sink
	eachCorpus(b, func(b *testing.B, lines []string) {
		parsed := parseAll(lines)
		i := 0
		perLine(b, lines, func(string) {
			s.add(len(d.CheckParsed(parsed[i%len(parsed)])))
			i++
		})
	})
}

// BenchmarkClassify measures approval classification alone, on lines
// parsed beforehand.
func BenchmarkClassify(b *testing.B) {
	var s sink
	eachCorpus(b, func(b *testing.B, lines []string) {
		parsed := parseAll(lines)
		i := 0
		perLine(b, lines, func(string) {
			s.add(len(approval.Classify(parsed[i%len(parsed)]).Invocations))
			i++
		})
	})
}

func BenchmarkClassifyCommand(b *testing.B) {
	p := shellparse.New(shellparse.Limits{})
	var s sink
	eachCorpus(b, func(b *testing.B, lines []string) {
		perLine(b, lines, func(l string) { s.add(len(approval.ClassifyCommand(p, l).Invocations)) })
	})
}

// BenchmarkDecide is the whole decision (parse, danger, classification,
// approvals, rules). Run it with -cpu 1 for the one-core lines/s figure.
func BenchmarkDecide(b *testing.B) {
	g := newGuard(b)
	var s sink
	eachCorpus(b, func(b *testing.B, lines []string) {
		perLine(b, lines, func(l string) { s.add(int(g.Decide(policy.Request{Command: l}).Verdict)) })
	})
}

// BenchmarkDecideParallel is Decide from every GOMAXPROCS goroutine at
// once over one shared Guard.
func BenchmarkDecideParallel(b *testing.B) {
	g := newGuard(b)
	eachCorpus(b, func(b *testing.B, lines []string) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				g.Decide(policy.Request{Command: lines[i%len(lines)]})
				i++
			}
		})
	})
}

func parseAll(lines []string) []*shellparse.Result {
	p := shellparse.New(shellparse.Limits{})
	out := make([]*shellparse.Result, len(lines))
	for i, l := range lines {
		out[i] = p.Parse(l)
	}
	return out
}

// latency times every line separately on every pass (one pass per b.Loop
// iteration), keeps each line's best time, and reports the distribution of
// those: p50-ns, p99-ns and max-ns per line, and ns/line over the whole
// pass. The slowest lines are logged.
func latency(b *testing.B, lines []string, f func(string)) {
	best := make([]time.Duration, len(lines))
	for i := range best {
		best[i] = time.Duration(1<<63 - 1)
	}
	b.ReportAllocs()
	passes := 0
	for b.Loop() {
		for i, l := range lines {
			t0 := time.Now()
			f(l)
			if d := time.Since(t0); d < best[i] {
				best[i] = d
			}
		}
		passes++
	}
	idx := make([]int, len(lines))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(x, y int) int { return int(best[x] - best[y]) })
	at := func(q float64) time.Duration { return best[idx[int(q*float64(len(idx)-1))]] }
	b.ReportMetric(float64(at(0.5)), "p50-ns")
	b.ReportMetric(float64(at(0.99)), "p99-ns")
	b.ReportMetric(float64(best[idx[len(idx)-1]]), "max-ns")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(passes*len(lines)), "ns/line")
	b.ReportMetric(float64(passes), "passes")
	for k := len(idx) - 1; k >= 0 && k >= len(idx)-3; k-- {
		b.Logf("slow line #%d (%v, %d bytes): %s", idx[k]+1, best[idx[k]], len(lines[idx[k]]), shorten(lines[idx[k]]))
	}
}

func shorten(s string) string {
	s = strconv.Quote(s)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// BenchmarkDecideLatency is the per-line time distribution of Decide over
// each corpus (each line's best time over the passes).
func BenchmarkDecideLatency(b *testing.B) {
	g := newGuard(b)
	eachCorpus(b, func(b *testing.B, lines []string) {
		latency(b, lines, func(l string) { g.Decide(policy.Request{Command: l}) })
	})
}

// hugeSizes are the sizes of the huge inputs: 1 MiB (the target's bound)
// and, when it is smaller, the parser's MaxBytes, the longest line that is
// parsed rather than refused at once.
func hugeSizes() []struct {
	label string
	n     int
} {
	sizes := []struct {
		label string
		n     int
	}{{"1MiB", mib}}
	if lim := shellparse.DefaultLimits().MaxBytes; lim < mib {
		sizes = append(sizes, struct {
			label string
			n     int
		}{"limit", lim})
	}
	return sizes
}

// BenchmarkDecideHuge decides inputs of 1 MiB, and of the parser's size
// limit, built to be expensive; the target is 50 ms each (ms/op).
func BenchmarkDecideHuge(b *testing.B) {
	g := newGuard(b)
	for _, size := range hugeSizes() {
		b.Run(size.label, func(b *testing.B) {
			for _, c := range huge(size.n) {
				b.Run(c.name, func(b *testing.B) {
					line := c.lines[0]
					b.ReportAllocs()
					b.SetBytes(int64(len(line)))
					for b.Loop() {
						g.Decide(policy.Request{Command: line})
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
				})
			}
		})
	}
}

// BenchmarkDecideBashfuscator decides every Bashfuscator payload; the
// target is 5 ms for the slowest (max-ns).
func BenchmarkDecideBashfuscator(b *testing.B) {
	lines := bashfuscator(b)
	g := newGuard(b)
	latency(b, lines, func(l string) { g.Decide(policy.Request{Command: l}) })
}

// TestHugeInputsNotAllowed checks the builders of the huge inputs (exact
// size) and that none of them is allowed (they are all unknown programs,
// unparseable, or over a limit), so that the benchmarks measure the real
// decision path. It decides 16 KiB versions, so that a super-linear stage
// makes the benchmark slow, not the test suite.
func TestHugeInputsNotAllowed(t *testing.T) {
	g := newGuard(t)
	for _, c := range huge(mib) {
		if len(c.lines[0]) != mib {
			t.Errorf("%s input is %d bytes, want %d", c.name, len(c.lines[0]), mib)
		}
	}
	const size = 16 << 10
	for _, c := range huge(size) {
		t.Run(c.name, func(t *testing.T) {
			line := c.lines[0]
			if len(line) != size {
				t.Fatalf("input is %d bytes, want %d", len(line), size)
			}
			d := g.Decide(policy.Request{Command: line})
			if d.Verdict == policy.Allow {
				t.Errorf("1 MiB %s input allowed: %s", c.name, d.Reason)
			}
			if d.Command != line {
				t.Errorf("decision is for a different command (%d bytes)", len(d.Command))
			}
		})
	}
}

// TestSampleDecides checks that the fixed sample exercises every verdict
// (so the benchmark is not all one code path): rm -rf / is denied, ls -la
// allowed, make build asked.
func TestSampleDecides(t *testing.T) {
	g := newGuard(t)
	want := map[string]policy.Verdict{"rm -rf /": policy.Deny, "ls -la": policy.Allow, "make build": policy.Ask}
	for line, v := range want {
		if !slices.Contains(sample, line) {
			t.Fatalf("sample lacks %q", line)
		}
		if got := g.Decide(policy.Request{Command: line}).Verdict; got != v {
			t.Errorf("Decide(%q) = %v, want %v", line, got, v)
		}
	}
}

// TestCorporaFound checks the corpus loader: the sample is always there,
// and when shared/ is found every benign corpus has lines.
func TestCorporaFound(t *testing.T) {
	cs := corpora(t)
	if cs[0].name != "sample" || len(cs[0].lines) != len(sample) {
		t.Fatalf("first corpus is %q with %d lines", cs[0].name, len(cs[0].lines))
	}
	if _, ok := findShared(); !ok {
		t.Skip("no shared/ directory")
	}
	for _, c := range cs[1:] {
		if len(c.lines) == 0 {
			t.Errorf("corpus %s is empty", c.name)
		}
		for _, l := range c.lines[:min(len(c.lines), 100)] {
			if strings.TrimSpace(l) == "" {
				t.Errorf("corpus %s has a blank line", c.name)
			}
		}
	}
}
