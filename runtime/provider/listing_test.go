package provider_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

// TestSyncOrAsyncListing checks the listing rule of listing.go (§3.4): a
// session with async_operations sees a sync_or_async tool as such and the
// pinned revision; a session without it sees the tool as sync, with
// another revision, since the listed semantics differ.
func TestSyncOrAsyncListing(t *testing.T) {
	ann := provider.Annotations{Effect: provider.EffectCreate, Risk: provider.RiskLow,
		Confirmation: provider.ConfirmNever, Execution: provider.ExecSyncOrAsync}
	handler := func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{}`), nil
	}
	obj := json.RawMessage(`{"type":"object"}`)
	desc := provider.Descriptor{ID: "com.example.app", Name: "App", Description: "d", Versions: []int{2},
		Capabilities: []string{protocol.CapAsyncOperations}, Revision: "pinned-rev"}
	p, err := provider.New(desc, []provider.Tool{
		{Name: "export", Title: "Export", Description: "d", InputSchema: obj, OutputSchema: obj, Annotations: ann, Handler: handler},
	}, provider.Options{Store: memstore.New()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	list := func(caps []string) (rev, execution string) {
		c := &providertest.Client{P: p, Caller: callerA, Capabilities: caps}
		if _, err := c.Negotiate(context.Background()); err != nil {
			t.Fatal(err)
		}
		b := p.Call(context.Background(), callerA, protocol.MethodListTools, c.Envelope(providertest.NewRequestID()))
		raw, _, _ := b.String(protocol.KeyData)
		var l struct {
			Revision string `json:"revision"`
			Tools    []struct {
				Annotations map[string]any `json:"annotations"`
			} `json:"tools"`
		}
		if err := json.Unmarshal([]byte(raw), &l); err != nil || len(l.Tools) != 1 {
			t.Fatalf("list_tools = %v (%v)", b, err)
		}
		return l.Revision, l.Tools[0].Annotations["execution"].(string)
	}
	asyncRev, asyncExec := list([]string{protocol.CapAsyncOperations})
	syncRev, syncExec := list([]string{})
	if asyncExec != "sync_or_async" || asyncRev != "pinned-rev" {
		t.Errorf("async session: execution %q, revision %q", asyncExec, asyncRev)
	}
	if syncExec != "sync" || syncRev == asyncRev || syncRev == "" {
		t.Errorf("session without async_operations: execution %q, revision %q", syncExec, syncRev)
	}
}
