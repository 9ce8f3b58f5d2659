package pgstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"
)

// nowMS is the server's clock in Unix milliseconds. Leases are measured by
// it, so that processes on hosts whose clocks differ agree on when a lease
// lapses.
const nowMS = `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`

const (
	// leaseOfSQL reads the lease of an operation, whether it is free (not
	// held, or lapsed) and the operation's state, without taking a lock.
	leaseOfSQL = `SELECT l.epoch, l.owner IS NULL OR l.until_ms < ` + nowMS + `, l.pid, l.backend_start_us, d.state
FROM cetp_leases l JOIN cetp_dedup d ON d.caller = l.caller AND d.provider = l.provider AND d.request_id = l.request_id
WHERE l.caller = $1 AND l.provider = $2 AND l.request_id = $3`
	// terminateSQL ends the server process $1 that started at $2 (µs),
	// the transaction of a lease holder whose lease lapsed.
	terminateSQL = `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
WHERE pid = $1 AND datname = current_database() AND (extract(epoch FROM backend_start) * 1000000)::bigint = $2`
	// takeLeaseSQL gives the lease to owner $4 for $5 ms if it is still
	// the free lease of epoch $6 that leaseOfSQL read.
	takeLeaseSQL = `UPDATE cetp_leases SET epoch = epoch + 1, owner = $4, until_ms = ` + nowMS + ` + $5,
pid = NULL, backend_start_us = NULL` + keyWhere + ` AND epoch = $6 AND (owner IS NULL OR until_ms < ` + nowMS + `)
RETURNING epoch`
	renewSQL   = `UPDATE cetp_leases SET until_ms = ` + nowMS + ` + $5` + keyWhere + ` AND epoch = $4`
	releaseSQL = `UPDATE cetp_leases SET owner = NULL, until_ms = 0, pid = NULL, backend_start_us = NULL` +
		keyWhere + ` AND epoch = $4`
	requeueSQL = `UPDATE cetp_dedup SET state = 'queued'` + keyWhere + ` AND state = 'running'`
	// backendSQL names the server process of the transaction it runs in.
	backendSQL = `SELECT pid, (extract(epoch FROM backend_start) * 1000000)::bigint FROM pg_stat_activity
WHERE pid = pg_backend_pid()`
	holderSQL = `UPDATE cetp_leases SET pid = $5, backend_start_us = $6` + keyWhere + ` AND epoch = $4`
	// fenceSQL ends the lease of epoch $4 in the run's transaction; no
	// row means the lease was taken over, and the run must not commit.
	fenceSQL = `DELETE FROM cetp_leases` + keyWhere + ` AND epoch = $4`
	// newLeaseSQL gives a new operation an unheld lease that lapses after
	// $4 ms, the time the accepting process has to start it; it replaces,
	// with a greater epoch, the lease of an expired operation of the key.
	newLeaseSQL = `INSERT INTO cetp_leases (caller, provider, request_id, until_ms) VALUES ($1, $2, $3, ` + nowMS + ` + $4)
ON CONFLICT (caller, provider, request_id) DO UPDATE SET epoch = cetp_leases.epoch + 1, owner = NULL,
until_ms = EXCLUDED.until_ms, pid = NULL, backend_start_us = NULL`
	dropLeaseSQL = `DELETE FROM cetp_leases` + keyWhere
	// unleasedSQL lists a provider's operations whose lease lapsed, by
	// the index on (provider, until_ms).
	unleasedSQL = `SELECT d.caller, d.request_id, ` + recordColumns + `
FROM cetp_leases l JOIN cetp_dedup d ON d.caller = l.caller AND d.provider = l.provider AND d.request_id = l.request_id
WHERE l.provider = $1 AND l.until_ms < ` + nowMS + ` AND d.state IN ('queued', 'running')
ORDER BY d.created_ms, d.caller, d.request_id LIMIT $2`
)

var _ store.Leases = (*Store)(nil)

// LeaseDuration implements store.Leases.
func (s *Store) LeaseDuration() time.Duration { return s.lease }

// AcquireOperation implements store.Leases. It reads the lease without a
// lock; when the lease is free and a former holder's transaction is
// still open (a process that hangs, or is stopped), it terminates that
// server process, which rolls the transaction back and releases its
// locks; then it takes the lease if nobody took it in between. The fence
// does not depend on the termination, which needs the rights of the
// holder's role: a former holder that still runs cannot end its lease
// (RunLeased) and so cannot commit.
func (s *Store) AcquireOperation(ctx context.Context, key store.Key, owner string) (_ store.Lease, _ bool, err error) {
	defer func() { err = fault(ctx, err) }()
	var epoch int64
	var free bool
	var pid, started sql.NullInt64
	var state store.State
	err = s.db.QueryRowContext(ctx, leaseOfSQL, keyArgs(key)...).Scan(&epoch, &free, &pid, &started, &state)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return store.Lease{}, false, nil // terminal: its lease ended with it
	case err != nil:
		return store.Lease{}, false, fmt.Errorf("pgstore: lease of %s: %w", key.RequestID, err)
	case !free || state.Terminal():
		return store.Lease{}, false, nil
	}
	if pid.Valid && started.Valid {
		s.db.ExecContext(ctx, terminateSQL, pid.Int64, started.Int64) // best effort: the fence holds without it
	}
	return s.takeLease(ctx, key, owner, epoch)
}

