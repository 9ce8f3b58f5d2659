package provider

import (
	"sync"
	"time"
)

// DefaultMaxPendingTokens is the default of Options.MaxPendingTokens.
const DefaultMaxPendingTokens = 64

// tokenQuota bounds the resume tokens one caller can have issued within
// the resume window, so that a caller cannot fill the store with pending
// confirmations by calling with ever new request IDs. It counts in this
// process only; each process of a replicated Provider has its own bound.
type tokenQuota struct {
	mu     sync.Mutex
	issued map[string][]time.Time // caller key -> issue times within the window
}

// take records an issue for caller at now and reports whether it is
// within max issues of the window that ends at now.
func (q *tokenQuota) take(caller string, now time.Time, window time.Duration, max int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.issued == nil {
		q.issued = map[string][]time.Time{}
	}
	live := q.issued[caller][:0]
	for _, t := range q.issued[caller] {
		if now.Sub(t) < window {
			live = append(live, t)
		}
	}
	if len(live) >= max {
		q.issued[caller] = live
		return false
	}
	q.issued[caller] = append(live, now)
	q.prune(now, window)
	return true
}

// prune drops callers with no issue in the window, once the table holds
// many of them.
func (q *tokenQuota) prune(now time.Time, window time.Duration) {
	if len(q.issued) < 1024 {
		return
	}
	for k, ts := range q.issued {
		if len(ts) == 0 || now.Sub(ts[len(ts)-1]) >= window {
			delete(q.issued, k)
		}
	}
}
