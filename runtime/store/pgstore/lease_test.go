package pgstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore/pgtest"
)

// openLeased returns two stores (two processes) on one fresh schema with
// the given lease.
func openLeased(t *testing.T, lease time.Duration) (*pgstore.Store, *pgstore.Store) {
	t.Helper()
	dsn := pgtest.Schema(t)
	open := func() *pgstore.Store {
		st, err := pgstore.Open(ctx, dsn, pgstore.Options{Lease: lease})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	return open(), open()
}

func acquire(t *testing.T, st *pgstore.Store, key store.Key, owner string, want bool) store.Lease {
	t.Helper()
	l, ok, err := st.AcquireOperation(ctx, key, owner)
	if err != nil || ok != want {
		t.Fatalf("AcquireOperation by %s = %+v, %v, %v; want ok %v", owner, l, ok, err, want)
	}
	return l
}

func stateOf(t *testing.T, st *pgstore.Store, key store.Key) store.State {
	t.Helper()
	rec, err := st.Get(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	return rec.State
}

// awaitLapse waits until the operation's lease has lapsed: Get reports it
// queued and it is listed as unleased.
func awaitLapse(t *testing.T, st *pgstore.Store, key store.Key) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		recs, err := st.UnleasedOperations(ctx, key.Provider, 10)
		if err == nil && len(recs) == 1 && recs[0].Key == key && stateOf(t, st, key) == store.StateQueued {
			return
		}
	}
	t.Fatal("the lease never lapsed")
}

// TestLeaseLifecycle proves the lease contract on two stores: a held
// lease excludes the other process and shows the operation running; a
// lapsed one shows it queued, lists it and lets the other take it over
// with a greater epoch; the former holder can then neither renew nor
// commit, and nothing of its run is stored; the new holder commits, and
// the ended operation has no lease to take.
func TestLeaseLifecycle(t *testing.T) {
	a, b := openLeased(t, 300*time.Millisecond)
	at := attempt("op", time.Now())
	if _, _, err := a.Accept(ctx, at, "op_1"); err != nil {
		t.Fatal(err)
	}
	first := acquire(t, a, at.Key, "a", true)
	acquire(t, b, at.Key, "b", false)
	if s := stateOf(t, b, at.Key); s != store.StateRunning {
		t.Fatalf("state under a live lease = %s", s)
	}
	if err := a.RenewOperation(ctx, at.Key, first); err != nil {
		t.Fatal(err)
	}
	awaitLapse(t, b, at.Key)
	second := acquire(t, b, at.Key, "b", true)
	if second.Epoch <= first.Epoch {
		t.Fatalf("takeover epoch %d, former %d", second.Epoch, first.Epoch)
	}
	if err := a.RenewOperation(ctx, at.Key, first); !errors.Is(err, store.ErrLeaseLost) {
		t.Fatalf("renewal of the lost lease: %v", err)
	}
	if _, _, err := a.RunLeased(ctx, at.Key, first, time.Now().Add(time.Hour), succeed(`{"by":"a"}`)); !errors.Is(err, store.ErrLeaseLost) {
		t.Fatalf("run under the lost lease: %v", err)
	}
	rec, ran, err := b.RunLeased(ctx, at.Key, second, time.Now().Add(time.Hour), succeed(`{"by":"b"}`))
	if err != nil || !ran || string(rec.Outcome.Data) != `{"by":"b"}` {
		t.Fatalf("run of the new holder = %+v, %v, %v", rec, ran, err)
	}
	acquire(t, a, at.Key, "a", false)
	if n := count(t, a, `SELECT COUNT(*) FROM cetp_leases`); n != 0 {
		t.Fatalf("%d leases left after the end", n)
	}
}

