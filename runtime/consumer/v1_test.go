package consumer_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

// v1Manifest declares v1 only.
var v1Manifest = consumer.Manifest{Version: "1", ServicePackage: "com.example.notes", AuthorityPackage: "com.example.notes"}

// TestV1ReadOnlyPath talks v1 to a dual-stack Provider (which a v1
// Consumer sees as its v1 face): the read tool is listed and runs, the
// write tool is neither listed nor reachable.
func TestV1ReadOnlyPath(t *testing.T) {
	read := provider.Annotations{Effect: provider.EffectRead, Risk: provider.RiskLow, Confirmation: provider.ConfirmNever, Execution: provider.ExecSync}
	write := read
	write.Effect = provider.EffectCreate
	echo := func(_ context.Context, _ *provider.Call, args json.RawMessage) (json.RawMessage, error) {
		return args, nil
	}
	p, err := provider.New(provider.Descriptor{ID: "com.example.notes", Name: "Notes", Versions: []int{1, 2}},
		[]provider.Tool{
			{Name: "echo", Title: "Echo", Description: "d", InputSchema: json.RawMessage(echoSchema), OutputSchema: json.RawMessage(echoSchema), Annotations: read, Handler: echo},
			{Name: "note", Title: "Note", Description: "d", InputSchema: json.RawMessage(echoSchema), OutputSchema: json.RawMessage(echoSchema), Annotations: write, Handler: echo},
		}, provider.Options{Store: memstore.New()})
	if err != nil {
		t.Fatal(err)
	}
	c, err := consumer.OpenV1(v1Manifest, consumer.InProcess{Provider: p, Caller: provider.Caller{UID: 1000}}, consumer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.ListTools(context.Background())
	if err != nil || len(l.Tools) != 1 || l.Tools[0].Name != "echo" || string(l.Tools[0].Parameters) != echoSchema {
		t.Fatalf("ListTools = %+v, %v", l, err)
	}
	if v, err := c.ExecuteTool(context.Background(), "echo", json.RawMessage(`{"text":"v1"}`)); err != nil || string(v) != `{"text":"v1"}` {
		t.Fatalf("echo = %s, %v", v, err)
	}
	if _, err := c.ExecuteTool(context.Background(), "note", json.RawMessage(`{"text":"x"}`)); consumer.CodeOf(err) != protocol.CodeToolNotFound {
		t.Fatalf("a write tool over v1: %v", err)
	}
}

// TestV1NeverForV2: a manifest that declares v2, alone or beside v1,
// never gets a v1 client.
func TestV1NeverForV2(t *testing.T) {
	for _, m := range []consumer.Manifest{
		{Versions: "1,2", Version: "1", ServicePackage: "a.b", AuthorityPackage: "a.b"},
		{Version: "2", ServicePackage: "a.b", AuthorityPackage: "a.b"},
	} {
		if _, err := consumer.OpenV1(m, fake{}, consumer.Options{}); !errors.Is(err, consumer.ErrV2Declared) {
			t.Errorf("%+v: %v", m, err)
		}
	}
}

// TestV1Hostile: a v1 answer with an unknown code, a v2-only code, or
// data that is not JSON is refused, and a call that got no answer is not
// retried.
func TestV1Hostile(t *testing.T) {
	calls := 0
	answers := []protocol.Bundle{
		protocol.V1Error("RUN_SHELL", "x"),
		protocol.V1Error(protocol.CodeUserActionRequired, "x"),
		protocol.V1Success([]byte("not json")),
	}
	c, _ := consumer.OpenV1(v1Manifest, fake{func(string, protocol.Bundle) protocol.Bundle {
		calls++
		return answers[calls-1]
	}}, consumer.Options{})
	for i, want := range []string{"unknown", "unknown", "not JSON"} {
		_, err := c.ExecuteTool(context.Background(), "x", json.RawMessage(`{}`))
		var e *consumer.Error
		switch {
		case want == "unknown" && (!errors.As(err, &e) || e.Code != protocol.CodeInternalError || e.UnknownCode == "" || e.Retryable):
			t.Errorf("answer %d: %v", i, err)
		case want == "not JSON" && (err == nil || consumer.RequestIDOf(err) == ""):
			t.Errorf("answer %d: %v", i, err)
		}
	}
	broken := &hostileTransportCount{}
	c, _ = consumer.OpenV1(v1Manifest, broken, consumer.Options{})
	if _, err := c.ExecuteTool(context.Background(), "x", json.RawMessage(`{}`)); !errors.As(err, new(*consumer.TransportError)) || broken.n != 1 {
		t.Fatalf("no answer: %v after %d calls, want one call", err, broken.n)
	}
}

// hostileTransportCount fails every call as a broken binding would.
type hostileTransportCount struct{ n int }

func (h *hostileTransportCount) Call(context.Context, string, protocol.Bundle) (protocol.Bundle, error) {
	h.n++
	return nil, errors.New("binder died")
}
