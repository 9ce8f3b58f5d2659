package consumer_test

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

const echoSchema = `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`

// newProvider builds a Provider with a read tool that echoes, a read tool
// that fails with CONFLICT, and a write tool guarded by a scope.
func newProvider(t *testing.T) *provider.Provider {
	t.Helper()
	auth := &providertest.Authorizer{}
	auth.Grant(1000, "notes.write")
	read := provider.Annotations{Effect: provider.EffectRead, Risk: provider.RiskLow,
		Confirmation: provider.ConfirmNever, Execution: provider.ExecSync}
	write := read
	write.Effect, write.Confirmation = provider.EffectCreate, provider.ConfirmNever
	echo := func(_ context.Context, _ *provider.Call, args json.RawMessage) (json.RawMessage, error) {
		return args, nil
	}
	fail := func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
		e := protocol.NewError(protocol.CodeConflict, "busy").WithRetryable(true)
		e.RetryAfter, e.Details = 250*time.Millisecond, json.RawMessage(`{"why":"busy"}`)
		return nil, e
	}
	p, err := provider.New(provider.Descriptor{ID: "com.example.notes", Name: "Notes", Versions: []int{2},
		Scopes: []provider.Scope{{Name: "notes.write", Title: "w", Description: "w", Access: provider.AccessWrite, Sensitivity: provider.SensitivityPersonal}}},
		[]provider.Tool{
			{Name: "echo", Title: "Echo", Description: "d", InputSchema: json.RawMessage(echoSchema), OutputSchema: json.RawMessage(echoSchema), Annotations: read, Handler: echo},
			{Name: "fail", Title: "Fail", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{}`), Annotations: read, Handler: fail},
			{Name: "note", Title: "Note", Description: "d", InputSchema: json.RawMessage(echoSchema), OutputSchema: json.RawMessage(echoSchema), Scopes: []string{"notes.write"}, Annotations: write, Handler: echo},
		}, provider.Options{Store: memstore.New(), Authorizer: auth})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func newClient(t *testing.T, uid int) *consumer.Client {
	return consumer.New(consumer.InProcess{Provider: newProvider(t), Caller: provider.Caller{UID: uid}}, consumer.Options{})
}

// TestNegotiateKeepsSession proves negotiate selects v2, keeps the session
// and grants no capability that was not asked for.
func TestNegotiateKeepsSession(t *testing.T) {
	c := newClient(t, 1000)
	s, err := c.Negotiate(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if s.Version != 2 || s.ProviderID != "com.example.notes" || s.Token == "" || len(s.Capabilities) != 0 {
		t.Fatalf("session %+v", s)
	}
	if c.Session() != s || s.Limits.MaxRequestBytes < 65536 || s.ExpiresAt.IsZero() {
		t.Fatalf("session not kept or incomplete: %+v", c.Session())
	}
}

// TestListTools proves list_tools is called with a valid envelope and
// decodes the revision and the tools.
func TestListTools(t *testing.T) {
	l, err := newClient(t, 1000).ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if l.Revision == "" || len(l.Tools) != 3 || l.Tools[0].Name != "echo" || string(l.Tools[0].InputSchema) != echoSchema {
		t.Fatalf("tools %+v", l)
	}
}

// TestExecuteSuccess proves a success envelope decodes into the inline
// value, negotiating lazily.
func TestExecuteSuccess(t *testing.T) {
	out, err := newClient(t, 1000).ExecuteTool(context.Background(), "echo", json.RawMessage(`{"text":"hi"}`))
	if err != nil || string(out) != `{"text":"hi"}` {
		t.Fatalf("got %s, %v", out, err)
	}
}

// TestExecuteErrors proves error envelopes decode into *Error with code,
// message, retryable, retry_after and details.
func TestExecuteErrors(t *testing.T) {
	c := newClient(t, 1000)
	_, err := c.ExecuteTool(context.Background(), "fail", json.RawMessage(`{}`))
	var e *consumer.Error
	if !errors.As(err, &e) || e.Code != protocol.CodeConflict || e.Message != "busy" || !e.Retryable ||
		e.RetryAfter != 250*time.Millisecond || string(e.Details) != `{"why":"busy"}` || e.RequestID == "" {
		t.Fatalf("error %#v", err)
	}
	for tool, want := range map[string]protocol.Code{"nope": protocol.CodeToolNotFound, "echo": protocol.CodeInvalidArgs} {
		_, err := c.ExecuteTool(context.Background(), tool, json.RawMessage(`{"text":1}`))
		if consumer.CodeOf(err) != want {
			t.Errorf("%s: got %v, want %s", tool, err, want)
		}
	}
	_, err = newClient(t, 2000).ExecuteTool(context.Background(), "note", json.RawMessage(`{"text":"x"}`))
	if consumer.CodeOf(err) != protocol.CodePermissionDenied {
		t.Errorf("unauthorized caller: %v", err)
	}
}

// idRecorder is a transport that records the request ID of every
// execute_tool it carries.
type idRecorder struct {
	inner consumer.Transport
	mu    sync.Mutex
	ids   []string
}

func (r *idRecorder) Call(ctx context.Context, method string, req protocol.Bundle) (protocol.Bundle, error) {
	if method == protocol.MethodExecuteTool {
		id, _, _ := req.String(protocol.KeyRequestID)
		r.mu.Lock()
		r.ids = append(r.ids, id)
		r.mu.Unlock()
	}
	return r.inner.Call(ctx, method, req)
}

// TestRequestIDs proves every execution gets a fresh UUID, that
// ExecuteToolID replays a write under the same ID, and that
// WithRequestID makes ExecuteTool (and so Invoke, the typed methods) use
// the caller's ID.
func TestRequestIDs(t *testing.T) {
	tr := &idRecorder{inner: consumer.InProcess{Provider: newProvider(t), Caller: provider.Caller{UID: 1000}}}
	c := consumer.New(tr, consumer.Options{})
	for range 2 {
		if _, err := c.ExecuteTool(context.Background(), "note", json.RawMessage(`{"text":"x"}`)); err != nil {
			t.Fatal(err)
		}
	}
	ids := tr.ids
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	if len(ids) != 2 || ids[0] == ids[1] || !uuid.MatchString(ids[0]) {
		t.Fatalf("ids %v", ids)
	}
	_, err := c.ExecuteToolID(context.Background(), ids[0], "note", json.RawMessage(`{"text":"other"}`))
	if consumer.CodeOf(err) != protocol.CodeInvalidRequest || consumer.RequestIDOf(err) != ids[0] {
		t.Fatalf("same ID with other args: %v", err)
	}
	mine := consumer.NewRequestID()
	ctx := consumer.WithRequestID(context.Background(), mine)
	type msg struct {
		Text string `json:"text"`
	}
	if _, err := consumer.Invoke[msg](ctx, c, "note", msg{Text: "y"}); err != nil {
		t.Fatal(err)
	}
	if _, err := consumer.Invoke[msg](ctx, c, "note", msg{Text: "z"}); consumer.CodeOf(err) != protocol.CodeInvalidRequest || consumer.RequestIDOf(err) != mine {
		t.Fatalf("a second, different call under the caller's ID: %v", err)
	}
	if last := tr.ids[len(tr.ids)-1]; last != mine {
		t.Fatalf("Invoke under WithRequestID sent request ID %s, want %s", last, mine)
	}
}

// TestDeadline proves the context's deadline becomes deadline_at_ms: a
// past deadline is DEADLINE_EXCEEDED.
func TestDeadline(t *testing.T) {
	c := newClient(t, 1000)
	if _, err := c.Negotiate(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err := c.ExecuteTool(ctx, "echo", json.RawMessage(`{"text":"hi"}`))
	if consumer.CodeOf(err) != protocol.CodeDeadlineExceeded {
		t.Fatalf("got %v", err)
	}
}

// TestRenegotiates proves a lost session (NEGOTIATION_REQUIRED) is
// renegotiated once and the call resent.
func TestRenegotiates(t *testing.T) {
	tr := consumer.InProcess{Provider: newProvider(t), Caller: provider.Caller{UID: 1000}}
	c := consumer.New(tr, consumer.Options{})
	if _, err := c.Negotiate(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Session().Token = "stale"
	if _, err := c.ExecuteTool(context.Background(), "echo", json.RawMessage(`{"text":"hi"}`)); err != nil {
		t.Fatalf("got %v", err)
	}
	if c.Session().Token == "stale" {
		t.Fatal("session not renewed")
	}
}

// TestInvoke proves the typed helper encodes the input and decodes the
// output.
func TestInvoke(t *testing.T) {
	type msg struct {
		Text string `json:"text"`
	}
	out, err := consumer.Invoke[msg](context.Background(), newClient(t, 1000), "echo", msg{Text: "typed"})
	if err != nil || out.Text != "typed" {
		t.Fatalf("got %+v, %v", out, err)
	}
}
