// Package consumer is the CETP v2 Consumer client: it negotiates a session
// with a Provider, lists its tools and executes them, turning the response
// envelopes into verified result JSON or a typed error.
//
// A Client talks to a Provider through a Transport: InProcess calls a
// *provider.Provider in the same process with a fixed Caller (for tests and
// embedding); other bindings (Unix sockets) implement the same interface,
// and Redial wraps one so that a broken connection is dialed again.
//
// # Exactly once from the Consumer's side
//
// One logical call keeps one request ID (§4.1, §6). ExecuteTool takes it
// from the context (WithRequestID) or makes a new one; ExecuteToolID takes
// it as an argument. A call that gets no answer (the connection broke, the
// Provider did not answer) is retried under the same ID while the caller's
// context lives, on a fresh connection with Redial, so a write whose
// answer was lost is answered from the Provider's stored outcome instead
// of running twice. Every error carries the ID (RequestIDOf): *Error (the
// Provider's CETP error), *ResponseError (an answer that breaks the
// protocol), *TransportError (no answer). Generated typed methods call
// Invoke, which goes through ExecuteTool, so
//
//	ctx = consumer.WithRequestID(ctx, id) // id from NewRequestID, recorded first
//	out, err := client.CreateAlert(ctx, in)
//	// on a *TransportError: call again with the same ctx
//
// resumes a typed call without any change to the generated code.
//
// # Retries
//
// Only a Provider error with retryable true, or a call that got no answer,
// is retried automatically (Options.MaxRetries), never before its
// retry_after_ms: when that wait is longer than Options.MaxRetryWait or
// would end past the context's deadline, the error is returned with its
// RetryAfter. NEGOTIATION_REQUIRED renegotiates once only when it is
// retryable. get_operation and cancel_operation are sent only on sessions
// that negotiated async_operations and cancellation, and an accepted
// answer on a session without async_operations is refused.
//
// # An untrusting Consumer
//
// Everything a Provider sends is untrusted data (§7.3). A negotiation is
// refused when provider_id is not an identifier (or not
// Options.ProviderID: *ProviderMismatchError, and nothing else is sent);
// provider_name is cut. A listed tool is dropped, with a reason in
// ToolList.Rejected, when its name, scopes or schema sizes break a cap or
// when a safety annotation is missing or unknown (§3.2). Every result,
// inline or file, is checked against its tool's output_schema; the tool
// list is fetched once per session when none is cached for it, so the
// revision is checked again after every negotiation (§3.3). Errors,
// progress and identifiers are capped (caps.go).
//
// A Provider whose manifest declares only v1 is reached through V1Client,
// a read-only client that never retries (§8); ChooseVersion decides.
//
// Generated Go packages call tools through Invoke, and reference
// GeneratedCodeVersion1 so that a package generated for another version of
// this runtime fails to compile instead of misbehaving.
package consumer
