// Package consumer is the CETP v2 Consumer client: it negotiates a session
// with a Provider, lists its tools and executes them, turning the response
// envelopes into result JSON or a typed *Error.
//
// A Client talks to a Provider through a Transport: InProcess calls a
// *provider.Provider in the same process with a fixed Caller (for tests and
// embedding); other bindings (Unix sockets) implement the same interface.
//
// This is the minimal client. Retries on retryable errors after
// retry_after_ms, the resolution flow, operation polling and cancellation,
// file results and local caps on everything a Provider sends are added by
// later changes without changing the calls below: every execution already
// carries one request_id that a retry would reuse.
//
// Generated Go packages call tools through Invoke, and reference
// GeneratedCodeVersion1 so that a package generated for another version of
// this runtime fails to compile instead of misbehaving.
package consumer
