package provider_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
)

// conformanceCase is one case of the suite: run performs the calls and
// returns the response under test and the exact envelope it must have;
// post, when set, asserts what else must hold (effects, data).
type conformanceCase struct {
	name string
	cfg  fixtureConfig
	run  func(t *testing.T, f *fixture) (protocol.Bundle, want)
	post func(t *testing.T, f *fixture, b protocol.Bundle)
}

func runCases(t *testing.T, cases []conformanceCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { runCase(t, tc, tc.cfg) })
	}
	runCasesPostgres(t, cases)
}

func runCase(t *testing.T, tc conformanceCase, cfg fixtureConfig) {
	f := newFixture(t, cfg)
	b, w := tc.run(t, f)
	check(t, b, w)
	if tc.post != nil {
		tc.post(t, f, b)
	}
}

var ctx = context.Background()

func negotiate(f *fixture, caller provider.Caller, versions protocol.IntArray, caps string) protocol.Bundle {
	return f.p.Call(ctx, caller, protocol.MethodNegotiate, protocol.Bundle{
		protocol.KeyConsumerVersions:     versions,
		protocol.KeyConsumerCapabilities: protocol.String(caps),
	})
}

func noEffect(tool string) func(t *testing.T, f *fixture, b protocol.Bundle) {
	return func(t *testing.T, f *fixture, _ protocol.Bundle) {
		t.Helper()
		if n := f.count(tool).Load(); n != 0 {
			t.Fatalf("%s ran %d times, want 0", tool, n)
		}
	}
}

func effects(tool string, want int64) func(t *testing.T, f *fixture, b protocol.Bundle) {
	return func(t *testing.T, f *fixture, _ protocol.Bundle) {
		t.Helper()
		if n := f.count(tool).Load(); n != want {
			t.Fatalf("%s ran %d times, want %d", tool, n, want)
		}
	}
}

