package main

import (
	"context"
	"database/sql"
	"fmt"
)

// schemaSQL creates the alerts table beside the runtime store's tables in
// the same SQLite file. owner is the caller's stable key
// (provider.Caller.Key), so each caller sees only its own alerts.
const schemaSQL = `
CREATE TABLE IF NOT EXISTS alerts (
	alert_id     TEXT PRIMARY KEY,
	owner        TEXT NOT NULL,
	symbol       TEXT NOT NULL,
	price        REAL NOT NULL CHECK (price > 0),
	direction    TEXT NOT NULL CHECK (direction IN ('above', 'below')),
	status       TEXT NOT NULL CHECK (status IN ('active', 'triggered', 'paused')),
	note         TEXT,
	created_ms   INTEGER NOT NULL,
	updated_ms   INTEGER NOT NULL,
	triggered_ms INTEGER
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
