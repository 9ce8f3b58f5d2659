// Package keylock provides a set of mutexes indexed by comparable keys,
// created on demand and dropped when no goroutine holds or waits for them.
package keylock

import (
	"context"
	"sync"
)

// Set is a set of per-key locks. The zero value is ready to use.
type Set[K comparable] struct {
	mu    sync.Mutex
	locks map[K]*entry
}

type entry struct {
	ch   chan struct{}
	refs int
}

// Lock acquires the lock of key, or returns ctx's error if ctx ends first.
// Every successful Lock must be followed by one Unlock of the same key.
func (s *Set[K]) Lock(ctx context.Context, key K) error {
	s.mu.Lock()
	if s.locks == nil {
		s.locks = map[K]*entry{}
	}
	e := s.locks[key]
	if e == nil {
		e = &entry{ch: make(chan struct{}, 1)}
		s.locks[key] = e
	}
	e.refs++
	s.mu.Unlock()
	select {
	case e.ch <- struct{}{}:
		return nil
	case <-ctx.Done():
		s.release(key, e)
		return ctx.Err()
	}
}

// Unlock releases the lock of key.
func (s *Set[K]) Unlock(key K) {
	s.mu.Lock()
	e := s.locks[key]
	s.mu.Unlock()
	<-e.ch
	s.release(key, e)
}

func (s *Set[K]) release(key K, e *entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e.refs--
	if e.refs == 0 {
		delete(s.locks, key)
	}
}

// Len returns the number of keys that are held or waited for.
func (s *Set[K]) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.locks)
}
