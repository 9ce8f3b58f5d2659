package serve

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/provider"
)

// BenchmarkWatchedCall is what serve adds to one successful call: the
// wrapped handler records its result and the audit event writes the log
// line (text format, to io.Discard).
func BenchmarkWatchedCall(b *testing.B) {
	w := newWatch(newLogger(io.Discard, "text"), testDescriptor, testTools())
	tools := w.wrap(testTools())
	sink := w.audit(nil)
	call := &provider.Call{Caller: provider.Caller{UID: 1000}, RequestID: "r-1", Tool: provider.ToolInfo{Name: "count"}}
	ev := provider.AuditEvent{CallerUID: 1000, CallerKey: call.Caller.Key(), Tool: "count", RequestID: "r-1", Status: "success",
		Authorization: "granted", Confirmation: "not_required"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tools[0].Handler(ctx, call, json.RawMessage(`{}`)); err != nil {
			b.Fatal(err)
		}
		sink.Audit(ctx, ev)
	}
}
