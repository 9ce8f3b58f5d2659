package consumer

import (
	"context"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// Transport carries one CETP call to a Provider and returns its response
// Bundle. An error means the call did not complete (the binding broke);
// protocol errors arrive as error envelopes in the Bundle.
type Transport interface {
	Call(ctx context.Context, method string, extras protocol.Bundle) (protocol.Bundle, error)
}

// InProcess is a Transport that calls a Provider in the same process as
// the fixed Caller, the identity a real binding would take from the
// kernel. A Client over InProcess does not validate a result against the
// tool's output schema a second time: the engine validated it against
// the same schema before answering. Every other check of a result (the
// tool listed and accepted, the envelope, the data object) still runs.
type InProcess struct {
	Provider *provider.Provider
	Caller   provider.Caller
}

// Call implements Transport.
func (t InProcess) Call(ctx context.Context, method string, extras protocol.Bundle) (protocol.Bundle, error) {
	return t.Provider.Call(ctx, t.Caller, method, extras), nil
}
