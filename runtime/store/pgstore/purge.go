package pgstore

import (
	"context"
	"fmt"
	"time"
)

// The purge statements delete at most one batch of rows each, skipping
// the rows that a transaction holds locked, by their physical row IDs (a
// TID scan).
const (
	// purgeRecordsSQL deletes terminal records expired at $1; operations
	// that are not terminal stay whatever their expiry.
	purgeRecordsSQL = `DELETE FROM cetp_dedup WHERE ctid = ANY(ARRAY(
	SELECT ctid FROM cetp_dedup WHERE expires_ms <= $1 AND state IN ('succeeded', 'failed', 'cancelled')
	LIMIT $2 FOR UPDATE SKIP LOCKED))`
	// purgeTokensSQL deletes tokens expired at $1.
	purgeTokensSQL = `DELETE FROM cetp_tokens WHERE ctid = ANY(ARRAY(
	SELECT ctid FROM cetp_tokens WHERE expires_ms <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED))`
	// purgeCancelsSQL deletes the cancellation requests whose record is
	// gone: a request expires with its operation.
	purgeCancelsSQL = `DELETE FROM cetp_cancels WHERE ctid = ANY(ARRAY(
	SELECT c.ctid FROM cetp_cancels c WHERE NOT EXISTS (SELECT 1 FROM cetp_dedup d
		WHERE d.caller = c.caller AND d.provider = c.provider AND d.request_id = c.request_id)
	LIMIT $1 FOR UPDATE OF c SKIP LOCKED))`
	// purgeProgressSQL deletes the progress whose operation is gone or
	// terminal (a crash between the end and its cleanup, or none at all).
	purgeProgressSQL = `DELETE FROM cetp_progress WHERE ctid = ANY(ARRAY(
	SELECT g.ctid FROM cetp_progress g WHERE NOT EXISTS (SELECT 1 FROM cetp_dedup d
		WHERE d.caller = g.caller AND d.provider = g.provider AND d.request_id = g.request_id
		AND d.state IN ('queued', 'running'))
	LIMIT $1 FOR UPDATE OF g SKIP LOCKED))`
	// purgeLeasesSQL deletes the leases whose operation is gone or
	// terminal.
	purgeLeasesSQL = `DELETE FROM cetp_leases WHERE ctid = ANY(ARRAY(
	SELECT l.ctid FROM cetp_leases l WHERE NOT EXISTS (SELECT 1 FROM cetp_dedup d
		WHERE d.caller = l.caller AND d.provider = l.provider AND d.request_id = l.request_id
		AND d.state IN ('queued', 'running'))
	LIMIT $1 FOR UPDATE OF l SKIP LOCKED))`
)

// Purge implements store.Store. It deletes in batches of
// Options.PurgeBatch rows, each its own short transaction, and never waits
// for a row that an attempt or a running operation holds. Records go
// first, so that the cancellation requests of the records it removed go
// in the same call.
func (s *Store) Purge(ctx context.Context, now time.Time) (_ int64, err error) {
	defer func() { err = fault(ctx, err) }()
	steps := []struct {
		table, query string
		args         []any
	}{
		{"cetp_dedup", purgeRecordsSQL, []any{now.UnixMilli(), s.batch}},
		{"cetp_tokens", purgeTokensSQL, []any{now.UnixMilli(), s.batch}},
		{"cetp_cancels", purgeCancelsSQL, []any{s.batch}},
		{"cetp_progress", purgeProgressSQL, []any{s.batch}},
		{"cetp_leases", purgeLeasesSQL, []any{s.batch}},
	}
	var total int64
	for _, step := range steps {
		n, err := s.purgeBatches(ctx, step.query, step.args)
		total += n
		if err != nil {
			return total, fmt.Errorf("pgstore: purge %s: %w", step.table, err)
		}
	}
	return total, nil
}

// purgeBatches runs one purge statement until a batch comes back short.
func (s *Store) purgeBatches(ctx context.Context, query string, args []any) (int64, error) {
	var total int64
	for {
		res, err := s.db.ExecContext(ctx, query, args...)
		if err != nil {
			return total, err
		}
		n, err := res.RowsAffected()
		total += n
		if err != nil || n < int64(s.batch) {
			return total, err
		}
	}
}
