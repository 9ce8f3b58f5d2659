package sqlitestore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Synchronous is the SQLite synchronous setting of the store's connections.
type Synchronous string

// The settings the store accepts. Full makes every acknowledged commit
// survive power loss; Normal, in WAL mode, survives a process crash but may
// lose the last commits on power loss.
const (
	SyncFull   Synchronous = "FULL"
	SyncNormal Synchronous = "NORMAL"
)

// Options configure Open.
type Options struct {
	// Synchronous defaults to SyncFull.
	Synchronous Synchronous
	// BusyTimeout bounds how long a write waits for another process's
	// lock; it defaults to 10 s.
	BusyTimeout time.Duration
}

// Store is the SQLite store.
type Store struct {
	db      *sql.DB
	writeMu sync.Mutex
	// signals holds cancel requests in a file of its own, so that a
	// request never waits for the write lock that a running operation's
	// transaction holds on the main file.
	signals   *sql.DB
	signalsMu sync.Mutex
	// Statements of the hot path, prepared once; a transaction reuses them
	// on its connection.
	selectStmt, insertStmt, deleteStmt *sql.Stmt
}

var _ store.Store = (*Store)(nil)

const schema = `
CREATE TABLE IF NOT EXISTS cetp_dedup (
	caller       TEXT    NOT NULL,
	provider     TEXT    NOT NULL,
	request_id   TEXT    NOT NULL,
	tool         TEXT    NOT NULL,
	args_digest  BLOB    NOT NULL,
	state        TEXT    NOT NULL,
	outcome      BLOB,
	operation_id TEXT,
	result_ref   TEXT,
	request      BLOB,
	created_ms   INTEGER NOT NULL,
	expires_ms   INTEGER NOT NULL,
	PRIMARY KEY (caller, provider, request_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS cetp_tokens (
	hash        BLOB    PRIMARY KEY,
	id          TEXT    NOT NULL UNIQUE,
	kind        TEXT    NOT NULL,
	caller      TEXT    NOT NULL,
	provider    TEXT    NOT NULL,
	request_id  TEXT    NOT NULL,
	tool        TEXT    NOT NULL,
	args_digest BLOB    NOT NULL,
	args        BLOB    NOT NULL,
	decision    TEXT    NOT NULL,
	used        INTEGER NOT NULL DEFAULT 0,
	expires_ms  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS cetp_tokens_expires ON cetp_tokens (expires_ms);
CREATE INDEX IF NOT EXISTS cetp_dedup_pending ON cetp_dedup (provider, created_ms)
	WHERE operation_id IS NOT NULL AND state IN ('queued', 'running');
`

// Open opens (creating if needed) the store in the SQLite file at path and
// its schema.
func Open(path string, opt Options) (*Store, error) {
	if opt.Synchronous == "" {
		opt.Synchronous = SyncFull
	}
	if opt.Synchronous != SyncFull && opt.Synchronous != SyncNormal {
		return nil, fmt.Errorf("sqlitestore: synchronous %q is neither FULL nor NORMAL", opt.Synchronous)
	}
	if path == "" || strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("sqlitestore: path %q must be non-empty and free of '?' and '#'", path)
	}
	if opt.BusyTimeout <= 0 {
		opt.BusyTimeout = 10 * time.Second
	}
	db, err := openDB(path, opt)
	if err != nil {
		return nil, err
	}
	if err := migrate(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlitestore: %s: %w", path, err)
	}
	s := &Store{db: db}
	if s.signals, err = openSignals(path+signalsSuffix, opt); err != nil {
		db.Close()
		return nil, err
	}
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{{&s.selectStmt, selectRecord}, {&s.insertStmt, insertRecord}, {&s.deleteStmt, deleteRecord}} {
		if *p.stmt, err = db.Prepare(p.sql); err != nil {
			s.Close()
			return nil, fmt.Errorf("sqlitestore: prepare: %w", err)
		}
	}
	return s, nil
}

func openDB(path string, opt Options) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous("+string(opt.Synchronous)+")")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", opt.BusyTimeout.Milliseconds()))
	q.Add("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	return db, nil
}

// schemaVersion is the PRAGMA user_version of the store's schema; a file
// written by a newer runtime is refused rather than misread. Version 2
// added the index of pending operations; version 1 files are upgraded in
// place, since every statement of the schema is idempotent.
const schemaVersion = 2

