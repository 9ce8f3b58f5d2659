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

// runOperations runs the part of the contract about asynchronous
// operations.
func runOperations(t *testing.T, open Open) {
	t.Run("accept then replay", func(t *testing.T) { acceptReplay(t, open(t)) })
	t.Run("operation lifecycle", func(t *testing.T) { lifecycle(t, open(t)) })
	t.Run("failed run leaves the operation", func(t *testing.T) { runRollback(t, open(t)) })
	t.Run("finish without running", func(t *testing.T) { finish(t, open(t)) })
	t.Run("concurrent runs run once", func(t *testing.T) { concurrentRuns(t, open(t)) })
	t.Run("cancel requests", func(t *testing.T) { cancelRequests(t, open(t)) })
	t.Run("pending operations", func(t *testing.T) { pending(t, open(t)) })
	t.Run("accept uses the token", func(t *testing.T) { acceptToken(t, open(t)) })
	t.Run("purge keeps running operations", func(t *testing.T) { purgeOperations(t, open(t)) })
	t.Run("file results round-trip", func(t *testing.T) { fileOutcome(t, open(t)) })
	t.Run("reads never wait for a run", func(t *testing.T) { readsDuringRun(t, open(t)) })
	t.Run("progress", func(t *testing.T) { progress(t, open(t)) })
}

// progress checks that SetProgress keeps the latest progress, that it
// answers while RunOperation holds the record, and that the end of the
// operation drops it.
func progress(t *testing.T, s store.Store) {
	a := attempt("r1", `{}`)
	mustAccept(t, s, a, "op_1")
	if p, err := s.Progress(ctx, a.Key); err != nil || p != nil {
		t.Fatalf("Progress before any = %s, %v", p, err)
	}
	s.RunOperation(ctx, a.Key, t0.Add(time.Hour), func(context.Context, store.Tx) (store.Outcome, error) {
		short, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		for _, p := range []string{`{"current":1}`, `{"current":2}`} {
			if err := s.SetProgress(short, a.Key, []byte(p)); err != nil {
				t.Errorf("SetProgress during the run: %v", err)
			}
		}
		if p, err := s.Progress(short, a.Key); err != nil || string(p) != `{"current":2}` {
			t.Errorf("Progress during the run = %s, %v", p, err)
		}
		return store.Outcome{Data: []byte(`{}`)}, nil
	})
	if p, _ := s.Progress(ctx, a.Key); p != nil {
		t.Fatalf("progress kept after the end: %s", p)
	}
}

// readsDuringRun checks that Lookup and Get answer while RunOperation
// holds the record, within a short timeout.
func readsDuringRun(t *testing.T, s store.Store) {
	a := attempt("r1", `{}`)
	mustAccept(t, s, a, "op_1")
	s.RunOperation(ctx, a.Key, t0.Add(time.Hour), func(context.Context, store.Tx) (store.Outcome, error) {
		short, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		if rec, err := s.Lookup(short, a.Key, t0); err != nil || rec.State.Terminal() {
			t.Errorf("Lookup during the run = %+v, %v", rec, err)
		}
		if rec, err := s.Get(short, a.Key); err != nil || rec.OperationID != "op_1" {
			t.Errorf("Get during the run = %+v, %v", rec, err)
		}
		return store.Outcome{Data: []byte(`{}`)}, nil
	})
}

func mustAccept(t *testing.T, s store.Store, a store.Attempt, id string) store.Record {
	t.Helper()
	rec, created, err := s.Accept(ctx, a, id)
	if err != nil || !created || rec.State != store.StateQueued || rec.OperationID != id {
		t.Fatalf("Accept = %+v, %v, %v", rec, created, err)
	}
	return rec
}

func acceptReplay(t *testing.T, s store.Store) {
	a := attempt("r1", `{"a":1}`)
	a.Request = []byte(`{"caller":1,"args":{"a":1}}`)
	mustAccept(t, s, a, "op_1")
	if got, err := s.Get(ctx, a.Key); err != nil || string(got.Request) != string(a.Request) {
		t.Fatalf("Accept did not store the request: %+v, %v", got, err)
	}
	rec, created, err := s.Accept(ctx, a, "op_2")
	if err != nil || created || rec.OperationID != "op_1" {
		t.Fatalf("second Accept = %+v, %v, %v", rec, created, err)
	}
	if _, _, err := s.Accept(ctx, attempt("r1", `{"a":2}`), "op_3"); !errors.Is(err, store.ErrBindingMismatch) {
		t.Fatalf("Accept with other args: %v", err)
	}
	rec, ran, err := s.Execute(ctx, a, func(context.Context, store.Tx) (store.Outcome, error) {
		t.Fatal("Execute ran fn over a queued operation")
		return store.Outcome{}, nil
	})
	if err != nil || ran || rec.OperationID != "op_1" || rec.State != store.StateQueued {
		t.Fatalf("Execute over an operation = %+v, %v, %v", rec, ran, err)
	}
	got, err := s.Lookup(ctx, a.Key, t0)
	if err != nil || got.OperationID != "op_1" || got.Binding != a.Binding {
		t.Fatalf("Lookup = %+v, %v", got, err)
	}
}

