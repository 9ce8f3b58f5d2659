package consumer

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Error is a structured CETP error (§5) returned by a Provider.
type Error struct {
	// Method and RequestID identify the call that failed.
	Method    string
	RequestID string
	// Code is the error_code; Message the Provider's error_message, which
	// is untrusted text for display only.
	Code    protocol.Code
	Message string
	// Retryable and RetryAfter are retryable and retry_after_ms: a caller
	// may retry with the same request ID only when Retryable is true, and
	// not before RetryAfter has passed.
	Retryable  bool
	RetryAfter time.Duration
	// Details is error_details, a JSON object, or nil.
	Details json.RawMessage
	// ResumeToken and Resolution accompany AUTH_REQUIRED and
	// USER_ACTION_REQUIRED (§4.3).
	ResumeToken string
	Resolution  *protocol.Resolution
	// UnknownCode is the Provider's error_code when it is not one of §5;
	// Code is then INTERNAL_ERROR and the error is not retryable.
	UnknownCode string

	cause error
}

// Unwrap returns the local cause of an error the client made itself (the
// caller's context ending while it waited), or nil.
func (e *Error) Unwrap() error { return e.cause }

// Error implements error.
func (e *Error) Error() string {
	return fmt.Sprintf("cetp %s: %s: %s", e.Method, e.Code, e.Message)
}

// CodeOf returns the error code of a *Error anywhere in err's chain, or ""
// when err carries none.
func CodeOf(err error) protocol.Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// ResponseError is a response that breaks the protocol: a missing or
// mistyped field, a wrong echo, data that is not what §4 defines, or a
// result that breaks its tool's output schema. RequestID is the request it
// answered; for execute_tool the execution may have taken effect.
type ResponseError struct {
	Method    string
	RequestID string
	Reason    string
}

// Error implements error.
func (e *ResponseError) Error() string {
	if e.RequestID != "" {
		return fmt.Sprintf("cetp %s (request %s): malformed response: %s", e.Method, e.RequestID, e.Reason)
	}
	return fmt.Sprintf("cetp %s: malformed response: %s", e.Method, e.Reason)
}

// TransportError is a call that did not complete: the binding broke, the
// connection could not be made, or the caller's context ended before an
// answer arrived (Err says which). The Provider may have run the call, so
// a write must be retried or queried under RequestID, never under a new
// ID (§4.1, §6): ExecuteToolID, or WithRequestID for typed methods.
type TransportError struct {
	Method    string
	RequestID string
	Err       error
}

// Error implements error.
func (e *TransportError) Error() string {
	return fmt.Sprintf("cetp %s (request %s): no answer: %v", e.Method, e.RequestID, e.Err)
}

// Unwrap returns the cause.
func (e *TransportError) Unwrap() error { return e.Err }

// ProviderMismatchError is a negotiation answered by another Provider than
// Options.ProviderID names (§2.1: the Consumer confirms whom it talks
// to). Nothing was sent after the negotiation.
type ProviderMismatchError struct {
	Want string
	Got  string
}

// Error implements error.
func (e *ProviderMismatchError) Error() string {
	return fmt.Sprintf("cetp negotiate: the Provider on this transport is %q, not %q; nothing was sent to it", e.Got, e.Want)
}

// RequestIDOf returns the request ID that err carries: that of the
// *Error, *ResponseError, *TransportError or *AcceptedError anywhere in
// its chain, or "" for an error raised before any request (an argument
// that does not encode).
func RequestIDOf(err error) string {
	var (
		e  *Error
		re *ResponseError
		te *TransportError
		ae *AcceptedError
	)
	switch {
	case errors.As(err, &e):
		return e.RequestID
	case errors.As(err, &re):
		return re.RequestID
	case errors.As(err, &te):
		return te.RequestID
	case errors.As(err, &ae):
		return ae.RequestID
	}
	return ""
}

// stamp makes err carry requestID: a *ResponseError without one gets it,
// an *Error without one gets it, and any other error (the transport's, the
// context's) becomes a *TransportError of method.
func stamp(err error, method, requestID string) error {
	if err == nil || requestID == "" {
		return err
	}
	var (
		e  *Error
		re *ResponseError
		te *TransportError
		ae *AcceptedError
		pm *ProviderMismatchError
	)
	switch {
	case errors.As(err, &re):
		if re.RequestID == "" {
			re.RequestID = requestID
		}
		return err
	case errors.As(err, &e):
		if e.RequestID == "" {
			e.RequestID = requestID
		}
		return err
	case errors.As(err, &te), errors.As(err, &ae), errors.As(err, &pm):
		return err
	}
	return &TransportError{Method: method, RequestID: requestID, Err: err}
}

// AcceptedError is how an accepted answer (§4.4) leaves the request
// layer; StartTool turns it into an *Operation.
type AcceptedError struct {
	RequestID   string
	OperationID string
	PollAfter   time.Duration
}

// Error implements error.
func (e *AcceptedError) Error() string {
	return fmt.Sprintf("cetp execute_tool: accepted as operation %s", e.OperationID)
}

// fromEnvelope converts an error envelope into an *Error.
func fromEnvelope(method, requestID string, b protocol.Bundle) error {
	pe, err := protocol.ParseError(b)
	if err != nil {
		return &ResponseError{Method: method, Reason: err.Error()}
	}
	return capError(&Error{
		Method: method, RequestID: requestID, Code: pe.Code,
		Message: pe.Message, Retryable: pe.Retryable, RetryAfter: pe.RetryAfter,
		Details: pe.Details, ResumeToken: pe.ResumeToken, Resolution: pe.Resolution,
	})
}
