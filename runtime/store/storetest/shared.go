package storetest

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"
)

// OpenShared returns two stores on one database, as two processes of a
// replicated Provider would open it.
type OpenShared func(t *testing.T) (store.Store, store.Store)

// RunShared runs the part of the contract that concerns stores sharing a
// database: what one commits the other sees, and concurrent attempts on one
// key spread over both run fn once.
func RunShared(t *testing.T, open OpenShared) {
	t.Run("records are visible to the other store", func(t *testing.T) { sharedVisible(t, open) })
	t.Run("concurrent attempts over both stores run once", func(t *testing.T) { sharedConcurrent(t, open) })
	t.Run("operations are visible to the other store", func(t *testing.T) { sharedOperations(t, open) })
}

// sharedOperations checks that the other store sees an operation and its
// cancel request while the first store's run holds the record: the
// request must not wait for that transaction.
func sharedOperations(t *testing.T, open OpenShared) {
	s1, s2 := open(t)
	a := attempt("op-shared", `{}`)
	if _, _, err := s1.Accept(ctx, a, "op_s"); err != nil {
		t.Fatal(err)
	}
	rec, ran, err := s1.RunOperation(ctx, a.Key, t0.Add(time.Hour), func(context.Context, store.Tx) (store.Outcome, error) {
		if err := s2.RequestCancel(ctx, a.Key); err != nil {
			return store.Outcome{}, err
		}
		if got, err := s2.Get(ctx, a.Key); err != nil || got.State.Terminal() {
			t.Errorf("the other store sees %+v, %v during the run", got, err)
		}
		if ok, err := s1.CancelRequested(ctx, a.Key); err != nil || !ok {
			t.Errorf("cancel request not visible during the run: %v %v", ok, err)
		}
		if err := s1.SetProgress(ctx, a.Key, []byte(`{"current":3}`)); err != nil {
			t.Errorf("SetProgress during the run: %v", err)
		}
		if p, err := s2.Progress(ctx, a.Key); err != nil || string(p) != `{"current":3}` {
			t.Errorf("progress not visible to the other store during the run: %s, %v", p, err)
		}
		return store.Outcome{ErrorCode: store.CodeCancelled}, nil
	})
	if err != nil || !ran || rec.State != store.StateCancelled {
		t.Fatalf("RunOperation = %+v, %v, %v", rec, ran, err)
	}
	if got, err := s2.PendingOperations(ctx, a.Key.Provider); err != nil || len(got) != 0 {
		t.Fatalf("pending after the run = %+v, %v", got, err)
	}
}

func sharedVisible(t *testing.T, open OpenShared) {
	s1, s2 := open(t)
	a := attempt("r1", `{}`)
	if _, ran, err := s1.Execute(ctx, a, success(`{"n":1}`)); err != nil || !ran {
		t.Fatalf("Execute on the first store: %v %v", ran, err)
	}
	rec, err := s2.Lookup(ctx, a.Key, t0)
	if err != nil || string(rec.Outcome.Data) != `{"n":1}` {
		t.Fatalf("Lookup on the second store = %+v, %v", rec, err)
	}
	if _, ran, err := s2.Execute(ctx, a, success(`{"n":2}`)); err != nil || ran {
		t.Fatalf("the second store ran a stored key: %v %v", ran, err)
	}
	tok := newToken(4, "cf-4", store.DecisionPending)
	if err := s1.CreateToken(ctx, tok); err != nil {
		t.Fatal(err)
	}
	if err := s2.Decide(ctx, "cf-4", store.DecisionApproved, t0); err != nil {
		t.Fatalf("Decide on the second store: %v", err)
	}
	if got, err := s1.TokenByID(ctx, "cf-4"); err != nil || got.Decision != store.DecisionApproved {
		t.Fatalf("decision not visible to the first store: %+v, %v", got, err)
	}
}

func sharedConcurrent(t *testing.T, open OpenShared) {
	s1, s2 := open(t)
	for round := range 8 {
		a := attempt(string(rune('a'+round)), `{}`)
		var runs atomic.Int64
		var wg sync.WaitGroup
		for i := range 32 {
			s := []store.Store{s1, s2}[i%2]
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
			t.Fatalf("round %d: fn ran %d times", round, runs.Load())
		}
	}
}
