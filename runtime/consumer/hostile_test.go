package consumer_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// hostile is a Provider test double that breaks one Consumer rule at a
// time: its negotiate data, its tool listing and its execute_tool answer
// are set per case, and it counts the calls of each method, so a test can
// prove what the Consumer refused to send.
type hostile struct {
	session string
	listing string
	execute func(echo protocol.Echo) protocol.Bundle

	mu    sync.Mutex
	calls map[string]int
}

func (h *hostile) Call(_ context.Context, method string, req protocol.Bundle) (protocol.Bundle, error) {
	h.mu.Lock()
	if h.calls == nil {
		h.calls = map[string]int{}
	}
	h.calls[method]++
	h.mu.Unlock()
	id, _, _ := req.String(protocol.KeyRequestID)
	echo := protocol.Echo{Version: 2, RequestID: id}
	switch method {
	case protocol.MethodNegotiate:
		return protocol.Success(protocol.Echo{Version: 2}, []byte(h.session)), nil
	case protocol.MethodListTools:
		return protocol.Success(echo, []byte(h.listing)), nil
	case protocol.MethodExecuteTool:
		return h.execute(echo), nil
	}
	return protocol.Success(echo, []byte(`{"operation_id":"op_1","state":"succeeded","result":{"kind":"inline","value":{}}}`)), nil
}

func (h *hostile) count(method string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.calls[method]
}

// sessionWith is a valid negotiate answer with one field replaced.
func sessionWith(field string, value any) string {
	var s map[string]any
	json.Unmarshal([]byte(goodSession), &s)
	s[field] = value
	b, _ := json.Marshal(s)
	return string(b)
}

func inline(value string) func(protocol.Echo) protocol.Bundle {
	return func(echo protocol.Echo) protocol.Bundle {
		return protocol.Success(echo, protocol.InlineData([]byte(value)))
	}
}

// listingWith is a listing of the tools "good" and "odd", odd with the
// given annotations and output schema.
func listingWith(annotations, outputSchema string) string {
	return `{"revision":"r1","tools":[` +
		`{"name":"good","title":"G","description":"d","input_schema":{"type":"object"},"output_schema":{},"scopes":[],"annotations":` + readAnnotations + `},` +
		`{"name":"odd","title":"O","description":"d","input_schema":{"type":"object"},"output_schema":` + outputSchema + `,"scopes":[],"annotations":` + annotations + `}]}`
}

// TestHostileAnnotations: a tool whose safety annotations are missing,
// incomplete, unknown or contradictory is dropped with a reason the
// caller can read, and a result of it is never accepted (§3.2).
func TestHostileAnnotations(t *testing.T) {
	cases := map[string]struct{ annotations, reason string }{
		"no annotations":         {`null`, "annotation effect is missing"},
		"unknown effect":         {strings.Replace(readAnnotations, `"effect":"read"`, `"effect":"teleport"`, 1), "annotation effect has an unknown value"},
		"missing risk":           {strings.Replace(readAnnotations, `"risk":"low",`, ``, 1), "annotation risk is missing"},
		"boolean as a string":    {strings.Replace(readAnnotations, `"destructive":false`, `"destructive":"no"`, 1), "destructive is missing or not a boolean"},
		"missing open_world":     {strings.Replace(readAnnotations, `,"open_world":false`, ``, 1), "open_world is missing"},
		"delete without confirm": {strings.Replace(readAnnotations, `"effect":"read"`, `"effect":"delete"`, 1), "without confirmation always"},
		"sync_or_async unasked":  {strings.Replace(readAnnotations, `"execution":"sync"`, `"execution":"sync_or_async"`, 1), "without async_operations"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := &hostile{session: goodSession, listing: listingWith(tc.annotations, `{}`), execute: inline(`{}`)}
			c := consumer.New(h, consumer.Options{Capabilities: []string{}})
			l, err := c.ListTools(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Tools) != 1 || l.Tools[0].Name != "good" || len(l.Rejected) != 1 || l.Rejected[0].Name != "odd" ||
				!strings.Contains(l.Rejected[0].Reason, tc.reason) {
				t.Fatalf("kept %v, rejected %+v; want odd rejected for %q", l.Tools, l.Rejected, tc.reason)
			}
			if _, err := c.ExecuteTool(context.Background(), "odd", json.RawMessage(`{}`)); err == nil || !strings.Contains(err.Error(), "cannot verify") {
				t.Fatalf("a result of the rejected tool: %v", err)
			}
			if _, err := c.ExecuteTool(context.Background(), "good", json.RawMessage(`{}`)); err != nil {
				t.Fatalf("the good tool: %v", err)
			}
		})
	}
}