func migrate(db *sql.DB) error {
	tx, err := db.Begin() // BEGIN IMMEDIATE: one process migrates at a time
	if err != nil {
		return fmt.Errorf("begin migration: %w", err)
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if v > schemaVersion {
		return fmt.Errorf("schema version %d is newer than this runtime's %d", v, schemaVersion)
	}
	if v == schemaVersion {
		return nil
	}
	if err := upgrade(tx, v); err != nil {
		return err
	}
	return tx.Commit()
}

// upgrade brings a schema of version v (0 for a new file) to
// schemaVersion inside tx.
func upgrade(tx *sql.Tx, v int) error {
	if v == 1 {
		if _, err := tx.Exec(`ALTER TABLE cetp_dedup ADD COLUMN request BLOB`); err != nil {
			return fmt.Errorf("upgrade schema to 2: %w", err)
		}
	}
	if _, err := tx.Exec(schema); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	if _, err := tx.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion)); err != nil {
		return fmt.Errorf("write schema version: %w", err)
	}
	return nil
}

// DB returns the underlying database, for the Provider's own reads outside
// an attempt.
func (s *Store) DB() *sql.DB { return s.db }

// Close implements store.Store.
func (s *Store) Close() error {
	for _, st := range []*sql.Stmt{s.selectStmt, s.insertStmt, s.deleteStmt} {
		if st != nil {
			st.Close()
		}
	}
	s.signals.Close()
	return s.db.Close()
}

const (
	insertRecord = `INSERT INTO cetp_dedup
(caller, provider, request_id, tool, args_digest, state, outcome, operation_id, request, created_ms, expires_ms)
VALUES (?, ?, ?, ?, ?, ?, ?, NULLIF(?, ''), ?, ?, ?)`
	deleteRecord = `DELETE FROM cetp_dedup WHERE caller = ? AND provider = ? AND request_id = ?`
)

const selectRecord = `SELECT tool, args_digest, state, outcome, COALESCE(operation_id, ''), request, created_ms, expires_ms
FROM cetp_dedup WHERE caller = ? AND provider = ? AND request_id = ?`

func lookup(ctx context.Context, q *sql.Stmt, key store.Key) (store.Record, error) {
	rec := store.Record{Key: key}
	var digest, outcome []byte
	var created, expires int64
	err := q.QueryRowContext(ctx, key.Caller, key.Provider, key.RequestID).
		Scan(&rec.Tool, &digest, &rec.State, &outcome, &rec.OperationID, &rec.Request, &created, &expires)
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
	if err := json.Unmarshal(outcome, &rec.Outcome); err != nil {
		return rec, fmt.Errorf("corrupt outcome: %w", err)
	}
	rec.CreatedAt, rec.ExpiresAt = time.UnixMilli(created), time.UnixMilli(expires)
	return rec, nil
}

// Lookup implements store.Store.
func (s *Store) Lookup(ctx context.Context, key store.Key, now time.Time) (store.Record, error) {
	rec, err := lookup(ctx, s.selectStmt, key)
	if err == nil && !now.Before(rec.ExpiresAt) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.Record{}, fmt.Errorf("sqlitestore: lookup %s: %w", key.RequestID, err)
	}
	return rec, nil
}

// Execute implements store.Store.
func (s *Store) Execute(ctx context.Context, a store.Attempt, fn store.TxFunc) (store.Record, bool, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return store.Record{}, false, fmt.Errorf("sqlitestore: begin: %w", err)
	}
	defer tx.Rollback() // after Commit a no-op; on any early return or panic it ends the transaction
	rec, ran, err := s.attempt(ctx, tx, a, fn)
	if err != nil || !ran {
		return rec, false, err
	}
	if err := tx.Commit(); err != nil {
		return store.Record{}, false, fmt.Errorf("sqlitestore: commit %s: %w", a.Key.RequestID, err)
	}
	return rec, true, nil
}

func (s *Store) attempt(ctx context.Context, tx *sql.Tx, a store.Attempt, fn store.TxFunc) (store.Record, bool, error) {
	if rec, live, err := s.prepareAttempt(ctx, tx, a); err != nil || live {
		return rec, false, err
	}
	out, err := fn(ctx, tx)
	if err != nil {
		return store.Record{}, false, err
	}
	rec := store.Record{Key: a.Key, Binding: a.Binding, State: out.State(), Outcome: out, CreatedAt: a.Now, ExpiresAt: a.ExpiresAt}
	if err := insert(ctx, tx.StmtContext(ctx, s.insertStmt), rec); err != nil {
		return store.Record{}, false, err
	}
	return rec, true, nil
}

