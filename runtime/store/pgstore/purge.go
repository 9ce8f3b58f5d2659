package pgstore

import (
	"context"
	"fmt"
	"time"
)

// purgeSQL deletes at most $2 rows of a table expired at $1, skipping the
// rows an attempt holds locked, by their physical row IDs (a TID scan).
const purgeSQL = `DELETE FROM %[1]s WHERE ctid = ANY(ARRAY(
	SELECT ctid FROM %[1]s WHERE expires_ms <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED))`

// Purge implements store.Store. It deletes in batches of
// Options.PurgeBatch rows, each its own short transaction, and never waits
// for a row that an attempt holds.
func (s *Store) Purge(ctx context.Context, now time.Time) (int64, error) {
	var total int64
	for _, table := range []string{"cetp_dedup", "cetp_tokens"} {
		n, err := s.purgeTable(ctx, table, now)
		total += n
		if err != nil {
			return total, fmt.Errorf("pgstore: purge %s: %w", table, err)
		}
	}
	return total, nil
}

func (s *Store) purgeTable(ctx context.Context, table string, now time.Time) (int64, error) {
	query := fmt.Sprintf(purgeSQL, table)
	var total int64
	for {
		res, err := s.db.ExecContext(ctx, query, now.UnixMilli(), s.batch)
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
