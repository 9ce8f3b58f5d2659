package provider_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

// alertsDDL is the business table of the SQLite-backed test Providers.
const alertsDDL = `CREATE TABLE IF NOT EXISTS alerts (id INTEGER PRIMARY KEY, request_id TEXT NOT NULL, symbol TEXT NOT NULL)`

// insertAlert is a create_alert handler that makes its business change in
// the store's transaction when it offers SQL, and counts every run.
func insertAlert(runs *atomic.Int64) provider.Handler {
	return func(ctx context.Context, call *provider.Call, args json.RawMessage) (json.RawMessage, error) {
		runs.Add(1)
		var in struct{ Symbol string }
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, err
		}
		res, err := call.Tx.ExecContext(ctx, `INSERT INTO alerts (request_id, symbol) VALUES (?, ?)`, call.RequestID, in.Symbol)
		if errors.Is(err, store.ErrNoSQL) {
			return json.RawMessage(fmt.Sprintf(`{"alert_id":"m-%d"}`, runs.Load())), nil
		}
		if err != nil {
			return nil, err
		}
		n, _ := res.LastInsertId()
		return json.RawMessage(fmt.Sprintf(`{"alert_id":"a-%d"}`, n)), nil
	}
}

func alertProvider(t testing.TB, st store.Store, runs *atomic.Int64, maxConcurrent int) *provider.Provider {
	t.Helper()
	p, err := provider.New(provider.Descriptor{
		ID: providerA, Name: "Example App", Versions: []int{2},
		Limits: provider.Limits{MaxConcurrentRequests: maxConcurrent},
	}, []provider.Tool{{
		Name: "create_alert", Title: "创建价格提醒", Description: "为指定证券创建价格提醒",
		InputSchema: json.RawMessage(alertIn), OutputSchema: json.RawMessage(alertOut),
		Annotations: writes(provider.EffectCreate, provider.ConfirmNever), Handler: insertAlert(runs),
	}}, provider.Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSameIDConcurrent64 sends 64 concurrent execute_tool calls with one
// request ID and proves the handler ran exactly once and every caller got
// the same result, on SQLite and on the memory store.
func TestSameIDConcurrent64(t *testing.T) {
	stores := map[string]func(t *testing.T) (store.Store, *sql.DB){
		"sqlite": func(t *testing.T) (store.Store, *sql.DB) {
			st := openSQLite(t)
			if _, err := st.DB().Exec(alertsDDL); err != nil {
				t.Fatal(err)
			}
			return st, st.DB()
		},
		"memstore": func(*testing.T) (store.Store, *sql.DB) { return memstore.New(), nil },
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			st, db := open(t)
			var runs atomic.Int64
			p := alertProvider(t, st, &runs, 64)
			c := &providertest.Client{P: p, Caller: callerA}
			if _, err := c.Negotiate(ctx); err != nil {
				t.Fatal(err)
			}
			id := providertest.NewRequestID()
			results := make([]protocol.Bundle, 64)
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i := range results {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					results[i] = c.Execute(ctx, id, "create_alert", alertArgs, "")
				}()
			}
			close(start)
			wg.Wait()
			for _, b := range results {
				check(t, b, ok2(id))
				sameData(t, results[0], b)
			}
			if n := runs.Load(); n != 1 {
				t.Fatalf("handler ran %d times, want 1", n)
			}
			if db != nil {
				var rows int
				if err := db.QueryRow(`SELECT COUNT(*) FROM alerts`).Scan(&rows); err != nil || rows != 1 {
					t.Fatalf("alerts rows = %d (%v), want 1", rows, err)
				}
			}
		})
	}
}
