package mcpbridge_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/mcpbridge"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// TestTimeoutNeverClaimsCancellation: when a call's timeout passes while
// its operation runs, the bridge asks the Provider to cancel it and
// answers with the end the Provider reports: CANCELLED for an operation
// that stopped, the result for one that finished its work anyway.
func TestTimeoutNeverClaimsCancellation(t *testing.T) {
	stubborn := provider.Tool{Name: "stubborn", Title: "Stubborn", Description: "d", InputSchema: objectSchema, OutputSchema: objectSchema,
		Scopes: []string{"w"}, Annotations: annotations(provider.EffectCreate, provider.ConfirmNever, provider.ExecSyncOrAsync),
		Handler: func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
			time.Sleep(400 * time.Millisecond) // does not look at its context: past the point of no return
			return json.RawMessage(`{"done":"anyway"}`), nil
		}}
	p := newProvider(t, append(testTools(&counters{}, 10, 4*time.Second), stubborn), nil, "")
	tr := consumer.InProcess{Provider: p, Caller: provider.Caller{UID: testUID}}
	s := connect(t, tr, mcpbridge.Options{CallTimeout: 150 * time.Millisecond})

	res := s.callTool(t, context.Background(), "slow", map[string]any{}, nil)
	e := errorOf(t, res)
	op := &consumer.Operation{ID: e.OperationID, RequestID: e.RequestID, Tool: "slow"}
	st, err := consumer.New(tr, consumer.Options{}).GetOperation(context.Background(), op)
	if e.Code != "CANCELLED" || err != nil || st.State != consumer.StateCancelled {
		t.Fatalf("slow after the timeout: %+v; the Provider says %+v, %v", e, st, err)
	}

	res = s.callTool(t, context.Background(), "stubborn", map[string]any{}, nil)
	if got := structured(t, res); got != `{"done":"anyway"}` || res.Meta[mcpbridge.MetaOperationID] == nil {
		t.Fatalf("stubborn after the timeout: %s %+v", got, res.Meta)
	}
}