// prepareAttempt is the common start of Execute and Accept inside tx: a
// live record for a.Key is returned with live true (or
// ErrBindingMismatch); otherwise an expired record is dropped and a.Token
// is used.
func (s *Store) prepareAttempt(ctx context.Context, tx *sql.Tx, a store.Attempt) (store.Record, bool, error) {
	rec, err := lookup(ctx, tx.StmtContext(ctx, s.selectStmt), a.Key)
	switch {
	case err == nil && a.Now.Before(rec.ExpiresAt):
		if rec.Binding != a.Binding {
			return store.Record{}, false, fmt.Errorf("sqlitestore: execute %s: %w", a.Key.RequestID, store.ErrBindingMismatch)
		}
		return rec, true, nil
	case err == nil:
		if _, err := tx.StmtContext(ctx, s.deleteStmt).ExecContext(ctx, a.Key.Caller, a.Key.Provider, a.Key.RequestID); err != nil {
			return store.Record{}, false, fmt.Errorf("sqlitestore: drop expired %s: %w", a.Key.RequestID, err)
		}
	case !errors.Is(err, store.ErrNotFound):
		return store.Record{}, false, fmt.Errorf("sqlitestore: lookup %s: %w", a.Key.RequestID, err)
	}
	if a.Token != nil {
		if err := useToken(ctx, tx, *a.Token); err != nil {
			return store.Record{}, false, err
		}
	}
	return store.Record{}, false, nil
}

func insert(ctx context.Context, stmt *sql.Stmt, rec store.Record) error {
	outcome, err := json.Marshal(rec.Outcome)
	if err != nil {
		return fmt.Errorf("sqlitestore: encode outcome of %s: %w", rec.RequestID, err)
	}
	_, err = stmt.ExecContext(ctx, rec.Caller, rec.Provider, rec.RequestID, rec.Tool, rec.ArgsDigest[:], string(rec.State), outcome,
		rec.OperationID, rec.Request, rec.CreatedAt.UnixMilli(), rec.ExpiresAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("sqlitestore: insert record %s: %w", rec.RequestID, err)
	}
	return nil
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func useToken(ctx context.Context, e execer, use store.TokenUse) error {
	res, err := e.ExecContext(ctx, `UPDATE cetp_tokens SET used = 1
WHERE hash = ? AND used = 0 AND decision = ? AND expires_ms > ?`, use.Hash[:], string(use.Decision), use.Now.UnixMilli())
	if err != nil {
		return fmt.Errorf("sqlitestore: use token: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("sqlitestore: use token: %w", store.ErrTokenUnusable)
	}
	return nil
}

// CreateToken implements store.Store.
func (s *Store) CreateToken(ctx context.Context, t store.Token) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	_, err := s.db.ExecContext(ctx, `INSERT INTO cetp_tokens
(hash, id, kind, caller, provider, request_id, tool, args_digest, args, decision, used, expires_ms)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
		t.Hash[:], t.ID, string(t.Kind), t.Key.Caller, t.Key.Provider, t.Key.RequestID, t.Binding.Tool,
		t.Binding.ArgsDigest[:], t.Args, string(t.Decision), t.ExpiresAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("sqlitestore: create token: %w", err)
	}
	return nil
}

func (s *Store) token(ctx context.Context, where string, arg any) (store.Token, error) {
	t, err := store.ScanToken(s.db.QueryRowContext(ctx, store.SelectTokenSQL+where, arg))
	if err != nil {
		return t, fmt.Errorf("sqlitestore: token: %w", err)
	}
	return t, nil
}

// TokenByHash implements store.Store.
func (s *Store) TokenByHash(ctx context.Context, hash store.Digest) (store.Token, error) {
	return s.token(ctx, "hash = ?", hash[:])
}

// TokenByID implements store.Store.
func (s *Store) TokenByID(ctx context.Context, id string) (store.Token, error) {
	return s.token(ctx, "id = ?", id)
}

// Decide implements store.Store.
func (s *Store) Decide(ctx context.Context, id string, d store.Decision, now time.Time) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	res, err := s.db.ExecContext(ctx, `UPDATE cetp_tokens SET decision = ?
WHERE id = ? AND used = 0 AND decision = 'pending' AND expires_ms > ?`, string(d), id, now.UnixMilli())
	if err != nil {
		return fmt.Errorf("sqlitestore: decide %q: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("sqlitestore: decide %q: %w", id, store.ErrTokenUnusable)
	}
	return nil
}

// ConsumeToken implements store.Store.
func (s *Store) ConsumeToken(ctx context.Context, use store.TokenUse) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return useToken(ctx, s.db, use)
}

// Purge implements store.Store.
func (s *Store) Purge(ctx context.Context, now time.Time) (int64, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	var total int64
	for _, q := range []string{
		`DELETE FROM cetp_dedup WHERE expires_ms <= ? AND state IN ('succeeded', 'failed', 'cancelled')`,
		`DELETE FROM cetp_tokens WHERE expires_ms <= ?`,
	} {
		res, err := s.db.ExecContext(ctx, q, now.UnixMilli())
		if err != nil {
			return total, fmt.Errorf("sqlitestore: purge: %w", err)
		}
		n, _ := res.RowsAffected()
		total += n
	}
	n, err := s.purgeCancels(ctx)
	return total + n, err
}