// takeLease gives owner the free lease of epoch and marks the operation
// running, in one transaction; the progress of a former run goes with
// it.
func (s *Store) takeLease(ctx context.Context, key store.Key, owner string, epoch int64) (store.Lease, bool, error) {
	tx, err := s.begin(ctx)
	if err != nil {
		return store.Lease{}, false, err
	}
	defer tx.Rollback()
	l := store.Lease{Duration: s.lease}
	err = tx.QueryRowContext(ctx, takeLeaseSQL, keyArgs(key, owner, s.lease.Milliseconds(), epoch)...).Scan(&l.Epoch)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Lease{}, false, nil // taken in between
	}
	if err != nil {
		return store.Lease{}, false, fmt.Errorf("pgstore: take lease of %s: %w", key.RequestID, err)
	}
	for _, q := range []string{markRunningSQL, clearProgressSQL} {
		if _, err := tx.ExecContext(ctx, q, keyArgs(key)...); err != nil {
			return store.Lease{}, false, fmt.Errorf("pgstore: start %s: %w", key.RequestID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return store.Lease{}, false, fmt.Errorf("pgstore: commit lease of %s: %w", key.RequestID, err)
	}
	return l, true, nil
}

// RenewOperation implements store.Leases. It touches only cetp_leases, so
// it never waits for the running operation's row.
func (s *Store) RenewOperation(ctx context.Context, key store.Key, l store.Lease) (err error) {
	defer func() { err = fault(ctx, err) }()
	return onLease(ctx, s.db, renewSQL, key, l.Epoch, s.lease.Milliseconds())
}

// onLease runs a statement on the lease of epoch and reports
// ErrLeaseLost when that is no longer the operation's lease.
func onLease(ctx context.Context, e execer, q string, key store.Key, epoch int64, more ...any) error {
	res, err := e.ExecContext(ctx, q, keyArgs(key, append([]any{epoch}, more...)...)...)
	if err != nil {
		return fmt.Errorf("pgstore: lease of %s: %w", key.RequestID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("pgstore: lease of %s: %w", key.RequestID, store.ErrLeaseLost)
	}
	return nil
}

// ReleaseOperation implements store.Leases in one transaction: the lease
// of l becomes free and lapsed, and the operation queued.
func (s *Store) ReleaseOperation(ctx context.Context, key store.Key, l store.Lease) (err error) {
	defer func() { err = fault(ctx, err) }()
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, releaseSQL, keyArgs(key, l.Epoch)...)
	if err != nil {
		return fmt.Errorf("pgstore: release %s: %w", key.RequestID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return err // not (or no longer) ours: nothing to do
	}
	if _, err := tx.ExecContext(ctx, requeueSQL, keyArgs(key)...); err != nil {
		return fmt.Errorf("pgstore: requeue %s: %w", key.RequestID, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("pgstore: commit release of %s: %w", key.RequestID, err)
	}
	return nil
}

// RunLeased implements store.Leases as RunOperation does, fenced: on the
// one connection of the run, it first records that connection's server
// process on the lease (committed at once, so that a takeover can end
// it; recording it inside the transaction would lock the lease's row
// and stop the renewals), then runs the transaction, which ends the
// lease of l.Epoch before it writes the outcome; a lease taken over in
// between rolls the whole run back. The run holds one pooled connection,
// as RunOperation does.
func (s *Store) RunLeased(ctx context.Context, key store.Key, l store.Lease, expiresAt time.Time, fn store.TxFunc) (_ store.Record, _ bool, err error) {
	defer func() { err = fault(ctx, err) }()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return store.Record{}, false, fmt.Errorf("pgstore: connect: %w", err)
	}
	defer conn.Close() // after the transaction's end (deferred below)
	var pid, started int64
	if err := conn.QueryRowContext(ctx, backendSQL).Scan(&pid, &started); err != nil {
		return store.Record{}, false, fmt.Errorf("pgstore: server process of %s: %w", key.RequestID, err)
	}
	if err := onLease(ctx, conn, holderSQL, key, l.Epoch, pid, started); err != nil {
		return store.Record{}, false, err
	}
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return store.Record{}, false, fmt.Errorf("pgstore: begin: %w", err)
	}
	defer tx.Rollback()
	return s.runLocked(ctx, tx, key, expiresAt, fn, func() error {
		res, err := tx.ExecContext(ctx, fenceSQL, keyArgs(key, l.Epoch)...)
		if err != nil {
			return fmt.Errorf("pgstore: end lease of %s: %w", key.RequestID, err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return fmt.Errorf("pgstore: run %s: %w", key.RequestID, store.ErrLeaseLost)
		}
		return nil
	})
}

// UnleasedOperations implements store.Leases.
func (s *Store) UnleasedOperations(ctx context.Context, provider string, limit int) (_ []store.Record, err error) {
	defer func() { err = fault(ctx, err) }()
	return s.listOperations(ctx, unleasedSQL, provider, limit)
}
