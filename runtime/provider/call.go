package provider

import (
	"context"
	"slices"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// maxEchoRequestID bounds the request_id a response echoes, so that a
// hostile request cannot make responses grow.
const maxEchoRequestID = 128

// request is a v2 request after the common envelope checks of §4.1.
type request struct {
	caller    Caller
	method    string
	extras    protocol.Bundle
	session   *session
	requestID string
	deadline  time.Time
	echo      protocol.Echo
}

// Call answers one CETP call. caller is the identity the transport
// captured at its entry; method and extras are the method name and the
// request Bundle. It always returns a response envelope: a panic in a hook
// or the store becomes INTERNAL_ERROR without its text.
func (p *Provider) Call(ctx context.Context, caller Caller, method string, extras protocol.Bundle) (resp protocol.Bundle) {
	defer func() {
		if r := recover(); r != nil {
			resp = protocol.ErrorBundle(echoOf(protocol.Version2, extras),
				protocol.NewError(protocol.CodeInternalError, "Provider internal error"))
		}
	}()
	version, err := p.version(method, extras)
	if err != nil {
		return protocol.ErrorBundle(echoOf(protocol.Version2, extras), err)
	}
	if version == protocol.Version1 {
		return p.callV1(ctx, caller, method, extras)
	}
	echo := echoOf(protocol.Version2, extras)
	if !knownMethod(method) {
		return protocol.ErrorBundle(echo, protocol.NewError(protocol.CodeMethodNotFound, "unknown method"))
	}
	if err := extras.CheckKnownTypes(); err != nil {
		return protocol.ErrorBundle(echo, protocol.NewError(protocol.CodeInvalidRequest, "%v", err))
	}
	if !p.inflight.acquire(caller.UID, p.limits.MaxConcurrentRequests) {
		return protocol.ErrorBundle(echo, p.rateLimited())
	}
	defer p.inflight.release(caller.UID)
	if method == protocol.MethodNegotiate {
		return p.negotiate(caller, extras, echo)
	}
	req, perr := p.envelope(caller, method, extras, echo)
	if perr != nil {
		return protocol.ErrorBundle(echo, perr)
	}
	return p.dispatch(ctx, req)
}

func (p *Provider) rateLimited() *protocol.Error {
	e := protocol.NewError(protocol.CodeRateLimited, "too many concurrent requests")
	e.RetryAfter = p.opt.RetryAfter
	return e
}

func knownMethod(m string) bool {
	switch m {
	case protocol.MethodNegotiate, protocol.MethodGetProviderInfo, protocol.MethodListTools,
		protocol.MethodExecuteTool, protocol.MethodGetOperation, protocol.MethodCancelOperation:
		return true
	}
	return false
}

// version decides the protocol of a call (§4): negotiate is v2; a call
// without protocol_version is v1 on a dual-stack Provider; protocol_version
// 1 is v1 on a dual-stack Provider; 2 is v2; anything else, or v1 on a
// v2-only Provider, is UNSUPPORTED_VERSION.
func (p *Provider) version(method string, extras protocol.Bundle) (int, *protocol.Error) {
	if method == protocol.MethodNegotiate {
		return protocol.Version2, nil
	}
	v, ok, err := extras.Int(protocol.KeyProtocolVersion)
	if err != nil {
		return 0, protocol.NewError(protocol.CodeInvalidRequest, "%v", err)
	}
	dual := slices.Contains(p.desc.Versions, protocol.Version1)
	switch {
	case !ok && dual, ok && v == protocol.Version1 && dual:
		return protocol.Version1, nil
	case ok && v == protocol.Version2:
		return protocol.Version2, nil
	case !ok:
		return 0, protocol.NewError(protocol.CodeUnsupportedVersion, "this Provider speaks CETP v2 only; negotiate first")
	}
	return 0, protocol.NewError(protocol.CodeUnsupportedVersion, "protocol version %d is not supported", v)
}

// echoOf returns the fields a response echoes: the given version and the
// request_id when it is a String of bounded length.
func echoOf(version int32, extras protocol.Bundle) protocol.Echo {
	id, _, err := extras.String(protocol.KeyRequestID)
	if err != nil || len(id) > maxEchoRequestID {
		id = ""
	}
	return protocol.Echo{Version: version, RequestID: id}
}

// envelope runs the common v2 checks of §4.1 in the order of DESIGN.md §5
// step 1: session for this caller, request_id a UUID, deadline present and
// not past.
func (p *Provider) envelope(caller Caller, method string, extras protocol.Bundle, echo protocol.Echo) (*request, *protocol.Error) {
	now := p.opt.Now()
	tok, _, _ := extras.String(protocol.KeySessionToken)
	s := p.sessions.get(tok, caller.UID, now)
	if s == nil {
		return nil, protocol.NewError(protocol.CodeNegotiationRequired, "session missing, expired or not yours; negotiate again")
	}
	id, ok, _ := extras.String(protocol.KeyRequestID)
	if !ok || !isUUID(id) {
		return nil, protocol.NewError(protocol.CodeInvalidRequest, "request_id must be a UUID")
	}
	ms, ok, _ := extras.Long(protocol.KeyDeadlineAtMs)
	if !ok {
		return nil, protocol.NewError(protocol.CodeInvalidRequest, "deadline_at_ms is required")
	}
	deadline := time.UnixMilli(ms)
	if !now.Before(deadline) {
		return nil, deadlinePassed()
	}
	return &request{caller: caller, method: method, extras: extras, session: s,
		requestID: id, deadline: deadline, echo: echo}, nil
}

// passed reports whether the request's deadline has passed at now; a v1
// request has none.
func (r *request) passed(now time.Time) bool {
	return !r.deadline.IsZero() && !now.Before(r.deadline)
}

// deadlinePassed is DEADLINE_EXCEEDED before any effect started: the same
// request ID may be retried with a later deadline.
func deadlinePassed() *protocol.Error {
	return protocol.NewError(protocol.CodeDeadlineExceeded, "deadline passed before execution").WithRetryable(true)
}

func (p *Provider) dispatch(ctx context.Context, req *request) protocol.Bundle {
	switch req.method {
	case protocol.MethodGetProviderInfo:
		return protocol.Success(req.echo, p.info)
	case protocol.MethodListTools:
		return protocol.Success(req.echo, p.listTools(ctx, req.caller, req.session))
	case protocol.MethodExecuteTool:
		return p.executeTool(ctx, req)
	case protocol.MethodGetOperation:
		return p.getOperation(ctx, req)
	default:
		return p.cancelOperation(ctx, req)
	}
}

// isUUID reports whether s is a UUID in the canonical 8-4-4-4-12 form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !isHex(c) {
				return false
			}
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
