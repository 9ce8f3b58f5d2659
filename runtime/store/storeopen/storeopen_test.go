package storeopen

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/store/pgstore"
	"github.com/cetpgen/cetpgen/runtime/store/sqlitestore"
)

// TestOpenSQLite checks that file paths and sqlite:/file: DSNs open the
// SQLite store at that path.
func TestOpenSQLite(t *testing.T) {
	dir := t.TempDir()
	for _, dsn := range []string{filepath.Join(dir, "a.db"), "sqlite:" + filepath.Join(dir, "b.db"), "file:" + filepath.Join(dir, "c.db")} {
		st, err := Open(context.Background(), dsn)
		if err != nil {
			t.Fatalf("%s: %v", dsn, err)
		}
		if _, ok := st.(*sqlitestore.Store); !ok {
			t.Errorf("%s opened %T", dsn, st)
		}
		st.Close()
	}
	for _, f := range []string{"a.db", "b.db", "c.db"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

// TestOpenDefault checks that an empty DSN opens DefaultSQLiteFile.
func TestOpenDefault(t *testing.T) {
	t.Chdir(t.TempDir())
	st, err := Open(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := os.Stat(DefaultSQLiteFile); err != nil {
		t.Fatal(err)
	}
}

// TestOpenPostgres checks that a postgres:// DSN opens the PostgreSQL
// store; it needs the test server of scripts/postgres.sh (CETP_PG_DSN).
func TestOpenPostgres(t *testing.T) {
	dsn := os.Getenv("CETP_PG_DSN")
	if dsn == "" {
		t.Fatal("CETP_PG_DSN is not set: run scripts/postgres.sh test, or make test")
	}
	st, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, ok := st.(*pgstore.Store); !ok {
		t.Fatalf("opened %T", st)
	}
}
