package pgstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"
)

const (
	// markRunningSQL moves a queued operation to running; the state test
	// leaves any other record alone.
	markRunningSQL = `UPDATE cetp_dedup SET state = 'running'` + keyWhere + ` AND state = 'queued'`
	// endSQL stores the terminal state, outcome and expiry of an operation.
	endSQL = `UPDATE cetp_dedup SET state = $4, outcome = $5, expires_ms = $6` + keyWhere
	// pendingSQL lists a provider's operations that are not terminal, by
	// the partial index on (provider, created_ms).
	pendingSQL = `SELECT caller, request_id, ` + recordColumns + ` FROM cetp_dedup
WHERE provider = $1 AND operation_id IS NOT NULL AND state IN ('queued', 'running')
ORDER BY created_ms, caller, request_id`
	// requestCancelSQL records a cancellation request once. It touches
	// only cetp_cancels, so it never waits for the operation's row.
	requestCancelSQL = `INSERT INTO cetp_cancels (caller, provider, request_id, requested_ms)
VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`
	cancelRequestedSQL = `SELECT EXISTS (SELECT 1 FROM cetp_cancels` + keyWhere + `)`
	clearCancelSQL     = `DELETE FROM cetp_cancels` + keyWhere
	// setProgressSQL keeps the latest progress of an operation; it touches
	// only cetp_progress.
	setProgressSQL = `INSERT INTO cetp_progress (caller, provider, request_id, progress, updated_ms)
VALUES ($1, $2, $3, $4, $5) ON CONFLICT (caller, provider, request_id)
DO UPDATE SET progress = EXCLUDED.progress, updated_ms = EXCLUDED.updated_ms`
	progressSQL = `SELECT progress FROM cetp_progress` + keyWhere
	// getSQL is selectSQL with the state of a running operation whose
	// lease lapsed reported as queued.
	getSQL = `SELECT tool, args_digest, CASE WHEN state = 'running' AND EXISTS (SELECT 1 FROM cetp_leases l
	WHERE l.caller = d.caller AND l.provider = d.provider AND l.request_id = d.request_id AND l.until_ms < ` + nowMS + `)
THEN 'queued' ELSE state END, outcome, COALESCE(operation_id, ''), request, created_ms, expires_ms FROM cetp_dedup d` + keyWhere
	clearProgressSQL = `DELETE FROM cetp_progress` + keyWhere
)

// keyArgs returns the parameters $1 to $3 of keyWhere.
func keyArgs(k store.Key, more ...any) []any {
	return append([]any{k.Caller, k.Provider, k.RequestID}, more...)
}

// Get implements store.Store. It reads the committed record whether or
// not it has expired. A running operation whose lease lapsed is reported
// queued: nobody runs it, and the next live process of the Provider will.
func (s *Store) Get(ctx context.Context, key store.Key) (_ store.Record, err error) {
	defer func() { err = fault(ctx, err) }()
	rec, err := scanRecord(s.db.QueryRowContext(ctx, getSQL, keyArgs(key)...), key)
	if err != nil {
		return store.Record{}, fmt.Errorf("pgstore: get %s: %w", key.RequestID, err)
	}
	return rec, nil
}

// Accept implements store.Store in one READ COMMITTED transaction, like
// Execute: it claims the key's row, now in state queued with the
// operation ID and request, uses the token, drops any cancellation request left from
// an earlier record of the key, and commits. A live record of the key is
// returned instead, as Execute serves it.
func (s *Store) Accept(ctx context.Context, a store.Attempt, id string) (_ store.Record, _ bool, err error) {
	defer func() { err = fault(ctx, err) }()
	tx, err := s.begin(ctx)
	if err != nil {
		return store.Record{}, false, err
	}
	defer tx.Rollback()
	rec, claimed, err := claim(ctx, tx, a, newRow{state: store.StateQueued, operationID: id, request: a.Request})
	if err != nil || !claimed {
		return rec, false, err
	}
	if err := queue(ctx, tx, a, s.lease); err != nil {
		return store.Record{}, false, err
	}
	if err := tx.Commit(); err != nil {
		return store.Record{}, false, fmt.Errorf("pgstore: commit %s: %w", a.Key.RequestID, err)
	}
	rec = store.Record{Key: a.Key, Binding: a.Binding, State: store.StateQueued, OperationID: id, Request: a.Request,
		CreatedAt: a.Now, ExpiresAt: a.ExpiresAt}
	return rec, true, nil
}