// TestConformanceVersions covers §9 "manifest 版本集合、无共同版本和双栈回退"
// and the method table of §4.
func TestConformanceVersions(t *testing.T) {
	id := providertest.NewRequestID()
	runCases(t, []conformanceCase{
		{name: "no common version", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return negotiate(f, callerA, protocol.IntArray{4, 3}, `[]`), err2(protocol.CodeUnsupportedVersion, false, "")
		}},
		{name: "v2-only provider refuses a v1-only consumer", cfg: fixtureConfig{versions: []int{2}}, run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return negotiate(f, callerA, protocol.IntArray{1}, `[]`), err2(protocol.CodeUnsupportedVersion, false, "")
		}},
		{name: "highest common version with session", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return negotiate(f, callerA, protocol.IntArray{2, 1}, `["large_results","future_cap"]`), ok2("")
		}, post: func(t *testing.T, f *fixture, b protocol.Bundle) {
			d := data(t, b)
			tok, _ := d["session_token"].(string)
			if d["selected_version"] != 2.0 || d["provider_id"] != providerA || len(tok) < 32 || len(tok) > 256 {
				t.Fatalf("negotiate data = %v", d)
			}
			if caps := d["capabilities"].([]any); len(caps) != 0 {
				t.Fatalf("capabilities %v granted beyond what the runtime implements", caps)
			}
			lim := d["limits"].(map[string]any)
			if lim["max_request_bytes"].(float64) < 65536 || lim["max_inline_result_bytes"].(float64) < 262144 ||
				lim["max_concurrent_requests"].(float64) < 1 || lim["idempotency_window_seconds"].(float64) < 86400 {
				t.Fatalf("limits below the minimums: %v", lim)
			}
			if _, err := time.Parse(time.RFC3339, d["expires_at"].(string)); err != nil {
				t.Fatalf("expires_at: %v", err)
			}
			other := data(t, negotiate(f, callerA, protocol.IntArray{2}, `[]`))["session_token"]
			if other == tok {
				t.Fatal("two negotiations returned the same token")
			}
		}},
		{name: "dual stack: v1-only consumer gets version 1 without session", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return negotiate(f, callerA, protocol.IntArray{1}, `[]`), want{status: protocol.StatusSuccess, version: 1}
		}, post: func(t *testing.T, f *fixture, b protocol.Bundle) {
			if d := data(t, b); d["selected_version"] != 1.0 || d["session_token"] != nil {
				t.Fatalf("data = %v", d)
			}
		}},
		{name: "dual stack v1 list_tools shows only read tools in v1 format", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return f.p.Call(ctx, callerA, protocol.MethodListTools, nil), want{status: protocol.StatusSuccess}
		}, post: func(t *testing.T, f *fixture, b protocol.Bundle) {
			var d struct {
				Tools []map[string]json.RawMessage `json:"tools"`
			}
			s, _, _ := b.String(protocol.KeyData)
			if err := json.Unmarshal([]byte(s), &d); err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range d.Tools {
				var n string
				json.Unmarshal(tool["name"], &n)
				names = append(names, n)
				if len(tool) != 3 || tool["parameters"] == nil || tool["description"] == nil {
					t.Fatalf("v1 tool entry %v is not {name, description, parameters}", tool)
				}
			}
			wantNames := []string{"admin_stats", "get_quote", "hidden_tool", "list_alerts", "peek_secret"}
			if !slices.Equal(names, wantNames) {
				t.Fatalf("v1 tools = %v, want %v", names, wantNames)
			}
		}},
		{name: "dual stack v1 execute of a write tool never reaches it", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			f.auth.Grant(callerA.UID, "alerts.write")
			return f.p.Call(ctx, callerA, protocol.MethodExecuteTool, protocol.Bundle{
				protocol.KeyToolName: protocol.String("create_alert"),
				protocol.KeyArgs:     protocol.String(`{"symbol":"AAPL","price":1}`),
			}), want{status: protocol.StatusError, code: protocol.CodeToolNotFound}
		}, post: noEffect("create_alert")},
		{name: "dual stack v1 explicit protocol_version 1 never reaches a write tool", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return f.p.Call(ctx, callerA, protocol.MethodExecuteTool, protocol.Bundle{
				protocol.KeyProtocolVersion: protocol.Int(1),
				protocol.KeyToolName:        protocol.String("touch_alert"),
				protocol.KeyArgs:            protocol.String(`{}`),
			}), want{status: protocol.StatusError, code: protocol.CodeToolNotFound}
		}, post: noEffect("touch_alert")},
		{name: "dual stack v1 execute of a read tool", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return f.p.Call(ctx, callerA, protocol.MethodExecuteTool, protocol.Bundle{
				protocol.KeyToolName: protocol.String("get_quote"),
				protocol.KeyArgs:     protocol.String(`{"symbol":"AAPL"}`),
			}), want{status: protocol.StatusSuccess}
		}, post: func(t *testing.T, f *fixture, b protocol.Bundle) {
			if d := data(t, b); d["price"] != 1.5 {
				t.Fatalf("v1 data = %v, want the bare value", d)
			}
		}},
		{name: "dual stack v1 read tool needing confirmation is refused", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return f.p.Call(ctx, callerA, protocol.MethodExecuteTool, protocol.Bundle{
				protocol.KeyToolName: protocol.String("peek_secret"), protocol.KeyArgs: protocol.String(`{}`),
			}), want{status: protocol.StatusError, code: protocol.CodePermissionDenied}
		}, post: noEffect("peek_secret")},
		{name: "dual stack v1 unknown method", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return f.p.Call(ctx, callerA, "drop_tables", nil), want{status: protocol.StatusError, code: protocol.CodeToolNotFound}
		}},
		{name: "v2-only provider refuses a call without protocol_version", cfg: fixtureConfig{versions: []int{2}}, run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return f.p.Call(ctx, callerA, protocol.MethodListTools, nil), err2(protocol.CodeUnsupportedVersion, false, "")
		}},
		{name: "unsupported protocol_version", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			b := c.Envelope(id)
			b[protocol.KeyProtocolVersion] = protocol.Int(3)
			return f.p.Call(ctx, callerA, protocol.MethodListTools, b), err2(protocol.CodeUnsupportedVersion, false, id)
		}},
		{name: "unknown method", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			return f.p.Call(ctx, callerA, "drop_tables", c.Envelope(id)), err2(protocol.CodeMethodNotFound, false, id)
		}},
		{name: "get_operation without async_operations", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			b := c.Envelope(id)
			b[protocol.KeyOperationID] = protocol.String("op_1")
			return f.p.Call(ctx, callerA, protocol.MethodGetOperation, b), err2(protocol.CodeUnsupportedCapability, false, id)
		}},
		{name: "get_provider_info", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			return f.p.Call(ctx, callerA, protocol.MethodGetProviderInfo, c.Envelope(id)), ok2(id)
		}, post: func(t *testing.T, f *fixture, b protocol.Bundle) {
			d := data(t, b)
			scopes := d["scopes"].([]any)
			if d["schema_dialect"] != protocol.SchemaDialect || d["provider_id"] != providerA || len(scopes) != 3 {
				t.Fatalf("provider info = %v", d)
			}
			if s := scopes[1].(map[string]any); s["access"] != "write" || s["sensitivity"] != "financial" || s["title"] == "" {
				t.Fatalf("scope = %v", s)
			}
		}},
		{name: "v2 list_tools with revision and annotations, visibility hook applied", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			f.hidden.Store(true)
			return f.p.Call(ctx, callerA, protocol.MethodListTools, c.Envelope(id)), ok2(id)
		}, post: func(t *testing.T, f *fixture, b protocol.Bundle) {
			d := data(t, b)
			tools := d["tools"].([]any)
			rev := d["revision"].(string)
			if len(tools) != 10 || rev == "" {
				t.Fatalf("want 10 visible tools and a revision, got %d, %q", len(tools), rev)
			}
			for _, raw := range tools {
				tool := raw.(map[string]any)
				a := tool["annotations"].(map[string]any)
				if tool["name"] == "hidden_tool" || len(a) != 7 || tool["input_schema"] == nil || tool["output_schema"] == nil {
					t.Fatalf("tool entry %v", tool)
				}
			}
			f.hidden.Store(false)
			c := &providertest.Client{P: f.p, Caller: callerA, Now: f.clock.Now}
			c.Negotiate(ctx)
			again := data(t, f.p.Call(ctx, callerA, protocol.MethodListTools, c.Envelope(providertest.NewRequestID())))
			if again["revision"] == rev {
				t.Fatal("revision did not change when the visible tool set changed")
			}
		}},
	})
}

