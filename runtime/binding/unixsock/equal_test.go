package unixsock_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"sync"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// exchange is one call as one side saw it.
type exchange struct {
	method    string
	req, resp protocol.Bundle
}

// recorder records the calls that pass through a Transport.
type recorder struct {
	consumer.Transport
	mu  sync.Mutex
	log []exchange
}

// Call implements consumer.Transport.
func (r *recorder) Call(ctx context.Context, method string, extras protocol.Bundle) (protocol.Bundle, error) {
	resp, err := r.Transport.Call(ctx, method, extras)
	r.mu.Lock()
	r.log = append(r.log, exchange{method, extras, resp})
	r.mu.Unlock()
	return resp, err
}

// recordingHandler records the calls a server hands to its Provider.
type recordingHandler struct {
	*provider.Provider
	mu  sync.Mutex
	log []exchange
}

// Call implements unixsock.Handler.
func (h *recordingHandler) Call(ctx context.Context, c provider.Caller, method string, extras protocol.Bundle) protocol.Bundle {
	resp := h.Provider.Call(ctx, c, method, extras)
	h.mu.Lock()
	h.log = append(h.log, exchange{method, extras, resp})
	h.mu.Unlock()
	return resp
}

// TestSameAsInProcess proves that a consumer.Client over the socket gets
// the same Bundles, byte for byte, as the same calls in process: the
// server receives exactly the request the client sent, and the client
// receives exactly the response the Provider returned; replaying each
// request in process gives the same bytes again (the negotiate answer up
// to its fresh session token and expiry).
func TestSameAsInProcess(t *testing.T) {
	p := newProvider(t, nil)
	h := &recordingHandler{Provider: p}
	rec := &recorder{Transport: dial(t, serve(t, h, unixsock.Options{}))}
	// No automatic retries: the failing call must be one exchange.
	c := consumer.New(rec, consumer.Options{MaxRetries: -1})
	runCalls(t, c, rec)
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.log) != len(rec.log) || len(rec.log) != 5 {
		t.Fatalf("%d calls served, %d made", len(h.log), len(rec.log))
	}
	in := consumer.InProcess{Provider: p, Caller: provider.Caller{UID: os.Getuid()}}
	for i, x := range rec.log {
		mustEqual(t, x.method+" request", h.log[i].req, x.req)
		mustEqual(t, x.method+" response", h.log[i].resp, x.resp)
		again, _ := in.Call(context.Background(), x.method, x.req)
		if x.method == protocol.MethodNegotiate {
			again, x.resp = maskSession(t, again), maskSession(t, x.resp)
		}
		mustEqual(t, x.method+" in process", again, x.resp)
	}
}

// runCalls makes negotiate, list_tools, a successful and a failing
// execute_tool, and a call of an unknown method.
func runCalls(t *testing.T, c *consumer.Client, tr consumer.Transport) {
	ctx := context.Background()
	if _, err := c.ListTools(ctx); err != nil { // negotiates first
		t.Fatal(err)
	}
	out, err := c.ExecuteTool(ctx, "echo", json.RawMessage(`{"text":"héllo"}`))
	if err != nil || string(out) != `{"text":"héllo"}` {
		t.Fatalf("echo: %s %v", out, err)
	}
	if _, err := c.ExecuteTool(ctx, "fail", json.RawMessage(`{}`)); consumer.CodeOf(err) != protocol.CodeConflict {
		t.Fatalf("fail: %v", err)
	}
	resp, err := tr.Call(ctx, "no_such_method", envelope(c.Session().Token))
	if code, _, _ := resp.String(protocol.KeyErrorCode); err != nil || code != string(protocol.CodeMethodNotFound) {
		t.Fatalf("unknown method: %v %v", resp, err)
	}
}

// mustEqual fails unless a and b encode to the same bytes.
func mustEqual(t *testing.T, what string, a, b protocol.Bundle) {
	t.Helper()
	ea, err1 := protocol.MarshalBundle(a)
	eb, err2 := protocol.MarshalBundle(b)
	if err1 != nil || err2 != nil || !bytes.Equal(ea, eb) {
		t.Fatalf("%s differs:\n%v\n%v", what, a, b)
	}
}

// maskSession blanks the session token and expiry of a negotiate answer.
func maskSession(t *testing.T, b protocol.Bundle) protocol.Bundle {
	data, _, _ := b.String(protocol.KeyData)
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(data), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "session_token")
	delete(m, "expires_at")
	masked, _ := json.Marshal(m)
	out := protocol.Bundle{}
	for k, v := range b {
		out[k] = v
	}
	out[protocol.KeyData] = protocol.String(masked)
	return out
}
