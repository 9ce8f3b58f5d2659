package provider_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore/pgtest"
)

// expiryStores are the stores that keep tombstones: memstore, SQLite
// and, when the PostgreSQL tests run, pgstore.
var expiryStores = map[string]func(t *testing.T) store.Store{
	"memstore": func(*testing.T) store.Store { return nil },
	"sqlite":   func(t *testing.T) store.Store { return openSQLite(t) },
	"postgres": func(t *testing.T) store.Store {
		if !pgtest.Available() {
			t.Skip("PostgreSQL store tests need CETP_PG_DSN (TestPostgresAvailable fails without it)")
		}
		return pgtest.Open(t)
	},
}

// window is the idempotency window of the fixtures: the protocol minimum.
const window = 86400 * time.Second

// TestExpiredRequestIDNotRunAgain runs a write, moves the injected clock
// past the idempotency window and sends the same request ID: before the
// purge and after it (a tombstone), it answers RESULT_EXPIRED and the
// handler never runs again; other content under that ID is
// INVALID_REQUEST. Past Options.TombstoneTTL the ID is unknown again.
func TestExpiredRequestIDNotRunAgain(t *testing.T) {
	for name, open := range expiryStores {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, fixtureConfig{store: open(t)})
			c := f.client(t, callerA)
			id := "3d2c2a90-5b1e-4d2a-9c4e-1a2b3c4d5e6f"
			args := `{"symbol":"AAPL","price":200}`
			check(t, c.Execute(ctx, id, "create_alert", args, ""), ok2(id))
			check(t, c.Execute(ctx, id, "create_alert", args, ""), ok2(id))
			f.clock.Advance(window + time.Minute)
			renegotiate(t, c)
			check(t, c.Execute(ctx, id, "create_alert", args, ""), err2(protocol.CodeResultExpired, false, id))
			if _, err := f.p.Purge(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := f.st.Get(ctx, store.Key{Caller: callerA.Key(), Provider: providerA, RequestID: id}); err == nil {
				t.Fatal("Purge kept the record")
			}
			check(t, c.Execute(ctx, id, "create_alert", args, ""), err2(protocol.CodeResultExpired, false, id))
			b := c.Execute(ctx, id, "create_alert", `{"symbol":"MSFT","price":1}`, "")
			check(t, b, err2(protocol.CodeInvalidRequest, false, id))
			effects("create_alert", 1)(t, f, b)
			f.clock.Advance(provider.DefaultTombstoneTTL + time.Minute)
			renegotiate(t, c)
			if _, err := f.p.Purge(ctx); err != nil {
				t.Fatal(err)
			}
			b = c.Execute(ctx, id, "create_alert", args, "")
			check(t, b, ok2(id))
			effects("create_alert", 2)(t, f, b)
		})
	}
}

// TestExpiredOperation finishes an operation, moves the injected clock
// past its window: get_operation and a retry of execute_tool answer
// RESULT_EXPIRED before the purge and after it.
func TestExpiredOperation(t *testing.T) {
	for name, open := range expiryStores {
		t.Run(name, func(t *testing.T) {
			clk := newClock()
			st := open(t)
			if st == nil {
				st = memstore.New()
			}
			var runs atomic.Int64
			tool := provider.Tool{Name: "export", Title: "Export", Description: "d",
				InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object"}`),
				Annotations: provider.Annotations{Effect: provider.EffectCreate, Risk: provider.RiskLow,
					Confirmation: provider.ConfirmNever, Execution: provider.ExecSyncOrAsync},
				Handler: func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
					runs.Add(1)
					return json.RawMessage(`{}`), nil
				}}
			p, err := provider.New(provider.Descriptor{ID: providerA, Name: "App", Description: "d", Versions: []int{2},
				Capabilities: []string{protocol.CapAsyncOperations}}, []provider.Tool{tool},
				provider.Options{Store: st, Now: clk.Now, PollAfter: time.Millisecond, PurgeEvery: -1})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { p.Close(context.Background()) })
			c := &providertest.Client{P: p, Caller: callerA, Now: clk.Now, Capabilities: []string{protocol.CapAsyncOperations}}
			if _, err := c.Negotiate(ctx); err != nil {
				t.Fatal(err)
			}
			id := providertest.NewRequestID()
			b := c.Execute(ctx, id, "export", `{}`, "")
			data := map[string]any{}
			raw, _, _ := b.String(protocol.KeyData)
			json.Unmarshal([]byte(raw), &data)
			op, _ := data["operation_id"].(string)
			if op == "" {
				t.Fatalf("execute_tool = %v, want accepted", b)
			}
			waitSucceeded(t, c, id, op)
			clk.Advance(window + time.Minute)
			renegotiate(t, c)
			check(t, c.GetOperation(ctx, id, op), err2(protocol.CodeResultExpired, false, id))
			if _, err := p.Purge(ctx); err != nil {
				t.Fatal(err)
			}
			check(t, c.GetOperation(ctx, id, op), err2(protocol.CodeResultExpired, false, id))
			check(t, c.Execute(ctx, id, "export", `{}`, ""), err2(protocol.CodeResultExpired, false, id))
			check(t, c.GetOperation(ctx, id, "op_other"), err2(protocol.CodeInvalidRequest, false, id))
			if n := runs.Load(); n != 1 {
				t.Fatalf("the operation ran %d times, want once", n)
			}
		})
	}
}

// waitSucceeded polls get_operation until the operation succeeded.
func waitSucceeded(t *testing.T, c *providertest.Client, id, op string) {
	t.Helper()
	for range 500 {
		raw, _, _ := c.GetOperation(ctx, id, op).String(protocol.KeyData)
		var st struct {
			State string `json:"state"`
		}
		json.Unmarshal([]byte(raw), &st)
		if st.State == "succeeded" {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the operation never succeeded")
}

// renegotiate opens a new session after the clock moved past the last.
func renegotiate(t *testing.T, c *providertest.Client) {
	t.Helper()
	if _, err := c.Negotiate(ctx); err != nil {
		t.Fatal(err)
	}
}
