package pgstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
)

// migrations are the schema steps in order; migration i brings the schema
// to version i+1. A step is never edited once released: changes are new
// steps.
var migrations = []string{
	// 1: deduplication records and resume tokens. outcome keeps the exact
	// bytes of the stored response (bytea, not jsonb, which would reorder
	// keys). The fill factor leaves room for the in-place update that
	// turns a claimed row into its terminal record.
	`CREATE TABLE cetp_dedup (
	caller       text   NOT NULL,
	provider     text   NOT NULL,
	request_id   text   NOT NULL,
	tool         text   NOT NULL,
	args_digest  bytea  NOT NULL,
	state        text   NOT NULL,
	outcome      bytea,
	operation_id text,
	result_ref   text,
	created_ms   bigint NOT NULL,
	expires_ms   bigint NOT NULL,
	PRIMARY KEY (caller, provider, request_id)
) WITH (fillfactor = 90);
CREATE INDEX cetp_dedup_expires ON cetp_dedup (expires_ms);
CREATE TABLE cetp_tokens (
	hash        bytea   PRIMARY KEY,
	id          text    NOT NULL UNIQUE,
	kind        text    NOT NULL,
	caller      text    NOT NULL,
	provider    text    NOT NULL,
	request_id  text    NOT NULL,
	tool        text    NOT NULL,
	args_digest bytea   NOT NULL,
	args        bytea   NOT NULL,
	decision    text    NOT NULL,
	used        boolean NOT NULL DEFAULT false,
	expires_ms  bigint  NOT NULL
);
CREATE INDEX cetp_tokens_expires ON cetp_tokens (expires_ms);`,
	// 2: asynchronous operations. request keeps what an operation runs,
	// for a Provider that restarts before it ran (bytea: opaque). The index finds a provider's operations
	// in creation order for PendingOperations. It names no column that a
	// synchronous Execute changes (its rows have no operation ID and keep
	// none), so turning an Execute's placeholder into its terminal record
	// stays a heap-only update; an index on state would forbid that.
	// Cancellation requests have their own table, without a foreign key,
	// so that recording one takes no lock on the operation's row, which a
	// running operation holds for its whole transaction.
	`ALTER TABLE cetp_dedup ADD COLUMN request bytea;
CREATE INDEX cetp_dedup_operations ON cetp_dedup (provider, created_ms) WHERE operation_id IS NOT NULL;
CREATE TABLE cetp_cancels (
	caller       text   NOT NULL,
	provider     text   NOT NULL,
	request_id   text   NOT NULL,
	requested_ms bigint NOT NULL,
	PRIMARY KEY (caller, provider, request_id)
);`,
	// 3: the progress of running operations, for get_operation on any
	// process. Like cetp_cancels it has no foreign key, so writing it
	// takes no lock on the operation's row.
	`CREATE TABLE cetp_progress (
	caller     text   NOT NULL,
	provider   text   NOT NULL,
	request_id text   NOT NULL,
	progress   bytea  NOT NULL,
	updated_ms bigint NOT NULL,
	PRIMARY KEY (caller, provider, request_id)
);`,
	// 4: operation leases, in place of recovery at start-up. A row per
	// operation that is not terminal: epoch is the fencing token, owner
	// the holding process (NULL while queued), until_ms the lapse by the
	// server's clock, pid and backend_start_us the server process of the
	// holder's transaction, which a takeover terminates. Like cetp_cancels
	// it has no foreign key and is its own table, so renewing a lease
	// never waits for the operation's row, which the run holds locked.
	// The operations left queued or running by an older runtime get an
	// unheld, lapsed lease: the first live process runs them.
	`CREATE TABLE cetp_leases (
	caller           text    NOT NULL,
	provider         text    NOT NULL,
	request_id       text    NOT NULL,
	epoch            bigint  NOT NULL DEFAULT 0,
	owner            text,
	until_ms         bigint  NOT NULL,
	pid              integer,
	backend_start_us bigint,
	PRIMARY KEY (caller, provider, request_id)
);
CREATE INDEX cetp_leases_until ON cetp_leases (provider, until_ms);
INSERT INTO cetp_leases (caller, provider, request_id, until_ms)
SELECT caller, provider, request_id, 0 FROM cetp_dedup
WHERE operation_id IS NOT NULL AND state IN ('queued', 'running');`,
}

// schemaVersion is the schema version this runtime writes.
var schemaVersion = len(migrations)

// lockClass is the first key of the advisory lock that serialises
// migrations; the second is the hash of the current schema, so stores in
// different schemas of one database migrate independently.
const lockClass = 0x63657470 // "cetp"

const (
	lockSQL    = `SELECT pg_advisory_lock($1, hashtext(COALESCE(current_schema(), '')))`
	unlockSQL  = `SELECT pg_advisory_unlock($1, hashtext(COALESCE(current_schema(), '')))`
	versionDDL = `CREATE TABLE IF NOT EXISTS cetp_schema_version (
	version    integer     PRIMARY KEY,
	applied_at timestamptz NOT NULL DEFAULT now()
)`
)

// migrate brings the schema to schemaVersion under the advisory lock, so
// that processes starting at once do not race on CREATE TABLE.
func migrate(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, lockSQL, lockClass); err != nil {
		return fmt.Errorf("lock for migration: %w", err)
	}
	defer unlock(conn)
	return upgrade(ctx, conn)
}

// upgrade applies the migrations the schema lacks, in order.
func upgrade(ctx context.Context, conn *sql.Conn) error {
	v, err := currentVersion(ctx, conn)
	if err != nil {
		return err
	}
	if v > schemaVersion {
		return fmt.Errorf("schema version %d is newer than this runtime's %d", v, schemaVersion)
	}
	for ; v < schemaVersion; v++ {
		if err := apply(ctx, conn, v+1, migrations[v]); err != nil {
			return err
		}
	}
	return nil
}

// unlock releases the migration lock; when that fails the connection is
// discarded, which releases it on the server.
func unlock(conn *sql.Conn) {
	if _, err := conn.ExecContext(context.Background(), unlockSQL, lockClass); err != nil {
		conn.Raw(func(any) error { return driver.ErrBadConn })
	}
}

func currentVersion(ctx context.Context, conn *sql.Conn) (int, error) {
	if _, err := conn.ExecContext(ctx, versionDDL); err != nil {
		return 0, fmt.Errorf("create version table: %w", err)
	}
	var v int
	if err := conn.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM cetp_schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

// apply runs one migration and records its version in one transaction.
func apply(ctx context.Context, conn *sql.Conn, version int, ddl string) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migration %d: %w", version, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, ddl); err != nil {
		return fmt.Errorf("migration %d: %w", version, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO cetp_schema_version (version) VALUES ($1)`, version); err != nil {
		return fmt.Errorf("migration %d: record version: %w", version, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migration %d: commit: %w", version, err)
	}
	return nil
}
