// Package pgtest gives tests a PostgreSQL store on a fresh, empty schema of
// the test database named by the CETP_PG_DSN environment variable, which
// `scripts/postgres.sh start` prints and `make test` sets.
//
// A package with PostgreSQL tests calls Require from exactly one test, so
// that a missing DSN fails that one test with the command to run; every
// other PostgreSQL test calls DSN, Schema or Open, which skip it then.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/store/pgstore"
)

// EnvDSN names the environment variable holding the test database's DSN.
const EnvDSN = "CETP_PG_DSN"

// Hint is the failure message when EnvDSN is unset.
const Hint = EnvDSN + " is not set, so the PostgreSQL store tests cannot run: " +
	"run them with `scripts/postgres.sh test` (or `make test`), or start the server with " +
	"`eval \"$(scripts/postgres.sh start >/dev/null && scripts/postgres.sh env)\"` before `go test`"

// Require fails t when EnvDSN is unset.
func Require(t testing.TB) {
	t.Helper()
	if os.Getenv(EnvDSN) == "" {
		t.Fatal(Hint)
	}
}

// Available reports whether EnvDSN is set.
func Available() bool { return os.Getenv(EnvDSN) != "" }

// DSN returns the test database's DSN, or skips t when EnvDSN is unset
// (the package's Require test reports that failure once).
func DSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(EnvDSN)
	if dsn == "" {
		t.Skip(EnvDSN + " unset; see the package's TestPostgresAvailable")
	}
	return dsn
}

// Schema creates a new, empty schema, drops it when t ends, and returns a
// DSN whose search_path selects it: stores opened with that DSN, in this
// process or another, share it.
func Schema(t testing.TB) string {
	t.Helper()
	base := DSN(t)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	name := "t_" + randomHex()
	if _, err := admin.Exec(`CREATE SCHEMA ` + name); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec(`DROP SCHEMA ` + name + ` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", name, err)
		}
	})
	return WithSearchPath(base, name)
}

// Open returns a store on a fresh schema, closed when t ends.
func Open(t testing.TB) *pgstore.Store {
	t.Helper()
	return OpenDSN(t, Schema(t))
}

// OpenDSN returns a store on dsn, closed when t ends.
func OpenDSN(t testing.TB, dsn string) *pgstore.Store {
	t.Helper()
	st, err := pgstore.Open(context.Background(), dsn, pgstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// WithSearchPath returns dsn with its search_path set to schema, in the
// URL or the key=value form.
func WithSearchPath(dsn, schema string) string {
	if !strings.Contains(dsn, "://") {
		return dsn + " search_path=" + schema
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return dsn + " search_path=" + schema // let Open report the error
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func randomHex() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Reset empties the store's tables of records, tokens, cancellation
// requests, progress and leases, and drops the tombstones' table (which
// a fresh store does not have until its first purge), so that one store
// can serve a sequence of tests as a fresh one.
func Reset(t testing.TB, st *pgstore.Store) {
	t.Helper()
	if _, err := st.DB().Exec(`DELETE FROM cetp_dedup; DELETE FROM cetp_tokens; DELETE FROM cetp_cancels; DELETE FROM cetp_progress; DELETE FROM cetp_leases;
DROP TABLE IF EXISTS cetp_tombstones`); err != nil {
		t.Fatalf("reset store: %v", err)
	}
}
