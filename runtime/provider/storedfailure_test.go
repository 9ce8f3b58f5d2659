package provider_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

// TestStoredFailureKeepsRetryAfter: a terminal business failure of a
// write is stored with its retry_after_ms, and the replay to a retry
// under the same request ID carries it, as the first answer did.
func TestStoredFailureKeepsRetryAfter(t *testing.T) {
	runs := 0
	tool := provider.Tool{Name: "book", Title: "Book", Description: "d",
		InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: provider.Annotations{Effect: provider.EffectCreate, Risk: provider.RiskLow,
			Confirmation: provider.ConfirmNever, Execution: provider.ExecSync},
		Handler: func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
			runs++
			e := protocol.NewError(protocol.CodeConflict, "the slot is held")
			e.RetryAfter = 5 * time.Second
			return nil, e
		}}
	p, err := provider.New(provider.Descriptor{ID: providerA, Name: "App", Description: "d", Versions: []int{2}},
		[]provider.Tool{tool}, provider.Options{Store: memstore.New()})
	if err != nil {
		t.Fatal(err)
	}
	c := &providertest.Client{P: p, Caller: callerA}
	if _, err := c.Negotiate(ctx); err != nil {
		t.Fatal(err)
	}
	id := providertest.NewRequestID()
	for i := range 2 {
		b := c.Execute(ctx, id, "book", `{}`, "")
		check(t, b, err2(protocol.CodeConflict, false, id))
		if ms, ok, _ := b.Long(protocol.KeyRetryAfterMs); !ok || ms != 5000 {
			t.Fatalf("answer %d: retry_after_ms %d (present %v), want 5000", i, ms, ok)
		}
	}
	if runs != 1 {
		t.Fatalf("the handler ran %d times, want once", runs)
	}
}
