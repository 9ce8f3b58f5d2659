// Package storetest is the contract test of store.Store: every
// implementation (memstore, sqlitestore, and later ones such as a
// PostgreSQL store) runs Run against a fresh, empty store.
package storetest

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"
)

// Open returns a fresh, empty store for one subtest.
type Open func(t *testing.T) store.Store

var (
	t0  = time.Date(2026, 9, 2, 12, 0, 0, 0, time.UTC)
	ctx = context.Background()
)

func attempt(id string, args string) store.Attempt {
	return store.Attempt{Key: store.Key{Caller: "10001|app:aa", Provider: "com.example.app", RequestID: id},
		Binding: store.NewBinding("create_alert", []byte(args)), Now: t0, ExpiresAt: t0.Add(24 * time.Hour)}
}

func success(data string) store.TxFunc {
	return func(context.Context, store.Tx) (store.Outcome, error) {
		return store.Outcome{Data: []byte(data)}, nil
	}
}

// Run runs the contract against stores made by open.
func Run(t *testing.T, open Open) {
	t.Run("execute then replay", func(t *testing.T) { executeReplay(t, open(t)) })
	t.Run("binding mismatch", func(t *testing.T) { bindingMismatch(t, open(t)) })
	t.Run("failed fn stores nothing", func(t *testing.T) { rollback(t, open(t)) })
	t.Run("expired record is replaced", func(t *testing.T) { expiry(t, open(t)) })
	t.Run("concurrent attempts run once", func(t *testing.T) { concurrent(t, open(t)) })
	t.Run("tokens", func(t *testing.T) { tokens(t, open(t)) })
	t.Run("token use is part of the attempt", func(t *testing.T) { tokenInAttempt(t, open(t)) })
	t.Run("purge", func(t *testing.T) { purge(t, open(t)) })
	runOperations(t, open)
}

func executeReplay(t *testing.T, s store.Store) {
	a := attempt("r1", `{"a":1}`)
	if _, err := s.Lookup(ctx, a.Key, t0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Lookup on empty store: %v", err)
	}
	rec, ran, err := s.Execute(ctx, a, success(`{"kind":"inline","value":1}`))
	if err != nil || !ran || rec.State != store.StateSucceeded {
		t.Fatalf("Execute = %+v, %v, %v", rec, ran, err)
	}
	rec2, ran, err := s.Execute(ctx, a, func(context.Context, store.Tx) (store.Outcome, error) {
		t.Fatal("fn ran for a stored key")
		return store.Outcome{}, nil
	})
	if err != nil || ran || string(rec2.Outcome.Data) != `{"kind":"inline","value":1}` {
		t.Fatalf("replay = %+v, %v, %v", rec2, ran, err)
	}
	got, err := s.Lookup(ctx, a.Key, t0)
	if err != nil || got.Binding != a.Binding || !got.ExpiresAt.Equal(a.ExpiresAt) {
		t.Fatalf("Lookup = %+v, %v", got, err)
	}
	fail := attempt("r2", `{}`)
	rec, _, err = s.Execute(ctx, fail, func(context.Context, store.Tx) (store.Outcome, error) {
		return store.Outcome{ErrorCode: "CONFLICT", ErrorMessage: "exists", ErrorDetails: []byte(`{"k":1}`)}, nil
	})
	if err != nil || rec.State != store.StateFailed {
		t.Fatalf("failed outcome: %+v, %v", rec, err)
	}
	got, _ = s.Lookup(ctx, fail.Key, t0)
	if got.Outcome.ErrorCode != "CONFLICT" || string(got.Outcome.ErrorDetails) != `{"k":1}` {
		t.Fatalf("stored failure = %+v", got.Outcome)
	}
}

func bindingMismatch(t *testing.T, s store.Store) {
	s.Execute(ctx, attempt("r1", `{"a":1}`), success(`{}`))
	_, _, err := s.Execute(ctx, attempt("r1", `{"a":2}`), success(`{}`))
	if !errors.Is(err, store.ErrBindingMismatch) {
		t.Fatalf("other args: %v", err)
	}
}

func rollback(t *testing.T, s store.Store) {
	a := attempt("r1", `{}`)
	boom := errors.New("boom")
	if _, _, err := s.Execute(ctx, a, func(context.Context, store.Tx) (store.Outcome, error) { return store.Outcome{}, boom }); !errors.Is(err, boom) {
		t.Fatalf("fn error not returned: %v", err)
	}
	if _, err := s.Lookup(ctx, a.Key, t0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("failed attempt left a record: %v", err)
	}
	if _, ran, err := s.Execute(ctx, a, success(`{}`)); err != nil || !ran {
		t.Fatalf("retry after a failed attempt: %v %v", ran, err)
	}
}

func expiry(t *testing.T, s store.Store) {
	a := attempt("r1", `{}`)
	s.Execute(ctx, a, success(`{"n":1}`))
	later := a
	later.Now = a.ExpiresAt
	later.ExpiresAt = later.Now.Add(time.Hour)
	later.Binding = store.NewBinding("create_alert", []byte(`{"other":true}`))
	if _, err := s.Lookup(ctx, a.Key, later.Now); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("expired record still found: %v", err)
	}
	rec, ran, err := s.Execute(ctx, later, success(`{"n":2}`))
	if err != nil || !ran || string(rec.Outcome.Data) != `{"n":2}` {
		t.Fatalf("execute after expiry = %+v %v %v", rec, ran, err)
	}
}

