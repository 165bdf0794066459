package policy

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// workersBackTo waits until at most n of w's workers run.
func workersBackTo(t *testing.T, w *watch, n int32) {
	t.Helper()
	end := time.Now().Add(10 * time.Second)
	for w.workers.Load() > n {
		if time.Now().After(end) {
			t.Fatalf("%d workers, want at most %d", w.workers.Load(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestWatchReusesWorkers(t *testing.T) {
	w := newWatch()
	for i := range 200 {
		if v, ok := run(w, time.Now().Add(time.Minute), func() int { return i }); !ok || v != i {
			t.Fatalf("run %d = %d, %v", i, v, ok)
		}
	}
	// A caller may get its answer before the worker that sent it waits
	// again, and start another.
	if n := w.started.Load(); n > 20 {
		t.Errorf("200 calls one after another started %d workers", n)
	}
	t.Logf("200 calls one after another started %d workers", w.started.Load())
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				if v, ok := run(w, time.Now().Add(time.Minute), func() int { return g*1000 + i }); !ok || v != g*1000+i {
					t.Errorf("run = %d, %v", v, ok)
				}
			}
		})
	}
	wg.Wait()
	// A worker that finished its call may not have put itself back yet.
	workersBackTo(t, w, maxIdle)
	w.stop()
	workersBackTo(t, w, 0)
	// A stopped watch still runs calls, each on a worker that ends.
	if v, ok := run(w, time.Now().Add(time.Minute), func() int { return 7 }); !ok || v != 7 {
		t.Fatalf("after stop: %d, %v", v, ok)
	}
	workersBackTo(t, w, 0)
}

// A call past its deadline is given up; the worker that ran it serves the
// next call once it finishes.
func TestWatchAbandoned(t *testing.T) {
	w := newWatch()
	defer w.stop()
	release := make(chan struct{})
	if _, ok := run(w, time.Now().Add(10*time.Millisecond), func() int { <-release; return 1 }); ok {
		t.Fatal("a call past its deadline was waited for")
	}
	if n := w.abandoned.Load(); n != 1 {
		t.Fatalf("abandoned = %d", n)
	}
	close(release)
	end := time.Now().Add(10 * time.Second)
	for w.abandoned.Load() != 0 {
		if time.Now().After(end) {
			t.Fatal("the abandoned call never finished")
		}
		time.Sleep(time.Millisecond)
	}
	if v, ok := run(w, time.Now().Add(time.Minute), func() int { return 2 }); !ok || v != 2 {
		t.Fatalf("next call = %d, %v", v, ok)
	}
	if n := w.workers.Load(); n != 1 {
		t.Errorf("%d workers, want 1", n)
	}
}

// A Guard that is no longer used ends its workers.
func TestGuardWorkersEnd(t *testing.T) {
	dir := t.TempDir()
	w := func() *watch {
		g, err := New(nil)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			// The read-only check of a short line runs on a worker.
			g.Decide(Request{Command: "cat README.md", Cwd: dir})
		}
		if g.watch.workers.Load() == 0 {
			t.Fatal("no worker waits after Decide: this test would check nothing")
		}
		return g.watch
	}()
	end := time.Now().Add(10 * time.Second)
	for w.workers.Load() > 0 {
		if time.Now().After(end) {
			t.Fatalf("%d workers of a Guard no longer used", w.workers.Load())
		}
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
}
