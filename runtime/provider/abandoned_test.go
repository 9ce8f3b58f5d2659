package provider_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

// commitCut is a store whose next write attempt fails as a commit does
// when the call's context ends during it: the business change runs, then
// the attempt rolls back with the context's error.
type commitCut struct {
	store.Store
	cut error
}

func (s *commitCut) Execute(ctx context.Context, a store.Attempt, fn store.TxFunc) (store.Record, bool, error) {
	cut := s.cut
	s.cut = nil
	if cut == nil {
		return s.Store.Execute(ctx, a, fn)
	}
	return s.Store.Execute(ctx, a, func(ctx context.Context, tx store.Tx) (store.Outcome, error) {
		if _, err := fn(ctx, tx); err != nil {
			return store.Outcome{}, err
		}
		return store.Outcome{}, cut
	})
}

// TestContextEndedDuringCommit: a write whose context is cancelled (or
// whose deadline passes) while the store commits it, after the handler
// returned, is answered retryable UNAVAILABLE (or DEADLINE_EXCEEDED), as
// when the handler stops on its context, not INTERNAL_ERROR; the retry
// under the same request ID runs it once.
func TestContextEndedDuringCommit(t *testing.T) {
	for _, c := range []struct {
		cut  error
		code protocol.Code
	}{
		{context.Canceled, protocol.CodeUnavailable},
		{context.DeadlineExceeded, protocol.CodeDeadlineExceeded},
	} {
		runs := 0
		tool := provider.Tool{Name: "book", Title: "Book", Description: "d",
			InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations: provider.Annotations{Effect: provider.EffectCreate, Risk: provider.RiskLow,
				Confirmation: provider.ConfirmNever, Execution: provider.ExecSync},
			Handler: func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
				runs++
				return json.RawMessage(`{"booked":true}`), nil
			}}
		st := &commitCut{Store: memstore.New(), cut: c.cut}
		p, err := provider.New(provider.Descriptor{ID: providerA, Name: "App", Description: "d", Versions: []int{2}},
			[]provider.Tool{tool}, provider.Options{Store: st})
		if err != nil {
			t.Fatal(err)
		}
		cl := &providertest.Client{P: p, Caller: callerA}
		if _, err := cl.Negotiate(ctx); err != nil {
			t.Fatal(err)
		}
		id := providertest.NewRequestID()
		check(t, cl.Execute(ctx, id, "book", `{}`, ""), err2(c.code, true, id))
		b := cl.Execute(ctx, id, "book", `{}`, "")
		if s, _, _ := b.String(protocol.KeyStatus); s != "success" {
			t.Fatalf("%v: the retry answered %v", c.cut, b)
		}
		if runs != 2 {
			t.Fatalf("%v: the handler ran %d times, want twice (the first attempt rolled back)", c.cut, runs)
		}
	}
}
