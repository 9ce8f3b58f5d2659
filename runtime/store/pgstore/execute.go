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
	keyWhere = ` WHERE caller = $1 AND provider = $2 AND request_id = $3`
	// recordColumns are the columns that scanRecord reads, in its order.
	recordColumns = `tool, args_digest, state, outcome, COALESCE(operation_id, ''), request, created_ms, expires_ms`
	selectSQL     = `SELECT ` + recordColumns + ` FROM cetp_dedup` + keyWhere
	// lockRecordSQL reads a record and locks its row until the transaction
	// ends. Under READ COMMITTED a waiter reads the version that the
	// holder committed.
	lockRecordSQL = selectSQL + ` FOR UPDATE`
	// claimSQL inserts the placeholder of a new attempt. On a conflict
	// with an uncommitted placeholder it waits for that transaction's end.
	// The new row is in state $8 with operation ID $9 and request $10:
	// running with neither for Execute's placeholder, queued with both for
	// Accept's operation.
	claimSQL = `INSERT INTO cetp_dedup (caller, provider, request_id, tool, args_digest, state, operation_id, request,
	created_ms, expires_ms)
VALUES ($1, $2, $3, $4, $5, $8, $9, $10, $6, $7) ON CONFLICT DO NOTHING`
	// reclaimSQL turns an expired record, locked by the attempt, into the
	// attempt's new row.
	reclaimSQL = `UPDATE cetp_dedup SET tool = $4, args_digest = $5, state = $8, outcome = NULL,
operation_id = $9, request = $10, result_ref = NULL, created_ms = $6, expires_ms = $7` + keyWhere
	finishSQL = `UPDATE cetp_dedup SET state = $4, outcome = $5` + keyWhere
)

// maxClaimRounds bounds the claim loop, which repeats only when a record
// disappears (purged) between the failed insert and the lock.
const maxClaimRounds = 16

type rowScanner interface {
	Scan(dest ...any) error
}

func scanRecord(row rowScanner, key store.Key) (store.Record, error) {
	rec := store.Record{Key: key}
	var digest, outcome []byte
	var created, expires int64
	err := row.Scan(&rec.Tool, &digest, &rec.State, &outcome, &rec.OperationID, &rec.Request, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return rec, store.ErrNotFound
	}
	if err != nil {
		return rec, err
	}
	if len(digest) != len(rec.ArgsDigest) {
		return rec, fmt.Errorf("corrupt args digest of %d bytes", len(digest))
	}
	copy(rec.ArgsDigest[:], digest)
	if outcome != nil { // NULL while an operation is not terminal
		if err := json.Unmarshal(outcome, &rec.Outcome); err != nil {
			return rec, fmt.Errorf("corrupt outcome: %w", err)
		}
	}
	rec.CreatedAt, rec.ExpiresAt = time.UnixMilli(created), time.UnixMilli(expires)
	return rec, nil
}

// Lookup implements store.Store. It sees committed records only, never
// the placeholder of an attempt in flight.
func (s *Store) Lookup(ctx context.Context, key store.Key, now time.Time) (_ store.Record, err error) {
	defer func() { err = fault(ctx, err) }()
	rec, err := scanRecord(s.db.QueryRowContext(ctx, selectSQL, key.Caller, key.Provider, key.RequestID), key)
	if err == nil && !now.Before(rec.ExpiresAt) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.Record{}, fmt.Errorf("pgstore: lookup %s: %w", key.RequestID, err)
	}
	return rec, nil
}

// Execute implements store.Store in one READ COMMITTED transaction: claim
// the key's row, use the token, run fn, write the terminal record, commit.
func (s *Store) Execute(ctx context.Context, a store.Attempt, fn store.TxFunc) (_ store.Record, _ bool, err error) {
	defer func() { err = fault(ctx, err) }()
	tx, err := s.begin(ctx)
	if err != nil {
		return store.Record{}, false, err
	}
	defer tx.Rollback() // after Commit a no-op; on any early return or panic it ends the transaction
	rec, claimed, err := claim(ctx, tx, a, placeholder)
	if err != nil || !claimed {
		return rec, false, err
	}
	if rec, err = run(ctx, tx, a, fn); err != nil {
		return store.Record{}, false, err
	}
	if err := tx.Commit(); err != nil {
		return store.Record{}, false, fmt.Errorf("pgstore: commit %s: %w", a.Key.RequestID, err)
	}
	return rec, true, nil
}

// newRow is the row that claim writes for an attempt: its state, its
// operation ID (empty for none) and the operation's request (nil for
// none).
type newRow struct {
	state       store.State
	operationID string
	request     []byte
}