func lifecycle(t *testing.T, s store.Store) {
	a := attempt("r1", `{}`)
	mustAccept(t, s, a, "op_1")
	if err := s.MarkRunning(ctx, a.Key); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Get(ctx, a.Key); got.State != store.StateRunning {
		t.Fatalf("after MarkRunning: %+v", got)
	}
	exp := t0.Add(48 * time.Hour)
	rec, ran, err := s.RunOperation(ctx, a.Key, exp, success(`{"kind":"inline","value":2}`))
	if err != nil || !ran || rec.State != store.StateSucceeded || !rec.ExpiresAt.Equal(exp) || rec.OperationID != "op_1" {
		t.Fatalf("RunOperation = %+v, %v, %v", rec, ran, err)
	}
	if err := s.MarkRunning(ctx, a.Key); err != nil {
		t.Fatal(err)
	}
	rec, ran, err = s.RunOperation(ctx, a.Key, exp, func(context.Context, store.Tx) (store.Outcome, error) {
		t.Fatal("RunOperation ran fn for a terminal operation")
		return store.Outcome{}, nil
	})
	if err != nil || ran || rec.State != store.StateSucceeded || string(rec.Outcome.Data) != `{"kind":"inline","value":2}` {
		t.Fatalf("second RunOperation = %+v, %v, %v", rec, ran, err)
	}
	if got, err := s.Get(ctx, a.Key); err != nil || got.State != store.StateSucceeded || !got.ExpiresAt.Equal(exp) {
		t.Fatalf("Get after the run = %+v, %v", got, err)
	}
	if got, err := s.Get(ctx, a.Key); err != nil || got.OperationID != "op_1" {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	if _, err := s.Get(ctx, attempt("r9", `{}`).Key); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Get of an unknown key: %v", err)
	}
}

func runRollback(t *testing.T, s store.Store) {
	a := attempt("r1", `{}`)
	mustAccept(t, s, a, "op_1")
	boom := errors.New("boom")
	_, _, err := s.RunOperation(ctx, a.Key, t0.Add(time.Hour), func(context.Context, store.Tx) (store.Outcome, error) {
		return store.Outcome{}, boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("fn error not returned: %v", err)
	}
	if got, _ := s.Get(ctx, a.Key); got.State != store.StateQueued {
		t.Fatalf("a failed run changed the record: %+v", got)
	}
	if _, err := s.Get(ctx, a.Key); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.RunOperation(ctx, attempt("r2", `{}`).Key, t0, success(`{}`)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("RunOperation of an unknown key: %v", err)
	}
}

func finish(t *testing.T, s store.Store) {
	a := attempt("r1", `{}`)
	mustAccept(t, s, a, "op_1")
	out := store.Outcome{ErrorCode: store.CodeCancelled, ErrorMessage: "cancelled"}
	rec, done, err := s.FinishOperation(ctx, a.Key, t0.Add(time.Hour), out)
	if err != nil || !done || rec.State != store.StateCancelled {
		t.Fatalf("FinishOperation = %+v, %v, %v", rec, done, err)
	}
	rec, done, err = s.FinishOperation(ctx, a.Key, t0.Add(time.Hour), store.Outcome{Data: []byte(`{}`)})
	if err != nil || done || rec.State != store.StateCancelled {
		t.Fatalf("second FinishOperation = %+v, %v, %v", rec, done, err)
	}
	if _, ran, err := s.RunOperation(ctx, a.Key, t0, success(`{}`)); err != nil || ran {
		t.Fatalf("RunOperation after finish: %v %v", ran, err)
	}
}

func concurrentRuns(t *testing.T, s store.Store) {
	a := attempt("r1", `{}`)
	mustAccept(t, s, a, "op_1")
	var runs atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec, _, err := s.RunOperation(ctx, a.Key, t0.Add(time.Hour), func(context.Context, store.Tx) (store.Outcome, error) {
				runs.Add(1)
				return store.Outcome{Data: []byte(`{"once":true}`)}, nil
			})
			if err != nil || string(rec.Outcome.Data) != `{"once":true}` {
				t.Errorf("concurrent RunOperation = %+v, %v", rec, err)
			}
		}()
	}
	wg.Wait()
	if runs.Load() != 1 {
		t.Fatalf("fn ran %d times", runs.Load())
	}
}

