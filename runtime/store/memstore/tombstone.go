package memstore

import (
	"context"
	"fmt"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"
)

var _ store.Tombstones = (*Store)(nil)

// BuryExpired implements store.Tombstones.
func (s *Store) BuryExpired(_ context.Context, now, until time.Time) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tombs == nil {
		s.tombs = map[store.Key]store.Tombstone{}
	}
	var n int64
	for k, rec := range s.records {
		if rec.State.Terminal() && !now.Before(rec.ExpiresAt) {
			s.tombs[k] = store.Tombstone{Key: k, Binding: rec.Binding, OperationID: rec.OperationID, Until: until}
			n++
		}
	}
	return n, nil
}

// Tombstone implements store.Tombstones.
func (s *Store) Tombstone(_ context.Context, key store.Key) (store.Tombstone, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tombs[key]
	if !ok {
		return store.Tombstone{}, fmt.Errorf("memstore: tombstone %s: %w", key.RequestID, store.ErrNotFound)
	}
	return t, nil
}

// PurgeTombstones implements store.Tombstones.
func (s *Store) PurgeTombstones(_ context.Context, now time.Time) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n int64
	for k, t := range s.tombs {
		if !now.Before(t.Until) {
			delete(s.tombs, k)
			n++
		}
	}
	return n, nil
}
