//go:build linux

package mcpserver

import (
	"os"
	"testing"
)

func TestParseStat(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
		want procInfo
	}{
		{"12 (sleep) S 1 12 12 0 -1 4194304 90 0 0 0 0 0 0 0 20 0 1 0 5563 2330624 128 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0", true, procInfo{'S', 1, 12, 5563}},
		{"7 (a) b (c)) Z 3 4 4 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 99 0 0", true, procInfo{'Z', 3, 4, 99}},
		{"7 (x) S 1 2", false, procInfo{}},
		{"garbage", false, procInfo{}},
		{"", false, procInfo{}},
	} {
		got, ok := parseStat(tc.line)
		if ok != tc.ok || got != tc.want {
			t.Errorf("parseStat(%q) = %+v %v, want %+v %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

// TestScanSeesItself: the scan finds this process with its parent.
func TestScanSeesItself(t *testing.T) {
	p, ok := scanProcs()[os.Getpid()]
	if !ok || p.ppid != os.Getppid() || p.start == 0 {
		t.Errorf("scan: %+v %v", p, ok)
	}
}

// BenchmarkScanProcs is one look at every process, what each kill round
// and each reap costs.
func BenchmarkScanProcs(b *testing.B) {
	n := 0
	for b.Loop() {
		n = len(scanProcs())
	}
	b.ReportMetric(float64(n), "procs")
}
