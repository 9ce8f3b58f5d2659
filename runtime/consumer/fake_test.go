package consumer_test

import (
	"context"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// fake answers every call with a fixed Bundle.
type fake struct {
	resp func(method string, req protocol.Bundle) protocol.Bundle
}

func (f fake) Call(_ context.Context, method string, req protocol.Bundle) (protocol.Bundle, error) {
	return f.resp(method, req), nil
}

// readAnnotations are the seven annotations of a plain read tool.
const readAnnotations = `{"effect":"read","risk":"low","destructive":false,"idempotent":true,"open_world":false,"confirmation":"never","execution":"sync"}`

// toolsListing is a list_tools answer with one tool per name, each a read
// tool whose output schema accepts anything.
func toolsListing(names ...string) []byte {
	b := []byte(`{"revision":"r1","tools":[`)
	for i, n := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":"`+n+`","title":"T","description":"d","input_schema":{"type":"object"},"output_schema":{},"scopes":[],"annotations":`+readAnnotations+`}`...)
	}
	return append(b, "]}"...)
}

const goodSession = `{"selected_version":2,"provider_id":"p","provider_name":"P","session_token":"t","capabilities":[],` +
	`"limits":{"max_request_bytes":65536,"max_inline_result_bytes":262144,"max_concurrent_requests":1,"idempotency_window_seconds":86400}}`

// TestHostileResponses proves responses that break the protocol are
// rejected as *ResponseError, never taken as results.
func TestHostileResponses(t *testing.T) {
	cases := map[string]func(req protocol.Bundle) protocol.Bundle{
		"wrong echo": func(req protocol.Bundle) protocol.Bundle {
			return protocol.Success(protocol.Echo{Version: 2, RequestID: "00000000-0000-4000-8000-000000000000"}, protocol.InlineData([]byte(`1`)))
		},
		"file result": func(req protocol.Bundle) protocol.Bundle {
			id, _, _ := req.String(protocol.KeyRequestID)
			return protocol.Success(protocol.Echo{Version: 2, RequestID: id}, []byte(`{"kind":"file","size_bytes":1}`))
		},
		"no version": func(req protocol.Bundle) protocol.Bundle {
			id, _, _ := req.String(protocol.KeyRequestID)
			return protocol.Success(protocol.Echo{RequestID: id}, protocol.InlineData([]byte(`1`)))
		},
	}
	for name, answer := range cases {
		c := consumer.New(fake{func(method string, req protocol.Bundle) protocol.Bundle {
			switch method {
			case protocol.MethodNegotiate:
				return protocol.Success(protocol.Echo{Version: 2}, []byte(goodSession))
			case protocol.MethodListTools:
				id, _, _ := req.String(protocol.KeyRequestID)
				return protocol.Success(protocol.Echo{Version: 2, RequestID: id}, toolsListing("x"))
			}
			return answer(req)
		}}, consumer.Options{})
		_, err := c.ExecuteTool(context.Background(), "x", []byte(`{}`))
		if _, ok := err.(*consumer.ResponseError); !ok {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

// TestAccepted proves that an accepted envelope is followed with
// get_operation under the creating request ID until the operation ends.
func TestAccepted(t *testing.T) {
	polls := 0
	c := consumer.New(fake{func(method string, req protocol.Bundle) protocol.Bundle {
		id, _, _ := req.String(protocol.KeyRequestID)
		echo := protocol.Echo{Version: 2, RequestID: id}
		switch method {
		case protocol.MethodNegotiate:
			return protocol.Success(protocol.Echo{Version: 2}, []byte(largeSession))
		case protocol.MethodListTools:
			return protocol.Success(echo, toolsListing("x"))
		case protocol.MethodGetOperation:
			if op, _, _ := req.String(protocol.KeyOperationID); op != "op_1" {
				t.Errorf("get_operation for %q", op)
			}
			if polls++; polls < 3 {
				return protocol.Success(echo, []byte(`{"operation_id":"op_1","state":"running","poll_after_ms":1}`))
			}
			return protocol.Success(echo, []byte(`{"operation_id":"op_1","state":"succeeded","result":{"kind":"inline","value":{"n":1}}}`))
		}
		return protocol.Accepted(echo, "op_1", 1)
	}}, consumer.Options{})
	v, err := c.ExecuteTool(context.Background(), "x", []byte(`{}`))
	if err != nil || string(v) != `{"n":1}` || polls != 3 {
		t.Fatalf("ExecuteTool = %s, %v after %d polls", v, err, polls)
	}
}

// TestBadSession proves a negotiate answer with an unasked capability or
// low limits is refused.
func TestBadSession(t *testing.T) {
	for _, data := range []string{
		`{"selected_version":2,"session_token":"t","capabilities":["large_results"],"limits":{"max_request_bytes":65536,"max_inline_result_bytes":262144,"max_concurrent_requests":1,"idempotency_window_seconds":86400}}`,
		`{"selected_version":2,"session_token":"t","capabilities":[],"limits":{"max_request_bytes":1}}`,
		`{"selected_version":1,"session_token":"t"}`,
	} {
		c := consumer.New(fake{func(string, protocol.Bundle) protocol.Bundle {
			return protocol.Success(protocol.Echo{Version: 2}, []byte(data))
		}}, consumer.Options{Capabilities: []string{}})
		if _, err := c.Negotiate(context.Background()); err == nil {
			t.Errorf("accepted %s", data)
		}
	}
}