func concurrent(t *testing.T, s store.Store) {
	a := attempt("r1", `{}`)
	var runs atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec, _, err := s.Execute(ctx, a, func(context.Context, store.Tx) (store.Outcome, error) {
				runs.Add(1)
				return store.Outcome{Data: []byte(`{"once":true}`)}, nil
			})
			if err != nil || string(rec.Outcome.Data) != `{"once":true}` {
				t.Errorf("concurrent Execute = %+v, %v", rec, err)
			}
		}()
	}
	wg.Wait()
	if runs.Load() != 1 {
		t.Fatalf("fn ran %d times", runs.Load())
	}
}

func newToken(hash byte, id string, d store.Decision) store.Token {
	a := attempt("r1", `{}`)
	return store.Token{Hash: store.Digest{hash}, ID: id, Kind: store.TokenConfirm, Key: a.Key, Binding: a.Binding,
		Args: []byte(`{}`), Decision: d, ExpiresAt: t0.Add(10 * time.Minute)}
}

func tokens(t *testing.T, s store.Store) {
	tok := newToken(1, "cf-1", store.DecisionPending)
	if err := s.CreateToken(ctx, tok); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateToken(ctx, tok); err == nil {
		t.Fatal("duplicate token accepted")
	}
	got, err := s.TokenByID(ctx, "cf-1")
	if err != nil || got.Hash != tok.Hash || got.Key != tok.Key || got.Binding != tok.Binding || string(got.Args) != `{}` || got.Decision != store.DecisionPending {
		t.Fatalf("TokenByID = %+v, %v", got, err)
	}
	use := store.TokenUse{Hash: tok.Hash, Decision: store.DecisionApproved, Now: t0}
	if err := s.ConsumeToken(ctx, use); !errors.Is(err, store.ErrTokenUnusable) {
		t.Fatalf("pending token consumed as approved: %v", err)
	}
	if err := s.Decide(ctx, "cf-1", store.DecisionApproved, t0.Add(11*time.Minute)); !errors.Is(err, store.ErrTokenUnusable) {
		t.Fatalf("expired token decided: %v", err)
	}
	if err := s.Decide(ctx, "cf-1", store.DecisionApproved, t0); err != nil {
		t.Fatal(err)
	}
	if err := s.Decide(ctx, "cf-1", store.DecisionDenied, t0); !errors.Is(err, store.ErrTokenUnusable) {
		t.Fatalf("decision changed twice: %v", err)
	}
	if err := s.ConsumeToken(ctx, use); err != nil {
		t.Fatal(err)
	}
	if err := s.ConsumeToken(ctx, use); !errors.Is(err, store.ErrTokenUnusable) {
		t.Fatalf("token used twice: %v", err)
	}
	if got, _ := s.TokenByHash(ctx, tok.Hash); !got.Used {
		t.Fatal("used flag not stored")
	}
	if _, err := s.TokenByHash(ctx, store.Digest{9}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown hash: %v", err)
	}
}

func tokenInAttempt(t *testing.T, s store.Store) {
	tok := newToken(2, "cf-2", store.DecisionApproved)
	s.CreateToken(ctx, tok)
	a := attempt("r1", `{}`)
	a.Token = &store.TokenUse{Hash: tok.Hash, Decision: store.DecisionApproved, Now: t0}
	boom := errors.New("boom")
	s.Execute(ctx, a, func(context.Context, store.Tx) (store.Outcome, error) { return store.Outcome{}, boom })
	if got, _ := s.TokenByHash(ctx, tok.Hash); got.Used {
		t.Fatal("a rolled-back attempt used the token")
	}
	if _, ran, err := s.Execute(ctx, a, success(`{}`)); err != nil || !ran {
		t.Fatalf("attempt with token: %v %v", ran, err)
	}
	if got, _ := s.TokenByHash(ctx, tok.Hash); !got.Used {
		t.Fatal("committed attempt did not use the token")
	}
	b := attempt("r2", `{}`)
	b.Token = a.Token
	if _, _, err := s.Execute(ctx, b, success(`{}`)); !errors.Is(err, store.ErrTokenUnusable) {
		t.Fatalf("used token accepted by another attempt: %v", err)
	}
	if _, err := s.Lookup(ctx, b.Key, t0); !errors.Is(err, store.ErrNotFound) {
		t.Fatal("attempt with an unusable token stored a record")
	}
}

func purge(t *testing.T, s store.Store) {
	s.Execute(ctx, attempt("r1", `{}`), success(`{}`))
	s.CreateToken(ctx, newToken(3, "cf-3", store.DecisionPending))
	n, err := s.Purge(ctx, t0.Add(time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("purge at +1h removed %d (%v), want the token only", n, err)
	}
	n, err = s.Purge(ctx, t0.Add(25*time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("purge at +25h removed %d (%v), want the record", n, err)
	}
}
