package sqlitestore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"
)

// signalsSuffix names the file of cancel requests beside the main file.
const signalsSuffix = "-signals"

const signalsSchema = `
CREATE TABLE IF NOT EXISTS cetp_cancels (
	caller       TEXT    NOT NULL,
	provider     TEXT    NOT NULL,
	request_id   TEXT    NOT NULL,
	requested_ms INTEGER NOT NULL,
	PRIMARY KEY (caller, provider, request_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS cetp_progress (
	caller     TEXT    NOT NULL,
	provider   TEXT    NOT NULL,
	request_id TEXT    NOT NULL,
	progress   BLOB    NOT NULL,
	updated_ms INTEGER NOT NULL,
	PRIMARY KEY (caller, provider, request_id)
) WITHOUT ROWID;
`

func openSignals(path string, opt Options) (*sql.DB, error) {
	db, err := openDB(path, opt)
	if err != nil {
		return nil, err
	}
	if _, err := db.Exec(signalsSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlitestore: %s: create schema: %w", path, err)
	}
	return db, nil
}

// Get implements store.Store.
func (s *Store) Get(ctx context.Context, key store.Key) (store.Record, error) {
	rec, err := lookup(ctx, s.selectStmt, key)
	if err != nil {
		return store.Record{}, fmt.Errorf("sqlitestore: get %s: %w", key.RequestID, err)
	}
	return rec, nil
}

// Accept implements store.Store.
func (s *Store) Accept(ctx context.Context, a store.Attempt, id string) (store.Record, bool, error) {
	var rec store.Record
	created, err := s.write(ctx, func(tx *sql.Tx) (bool, error) {
		live, isLive, err := s.prepareAttempt(ctx, tx, a)
		if err != nil || isLive {
			rec = live
			return false, err
		}
		rec = store.Record{Key: a.Key, Binding: a.Binding, State: store.StateQueued, OperationID: id,
			Request: a.Request, CreatedAt: a.Now, ExpiresAt: a.ExpiresAt}
		return true, insert(ctx, tx.StmtContext(ctx, s.insertStmt), rec)
	})
	return rec, created, err
}

// write runs fn in one write transaction and commits when fn reports a
// change.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) (bool, error)) (bool, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("sqlitestore: begin: %w", err)
	}
	defer tx.Rollback()
	changed, err := fn(tx)
	if err != nil || !changed {
		return false, err
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("sqlitestore: commit: %w", err)
	}
	return true, nil
}

// MarkRunning implements store.Store.
func (s *Store) MarkRunning(ctx context.Context, key store.Key) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	_, err := s.db.ExecContext(ctx, `UPDATE cetp_dedup SET state = 'running'
WHERE caller = ? AND provider = ? AND request_id = ? AND state = 'queued'`, key.Caller, key.Provider, key.RequestID)
	if err != nil {
		return fmt.Errorf("sqlitestore: mark %s running: %w", key.RequestID, err)
	}
	return nil
}

// RunOperation implements store.Store. The write transaction is the lock:
// within the process the write mutex, across processes SQLite's own.
func (s *Store) RunOperation(ctx context.Context, key store.Key, expiresAt time.Time, fn store.TxFunc) (store.Record, bool, error) {
	var rec store.Record
	ran, err := s.write(ctx, func(tx *sql.Tx) (bool, error) {
		var err error
		if rec, err = lookup(ctx, tx.StmtContext(ctx, s.selectStmt), key); err != nil {
			return false, fmt.Errorf("sqlitestore: run %s: %w", key.RequestID, err)
		}
		if rec.State.Terminal() {
			return false, nil
		}
		out, err := fn(ctx, tx)
		if err != nil {
			return false, err
		}
		rec.State, rec.Outcome, rec.ExpiresAt = out.State(), out, expiresAt
		return true, finishRecord(ctx, tx, rec)
	})
	if ran {
		s.dropCancel(ctx, key)
	}
	return rec, ran, err
}

func finishRecord(ctx context.Context, tx *sql.Tx, rec store.Record) error {
	outcome, err := json.Marshal(rec.Outcome)
	if err != nil {
		return fmt.Errorf("sqlitestore: encode outcome of %s: %w", rec.RequestID, err)
	}
	_, err = tx.ExecContext(ctx, `UPDATE cetp_dedup SET state = ?, outcome = ?, expires_ms = ?
WHERE caller = ? AND provider = ? AND request_id = ?`, string(rec.State), outcome, rec.ExpiresAt.UnixMilli(),
		rec.Caller, rec.Provider, rec.RequestID)
	if err != nil {
		return fmt.Errorf("sqlitestore: finish %s: %w", rec.RequestID, err)
	}
	return nil
}

// FinishOperation implements store.Store.
func (s *Store) FinishOperation(ctx context.Context, key store.Key, expiresAt time.Time, out store.Outcome) (store.Record, bool, error) {
	return s.RunOperation(ctx, key, expiresAt, func(context.Context, store.Tx) (store.Outcome, error) { return out, nil })
}

