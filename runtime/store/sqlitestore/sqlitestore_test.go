package sqlitestore_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"
	"github.com/cetpgen/cetpgen/runtime/store/sqlitestore"
	"github.com/cetpgen/cetpgen/runtime/store/storetest"
)

func open(t *testing.T, path string, opt sqlitestore.Options) *sqlitestore.Store {
	t.Helper()
	s, err := sqlitestore.Open(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		return open(t, filepath.Join(t.TempDir(), "s.db"), sqlitestore.Options{})
	})
}

// TestShared runs the shared-database contract on two stores over one
// file, as two processes of one Provider would open it.
func TestShared(t *testing.T) {
	storetest.RunShared(t, func(t *testing.T) (store.Store, store.Store) {
		path := filepath.Join(t.TempDir(), "s.db")
		return open(t, path, sqlitestore.Options{}), open(t, path, sqlitestore.Options{})
	})
}

// TestPragmas checks that the store runs in WAL mode with the chosen
// synchronous setting.
func TestPragmas(t *testing.T) {
	for opt, want := range map[sqlitestore.Synchronous]int{sqlitestore.SyncFull: 2, sqlitestore.SyncNormal: 1} {
		s := open(t, filepath.Join(t.TempDir(), "s.db"), sqlitestore.Options{Synchronous: opt})
		var mode string
		var sync int
		if err := s.DB().QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
			t.Fatalf("journal_mode = %q (%v)", mode, err)
		}
		if err := s.DB().QueryRow(`PRAGMA synchronous`).Scan(&sync); err != nil || sync != want {
			t.Fatalf("synchronous = %d (%v), want %d", sync, err, want)
		}
	}
	if _, err := sqlitestore.Open(filepath.Join(t.TempDir(), "s.db"), sqlitestore.Options{Synchronous: "OFF"}); err == nil {
		t.Fatal("synchronous OFF accepted")
	}
}

// TestReopen proves records and tokens survive closing and reopening the
// file.
func TestReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s := open(t, path, sqlitestore.Options{})
	now := time.Now()
	a := store.Attempt{Key: store.Key{Caller: "c", Provider: "p", RequestID: "r"}, Binding: store.NewBinding("t", []byte(`{}`)),
		Now: now, ExpiresAt: now.Add(time.Hour)}
	if _, _, err := s.Execute(context.Background(), a, func(context.Context, store.Tx) (store.Outcome, error) {
		return store.Outcome{Data: []byte(`{"x":1}`)}, nil
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2 := open(t, path, sqlitestore.Options{})
	rec, err := s2.Lookup(context.Background(), a.Key, now)
	if err != nil || string(rec.Outcome.Data) != `{"x":1}` {
		t.Fatalf("after reopen: %+v, %v", rec, err)
	}
}

// TestNewerSchemaRefused proves that a file from a newer runtime is not
// misread.
func TestNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s := open(t, path, sqlitestore.Options{})
	if _, err := s.DB().Exec(`PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := sqlitestore.Open(path, sqlitestore.Options{}); err == nil {
		t.Fatal("opened a file of schema version 99")
	}
}

// TestUpgradeFromVersion1 opens a file written by the first schema and
// checks that records survive and operations work after the upgrade.
func TestUpgradeFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(version1Schema); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s := open(t, path, sqlitestore.Options{})
	key := store.Key{Caller: "c", Provider: "p", RequestID: "old"}
	if rec, err := s.Get(context.Background(), key); err != nil || string(rec.Outcome.Data) != `{"x":1}` {
		t.Fatalf("version 1 record after the upgrade: %+v, %v", rec, err)
	}
	now := time.Now()
	a := store.Attempt{Key: store.Key{Caller: "c", Provider: "p", RequestID: "new"}, Binding: store.NewBinding("t", nil),
		Now: now, ExpiresAt: now.Add(time.Hour), Request: []byte("req")}
	if _, created, err := s.Accept(context.Background(), a, "op_1"); err != nil || !created {
		t.Fatalf("Accept after the upgrade: %v %v", created, err)
	}
	if got, err := s.PendingOperations(context.Background(), "p"); err != nil || len(got) != 1 || string(got[0].Request) != "req" {
		t.Fatalf("PendingOperations after the upgrade = %+v, %v", got, err)
	}
}

// version1Schema is the schema of the first release, with one record.
const version1Schema = `
CREATE TABLE cetp_dedup (
	caller TEXT NOT NULL, provider TEXT NOT NULL, request_id TEXT NOT NULL,
	tool TEXT NOT NULL, args_digest BLOB NOT NULL, state TEXT NOT NULL, outcome BLOB,
	operation_id TEXT, result_ref TEXT, created_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL,
	PRIMARY KEY (caller, provider, request_id)) WITHOUT ROWID;
CREATE TABLE cetp_tokens (
	hash BLOB PRIMARY KEY, id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, caller TEXT NOT NULL,
	provider TEXT NOT NULL, request_id TEXT NOT NULL, tool TEXT NOT NULL, args_digest BLOB NOT NULL,
	args BLOB NOT NULL, decision TEXT NOT NULL, used INTEGER NOT NULL DEFAULT 0, expires_ms INTEGER NOT NULL);
INSERT INTO cetp_dedup VALUES ('c', 'p', 'old', 't', zeroblob(32), 'succeeded', '{"data":{"x":1}}', NULL, NULL, 0, 9999999999999);
PRAGMA user_version = 1;
`
