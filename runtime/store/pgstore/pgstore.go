package pgstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// Options configure Open.
type Options struct {
	// MaxConns bounds the connections the store keeps open; it defaults to
	// 16. Each attempt in flight holds one connection.
	MaxConns int
	// PurgeBatch is how many rows one statement of Purge deletes; it
	// defaults to 500.
	PurgeBatch int
	// Lease is how long a process holds a running operation without
	// renewing it (the engine renews every third of it), and how long a
	// just-accepted operation waits for its process to start it, before
	// another process of the Provider takes it over. It defaults to 10
	// seconds. Every process sharing the database should use one value.
	Lease time.Duration
}

func (o Options) withDefaults() Options {
	if o.MaxConns <= 0 {
		o.MaxConns = 16
	}
	if o.PurgeBatch <= 0 {
		o.PurgeBatch = 500
	}
	if o.Lease <= 0 {
		o.Lease = 10 * time.Second
	}
	return o
}

// Store is the PostgreSQL store. It is safe for concurrent use, and any
// number of processes may share one database.
type Store struct {
	db    *sql.DB
	batch int
	conns int
	lease time.Duration
}

var _ store.Store = (*Store)(nil)

// Open connects to the database named by dsn (a PostgreSQL URL or
// key=value string, as pgx accepts it), runs the schema migrations that
// are missing and returns the store. The tables live in the connection's
// current schema, so a search_path in the DSN selects where.
func Open(ctx context.Context, dsn string, opt Options) (*Store, error) {
	if dsn == "" {
		return nil, errors.New("pgstore: empty DSN")
	}
	opt = opt.withDefaults()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("pgstore: open: %w", err)
	}
	db.SetMaxOpenConns(opt.MaxConns)
	db.SetMaxIdleConns(opt.MaxConns)
	if err := migrate(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("pgstore: %w", err)
	}
	return &Store{db: db, batch: opt.PurgeBatch, conns: opt.MaxConns, lease: opt.Lease}, nil
}

// OperationSlots implements store.OperationSlots: a running operation
// holds a connection for its whole handler, so at most half of the pool
// (at least one) runs operations and the rest serves other calls.
func (s *Store) OperationSlots() int { return max(1, s.conns/2) }

// DB returns the underlying database, for the Provider's own statements
// outside an attempt (its schema, its reads).
func (s *Store) DB() *sql.DB { return s.db }

// Close implements store.Store.
func (s *Store) Close() error { return s.db.Close() }