// TestConformanceFields covers §9 "未知字段忽略、必填字段缺失、无效 JSON 与 schema
// 不匹配", wrong Bundle types, deadlines, output validation and the inline
// limit.
func TestConformanceFields(t *testing.T) {
	id := providertest.NewRequestID()
	exec := func(t *testing.T, f *fixture, mutate func(b protocol.Bundle)) protocol.Bundle {
		c := f.client(t, callerA)
		b := c.Envelope(id)
		b[protocol.KeyToolName] = protocol.String("get_quote")
		b[protocol.KeyArgs] = protocol.String(`{"symbol":"AAPL"}`)
		mutate(b)
		return f.p.Call(ctx, callerA, protocol.MethodExecuteTool, b)
	}
	quote := func(args string) func(t *testing.T, f *fixture) (protocol.Bundle, want) {
		return func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return exec(t, f, func(b protocol.Bundle) { b[protocol.KeyArgs] = protocol.String(args) }), err2(protocol.CodeInvalidArgs, false, id)
		}
	}
	remove := func(key string, code protocol.Code, echo string) func(t *testing.T, f *fixture) (protocol.Bundle, want) {
		return func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return exec(t, f, func(b protocol.Bundle) { delete(b, key) }), err2(code, code == protocol.CodeNegotiationRequired, echo)
		}
	}
	retype := func(key string, v protocol.Value, echo string) func(t *testing.T, f *fixture) (protocol.Bundle, want) {
		return func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return exec(t, f, func(b protocol.Bundle) { b[key] = v }), err2(protocol.CodeInvalidRequest, false, echo)
		}
	}
	runCases(t, []conformanceCase{
		{name: "success envelope", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return exec(t, f, func(protocol.Bundle) {}), ok2(id)
		}, post: func(t *testing.T, f *fixture, b protocol.Bundle) {
			s, _, _ := b.String(protocol.KeyData)
			if s != `{"kind":"inline","value":{"price":1.5}}` {
				t.Fatalf("data = %s", s)
			}
		}},
		{name: "unknown fields ignored", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return exec(t, f, func(b protocol.Bundle) {
				b["x_future_field"] = protocol.Long(7)
				b["confirmed"] = protocol.Boolean(true)
			}), ok2(id)
		}},
		{name: "missing session_token", run: remove(protocol.KeySessionToken, protocol.CodeNegotiationRequired, id)},
		{name: "missing request_id", run: remove(protocol.KeyRequestID, protocol.CodeInvalidRequest, "")},
		{name: "missing deadline_at_ms", run: remove(protocol.KeyDeadlineAtMs, protocol.CodeInvalidRequest, id)},
		{name: "missing tool_name", run: remove(protocol.KeyToolName, protocol.CodeInvalidRequest, id)},
		{name: "missing args", run: remove(protocol.KeyArgs, protocol.CodeInvalidRequest, id)},
		{name: "request_id not a UUID", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return exec(t, f, func(b protocol.Bundle) { b[protocol.KeyRequestID] = protocol.String("req-1") }), err2(protocol.CodeInvalidRequest, false, "req-1")
		}},
		{name: "negotiate without consumer_versions", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return f.p.Call(ctx, callerA, protocol.MethodNegotiate, protocol.Bundle{protocol.KeyConsumerCapabilities: protocol.String(`[]`)}),
				err2(protocol.CodeInvalidRequest, false, "")
		}},
		{name: "negotiate with invalid capabilities JSON", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return negotiate(f, callerA, protocol.IntArray{2}, `{"async_operations":true}`), err2(protocol.CodeInvalidRequest, false, "")
		}},
		{name: "wrong type: protocol_version as Long", run: retype(protocol.KeyProtocolVersion, protocol.Long(2), id)},
		{name: "wrong type: deadline_at_ms as Int", run: retype(protocol.KeyDeadlineAtMs, protocol.Int(1), id)},
		{name: "wrong type: request_id as Int (not echoed)", run: retype(protocol.KeyRequestID, protocol.Int(1), "")},
		{name: "wrong type: args as int[]", run: retype(protocol.KeyArgs, protocol.IntArray{1}, id)},
		{name: "wrong type: resume_token as Boolean", run: retype(protocol.KeyResumeToken, protocol.Boolean(true), id)},
		{name: "wrong type: consumer_versions as Int", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return f.p.Call(ctx, callerA, protocol.MethodNegotiate, protocol.Bundle{
					protocol.KeyConsumerVersions: protocol.Int(2), protocol.KeyConsumerCapabilities: protocol.String(`[]`)}),
				err2(protocol.CodeInvalidRequest, false, "")
		}},
		{name: "invalid JSON args", run: quote(`{"symbol":`), post: noEffect("get_quote")},
		{name: "args with trailing data", run: quote(`{"symbol":"A"} {}`), post: noEffect("get_quote")},
		{name: "args not an object", run: quote(`["AAPL"]`), post: noEffect("get_quote")},
		{name: "args not UTF-8", run: quote("{\"symbol\":\"\xff\"}"), post: noEffect("get_quote")},
		{name: "schema mismatch with bounded details", run: quote(`{"symbol":"AAPL","extra":1}`), post: func(t *testing.T, f *fixture, b protocol.Bundle) {
			noEffect("get_quote")(t, f, b)
			d, _, _ := b.String(protocol.KeyErrorDetails)
			var details struct {
				Violations []map[string]string `json:"violations"`
			}
			if err := json.Unmarshal([]byte(d), &details); err != nil || len(details.Violations) == 0 {
				t.Fatalf("error_details = %q", d)
			}
		}},
		{name: "schema mismatch: wrong type", run: quote(`{"symbol":42}`)},
		{name: "args over max_request_bytes", run: quote(`{"symbol":"` + strings.Repeat("A", 70000) + `"}`)},
		{name: "tool not found", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return exec(t, f, func(b protocol.Bundle) { b[protocol.KeyToolName] = protocol.String("nope") }), err2(protocol.CodeToolNotFound, false, id)
		}},
		{name: "hidden tool is not found", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			f.hidden.Store(true)
			return exec(t, f, func(b protocol.Bundle) {
				b[protocol.KeyToolName] = protocol.String("hidden_tool")
				b[protocol.KeyArgs] = protocol.String(`{}`)
			}), err2(protocol.CodeToolNotFound, false, id)
		}, post: noEffect("hidden_tool")},
		{name: "deadline already past", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			return exec(t, f, func(b protocol.Bundle) {
				b[protocol.KeyDeadlineAtMs] = protocol.Long(f.clock.Now().Add(-time.Millisecond).UnixMilli())
			}), err2(protocol.CodeDeadlineExceeded, true, id)
		}, post: noEffect("get_quote")},
		{name: "output failing its schema", run: quote2("BAD", err2(protocol.CodeInternalError, false, id))},
		{name: "hook panic is an internal error", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			f.panics.Store(true)
			return c.Execute(ctx, id, "get_quote", `{"symbol":"A"}`, ""), err2(protocol.CodeInternalError, false, id)
		}, post: noLeak},
		{name: "handler panic hides its text", run: quote2("PANIC", err2(protocol.CodeInternalError, false, id)), post: noLeak},
		{name: "result too large without large_results", run: quote2("BIG", err2(protocol.CodeResultTooLarge, false, id))},
	})
}

func quote2(symbol string, w want) func(t *testing.T, f *fixture) (protocol.Bundle, want) {
	return func(t *testing.T, f *fixture) (protocol.Bundle, want) {
		c := f.client(t, callerA)
		return c.Execute(ctx, w.requestID, "get_quote", `{"symbol":"`+symbol+`"}`, ""), w
	}
}

func noLeak(t *testing.T, _ *fixture, b protocol.Bundle) {
	t.Helper()
	msg, _, _ := b.String(protocol.KeyErrorMessage)
	if msg != "Provider internal error" || strings.Contains(msg, "secret") || b.Has(protocol.KeyErrorDetails) {
		t.Fatalf("internal error leaks: %v", b)
	}
}
