package pgstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"
	"github.com/jackc/pgx/v5/pgconn"
)

var _ store.Tombstones = (*Store)(nil)

// tombstoneSchema is the table of tombstones (store.Tombstone). It is
// created by the first BuryExpired; before that no key has a tombstone.
const tombstoneSchema = `CREATE TABLE IF NOT EXISTS cetp_tombstones (
	caller       text   NOT NULL,
	provider     text   NOT NULL,
	request_id   text   NOT NULL,
	tool         text   NOT NULL,
	args_digest  bytea  NOT NULL,
	operation_id text,
	until_ms     bigint NOT NULL,
	PRIMARY KEY (caller, provider, request_id)
);
CREATE INDEX IF NOT EXISTS cetp_tombstones_until ON cetp_tombstones (until_ms)`

// undefinedTable is PostgreSQL's SQLSTATE for a table that does not
// exist.
const undefinedTable = "42P01"

func isUndefinedTable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == undefinedTable
}

// BuryExpired implements store.Tombstones: one INSERT … SELECT over the
// records Purge(now) deletes.
func (s *Store) BuryExpired(ctx context.Context, now, until time.Time) (_ int64, err error) {
	defer func() { err = fault(ctx, err) }()
	if _, err := s.db.ExecContext(ctx, tombstoneSchema); err != nil {
		return 0, fmt.Errorf("pgstore: tombstone table: %w", err)
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO cetp_tombstones
SELECT caller, provider, request_id, tool, args_digest, operation_id, $1 FROM cetp_dedup
WHERE expires_ms <= $2 AND state IN ('succeeded', 'failed', 'cancelled')
ON CONFLICT (caller, provider, request_id) DO UPDATE SET tool = EXCLUDED.tool,
	args_digest = EXCLUDED.args_digest, operation_id = EXCLUDED.operation_id, until_ms = EXCLUDED.until_ms`,
		until.UnixMilli(), now.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("pgstore: bury expired records: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// Tombstone implements store.Tombstones.
func (s *Store) Tombstone(ctx context.Context, key store.Key) (_ store.Tombstone, err error) {
	defer func() { err = fault(ctx, err) }()
	t := store.Tombstone{Key: key}
	var digest []byte
	var op sql.NullString
	var until int64
	err = s.db.QueryRowContext(ctx, `SELECT tool, args_digest, operation_id, until_ms FROM cetp_tombstones
WHERE caller = $1 AND provider = $2 AND request_id = $3`, key.Caller, key.Provider, key.RequestID).Scan(&t.Tool, &digest, &op, &until)
	switch {
	case errors.Is(err, sql.ErrNoRows) || isUndefinedTable(err):
		return t, fmt.Errorf("pgstore: tombstone %s: %w", key.RequestID, store.ErrNotFound)
	case err != nil:
		return t, fmt.Errorf("pgstore: tombstone %s: %w", key.RequestID, err)
	case len(digest) != len(t.ArgsDigest):
		return t, fmt.Errorf("pgstore: tombstone %s: args digest of %d bytes", key.RequestID, len(digest))
	}
	copy(t.ArgsDigest[:], digest)
	t.OperationID, t.Until = op.String, time.UnixMilli(until)
	return t, nil
}

// PurgeTombstones implements store.Tombstones.
func (s *Store) PurgeTombstones(ctx context.Context, now time.Time) (_ int64, err error) {
	defer func() { err = fault(ctx, err) }()
	res, err := s.db.ExecContext(ctx, `DELETE FROM cetp_tombstones WHERE until_ms <= $1`, now.UnixMilli())
	switch {
	case isUndefinedTable(err):
		return 0, nil
	case err != nil:
		return 0, fmt.Errorf("pgstore: purge tombstones: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}
