package main

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"io"
	"sync"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// ownerOnly is the Authorizer of alertsd: the UID that runs it holds both
// alerts scopes; any other UID holds none and cannot be granted one, so
// its calls are PERMISSION_DENIED.
type ownerOnly struct{ uid int }

// Scopes implements provider.Authorizer.
func (a ownerOnly) Scopes(_ context.Context, c provider.Caller) ([]string, error) {
	if c.UID != a.uid {
		return nil, nil
	}
	return []string{"alerts.read", "alerts.write"}, nil
}

// Resolution implements provider.Authorizer: there is no grant UI.
func (ownerOnly) Resolution(context.Context, provider.Caller, provider.ToolInfo, []string) *protocol.Resolution {
	return nil
}

// Launch implements provider.Authorizer; it is never reached, since
// Resolution returns none.
func (ownerOnly) Launch(context.Context, provider.Caller, *protocol.Resolution) error {
	return protocol.NewError(protocol.CodePermissionDenied, "alertsd grants no scopes")
}

// alwaysOnly is the ConfirmPolicy of alertsd: a provider_policy tool
// (create_alert, update_alert) runs without asking; the engine still asks
// for every confirmation: always tool (delete_alert).
func alwaysOnly(context.Context, provider.Caller, provider.ToolInfo, json.RawMessage) bool {
	return false
}

// auditLog returns an AuditSink that writes one line per execute_tool on
// w, without argument values (§7.2). The tool name and request ID are the
// caller's text, so they are escaped.
func auditLog(w io.Writer) provider.AuditSink {
	var mu sync.Mutex
	return provider.AuditFunc(func(_ context.Context, ev provider.AuditEvent) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, "alertsd: uid %d %s request %s: %s\n", ev.CallerUID, cliout.Printable(ev.Tool), cliout.Printable(ev.RequestID), outcome(ev))
	})
}

// outcome summarizes an audit event: its status, error code, and what
// happened to its confirmation.
func outcome(ev provider.AuditEvent) string {
	s := ev.Status
	if ev.ErrorCode != "" {
		s += " " + ev.ErrorCode
	}
	if ev.Confirmation != "" && ev.Confirmation != "not_required" {
		s += ", confirmation " + ev.Confirmation
	}
	if ev.Deduplicated {
		s += ", stored result"
	}
	return s
}