func cancelRequests(t *testing.T, s store.Store) {
	a := attempt("r1", `{}`)
	mustAccept(t, s, a, "op_1")
	if ok, err := s.CancelRequested(ctx, a.Key); err != nil || ok {
		t.Fatalf("CancelRequested before any request: %v %v", ok, err)
	}
	for range 2 {
		if err := s.RequestCancel(ctx, a.Key); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := s.CancelRequested(ctx, a.Key); err != nil || !ok {
		t.Fatalf("CancelRequested after a request: %v %v", ok, err)
	}
	if ok, _ := s.CancelRequested(ctx, attempt("r2", `{}`).Key); ok {
		t.Fatal("a cancel request leaked to another key")
	}
}

func pending(t *testing.T, s store.Store) {
	for i, id := range []string{"r1", "r2", "r3"} {
		a := attempt(id, `{}`)
		a.Now = t0.Add(time.Duration(i) * time.Second)
		a.Request = []byte("op_" + id)
		mustAccept(t, s, a, "op_"+id)
	}
	other := attempt("r4", `{}`)
	other.Key.Provider = "com.example.other"
	mustAccept(t, s, other, "op_r4")
	s.MarkRunning(ctx, attempt("r2", `{}`).Key)
	s.RunOperation(ctx, attempt("r3", `{}`).Key, t0.Add(time.Hour), success(`{}`))
	got, err := s.PendingOperations(ctx, "com.example.app")
	if err != nil || len(got) != 2 || got[0].RequestID != "r1" || got[1].RequestID != "r2" || got[1].State != store.StateRunning {
		t.Fatalf("PendingOperations = %+v, %v", got, err)
	}
	if string(got[0].Request) != "op_r1" || got[0].OperationID != "op_r1" {
		t.Fatalf("PendingOperations lost the request: %+v", got[0])
	}
}

func acceptToken(t *testing.T, s store.Store) {
	tok := newToken(5, "cf-5", store.DecisionApproved)
	s.CreateToken(ctx, tok)
	a := attempt("r1", `{}`)
	a.Token = &store.TokenUse{Hash: tok.Hash, Decision: store.DecisionApproved, Now: t0}
	mustAccept(t, s, a, "op_1")
	if got, _ := s.TokenByHash(ctx, tok.Hash); !got.Used {
		t.Fatal("Accept did not use the token")
	}
	b := attempt("r2", `{}`)
	b.Token = a.Token
	if _, _, err := s.Accept(ctx, b, "op_2"); !errors.Is(err, store.ErrTokenUnusable) {
		t.Fatalf("used token accepted: %v", err)
	}
	if _, err := s.Get(ctx, b.Key); !errors.Is(err, store.ErrNotFound) {
		t.Fatal("Accept with an unusable token stored a record")
	}
}

func purgeOperations(t *testing.T, s store.Store) {
	queued, done := attempt("r1", `{}`), attempt("r2", `{}`)
	mustAccept(t, s, queued, "op_1")
	mustAccept(t, s, done, "op_2")
	s.RequestCancel(ctx, done.Key)
	s.FinishOperation(ctx, done.Key, t0.Add(time.Hour), store.Outcome{ErrorCode: store.CodeCancelled})
	if _, err := s.Purge(ctx, t0.Add(48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, queued.Key); err != nil {
		t.Fatalf("purge removed a queued operation: %v", err)
	}
	if _, err := s.Get(ctx, done.Key); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("purge kept an expired terminal operation: %v", err)
	}
	if ok, _ := s.CancelRequested(ctx, done.Key); ok {
		t.Fatal("purge kept the cancel request of a purged operation")
	}
}

func fileOutcome(t *testing.T, s store.Store) {
	a := attempt("r1", `{}`)
	out := store.Outcome{Data: []byte(`{"kind":"file","size_bytes":9}`), File: []byte(`{"big":1}`)}
	s.Execute(ctx, a, func(context.Context, store.Tx) (store.Outcome, error) { return out, nil })
	got, err := s.Lookup(ctx, a.Key, t0)
	if err != nil || string(got.Outcome.File) != `{"big":1}` || string(got.Outcome.Data) != string(out.Data) {
		t.Fatalf("file outcome = %+v, %v", got.Outcome, err)
	}
}
