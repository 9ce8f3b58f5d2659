package provider

import (
	"context"
	"encoding/json"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Visibility decides whether caller may discover and call tool (§7.2).
// Hidden tools are absent from list_tools and give TOOL_NOT_FOUND.
type Visibility func(ctx context.Context, caller Caller, tool ToolInfo) bool

// Authorizer decides which scopes a caller holds. The engine asks it on
// every call of a tool with scopes (§7.2).
type Authorizer interface {
	// Scopes returns the scopes caller holds now.
	Scopes(ctx context.Context, caller Caller) ([]string, error)
	// Resolution returns a resolution through which the user can grant
	// caller the missing scopes (AUTH_REQUIRED), or nil when caller may not
	// hold them (PERMISSION_DENIED).
	Resolution(ctx context.Context, caller Caller, tool ToolInfo, missing []string) *protocol.Resolution
	// Launch runs the Provider's authorization UI for a resolution that
	// Resolution returned.
	Launch(ctx context.Context, caller Caller, r *protocol.Resolution) error
}

// DenyAll is the default Authorizer: the caller holds no scope and cannot
// be granted one, so every tool with scopes is PERMISSION_DENIED.
type DenyAll struct{}

// Scopes implements Authorizer.
func (DenyAll) Scopes(context.Context, Caller) ([]string, error) { return nil, nil }

// Resolution implements Authorizer.
func (DenyAll) Resolution(context.Context, Caller, ToolInfo, []string) *protocol.Resolution {
	return nil
}

// Launch implements Authorizer.
func (DenyAll) Launch(context.Context, Caller, *protocol.Resolution) error {
	return protocol.NewError(protocol.CodePermissionDenied, "authorization is not available")
}

// ConfirmRequest is what the Provider's confirmation UI shows: who asks,
// which tool, and the exact arguments (§7.2: the concrete object, action
// and key parameters).
type ConfirmRequest struct {
	Caller    Caller
	Tool      ToolInfo
	RequestID string
	Args      json.RawMessage
	ExpiresAt time.Time
}

// Confirmer is the Provider's own confirmation UI (§4.3). It returns true
// when the user approves.
type Confirmer interface {
	Confirm(ctx context.Context, req ConfirmRequest) (bool, error)
}

// AutoDeny is the default Confirmer: it denies every confirmation.
type AutoDeny struct{}

// Confirm implements Confirmer.
func (AutoDeny) Confirm(context.Context, ConfirmRequest) (bool, error) { return false, nil }

// ConfirmPolicy decides whether a call of a tool whose confirmation is not
// always needs the user's confirmation (§3.4: the Provider adopts a
// stricter policy when it sees a higher runtime risk). The default asks
// for confirmation on provider_policy tools whose effect is not read.
type ConfirmPolicy func(ctx context.Context, caller Caller, tool ToolInfo, args json.RawMessage) bool

// DefaultConfirmPolicy is the ConfirmPolicy used when Options leaves it
// nil.
func DefaultConfirmPolicy(_ context.Context, _ Caller, tool ToolInfo, _ json.RawMessage) bool {
	return tool.Annotations.Confirmation == ConfirmProviderPolicy && tool.Annotations.Effect != EffectRead
}

// AuditEvent records one execute_tool call without argument values
// (§7.2).
type AuditEvent struct {
	Time      time.Time
	CallerUID int
	CallerKey string
	Version   int
	Tool      string
	RequestID string
	// Authorization is "granted", "auth_required", "denied", or empty when
	// the call ended before the scope check.
	Authorization string
	// Confirmation is "not_required", "requested", "approved", "denied",
	// or empty when the call ended before the confirmation step.
	Confirmation string
	// Deduplicated is true when a stored result was served.
	Deduplicated bool
	// Status is the response status and ErrorCode its error_code. For the
	// end of a background operation, Status is its terminal state
	// (succeeded, failed or cancelled) and Operation its ID.
	Status    string
	ErrorCode string
	Operation string
}

// AuditSink receives audit events. It must not block for long.
type AuditSink interface {
	Audit(ctx context.Context, ev AuditEvent)
}

// AuditFunc adapts a function to AuditSink.
type AuditFunc func(ctx context.Context, ev AuditEvent)

// Audit implements AuditSink.
func (f AuditFunc) Audit(ctx context.Context, ev AuditEvent) { f(ctx, ev) }

type discardAudit struct{}

func (discardAudit) Audit(context.Context, AuditEvent) {}
