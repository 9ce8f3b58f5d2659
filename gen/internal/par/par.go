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
	EachWith(n, func(_ *struct{}, i int) { f(i) })
}

// EachWith is Each for calls that reuse per-worker state, such as a
// scratch buffer: every worker starts with a zero S of its own and passes
// it to each of its calls, so no two concurrent calls share one.
func EachWith[S any](n int, f func(s *S, i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		var s S
		for i := range n {
			f(&s, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var s S
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(&s, i)
			}
		})
	}
	wg.Wait()
}

// Do runs the calls fs on the pool, as Each does, and returns when all of
// them have returned: the form for a few different pieces of work, such as
// the files of one target, rather than many of the same kind.
func Do(fs ...func()) {
	Each(len(fs), func(i int) { fs[i]() })
}
