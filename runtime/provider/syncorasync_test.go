package provider_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

// TestSyncOrAsyncRunsSynchronously checks the reading of §3.4 the engine
// implements: a sync_or_async tool called on a session without
// async_operations runs synchronously and succeeds, once per request ID
// (operations_test.go covers the same tool on an async session).
func TestSyncOrAsyncRunsSynchronously(t *testing.T) {
	var runs atomic.Int64
	tool := provider.Tool{
		Name: "export_report", Title: "导出", Description: "导出报表",
		InputSchema:  json.RawMessage(`{"type":"object","additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"rows":{"type":"integer"}},"required":["rows"]}`),
		Annotations: provider.Annotations{Effect: provider.EffectCreate, Risk: provider.RiskLow,
			Confirmation: provider.ConfirmNever, Execution: provider.ExecSyncOrAsync},
		Handler: func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
			runs.Add(1)
			return json.RawMessage(`{"rows":3}`), nil
		},
	}
	desc := provider.Descriptor{ID: "com.example.app", Name: "App", Description: "d", Versions: []int{2},
		Capabilities: []string{"async_operations"}}
	p, err := provider.New(desc, []provider.Tool{tool}, provider.Options{Store: memstore.New(), ConfirmPolicy: func(context.Context, provider.Caller, provider.ToolInfo, json.RawMessage) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	c := &providertest.Client{P: p, Caller: callerA, Capabilities: []string{}}
	if _, err := c.Negotiate(context.Background()); err != nil {
		t.Fatal(err)
	}
	id := providertest.NewRequestID()
	for range 2 {
		b := c.Execute(context.Background(), id, "export_report", `{}`, "")
		check(t, b, ok2(id))
		if data, _, _ := b.String(protocol.KeyData); data != `{"kind":"inline","value":{"rows":3}}` {
			t.Fatalf("data = %s", data)
		}
	}
	if n := runs.Load(); n != 1 {
		t.Fatalf("handler ran %d times, want 1", n)
	}
}
