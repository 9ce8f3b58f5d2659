package provider_test

import (
	"testing"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
)

// checkEnvelope asserts what every v2 response must be, whatever the
// request: well-typed, a known status, and for errors a known code, a
// message within bounds and a retryable flag.
func checkEnvelope(t *testing.T, b protocol.Bundle) {
	t.Helper()
	if err := b.CheckKnownTypes(); err != nil {
		t.Fatalf("mistyped response: %v", err)
	}
	status, _, _ := b.String(protocol.KeyStatus)
	switch status {
	case protocol.StatusSuccess:
		if !b.Has(protocol.KeyData) {
			t.Fatalf("success without data: %v", b)
		}
	case protocol.StatusError:
		code, _, _ := b.String(protocol.KeyErrorCode)
		msg, _, _ := b.String(protocol.KeyErrorMessage)
		details, _, _ := b.String(protocol.KeyErrorDetails)
		if !protocol.Code(code).Known() || msg == "" || len(msg) > protocol.MaxErrorMessageBytes || len(details) > protocol.MaxErrorDetailsBytes {
			t.Fatalf("bad error envelope: %v", b)
		}
		if b.Has(protocol.KeyProtocolVersion) && !b.Has(protocol.KeyRetryable) {
			t.Fatalf("v2 error without retryable: %v", b)
		}
	default:
		t.Fatalf("status %q: %v", status, b)
	}
	if id, _, _ := b.String(protocol.KeyRequestID); len(id) > 128 {
		t.Fatalf("echoed an unbounded request_id")
	}
}

// FuzzCall feeds arbitrary methods and binary Bundles to a Provider.
func FuzzCall(f *testing.F) {
	fx := newFixture(f, fixtureConfig{})
	c := fx.client(f, callerA)
	seed := func(method string, b protocol.Bundle) {
		raw, err := protocol.MarshalBundle(b)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(method, raw)
	}
	env := c.Envelope(providertest.NewRequestID())
	env[protocol.KeyToolName], env[protocol.KeyArgs] = protocol.String("get_quote"), protocol.String(`{"symbol":"A"}`)
	seed(protocol.MethodExecuteTool, env)
	seed(protocol.MethodListTools, protocol.Bundle{})
	seed(protocol.MethodNegotiate, protocol.Bundle{protocol.KeyConsumerVersions: protocol.IntArray{2, 1}, protocol.KeyConsumerCapabilities: protocol.String("[]")})
	seed("bogus", protocol.Bundle{protocol.KeyProtocolVersion: protocol.Int(2)})
	f.Fuzz(func(t *testing.T, method string, raw []byte) {
		b, err := protocol.UnmarshalBundle(raw)
		if err != nil {
			return
		}
		if b.Has(protocol.KeySessionToken) {
			b[protocol.KeySessionToken] = protocol.String(c.Token)
		}
		checkEnvelope(t, fx.p.Call(ctx, callerA, method, b))
	})
}

// FuzzExecuteArgs feeds arbitrary args and tool names, with a valid
// envelope, through execute_tool (read and write tools, v2 and v1).
func FuzzExecuteArgs(f *testing.F) {
	fx := newFixture(f, fixtureConfig{})
	c := fx.client(f, callerA)
	for _, s := range []string{`{"symbol":"AAPL"}`, `{"symbol":"AAPL","price":1}`, `{`, `[]`, `null`, `{"symbol":"BIG"}`,
		`{"symbol":"PANIC"}`, `{"alert_id":""}`, "{\"symbol\":\"\xff\"}", `{"price":1e400}`} {
		f.Add("get_quote", s)
		f.Add("create_alert", s)
	}
	f.Add("delete_alert", `{"alert_id":"a"}`)
	f.Fuzz(func(t *testing.T, tool, args string) {
		b := c.Execute(ctx, providertest.NewRequestID(), tool, args, "")
		checkEnvelope(t, b)
		v1 := fx.p.Call(ctx, callerA, protocol.MethodExecuteTool, protocol.Bundle{
			protocol.KeyToolName: protocol.String(tool), protocol.KeyArgs: protocol.String(args)})
		checkEnvelope(t, v1)
	})
}
