package provider

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"slices"
	"sync"
	"time"
)

// maxTokenBytes is the longest session or resume token (§2.2, §4.3).
const maxTokenBytes = 256

// session is a negotiated session, bound to the caller's UID, the selected
// version and the granted capabilities.
type session struct {
	uid     int
	version int
	caps    []string
	expires time.Time
}

func (s *session) has(capability string) bool { return slices.Contains(s.caps, capability) }

// sessions is the bounded in-memory session table. Sessions do not survive
// a restart: the Consumer then gets NEGOTIATION_REQUIRED and negotiates
// again (§2.2).
type sessions struct {
	mu  sync.Mutex
	m   map[string]*session
	max int
}

// newToken returns 32 bytes from crypto/rand, base64url without padding
// (43 characters).
func newToken() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("provider: random token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

func (t *sessions) add(s *session, now time.Time) (string, error) {
	tok, err := newToken()
	if err != nil {
		return "", err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]*session{}
	}
	if len(t.m) >= t.max {
		t.evict(now)
	}
	t.m[tok] = s
	return tok, nil
}

// evict drops expired sessions and, if the table is still full, the one
// that expires first.
func (t *sessions) evict(now time.Time) {
	var oldest string
	for k, s := range t.m {
		if !now.Before(s.expires) {
			delete(t.m, k)
			continue
		}
		if oldest == "" || s.expires.Before(t.m[oldest].expires) {
			oldest = k
		}
	}
	if len(t.m) >= t.max && oldest != "" {
		delete(t.m, oldest)
	}
}

// get returns the live session of token for uid, or nil when the token is
// unknown, expired or bound to another UID.
func (t *sessions) get(token string, uid int, now time.Time) *session {
	if token == "" || len(token) > maxTokenBytes {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.m[token]
	if s == nil {
		return nil
	}
	if !now.Before(s.expires) {
		delete(t.m, token)
		return nil
	}
	if s.uid != uid {
		return nil
	}
	return s
}

// inflight counts the requests each caller UID has in progress.
type inflight struct {
	mu sync.Mutex
	n  map[int]int
}

func (f *inflight) acquire(uid, max int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == nil {
		f.n = map[int]int{}
	}
	if f.n[uid] >= max {
		return false
	}
	f.n[uid]++
	return true
}

func (f *inflight) release(uid int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n[uid]--; f.n[uid] <= 0 {
		delete(f.n, uid)
	}
}
