package memstore

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"
)

// Get implements store.Store.
func (s *Store) Get(_ context.Context, key store.Key) (store.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.records[key]
	if !ok {
		return store.Record{}, fmt.Errorf("memstore: get %s: %w", key.RequestID, store.ErrNotFound)
	}
	return rec, nil
}

// Accept implements store.Store.
func (s *Store) Accept(ctx context.Context, a store.Attempt, id string) (store.Record, bool, error) {
	if err := s.locks.Lock(ctx, a.Key); err != nil {
		return store.Record{}, false, fmt.Errorf("memstore: wait for %s: %w", a.Key.RequestID, err)
	}
	defer s.locks.Unlock(a.Key)
	s.mu.Lock()
	defer s.mu.Unlock()
	if rec, ok := s.records[a.Key]; ok && a.Now.Before(rec.ExpiresAt) {
		if rec.Binding != a.Binding {
			return store.Record{}, false, fmt.Errorf("memstore: accept %s: %w", a.Key.RequestID, store.ErrBindingMismatch)
		}
		return rec, false, nil
	}
	if a.Token != nil {
		if err := s.useTokenLocked(*a.Token); err != nil {
			return store.Record{}, false, err
		}
	}
	rec := store.Record{Key: a.Key, Binding: a.Binding, State: store.StateQueued, OperationID: id,
		Request: append([]byte(nil), a.Request...), CreatedAt: a.Now, ExpiresAt: a.ExpiresAt}
	s.records[a.Key] = rec
	return rec, true, nil
}

// MarkRunning implements store.Store.
func (s *Store) MarkRunning(_ context.Context, key store.Key) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rec, ok := s.records[key]; ok && rec.State == store.StateQueued {
		rec.State = store.StateRunning
		s.records[key] = rec
	}
	return nil
}

// RunOperation implements store.Store. Runs on one key are serialised by
// the per-key lock that also serialises Execute and Accept.
func (s *Store) RunOperation(ctx context.Context, key store.Key, expiresAt time.Time, fn store.TxFunc) (store.Record, bool, error) {
	if err := s.locks.Lock(ctx, key); err != nil {
		return store.Record{}, false, fmt.Errorf("memstore: wait for %s: %w", key.RequestID, err)
	}
	defer s.locks.Unlock(key)
	rec, err := s.Get(ctx, key)
	if err != nil || rec.State.Terminal() {
		return rec, false, err
	}
	out, err := fn(ctx, noSQL{})
	if err != nil {
		return store.Record{}, false, err
	}
	return s.finishLocked(key, expiresAt, out), true, nil
}

// FinishOperation implements store.Store.
func (s *Store) FinishOperation(ctx context.Context, key store.Key, expiresAt time.Time, out store.Outcome) (store.Record, bool, error) {
	return s.RunOperation(ctx, key, expiresAt, func(context.Context, store.Tx) (store.Outcome, error) { return out, nil })
}

func (s *Store) finishLocked(key store.Key, expiresAt time.Time, out store.Outcome) store.Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.records[key]
	rec.State, rec.Outcome, rec.ExpiresAt = out.State(), out, expiresAt
	s.records[key] = rec
	delete(s.prog, key)
	return rec
}

// RequestCancel implements store.Store.
func (s *Store) RequestCancel(_ context.Context, key store.Key) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cancels[key] = true
	return nil
}

// CancelRequested implements store.Store.
func (s *Store) CancelRequested(_ context.Context, key store.Key) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cancels[key], nil
}

// PendingOperations implements store.Store.
func (s *Store) PendingOperations(_ context.Context, provider string) ([]store.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []store.Record
	for k, r := range s.records {
		if k.Provider == provider && r.OperationID != "" && !r.State.Terminal() {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.Before(out[j].CreatedAt)
		}
		return out[i].RequestID < out[j].RequestID
	})
	return out, nil
}

// SetProgress implements store.Store.
func (s *Store) SetProgress(_ context.Context, key store.Key, progress []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prog[key] = append([]byte(nil), progress...)
	return nil
}

// Progress implements store.Store.
func (s *Store) Progress(_ context.Context, key store.Key) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.prog[key], nil
}
