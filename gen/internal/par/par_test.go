package par

import (
	"sync/atomic"
	"testing"
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
