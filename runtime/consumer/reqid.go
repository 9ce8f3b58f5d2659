package consumer

import (
	"context"
	"regexp"
)

// requestIDKey is the context key of WithRequestID.
type requestIDKey struct{}

// WithRequestID returns a context that makes ExecuteTool, and so every
// generated typed Client method (through Invoke), run under requestID
// instead of a fresh one. It is how a caller keeps one request ID for one
// logical call across a broken connection, a timeout or a restart of its
// own process (§4.1, §6): choose the ID with NewRequestID, record it,
// then call; on a *TransportError call again with the same context, and
// the Provider answers with the stored outcome instead of running the
// call twice. RequestIDOf(err) returns the ID of a call that failed.
//
// Use one such context for one logical call only: a second, different
// call under the same ID is INVALID_REQUEST (§6).
func WithRequestID(ctx context.Context, requestID string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, requestID)
}

// RequestIDFrom returns the request ID WithRequestID put in ctx.
func RequestIDFrom(ctx context.Context) (string, bool) {
	id, ok := ctx.Value(requestIDKey{}).(string)
	return id, ok && id != ""
}

// requestIDRE is the canonical 8-4-4-4-12 form of a UUID (§4.1: request_id
// is a UUID).
var requestIDRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// IsRequestID reports whether s has the form of a request ID: a UUID in
// its canonical 8-4-4-4-12 form.
func IsRequestID(s string) bool { return requestIDRE.MatchString(s) }