// queue does the rest of an Accept whose row is claimed: the token use,
// the removal of a stale cancellation request, which belonged to an
// operation that this one replaces, and the operation's lease, unheld
// until the accepting process starts it (or, lapsed, another one).
func queue(ctx context.Context, tx *sql.Tx, a store.Attempt, lease time.Duration) error {
	if a.Token != nil {
		if err := useToken(ctx, tx, *a.Token); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, clearCancelSQL, keyArgs(a.Key)...); err != nil {
		return fmt.Errorf("pgstore: clear cancel request of %s: %w", a.Key.RequestID, err)
	}
	if _, err := tx.ExecContext(ctx, newLeaseSQL, keyArgs(a.Key, lease.Milliseconds())...); err != nil {
		return fmt.Errorf("pgstore: lease of %s: %w", a.Key.RequestID, err)
	}
	return nil
}

// MarkRunning implements store.Store. It waits while a RunOperation holds
// the row, and then finds the operation terminal and leaves it.
func (s *Store) MarkRunning(ctx context.Context, key store.Key) (err error) {
	defer func() { err = fault(ctx, err) }()
	if _, err := s.db.ExecContext(ctx, markRunningSQL, keyArgs(key)...); err != nil {
		return fmt.Errorf("pgstore: mark %s running: %w", key.RequestID, err)
	}
	return nil
}

// RunOperation implements store.Store in one READ COMMITTED transaction:
// lock the row with SELECT ... FOR UPDATE, run fn unless the record is
// terminal, store the terminal record, commit. A concurrent run, in this
// process or another, waits on the row lock and then reads the committed
// terminal record. It is not fenced: the engine runs operations of this
// store through RunLeased.
func (s *Store) RunOperation(ctx context.Context, key store.Key, expiresAt time.Time, fn store.TxFunc) (_ store.Record, _ bool, err error) {
	defer func() { err = fault(ctx, err) }()
	tx, err := s.begin(ctx)
	if err != nil {
		return store.Record{}, false, err
	}
	defer tx.Rollback()
	return s.runLocked(ctx, tx, key, expiresAt, fn, func() error {
		if _, err := tx.ExecContext(ctx, dropLeaseSQL, keyArgs(key)...); err != nil {
			return fmt.Errorf("pgstore: end lease of %s: %w", key.RequestID, err)
		}
		return nil
	})
}

// runLocked is the body of a run in tx: lock the row, run fn unless the
// record is terminal, end the lease (endLease, which may refuse), store
// the terminal record, drop the progress, commit.
func (s *Store) runLocked(ctx context.Context, tx *sql.Tx, key store.Key, expiresAt time.Time, fn store.TxFunc,
	endLease func() error) (store.Record, bool, error) {
	rec, err := scanRecord(tx.QueryRowContext(ctx, lockRecordSQL, keyArgs(key)...), key)
	if err != nil {
		return store.Record{}, false, fmt.Errorf("pgstore: lock operation %s: %w", key.RequestID, err)
	}
	if rec.State.Terminal() {
		return rec, false, nil
	}
	out, err := fn(ctx, tx)
	if err != nil {
		return store.Record{}, false, brokenTx(ctx, tx, err)
	}
	if err := endLease(); err != nil {
		return store.Record{}, false, err
	}
	if rec, err = end(ctx, tx, rec, expiresAt, out); err != nil {
		return store.Record{}, false, err
	}
	if _, err := tx.ExecContext(ctx, clearProgressSQL, keyArgs(key)...); err != nil {
		return store.Record{}, false, fmt.Errorf("pgstore: clear progress of %s: %w", key.RequestID, err)
	}
	if err := tx.Commit(); err != nil {
		return store.Record{}, false, fmt.Errorf("pgstore: commit %s: %w", key.RequestID, err)
	}
	return rec, true, nil
}

// end turns the locked operation rec into its terminal record with
// outcome out and the given expiry.
func end(ctx context.Context, tx *sql.Tx, rec store.Record, expiresAt time.Time, out store.Outcome) (store.Record, error) {
	outcome, err := json.Marshal(out)
	if err != nil {
		return store.Record{}, fmt.Errorf("pgstore: encode outcome of %s: %w", rec.RequestID, err)
	}
	rec.State, rec.Outcome, rec.ExpiresAt = out.State(), out, expiresAt
	if _, err := tx.ExecContext(ctx, endSQL, keyArgs(rec.Key, string(rec.State), outcome, expiresAt.UnixMilli())...); err != nil {
		return store.Record{}, fmt.Errorf("pgstore: end operation %s: %w", rec.RequestID, err)
	}
	return rec, nil
}

