package pgstore_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore/pgtest"
	"github.com/cetpgen/cetpgen/runtime/store/storetest"
)

var ctx = context.Background()

// TestPostgresAvailable is the one test of this package that fails, with
// the command to run, when no test database is configured.
func TestPostgresAvailable(t *testing.T) { pgtest.Require(t) }

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return pgtest.Open(t) })
}

// TestShared runs the shared-database contract on two stores (two
// connection pools) on one schema.
func TestShared(t *testing.T) {
	storetest.RunShared(t, func(t *testing.T) (store.Store, store.Store) {
		dsn := pgtest.Schema(t)
		return pgtest.OpenDSN(t, dsn), pgtest.OpenDSN(t, dsn)
	})
}

func attempt(id string, now time.Time) store.Attempt {
	return store.Attempt{Key: store.Key{Caller: "c", Provider: "p", RequestID: id}, Binding: store.NewBinding("t", []byte(`{}`)),
		Now: now, ExpiresAt: now.Add(time.Hour)}
}

func succeed(data string) store.TxFunc {
	return func(context.Context, store.Tx) (store.Outcome, error) {
		return store.Outcome{Data: []byte(data)}, nil
	}
}

// TestConcurrentOpen starts eight stores on one empty schema at once and
// proves the migrations ran once, each step recorded once.
func TestConcurrentOpen(t *testing.T) {
	dsn := pgtest.Schema(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := pgstore.Open(ctx, dsn, pgstore.Options{MaxConns: 2})
			if err != nil {
				t.Error(err)
				return
			}
			st.Close()
		}()
	}
	wg.Wait()
	st := pgtest.OpenDSN(t, dsn)
	var rows, max int
	if err := st.DB().QueryRow(`SELECT COUNT(*), MAX(version) FROM cetp_schema_version`).Scan(&rows, &max); err != nil || rows != max || rows < 1 {
		t.Fatalf("schema versions: %d rows, max %d (%v)", rows, max, err)
	}
}

// TestNewerSchemaRefused proves that a database migrated by a newer
// runtime is not misread.
func TestNewerSchemaRefused(t *testing.T) {
	dsn := pgtest.Schema(t)
	st := pgtest.OpenDSN(t, dsn)
	if _, err := st.DB().Exec(`INSERT INTO cetp_schema_version (version) VALUES (99)`); err != nil {
		t.Fatal(err)
	}
	if s, err := pgstore.Open(ctx, dsn, pgstore.Options{}); err == nil {
		s.Close()
		t.Fatal("opened a database of schema version 99")
	}
}

// TestReopen proves records survive closing the store and opening it again.
func TestReopen(t *testing.T) {
	dsn := pgtest.Schema(t)
	now := time.Now()
	a := attempt("r", now)
	st := pgtest.OpenDSN(t, dsn)
	if _, _, err := st.Execute(ctx, a, succeed(`{"x":1}`)); err != nil {
		t.Fatal(err)
	}
	st.Close()
	rec, err := pgtest.OpenDSN(t, dsn).Lookup(ctx, a.Key, now)
	if err != nil || string(rec.Outcome.Data) != `{"x":1}` || rec.State != store.StateSucceeded {
		t.Fatalf("after reopen: %+v, %v", rec, err)
	}
}

// TestBusinessChangeInTransaction proves the handler's statements commit
// with the record, and roll back with it when the handler fails after
// writing.
func TestBusinessChangeInTransaction(t *testing.T) {
	st := pgtest.Open(t)
	if _, err := st.DB().Exec(`CREATE TABLE alerts (request_id text PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	insert := func(fail error) store.TxFunc {
		return func(ctx context.Context, tx store.Tx) (store.Outcome, error) {
			if _, err := tx.ExecContext(ctx, `INSERT INTO alerts (request_id) VALUES ($1)`, "r1"); err != nil {
				return store.Outcome{}, err
			}
			return store.Outcome{Data: []byte(`{}`)}, fail
		}
	}
	now := time.Now()
	boom := errors.New("boom")
	if _, _, err := st.Execute(ctx, attempt("r1", now), insert(boom)); !errors.Is(err, boom) {
		t.Fatalf("failing handler: %v", err)
	}
	if n := count(t, st, `SELECT COUNT(*) FROM alerts`); n != 0 {
		t.Fatalf("a rolled-back attempt left %d business rows", n)
	}
	if _, ran, err := st.Execute(ctx, attempt("r1", now), insert(nil)); err != nil || !ran {
		t.Fatalf("retry: %v %v", ran, err)
	}
	if n := count(t, st, `SELECT COUNT(*) FROM alerts`); n != 1 {
		t.Fatalf("business rows = %d, want 1", n)
	}
}

func count(t *testing.T, st *pgstore.Store, query string) int {
	t.Helper()
	var n int
	if err := st.DB().QueryRow(query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPurgeBatches proves Purge deletes more rows than one batch, and
// skips, without waiting, a record that an attempt holds locked.
func TestPurgeBatches(t *testing.T) {
	dsn := pgtest.Schema(t)
	st, err := pgstore.Open(ctx, dsn, pgstore.Options{PurgeBatch: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.DB().Exec(`INSERT INTO cetp_dedup (caller, provider, request_id, tool, args_digest, state, outcome, created_ms, expires_ms)
SELECT 'c', 'p', 'old-' || i, 't', '\x00', 'succeeded', '{}', 0, 1 FROM generate_series(1, 1050) AS i`); err != nil {
		t.Fatal(err)
	}
	held, err := st.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Rollback()
	if _, err := held.Exec(`SELECT 1 FROM cetp_dedup WHERE request_id = 'old-7' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	n, err := st.Purge(pctx, time.UnixMilli(2))
	if err != nil || n != 1049 {
		t.Fatalf("Purge = %d, %v; want 1049 (all but the locked row)", n, err)
	}
	held.Rollback()
	if n, err := st.Purge(ctx, time.UnixMilli(2)); err != nil || n != 1 {
		t.Fatalf("second Purge = %d, %v; want the formerly locked row", n, err)
	}
}
