package pgstore_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore/pgtest"
)

// TestUpgradeFromVersion1 proves that Open upgrades a database of schema
// version 1 that holds records and tokens: the old rows read as before,
// and operations and cancellation requests work on the upgraded schema.
func TestUpgradeFromVersion1(t *testing.T) {
	dsn := pgtest.Schema(t)
	now := time.Now()
	old := attempt("old", now)
	version1(t, dsn, old)
	st := pgtest.OpenDSN(t, dsn)
	if v := count(t, st, `SELECT MAX(version) FROM cetp_schema_version`); v != len(pgstore.Migrations) {
		t.Fatalf("schema version %d after Open, want %d", v, len(pgstore.Migrations))
	}
	rec, err := st.Lookup(ctx, old.Key, now)
	if err != nil || string(rec.Outcome.Data) != `{"v":1}` || rec.OperationID != "" || rec.Request != nil {
		t.Fatalf("version 1 record after the upgrade = %+v, %v", rec, err)
	}
	a := attempt("new", now)
	a.Request = []byte(`{"run":1}`)
	if _, created, err := st.Accept(ctx, a, "op_new"); err != nil || !created {
		t.Fatalf("Accept on the upgraded schema: %v %v", created, err)
	}
	if err := st.RequestCancel(ctx, a.Key); err != nil {
		t.Fatal(err)
	}
	pending, err := st.PendingOperations(ctx, a.Key.Provider)
	if err != nil || len(pending) != 1 || string(pending[0].Request) != `{"run":1}` {
		t.Fatalf("PendingOperations = %+v, %v", pending, err)
	}
}

// version1 creates the schema of version 1 on dsn, as the first runtime
// did, with one record of a.
func version1(t *testing.T, dsn string, a store.Attempt) {
	t.Helper()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE TABLE cetp_schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
		pgstore.Migrations[0],
		`INSERT INTO cetp_schema_version (version) VALUES (1)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("version 1 schema: %v", err)
		}
	}
	k := a.Key
	if _, err := db.Exec(`INSERT INTO cetp_dedup (caller, provider, request_id, tool, args_digest, state, outcome, created_ms, expires_ms)
VALUES ($1, $2, $3, $4, $5, 'succeeded', '{"data":{"v":1}}', $6, $7)`, k.Caller, k.Provider, k.RequestID,
		a.Binding.Tool, a.Binding.ArgsDigest[:], a.Now.UnixMilli(), a.ExpiresAt.UnixMilli()); err != nil {
		t.Fatalf("version 1 record: %v", err)
	}
}

// TestRequestCancelDoesNotWait proves that a cancellation request commits
// while another transaction holds the operation's row, as a running
// operation does, and that a new operation on the key does not inherit an
// old request.
func TestRequestCancelDoesNotWait(t *testing.T) {
	st := pgtest.Open(t)
	now := time.Now()
	a := attempt("op", now)
	if _, _, err := st.Accept(ctx, a, "op_1"); err != nil {
		t.Fatal(err)
	}
	held, err := st.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Rollback()
	if _, err := held.Exec(`SELECT 1 FROM cetp_dedup WHERE request_id = 'op' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	if err := st.RequestCancel(ctxTimeout(t, 2*time.Second), a.Key); err != nil {
		t.Fatalf("RequestCancel while the row is held: %v", err)
	}
	held.Rollback()
	if _, _, err := st.FinishOperation(ctx, a.Key, now, store.Outcome{ErrorCode: store.CodeCancelled}); err != nil {
		t.Fatal(err)
	}
	b := attempt("op", now.Add(time.Second)) // the cancelled record has expired
	if _, created, err := st.Accept(ctx, b, "op_2"); err != nil || !created {
		t.Fatalf("Accept over the expired record: %v %v", created, err)
	}
	if ok, err := st.CancelRequested(ctx, b.Key); err != nil || ok {
		t.Fatalf("the new operation inherited the old cancel request: %v %v", ok, err)
	}
}

func ctxTimeout(t *testing.T, d time.Duration) context.Context {
	c, cancel := context.WithTimeout(ctx, d)
	t.Cleanup(cancel)
	return c
}

// TestRetryDoesNotWaitForRun proves that Accept and Execute on the key of
// an operation that is running (its row locked by RunOperation) serve the
// committed record at once rather than wait for the run to end: a retry
// of the request while the operation runs is answered with the operation.
func TestRetryDoesNotWaitForRun(t *testing.T) {
	st := pgtest.Open(t)
	now := time.Now()
	a := attempt("op", now)
	if _, _, err := st.Accept(ctx, a, "op_1"); err != nil {
		t.Fatal(err)
	}
	_, _, err := st.RunOperation(ctx, a.Key, now.Add(time.Hour), func(context.Context, store.Tx) (store.Outcome, error) {
		rec, created, err := st.Accept(ctxTimeout(t, 2*time.Second), a, "op_2")
		if err != nil || created || rec.OperationID != "op_1" {
			t.Errorf("Accept during the run = %+v, %v, %v", rec, created, err)
		}
		rec, ran, err := st.Execute(ctxTimeout(t, 2*time.Second), a, succeed(`{}`))
		if err != nil || ran || rec.OperationID != "op_1" || rec.State.Terminal() {
			t.Errorf("Execute during the run = %+v, %v, %v", rec, ran, err)
		}
		return store.Outcome{Data: []byte(`{}`)}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
