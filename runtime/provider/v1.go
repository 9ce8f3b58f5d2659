package provider

import (
	"context"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// v1Codes are the error codes CETP v1 knows (SDK reference §3).
var v1Codes = map[protocol.Code]bool{
	protocol.CodeAuthRequired:     true,
	protocol.CodePermissionDenied: true,
	protocol.CodeToolNotFound:     true,
	protocol.CodeInvalidArgs:      true,
	protocol.CodeRateLimited:      true,
	protocol.CodeInternalError:    true,
}

// callV1 answers a v1 call on a dual-stack Provider in the v1 format: read
// tools only, no sessions, no confirmation, v1 error codes; an unknown
// method is TOOL_NOT_FOUND as in v1. A tool with effects is invisible and
// unreachable (§2.1, §8).
func (p *Provider) callV1(ctx context.Context, caller Caller, method string, extras protocol.Bundle) protocol.Bundle {
	if err := extras.CheckKnownTypes(); err != nil {
		return protocol.V1Error(protocol.CodeInvalidArgs, err.Error())
	}
	if !p.inflight.acquire(caller.UID, p.limits.MaxConcurrentRequests) {
		return protocol.V1Error(protocol.CodeRateLimited, "too many concurrent requests")
	}
	defer p.inflight.release(caller.UID)
	switch method {
	case protocol.MethodListTools:
		return protocol.V1Success(p.listToolsV1(ctx, caller))
	case protocol.MethodGetProviderInfo:
		return protocol.V1Success(p.infoV1)
	case protocol.MethodExecuteTool:
		ev := AuditEvent{Time: p.opt.Now(), CallerUID: caller.UID, CallerKey: caller.Key(), Version: protocol.Version1}
		b := p.executeV1(ctx, caller, extras, &ev)
		ev.Status, _, _ = b.String(protocol.KeyStatus)
		code, _, _ := b.String(protocol.KeyErrorCode)
		ev.ErrorCode = code
		p.opt.Audit.Audit(ctx, ev)
		return b
	}
	return protocol.V1Error(protocol.CodeToolNotFound, "unknown method")
}

func (p *Provider) executeV1(ctx context.Context, caller Caller, extras protocol.Bundle, ev *AuditEvent) protocol.Bundle {
	name, _, _ := extras.String(protocol.KeyToolName)
	ev.Tool = protocol.Truncate(name, maxAuditToolName)
	id, _, _ := extras.String(protocol.KeyRequestID)
	if len(id) > maxEchoRequestID {
		return protocol.V1Error(protocol.CodeInvalidArgs, "request_id is too long")
	}
	ev.RequestID = id
	t := p.tools[name]
	if t == nil || t.Annotations.Effect != EffectRead || !p.opt.Visibility(ctx, caller, t.info) {
		return protocol.V1Error(protocol.CodeToolNotFound, "no such tool")
	}
	args, ok, _ := extras.String(protocol.KeyArgs)
	if !ok {
		args = "{}"
	}
	argBytes := []byte(args)
	if e := p.checkArgs(t, argBytes); e != nil {
		return protocol.V1Error(e.Code, e.Message)
	}
	x := p.newExecution(&request{caller: caller, method: protocol.MethodExecuteTool, extras: extras, requestID: id}, t, argBytes, ev)
	if e := p.authorize(ctx, x); e != nil {
		return v1Error(e)
	}
	if p.needsConfirmation(ctx, x) {
		ev.Confirmation = "requested"
		return protocol.V1Error(protocol.CodePermissionDenied, "this tool needs confirmation, which needs CETP v2")
	}
	ev.Confirmation = "not_required"
	out, f := p.runHandler(ctx, x, nil)
	if f != nil {
		return v1Error(f.err)
	}
	// out.Data is {"kind":"inline","value":V}; v1 data is V itself. A v1
	// call has no session, so no file result.
	const prefix = len(`{"kind":"inline","value":`)
	return protocol.V1Success(out.Data[prefix : len(out.Data)-1])
}

func v1Error(e *protocol.Error) protocol.Bundle {
	if !v1Codes[e.Code] {
		return protocol.V1Error(protocol.CodeInternalError, e.Message)
	}
	return protocol.V1Error(e.Code, e.Message)
}
