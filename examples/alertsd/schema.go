package main

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
)

// schemaSQL creates the alerts table beside the runtime store's tables in
// the same database (SQLite or PostgreSQL: the types below mean the same
// in both). owner is the caller's stable key (provider.Caller.Key), so
// each caller sees only its own alerts. price is the exact JSON number
// the caller sent, as its canonical literal (jsonval.Number), so a price
// of 0.10000000000000000001 reads back unchanged; the tool schema already
// keeps it above 0.
const schemaSQL = `
CREATE TABLE IF NOT EXISTS alerts (
	alert_id     TEXT PRIMARY KEY,
	owner        TEXT NOT NULL,
	symbol       TEXT NOT NULL,
	price        TEXT NOT NULL,
	direction    TEXT NOT NULL CHECK (direction IN ('above', 'below')),
	status       TEXT NOT NULL CHECK (status IN ('active', 'triggered', 'paused')),
	note         TEXT,
	created_ms   BIGINT NOT NULL,
	updated_ms   BIGINT NOT NULL,
	triggered_ms BIGINT
);
CREATE INDEX IF NOT EXISTS alerts_by_owner ON alerts (owner, created_ms DESC, alert_id DESC);
`

// createSchema creates the alerts table if it does not exist yet.
func createSchema(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, schemaSQL); err != nil {
		return fmt.Errorf("create the alerts table: %w", err)
	}
	return nil
}

// dialect adapts the handler's queries, written with ? placeholders, to
// the database: PostgreSQL numbers them ($1, $2, …).
type dialect struct{ postgres bool }

// bind returns q with its placeholders in the database's syntax. The
// queries hold no ? inside a literal.
func (d dialect) bind(q string) string {
	if !d.postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
