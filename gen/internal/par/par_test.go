package par

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestEach proves every index runs exactly once, for empty, single and
// larger inputs (run with -race).
func TestEach(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 1000} {
		counts := make([]atomic.Int32, n)
		Each(n, func(i int) { counts[i].Add(1) })
		for i := range counts {
			if c := counts[i].Load(); c != 1 {
				t.Fatalf("n=%d: index %d ran %d times", n, i, c)
			}
		}
	}
}

// TestEachWithOwnState proves each worker's state is its own: a worker
// marks its state busy for the length of a call, and a call that finds it
// busy means two calls shared one state (run with -race).
func TestEachWithOwnState(t *testing.T) {
	var shared atomic.Int32
	var ran atomic.Int32
	EachWith(1000, func(s *struct{ busy bool }, i int) {
		if s.busy {
			shared.Add(1)
		}
		s.busy = true
		ran.Add(1)
		s.busy = false
	})
	if shared.Load() != 0 || ran.Load() != 1000 {
		t.Fatalf("%d of %d calls found their state in use", shared.Load(), ran.Load())
	}
}

// TestDo proves every call of Do runs exactly once and that Do returns
// only after all of them (run with -race).
func TestDo(t *testing.T) {
	var a, b, c atomic.Int32
	// Each call waits before it counts, so a Do that returned before its
	// calls had finished would see a count of 0.
	slow := func(n *atomic.Int32) func() {
		return func() { time.Sleep(10 * time.Millisecond); n.Add(1) }
	}
	Do(slow(&a), slow(&b), slow(&c))
	Do()
	if a.Load() != 1 || b.Load() != 1 || c.Load() != 1 {
		t.Fatalf("calls ran %d, %d, %d times, want once each", a.Load(), b.Load(), c.Load())
	}
}