// FinishOperation implements store.Store as a RunOperation whose work is
// the given outcome.
func (s *Store) FinishOperation(ctx context.Context, key store.Key, expiresAt time.Time, out store.Outcome) (store.Record, bool, error) {
	return s.RunOperation(ctx, key, expiresAt, func(context.Context, store.Tx) (store.Outcome, error) { return out, nil })
}

// RequestCancel implements store.Store. The request is a row of
// cetp_cancels, committed at once; it does not wait for the operation's
// row, which a running operation holds locked.
func (s *Store) RequestCancel(ctx context.Context, key store.Key) (err error) {
	defer func() { err = fault(ctx, err) }()
	if _, err := s.db.ExecContext(ctx, requestCancelSQL, keyArgs(key, time.Now().UnixMilli())...); err != nil {
		return fmt.Errorf("pgstore: request cancel of %s: %w", key.RequestID, err)
	}
	return nil
}

// CancelRequested implements store.Store.
func (s *Store) CancelRequested(ctx context.Context, key store.Key) (_ bool, err error) {
	defer func() { err = fault(ctx, err) }()
	var ok bool
	if err := s.db.QueryRowContext(ctx, cancelRequestedSQL, keyArgs(key)...).Scan(&ok); err != nil {
		return false, fmt.Errorf("pgstore: cancel requested for %s: %w", key.RequestID, err)
	}
	return ok, nil
}

// PendingOperations implements store.Store.
func (s *Store) PendingOperations(ctx context.Context, provider string) (_ []store.Record, err error) {
	defer func() { err = fault(ctx, err) }()
	return s.listOperations(ctx, pendingSQL, provider)
}

// listOperations runs a query of operations of provider (pendingSQL,
// unleasedSQL) with the parameters $1 = provider and more.
func (s *Store) listOperations(ctx context.Context, q, provider string, more ...any) ([]store.Record, error) {
	rows, err := s.db.QueryContext(ctx, q, append([]any{provider}, more...)...)
	if err != nil {
		return nil, fmt.Errorf("pgstore: operations: %w", err)
	}
	defer rows.Close()
	var recs []store.Record
	for rows.Next() {
		rec, err := scanPending(rows, provider)
		if err != nil {
			return nil, fmt.Errorf("pgstore: operations: %w", err)
		}
		recs = append(recs, rec)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("pgstore: operations: %w", err)
	}
	return recs, nil
}

// scanPending reads one row of pendingSQL: the key's caller and request
// ID, then the record's columns.
func scanPending(rows *sql.Rows, provider string) (store.Record, error) {
	key := store.Key{Provider: provider}
	rec, err := scanRecord(keyedRow{rows: rows, key: &key}, key)
	rec.Key = key
	return rec, err
}

// keyedRow scans the caller and request ID that precede the record's
// columns into key.
type keyedRow struct {
	rows *sql.Rows
	key  *store.Key
}

// Scan implements rowScanner.
func (r keyedRow) Scan(dest ...any) error {
	return r.rows.Scan(append([]any{&r.key.Caller, &r.key.RequestID}, dest...)...)
}

// SetProgress implements store.Store: a row of cetp_progress, committed at
// once, without waiting for the operation's row.
func (s *Store) SetProgress(ctx context.Context, key store.Key, progress []byte) (err error) {
	defer func() { err = fault(ctx, err) }()
	if _, err := s.db.ExecContext(ctx, setProgressSQL, keyArgs(key, progress, time.Now().UnixMilli())...); err != nil {
		return fmt.Errorf("pgstore: progress of %s: %w", key.RequestID, err)
	}
	return nil
}

// Progress implements store.Store.
func (s *Store) Progress(ctx context.Context, key store.Key) (_ []byte, err error) {
	defer func() { err = fault(ctx, err) }()
	var p []byte
	err = s.db.QueryRowContext(ctx, progressSQL, keyArgs(key)...).Scan(&p)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pgstore: progress of %s: %w", key.RequestID, err)
	}
	return p, nil
}
