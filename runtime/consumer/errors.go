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
// mistyped field, a wrong echo, or data that is not what §4 defines.
type ResponseError struct {
	Method string
	Reason string
}

// Error implements error.
func (e *ResponseError) Error() string {
	return fmt.Sprintf("cetp %s: malformed response: %s", e.Method, e.Reason)
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
