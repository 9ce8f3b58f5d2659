package mcpbridge_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/mcpbridge"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

// TestErrorsAsToolErrors: a Provider's CETP error is a tool error whose
// cetp/error keeps the code, retryable and retry_after_ms; AUTH_REQUIRED
// keeps the Provider's message and is not launched by the bridge (the
// scope is still missing afterwards).
func TestErrorsAsToolErrors(t *testing.T) {
	auth := &providertest.Authorizer{Grantable: []string{"g"}}
	limited := func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
		e := protocol.NewError(protocol.CodeRateLimited, "slow down\x1b[2J")
		e.RetryAfter = 10 * time.Minute
		return nil, e
	}
	ok := func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{}`), nil
	}
	desc := provider.Descriptor{ID: "com.example.test", Name: "Test", Description: "d", Versions: []int{2},
		Scopes: []provider.Scope{{Name: "g", Title: "G", Description: "d", Access: provider.AccessRead, Sensitivity: provider.SensitivityOther}}}
	p, err := provider.New(desc, []provider.Tool{
		{Name: "limited", Title: "L", Description: "d", InputSchema: objectSchema, OutputSchema: objectSchema,
			Annotations: annotations(provider.EffectRead, provider.ConfirmNever, provider.ExecSync), Handler: limited},
		{Name: "scoped", Title: "S", Description: "d", InputSchema: objectSchema, OutputSchema: objectSchema, Scopes: []string{"g"},
			Annotations: annotations(provider.EffectRead, provider.ConfirmNever, provider.ExecSync), Handler: ok},
	}, provider.Options{Store: memstore.New(), Authorizer: auth})
	if err != nil {
		t.Fatal(err)
	}
	s := connect(t, consumer.InProcess{Provider: p, Caller: provider.Caller{UID: testUID}}, mcpbridge.Options{})
	res := s.callTool(t, context.Background(), "limited", map[string]any{}, nil)
	if e := errorOf(t, res); e.Code != "RATE_LIMITED" || !e.Retryable || e.RetryAfterMs != 600000 || e.Source != "provider" ||
		!consumer.IsRequestID(e.RequestID) || strings.Contains(text(res), "\x1b") || !strings.Contains(text(res), "retry after 600000 ms") {
		t.Fatalf("RATE_LIMITED: %+v\n%s", e, text(res))
	}
	for range 2 {
		res = s.callTool(t, context.Background(), "scoped", map[string]any{}, nil)
		if e := errorOf(t, res); e.Code != "AUTH_REQUIRED" || e.Message == "" || !strings.Contains(text(res), e.Message) {
			t.Fatalf("AUTH_REQUIRED: %+v\n%s", e, text(res))
		}
	}
	if scopes, _ := auth.Scopes(context.Background(), provider.Caller{UID: testUID}); len(scopes) != 0 {
		t.Fatalf("the bridge launched a grant: %v", scopes)
	}
}
