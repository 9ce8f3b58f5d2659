// Package memstore is an in-memory store.Store for tests. It keeps the
// semantics of the interface (one executor per key, atomic token use,
// binding checks) but nothing survives the process, and its transaction
// offers no SQL: handlers used with it must keep their effects elsewhere.
package memstore

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"

	"github.com/cetpgen/cetpgen/runtime/internal/keylock"
	"github.com/cetpgen/cetpgen/runtime/store"
)

// Store is the in-memory store. The zero value is not usable; call New.
type Store struct {
	mu      sync.Mutex
	records map[store.Key]store.Record
	tokens  map[store.Digest]store.Token
	byID    map[string]store.Digest
	cancels map[store.Key]bool
	prog    map[store.Key][]byte
	locks   keylock.Set[store.Key]
	tombs   map[store.Key]store.Tombstone // see tombstone.go
}

// New returns an empty store.
func New() *Store {
	return &Store{
		records: map[store.Key]store.Record{},
		tokens:  map[store.Digest]store.Token{},
		byID:    map[string]store.Digest{},
		cancels: map[store.Key]bool{},
		prog:    map[store.Key][]byte{},
	}
}

var _ store.Store = (*Store)(nil)

// Lookup implements store.Store.
func (s *Store) Lookup(_ context.Context, key store.Key, now time.Time) (store.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.records[key]
	if !ok || !now.Before(rec.ExpiresAt) {
		return store.Record{}, fmt.Errorf("memstore: lookup %s: %w", key.RequestID, store.ErrNotFound)
	}
	return rec, nil
}

// Execute implements store.Store. Attempts on one key are serialised by a
// per-key lock; fn runs without the store-wide lock held.
func (s *Store) Execute(ctx context.Context, a store.Attempt, fn store.TxFunc) (store.Record, bool, error) {
	if err := s.locks.Lock(ctx, a.Key); err != nil {
		return store.Record{}, false, fmt.Errorf("memstore: wait for %s: %w", a.Key.RequestID, err)
	}
	defer s.locks.Unlock(a.Key)
	if rec, err := s.Lookup(ctx, a.Key, a.Now); err == nil {
		if rec.Binding != a.Binding {
			return store.Record{}, false, fmt.Errorf("memstore: execute %s: %w", a.Key.RequestID, store.ErrBindingMismatch)
		}
		return rec, false, nil
	}
	if a.Token != nil {
		if err := s.checkToken(*a.Token); err != nil {
			return store.Record{}, false, err
		}
	}
	out, err := fn(ctx, noSQL{})
	if err != nil {
		return store.Record{}, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if a.Token != nil {
		if err := s.useTokenLocked(*a.Token); err != nil {
			return store.Record{}, false, err
		}
	}
	rec := store.Record{Key: a.Key, Binding: a.Binding, State: out.State(), Outcome: out, CreatedAt: a.Now, ExpiresAt: a.ExpiresAt}
	s.records[a.Key] = rec
	return rec, true, nil
}

func (s *Store) checkToken(use store.TokenUse) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tokens[use.Hash]
	if !ok || t.Used || t.Decision != use.Decision || !use.Now.Before(t.ExpiresAt) {
		return fmt.Errorf("memstore: use token: %w", store.ErrTokenUnusable)
	}
	return nil
}

func (s *Store) useTokenLocked(use store.TokenUse) error {
	t, ok := s.tokens[use.Hash]
	if !ok || t.Used || t.Decision != use.Decision || !use.Now.Before(t.ExpiresAt) {
		return fmt.Errorf("memstore: use token: %w", store.ErrTokenUnusable)
	}
	t.Used = true
	s.tokens[use.Hash] = t
	return nil
}

// CreateToken implements store.Store.
func (s *Store) CreateToken(_ context.Context, t store.Token) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.tokens[t.Hash]; dup {
		return fmt.Errorf("memstore: create token: duplicate hash")
	}
	if _, dup := s.byID[t.ID]; dup {
		return fmt.Errorf("memstore: create token: duplicate id")
	}
	s.tokens[t.Hash] = t
	s.byID[t.ID] = t.Hash
	return nil
}

// TokenByHash implements store.Store.
func (s *Store) TokenByHash(_ context.Context, hash store.Digest) (store.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tokens[hash]
	if !ok {
		return store.Token{}, fmt.Errorf("memstore: token: %w", store.ErrNotFound)
	}
	return t, nil
}

// TokenByID implements store.Store.
func (s *Store) TokenByID(ctx context.Context, id string) (store.Token, error) {
	s.mu.Lock()
	h, ok := s.byID[id]
	s.mu.Unlock()
	if !ok {
		return store.Token{}, fmt.Errorf("memstore: token %q: %w", id, store.ErrNotFound)
	}
	return s.TokenByHash(ctx, h)
}

// Decide implements store.Store.
func (s *Store) Decide(_ context.Context, id string, d store.Decision, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.byID[id]
	if !ok {
		return fmt.Errorf("memstore: decide %q: %w", id, store.ErrNotFound)
	}
	t := s.tokens[h]
	if t.Used || t.Decision != store.DecisionPending || !now.Before(t.ExpiresAt) {
		return fmt.Errorf("memstore: decide %q: %w", id, store.ErrTokenUnusable)
	}
	t.Decision = d
	s.tokens[h] = t
	return nil
}

// ConsumeToken implements store.Store.
func (s *Store) ConsumeToken(_ context.Context, use store.TokenUse) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.useTokenLocked(use)
}

// Purge implements store.Store.
func (s *Store) Purge(_ context.Context, now time.Time) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n int64
	for k, r := range s.records {
		if !now.Before(r.ExpiresAt) && r.State.Terminal() {
			delete(s.records, k)
			delete(s.cancels, k)
			delete(s.prog, k)
			n++
		}
	}
	for h, t := range s.tokens {
		if !now.Before(t.ExpiresAt) {
			delete(s.tokens, h)
			delete(s.byID, t.ID)
			n++
		}
	}
	return n, nil
}

// Close implements store.Store.
func (s *Store) Close() error { return nil }

// noSQL is the transaction of memstore: it refuses every statement.
type noSQL struct{}

func (noSQL) ExecContext(context.Context, string, ...any) (sql.Result, error) {
	return nil, store.ErrNoSQL
}

func (noSQL) QueryContext(context.Context, string, ...any) (*sql.Rows, error) {
	return nil, store.ErrNoSQL
}