// TestHostileIdentifiers: provider_id, revision and operation_id that
// are too long or not of their form are refused; provider_name is cut.
func TestHostileIdentifiers(t *testing.T) {
	long := strings.Repeat("a", 300)
	for name, session := range map[string]string{
		"long provider_id":  sessionWith("provider_id", "com."+long),
		"provider_id shape": sessionWith("provider_id", "com.example/../evil"),
		"empty provider_id": sessionWith("provider_id", ""),
	} {
		h := &hostile{session: session, listing: toolsListingString("x"), execute: inline(`{}`)}
		_, err := consumer.New(h, consumer.Options{}).ExecuteTool(context.Background(), "x", json.RawMessage(`{}`))
		var re *consumer.ResponseError
		if !errors.As(err, &re) || !strings.Contains(re.Reason, "provider_id") || h.count(protocol.MethodExecuteTool) != 0 {
			t.Errorf("%s: %v after %d executions", name, err, h.count(protocol.MethodExecuteTool))
		}
	}
	h := &hostile{session: sessionWith("provider_name", strings.Repeat("名", 5000)), listing: `{"revision":"` + long + `","tools":[]}`}
	c := consumer.New(h, consumer.Options{})
	s, err := c.Negotiate(context.Background())
	if err != nil || len(s.ProviderName) > consumer.MaxProviderName {
		t.Fatalf("provider_name of %d bytes kept (%v)", len(s.ProviderName), err)
	}
	if _, err := c.ListTools(context.Background()); err == nil || !strings.Contains(err.Error(), "revision is longer") {
		t.Fatalf("revision of 300 bytes: %v", err)
	}
	h = &hostile{session: largeSession, listing: toolsListingString("x"), execute: func(echo protocol.Echo) protocol.Bundle {
		return protocol.Accepted(echo, "op_"+long, 1)
	}}
	if _, err := consumer.New(h, consumer.Options{}).ExecuteTool(context.Background(), "x", json.RawMessage(`{}`)); err == nil ||
		!strings.Contains(err.Error(), "operation_id is longer") || h.count(protocol.MethodGetOperation) != 0 {
		t.Fatalf("operation_id of 303 bytes: %v", err)
	}
}

func toolsListingString(names ...string) string { return string(toolsListing(names...)) }

// TestHostileWrongProvider: a client that expects one provider_id sends
// nothing past negotiate to a Provider that answers with another.
func TestHostileWrongProvider(t *testing.T) {
	h := &hostile{session: sessionWith("provider_id", "com.evil.app"), listing: toolsListingString("x"), execute: inline(`{}`)}
	c := consumer.New(h, consumer.Options{ProviderID: "com.example.app"})
	_, err := c.ExecuteTool(context.Background(), "x", json.RawMessage(`{"secret":"s"}`))
	var pm *consumer.ProviderMismatchError
	if !errors.As(err, &pm) || pm.Got != "com.evil.app" || pm.Want != "com.example.app" {
		t.Fatalf("ExecuteTool = %v, want a ProviderMismatchError", err)
	}
	if h.count(protocol.MethodExecuteTool)+h.count(protocol.MethodListTools) != 0 || c.Session() != nil {
		t.Fatalf("sent %v to the wrong Provider; session %v", h.calls, c.Session())
	}
}

// TestHostileResultSchema: a result that breaks its tool's output schema
// is refused, inline or not, on a client that never listed the tools
// itself (the list is fetched once per session).
func TestHostileResultSchema(t *testing.T) {
	h := &hostile{session: goodSession, listing: listingWith(readAnnotations, `{"type":"object","required":["alert_id"]}`),
		execute: inline(`{"rm":"-rf"}`)}
	c := consumer.New(h, consumer.Options{})
	for range 2 {
		if _, err := c.ExecuteTool(context.Background(), "odd", json.RawMessage(`{}`)); err == nil || !strings.Contains(err.Error(), "output schema") {
			t.Fatalf("a result breaking its schema: %v", err)
		}
	}
	if n := h.count(protocol.MethodListTools); n != 1 {
		t.Fatalf("list_tools sent %d times in one session, want once", n)
	}
}

// TestHostileRetryAfter: a retry_after_ms of ten minutes is obeyed by not
// retrying: the error comes back at once with its RetryAfter.
func TestHostileRetryAfter(t *testing.T) {
	h := &hostile{session: goodSession, listing: toolsListingString("x"), execute: failWith(protocol.CodeUnavailable, true, 10*time.Minute)}
	start := time.Now()
	_, err := consumer.New(h, consumer.Options{}).ExecuteTool(context.Background(), "x", json.RawMessage(`{}`))
	var e *consumer.Error
	if !errors.As(err, &e) || e.Code != protocol.CodeUnavailable || e.RetryAfter != 10*time.Minute || e.RequestID == "" {
		t.Fatalf("ExecuteTool = %v", err)
	}
	if n := h.count(protocol.MethodExecuteTool); n != 1 || time.Since(start) > 5*time.Second {
		t.Fatalf("%d executions, returned after %v; want one, at once", n, time.Since(start))
	}
	h = &hostile{session: goodSession, listing: toolsListingString("x"), execute: failWith(protocol.CodeUnavailable, true, 500*time.Millisecond)}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := consumer.New(h, consumer.Options{}).ExecuteTool(ctx, "x", json.RawMessage(`{}`)); consumer.CodeOf(err) != protocol.CodeUnavailable ||
		h.count(protocol.MethodExecuteTool) != 1 {
		t.Fatalf("a wait past the caller's deadline: %v after %d executions", err, h.count(protocol.MethodExecuteTool))
	}
}

