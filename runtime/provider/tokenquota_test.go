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

// TestPendingTokenQuota checks that one caller cannot pile up pending
// confirmations with ever new request IDs: past MaxPendingTokens within
// the resume window it is RATE_LIMITED (retryable, after the window),
// another caller is not affected, and the quota frees as the window moves.
func TestPendingTokenQuota(t *testing.T) {
	clk := newClock()
	tool := provider.Tool{Name: "wipe", Title: "t", Description: "d",
		InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: provider.Annotations{Effect: provider.EffectDelete, Risk: provider.RiskHigh, Destructive: true,
			Confirmation: provider.ConfirmAlways, Execution: provider.ExecSync},
		Handler: func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`{}`), nil
		}}
	p, err := provider.New(provider.Descriptor{ID: providerA, Name: "A", Versions: []int{2}}, []provider.Tool{tool},
		provider.Options{Store: memstore.New(), Now: clk.Now, MaxPendingTokens: 3})
	if err != nil {
		t.Fatal(err)
	}
	client := func(c provider.Caller) *providertest.Client {
		cl := &providertest.Client{P: p, Caller: c, Now: clk.Now}
		if _, err := cl.Negotiate(context.Background()); err != nil {
			t.Fatal(err)
		}
		return cl
	}
	a, b := client(callerA), client(callerB)
	call := func(c *providertest.Client) protocol.Bundle {
		return c.Execute(context.Background(), providertest.NewRequestID(), "wipe", `{}`, "")
	}
	for range 3 {
		b := call(a)
		if code, _, _ := b.String(protocol.KeyErrorCode); code != string(protocol.CodeUserActionRequired) {
			t.Fatalf("within the quota: %v", b)
		}
	}
	over := call(a)
	if code, _, _ := over.String(protocol.KeyErrorCode); code != string(protocol.CodeRateLimited) {
		t.Fatalf("past the quota: %v", over)
	}
	if ms, _, _ := over.Long(protocol.KeyRetryAfterMs); ms != (10 * time.Minute).Milliseconds() {
		t.Fatalf("retry_after_ms = %d", ms)
	}
	if code, _, _ := call(b).String(protocol.KeyErrorCode); code != string(protocol.CodeUserActionRequired) {
		t.Fatal("another caller was limited")
	}
	clk.Advance(11 * time.Minute)
	a = client(callerA)
	if code, _, _ := call(a).String(protocol.KeyErrorCode); code != string(protocol.CodeUserActionRequired) {
		t.Fatal("the quota did not free after the resume window")
	}
}
