// Package par is the generator's one worker pool: the stages that work
// on independent items (spec files, tools, catalog entries) run them
// through Each, so the pool's size and shutdown are decided in one place.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls f(0), …, f(n-1) on at most GOMAXPROCS goroutines and returns
// when every call has returned. Calls run in any order; a caller that
// stores results by index gets output that does not depend on scheduling.
func Each(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		})
	}
	wg.Wait()
}