// TestHostileNegotiationRequired: NEGOTIATION_REQUIRED with retryable
// false is returned as it is, without a new negotiation.
func TestHostileNegotiationRequired(t *testing.T) {
	h := &hostile{session: goodSession, listing: toolsListingString("x"), execute: failWith(protocol.CodeNegotiationRequired, false, 0)}
	_, err := consumer.New(h, consumer.Options{}).ExecuteTool(context.Background(), "x", json.RawMessage(`{}`))
	if consumer.CodeOf(err) != protocol.CodeNegotiationRequired || h.count(protocol.MethodNegotiate) != 1 || h.count(protocol.MethodExecuteTool) != 1 {
		t.Fatalf("ExecuteTool = %v after %v", err, h.calls)
	}
	h = &hostile{session: goodSession, listing: toolsListingString("x"), execute: failWith(protocol.CodeNegotiationRequired, true, 0)}
	consumer.New(h, consumer.Options{MaxRetries: -1}).ExecuteTool(context.Background(), "x", json.RawMessage(`{}`))
	if h.count(protocol.MethodNegotiate) != 2 || h.count(protocol.MethodExecuteTool) != 2 {
		t.Fatalf("retryable NEGOTIATION_REQUIRED: calls %v, want one renegotiation and one resend", h.calls)
	}
}

// TestHostileAcceptedWithoutCapability: an accepted answer on a session
// without async_operations breaks the protocol and is never polled; and
// get_operation and cancel_operation are never sent on such a session.
func TestHostileAcceptedWithoutCapability(t *testing.T) {
	h := &hostile{session: goodSession, listing: toolsListingString("x"), execute: func(echo protocol.Echo) protocol.Bundle {
		return protocol.Accepted(echo, "op_1", 1)
	}}
	c := consumer.New(h, consumer.Options{})
	_, err := c.ExecuteTool(context.Background(), "x", json.RawMessage(`{}`))
	var re *consumer.ResponseError
	if !errors.As(err, &re) || !strings.Contains(re.Reason, "without async_operations") || re.RequestID == "" {
		t.Fatalf("ExecuteTool = %v", err)
	}
	op := &consumer.Operation{ID: "op_1", RequestID: re.RequestID, Tool: "x"}
	_, gerr := c.GetOperation(context.Background(), op)
	cerr := c.CancelOperation(context.Background(), op)
	if consumer.CodeOf(gerr) != protocol.CodeUnsupportedCapability || consumer.CodeOf(cerr) != protocol.CodeUnsupportedCapability {
		t.Fatalf("GetOperation = %v, CancelOperation = %v", gerr, cerr)
	}
	if h.count(protocol.MethodGetOperation)+h.count(protocol.MethodCancelOperation) != 0 {
		t.Fatalf("sent %v", h.calls)
	}
}

// TestRevisionCheckedAfterNegotiation: after a renegotiation the tool
// list is fetched again before a result is accepted, so a changed output
// schema (a new revision) applies at once (§3.3).
func TestRevisionCheckedAfterNegotiation(t *testing.T) {
	h := &hostile{session: goodSession, listing: listingWith(readAnnotations, `{"type":"object","required":["a"]}`), execute: inline(`{"a":1}`)}
	c := consumer.New(h, consumer.Options{})
	if _, err := c.ExecuteTool(context.Background(), "odd", json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	renegotiate := true
	h.mu.Lock()
	h.listing = strings.Replace(listingWith(readAnnotations, `{"type":"object","required":["b"]}`), `"r1"`, `"r2"`, 1)
	h.execute = func(echo protocol.Echo) protocol.Bundle {
		if renegotiate {
			renegotiate = false
			return failWith(protocol.CodeNegotiationRequired, true, 0)(echo)
		}
		return inline(`{"a":1}`)(echo)
	}
	h.mu.Unlock()
	_, err := c.ExecuteTool(context.Background(), "odd", json.RawMessage(`{}`))
	if err == nil || !strings.Contains(err.Error(), "output schema") || c.Revision() != "r2" {
		t.Fatalf("after renegotiation: %v, revision %q", err, c.Revision())
	}
	if n, m := h.count(protocol.MethodNegotiate), h.count(protocol.MethodListTools); n != 2 || m != 2 {
		t.Fatalf("%d negotiations, %d listings; want 2 and 2", n, m)
	}
}
