package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"
)

var _ store.Tombstones = (*Store)(nil)

// tombstoneSchema is the table of tombstones (store.Tombstone): a key,
// its binding and operation ID, and when it may go. It is created by the
// first BuryExpired; before that no key has a tombstone.
const tombstoneSchema = `
CREATE TABLE IF NOT EXISTS cetp_tombstones (
	caller       TEXT    NOT NULL,
	provider     TEXT    NOT NULL,
	request_id   TEXT    NOT NULL,
	tool         TEXT    NOT NULL,
	args_digest  BLOB    NOT NULL,
	operation_id TEXT,
	until_ms     INTEGER NOT NULL,
	PRIMARY KEY (caller, provider, request_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS cetp_tombstones_until ON cetp_tombstones (until_ms);
`

// BuryExpired implements store.Tombstones: one INSERT … SELECT over the
// records Purge(now) deletes.
func (s *Store) BuryExpired(ctx context.Context, now, until time.Time) (int64, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if _, err := s.db.ExecContext(ctx, tombstoneSchema); err != nil {
		return 0, fmt.Errorf("sqlitestore: tombstone table: %w", err)
	}
	res, err := s.db.ExecContext(ctx, `INSERT OR REPLACE INTO cetp_tombstones
SELECT caller, provider, request_id, tool, args_digest, operation_id, ?
FROM cetp_dedup WHERE expires_ms <= ? AND state IN ('succeeded', 'failed', 'cancelled')`, until.UnixMilli(), now.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("sqlitestore: bury expired records: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// Tombstone implements store.Tombstones.
func (s *Store) Tombstone(ctx context.Context, key store.Key) (store.Tombstone, error) {
	t := store.Tombstone{Key: key}
	var digest []byte
	var op sql.NullString
	var until int64
	err := s.db.QueryRowContext(ctx, `SELECT tool, args_digest, operation_id, until_ms FROM cetp_tombstones
WHERE caller = ? AND provider = ? AND request_id = ?`, key.Caller, key.Provider, key.RequestID).Scan(&t.Tool, &digest, &op, &until)
	switch {
	case errors.Is(err, sql.ErrNoRows) || err != nil && strings.Contains(err.Error(), "no such table"):
		return t, fmt.Errorf("sqlitestore: tombstone %s: %w", key.RequestID, store.ErrNotFound)
	case err != nil:
		return t, fmt.Errorf("sqlitestore: tombstone %s: %w", key.RequestID, err)
	case len(digest) != len(t.ArgsDigest):
		return t, fmt.Errorf("sqlitestore: tombstone %s: args digest of %d bytes", key.RequestID, len(digest))
	}
	copy(t.ArgsDigest[:], digest)
	t.OperationID, t.Until = op.String, time.UnixMilli(until)
	return t, nil
}

// PurgeTombstones implements store.Tombstones.
func (s *Store) PurgeTombstones(ctx context.Context, now time.Time) (int64, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	res, err := s.db.ExecContext(ctx, `DELETE FROM cetp_tombstones WHERE until_ms <= ?`, now.UnixMilli())
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return 0, nil
		}
		return 0, fmt.Errorf("sqlitestore: purge tombstones: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}