// TestLeaseRelease proves that a released operation is queued and free at
// once, and that a release under a lease that is no longer the
// operation's does nothing.
func TestLeaseRelease(t *testing.T) {
	a, b := openLeased(t, time.Hour)
	at := attempt("op", time.Now())
	if _, _, err := a.Accept(ctx, at, "op_1"); err != nil {
		t.Fatal(err)
	}
	l := acquire(t, a, at.Key, "a", true)
	if err := a.ReleaseOperation(ctx, at.Key, l); err != nil {
		t.Fatal(err)
	}
	if s := stateOf(t, b, at.Key); s != store.StateQueued {
		t.Fatalf("state after release = %s", s)
	}
	if recs, err := b.UnleasedOperations(ctx, "p", 10); err != nil || len(recs) != 1 {
		t.Fatalf("unleased after release = %v, %v", recs, err)
	}
	acquire(t, b, at.Key, "b", true)
	if err := a.ReleaseOperation(ctx, at.Key, l); err != nil {
		t.Fatal(err)
	}
	if s := stateOf(t, b, at.Key); s != store.StateRunning {
		t.Fatalf("a stale release changed the state to %s", s)
	}
}

// TestTakeoverEndsFormerTransaction proves that a takeover terminates the
// transaction of a former holder that still holds the operation's row
// (a process that hangs inside its handler): the new holder's run does
// not wait for it, and the former run fails as a store fault or a lost
// lease, storing nothing.
func TestTakeoverEndsFormerTransaction(t *testing.T) {
	a, b := openLeased(t, 300*time.Millisecond)
	at := attempt("op", time.Now())
	if _, _, err := a.Accept(ctx, at, "op_1"); err != nil {
		t.Fatal(err)
	}
	first := acquire(t, a, at.Key, "a", true)
	inside, resume := make(chan struct{}), make(chan struct{})
	former := make(chan error, 1)
	go func() {
		_, _, err := a.RunLeased(ctx, at.Key, first, time.Now().Add(time.Hour), func(ctx context.Context, tx store.Tx) (store.Outcome, error) {
			close(inside)
			<-resume
			if _, err := tx.ExecContext(ctx, `SELECT 1`); err != nil {
				return store.Outcome{}, err
			}
			return store.Outcome{Data: []byte(`{"by":"a"}`)}, nil
		})
		former <- err
	}()
	<-inside
	awaitLapse(t, b, at.Key)
	second := acquire(t, b, at.Key, "b", true)
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	rec, ran, err := b.RunLeased(rctx, at.Key, second, time.Now().Add(time.Hour), succeed(`{"by":"b"}`))
	if err != nil || !ran {
		t.Fatalf("the new holder's run = %v, %v (waited for the former one?)", ran, err)
	}
	close(resume)
	if err := <-former; !errors.Is(err, store.ErrUnavailable) && !errors.Is(err, store.ErrLeaseLost) {
		t.Fatalf("the former holder's run: %v", err)
	}
	if got, _ := b.Get(ctx, at.Key); string(got.Outcome.Data) != string(rec.Outcome.Data) {
		t.Fatalf("stored %s, want the new holder's %s", got.Outcome.Data, rec.Outcome.Data)
	}
}

// TestFaultIsUnavailable proves that a terminated connection inside an
// attempt is reported as store.ErrUnavailable with a retry delay, and
// that a statement error of the handler is not.
func TestFaultIsUnavailable(t *testing.T) {
	st := pgtest.Open(t)
	_, _, err := st.Execute(ctx, attempt("killed", time.Now()), func(ctx context.Context, tx store.Tx) (store.Outcome, error) {
		_, err := tx.ExecContext(ctx, `SELECT pg_terminate_backend(pg_backend_pid())`)
		return store.Outcome{}, err
	})
	if d, ok := store.FaultRetryAfter(err); !errors.Is(err, store.ErrUnavailable) || !ok || d <= 0 {
		t.Fatalf("terminated connection: %v", err)
	}
	_, _, err = st.Execute(ctx, attempt("bad", time.Now()), func(ctx context.Context, tx store.Tx) (store.Outcome, error) {
		_, err := tx.ExecContext(ctx, `SELECT * FROM no_such_table`)
		return store.Outcome{}, err
	})
	if err == nil || errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("a bad statement: %v", err)
	}
	if _, ran, err := st.Execute(ctx, attempt("killed", time.Now()), succeed(`{}`)); err != nil || !ran {
		t.Fatalf("retry after the fault: %v, %v", ran, err)
	}
}
