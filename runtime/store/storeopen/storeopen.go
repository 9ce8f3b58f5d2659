// Package storeopen chooses a Provider's durable store from one DSN, so a
// Provider binary takes its store as configuration:
//
//	st, err := storeopen.Open(ctx, os.Getenv("CETP_STORE"))
//	p, err := alerts.New(handler, provider.Options{Store: st})
//
// A postgres:// or postgresql:// URL opens the PostgreSQL store (for a
// Provider that runs as several replicas); anything else names a SQLite
// file, the default (sqlite:PATH and file:PATH are accepted too). An empty
// DSN opens DefaultSQLiteFile.
package storeopen

import (
	"context"
	"fmt"
	"strings"

	"github.com/cetpgen/cetpgen/runtime/store"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore"
	"github.com/cetpgen/cetpgen/runtime/store/sqlitestore"
)

// DefaultSQLiteFile is the store an empty DSN opens.
const DefaultSQLiteFile = "cetp.db"

// Open opens the store dsn names.
func Open(ctx context.Context, dsn string) (store.Store, error) {
	if isPostgres(dsn) {
		st, err := pgstore.Open(ctx, dsn, pgstore.Options{})
		if err != nil {
			return nil, fmt.Errorf("open PostgreSQL store: %w", err)
		}
		return st, nil
	}
	path := sqlitePath(dsn)
	st, err := sqlitestore.Open(path, sqlitestore.Options{})
	if err != nil {
		return nil, fmt.Errorf("open SQLite store %s: %w", path, err)
	}
	return st, nil
}

func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// sqlitePath strips a sqlite: or file: scheme from dsn.
func sqlitePath(dsn string) string {
	for _, scheme := range []string{"sqlite:", "file:"} {
		if p, ok := strings.CutPrefix(dsn, scheme); ok {
			return p
		}
	}
	if dsn == "" {
		return DefaultSQLiteFile
	}
	return dsn
}