// RequestCancel implements store.Store.
func (s *Store) RequestCancel(ctx context.Context, key store.Key) error {
	s.signalsMu.Lock()
	defer s.signalsMu.Unlock()
	_, err := s.signals.ExecContext(ctx, `INSERT INTO cetp_cancels (caller, provider, request_id, requested_ms)
VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`, key.Caller, key.Provider, key.RequestID, time.Now().UnixMilli())
	if err != nil {
		return fmt.Errorf("sqlitestore: request cancel of %s: %w", key.RequestID, err)
	}
	return nil
}

// dropCancel forgets the cancel request and progress of a finished
// operation. It runs after the commit, so a crash in between leaves rows
// that Purge removes later.
func (s *Store) dropCancel(ctx context.Context, key store.Key) {
	s.signalsMu.Lock()
	defer s.signalsMu.Unlock()
	for _, table := range []string{"cetp_cancels", "cetp_progress"} {
		s.signals.ExecContext(ctx, `DELETE FROM `+table+` WHERE caller = ? AND provider = ? AND request_id = ?`,
			key.Caller, key.Provider, key.RequestID)
	}
}

// SetProgress implements store.Store, in the signals file, so that it
// never waits for the write lock a running operation holds.
func (s *Store) SetProgress(ctx context.Context, key store.Key, progress []byte) error {
	s.signalsMu.Lock()
	defer s.signalsMu.Unlock()
	_, err := s.signals.ExecContext(ctx, `INSERT INTO cetp_progress (caller, provider, request_id, progress, updated_ms)
VALUES (?, ?, ?, ?, ?) ON CONFLICT (caller, provider, request_id) DO UPDATE SET progress = excluded.progress, updated_ms = excluded.updated_ms`,
		key.Caller, key.Provider, key.RequestID, progress, time.Now().UnixMilli())
	if err != nil {
		return fmt.Errorf("sqlitestore: progress of %s: %w", key.RequestID, err)
	}
	return nil
}

// Progress implements store.Store.
func (s *Store) Progress(ctx context.Context, key store.Key) ([]byte, error) {
	var p []byte
	err := s.signals.QueryRowContext(ctx, `SELECT progress FROM cetp_progress
WHERE caller = ? AND provider = ? AND request_id = ?`, key.Caller, key.Provider, key.RequestID).Scan(&p)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: progress of %s: %w", key.RequestID, err)
	}
	return p, nil
}

// CancelRequested implements store.Store.
func (s *Store) CancelRequested(ctx context.Context, key store.Key) (bool, error) {
	var n int
	err := s.signals.QueryRowContext(ctx, `SELECT COUNT(*) FROM cetp_cancels
WHERE caller = ? AND provider = ? AND request_id = ?`, key.Caller, key.Provider, key.RequestID).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("sqlitestore: cancel requested %s: %w", key.RequestID, err)
	}
	return n > 0, nil
}

// PendingOperations implements store.Store.
func (s *Store) PendingOperations(ctx context.Context, provider string) ([]store.Record, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT caller, request_id FROM cetp_dedup
WHERE provider = ? AND operation_id IS NOT NULL AND state IN ('queued', 'running')
ORDER BY created_ms, request_id`, provider)
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: pending operations: %w", err)
	}
	var keys []store.Key
	for rows.Next() {
		k := store.Key{Provider: provider}
		if err := rows.Scan(&k.Caller, &k.RequestID); err != nil {
			rows.Close()
			return nil, fmt.Errorf("sqlitestore: pending operations: %w", err)
		}
		keys = append(keys, k)
	}
	rows.Close()
	return s.records(ctx, keys)
}

func (s *Store) records(ctx context.Context, keys []store.Key) ([]store.Record, error) {
	out := make([]store.Record, 0, len(keys))
	for _, k := range keys {
		rec, err := s.Get(ctx, k)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// purgeCancels removes the cancel requests and progress of operations
// that are terminal or gone: those a crash left between an operation's
// commit and dropCancel.
func (s *Store) purgeCancels(ctx context.Context) (int64, error) {
	rows, err := s.signals.QueryContext(ctx, `SELECT caller, provider, request_id FROM cetp_cancels
UNION SELECT caller, provider, request_id FROM cetp_progress`)
	if err != nil {
		return 0, fmt.Errorf("sqlitestore: purge cancels: %w", err)
	}
	var stale []store.Key
	for rows.Next() {
		var k store.Key
		if err := rows.Scan(&k.Caller, &k.Provider, &k.RequestID); err != nil {
			rows.Close()
			return 0, fmt.Errorf("sqlitestore: purge cancels: %w", err)
		}
		if rec, err := s.Get(ctx, k); err != nil || rec.State.Terminal() {
			stale = append(stale, k)
		}
	}
	rows.Close()
	for _, k := range stale {
		s.dropCancel(ctx, k)
	}
	return int64(len(stale)), nil
}
