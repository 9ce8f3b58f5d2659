package sqlitestore_test

import (
	"context"
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
