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

// TestHandlerSeesDeadline checks that a synchronous handler's context ends
// at deadline_at_ms, that the answer is a retryable DEADLINE_EXCEEDED with
// nothing stored, and that a retry under the same request ID runs again.
func TestHandlerSeesDeadline(t *testing.T) {
	runs := 0
	tool := provider.Tool{Name: "wait", Title: "t", Description: "d",
		InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: provider.Annotations{Effect: provider.EffectCreate, Risk: provider.RiskLow,
			Confirmation: provider.ConfirmNever, Execution: provider.ExecSync},
		Handler: func(ctx context.Context, _ *provider.Call, _ json.RawMessage) (json.RawMessage, error) {
			runs++
			if runs > 1 {
				return json.RawMessage(`{}`), nil
			}
			<-ctx.Done()
			return nil, ctx.Err()
		}}
	p, err := provider.New(provider.Descriptor{ID: providerA, Name: "A", Versions: []int{2}}, []provider.Tool{tool},
		provider.Options{Store: memstore.New(), ConfirmPolicy: func(context.Context, provider.Caller, provider.ToolInfo, json.RawMessage) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	c := &providertest.Client{P: p, Caller: callerA, Deadline: 100 * time.Millisecond}
	if _, err := c.Negotiate(context.Background()); err != nil {
		t.Fatal(err)
	}
	id := providertest.NewRequestID()
	start := time.Now()
	check(t, c.Execute(context.Background(), id, "wait", `{}`, ""), err2(protocol.CodeDeadlineExceeded, true, id))
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the handler ran %v past a 100 ms deadline", d)
	}
	check(t, c.Execute(context.Background(), id, "wait", `{}`, ""), ok2(id))
}