// placeholder is the row of an Execute attempt until fn's outcome
// replaces it, in the same transaction.
var placeholder = newRow{state: store.StateRunning}

// args returns the claim statements' parameters $1 to $10.
func (r newRow) args(a store.Attempt) []any {
	var op any // NULL when there is no operation
	if r.operationID != "" {
		op = r.operationID
	}
	k := a.Key
	return []any{k.Caller, k.Provider, k.RequestID, a.Binding.Tool, a.Binding.ArgsDigest[:],
		a.Now.UnixMilli(), a.ExpiresAt.UnixMilli(), string(r.state), op, r.request}
}

// begin starts a READ COMMITTED transaction.
func (s *Store) begin(ctx context.Context) (*sql.Tx, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return nil, fmt.Errorf("pgstore: begin: %w", err)
	}
	return tx, nil
}

// claim makes the attempt the one owner of its key, writing row for it,
// or returns the live record that another attempt committed (claimed
// false).
func claim(ctx context.Context, tx *sql.Tx, a store.Attempt, row newRow) (store.Record, bool, error) {
	k := a.Key
	for range maxClaimRounds {
		if inserted, err := insertClaim(ctx, tx, a, row); err != nil || inserted {
			return store.Record{}, inserted, err
		}
		rec, err := current(ctx, tx, a)
		if errors.Is(err, store.ErrNotFound) {
			continue // purged in between: insert again
		}
		if err != nil {
			return store.Record{}, false, fmt.Errorf("pgstore: read %s: %w", k.RequestID, err)
		}
		return existing(ctx, tx, a, row, rec)
	}
	return store.Record{}, false, fmt.Errorf("pgstore: claim %s: the record kept disappearing", k.RequestID)
}

// current reads the committed record of the attempt's key: without a lock
// when it is live, so that a retry never waits for a running operation,
// which holds the row for its whole run; locked FOR UPDATE when it has
// expired, for the attempt to replace it.
func current(ctx context.Context, tx *sql.Tx, a store.Attempt) (store.Record, error) {
	k := a.Key
	rec, err := scanRecord(tx.QueryRowContext(ctx, selectSQL, keyArgs(k)...), k)
	if err != nil || a.Now.Before(rec.ExpiresAt) {
		return rec, err
	}
	return scanRecord(tx.QueryRowContext(ctx, lockRecordSQL, keyArgs(k)...), k)
}

// insertClaim inserts the attempt's row and reports whether it did; it
// waits while another transaction holds an uncommitted row of the key.
func insertClaim(ctx context.Context, tx *sql.Tx, a store.Attempt, row newRow) (bool, error) {
	res, err := tx.ExecContext(ctx, claimSQL, row.args(a)...)
	if err != nil {
		return false, fmt.Errorf("pgstore: claim %s: %w", a.Key.RequestID, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// existing handles the committed record that current read: a live one is
// served (or refused on another binding); an expired one, which current
// locked, becomes the attempt's row.
func existing(ctx context.Context, tx *sql.Tx, a store.Attempt, row newRow, rec store.Record) (store.Record, bool, error) {
	if a.Now.Before(rec.ExpiresAt) {
		if rec.Binding != a.Binding {
			return store.Record{}, false, fmt.Errorf("pgstore: request %s: %w", a.Key.RequestID, store.ErrBindingMismatch)
		}
		return rec, false, nil
	}
	if _, err := tx.ExecContext(ctx, reclaimSQL, row.args(a)...); err != nil {
		return store.Record{}, false, fmt.Errorf("pgstore: replace expired %s: %w", a.Key.RequestID, err)
	}
	return store.Record{}, true, nil
}

// run does the claimed attempt's work: token, business change, terminal
// record.
func run(ctx context.Context, tx *sql.Tx, a store.Attempt, fn store.TxFunc) (store.Record, error) {
	if a.Token != nil {
		if err := useToken(ctx, tx, *a.Token); err != nil {
			return store.Record{}, err
		}
	}
	out, err := fn(ctx, tx)
	if err != nil {
		return store.Record{}, brokenTx(ctx, tx, err)
	}
	rec := store.Record{Key: a.Key, Binding: a.Binding, State: out.State(), Outcome: out, CreatedAt: a.Now, ExpiresAt: a.ExpiresAt}
	outcome, err := json.Marshal(out)
	if err != nil {
		return store.Record{}, fmt.Errorf("pgstore: encode outcome of %s: %w", a.Key.RequestID, err)
	}
	k := a.Key
	if _, err := tx.ExecContext(ctx, finishSQL, k.Caller, k.Provider, k.RequestID, string(rec.State), outcome); err != nil {
		return store.Record{}, fmt.Errorf("pgstore: store record %s: %w", k.RequestID, err)
	}
	return rec, nil
}
