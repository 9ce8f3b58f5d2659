package protocol

import (
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"
)

// Code is an error_code of §5.
type Code string

// The error codes of §5.
const (
	CodeUnsupportedVersion    Code = "UNSUPPORTED_VERSION"
	CodeUnsupportedCapability Code = "UNSUPPORTED_CAPABILITY"
	CodeNegotiationRequired   Code = "NEGOTIATION_REQUIRED"
	CodeAuthRequired          Code = "AUTH_REQUIRED"
	CodeUserActionRequired    Code = "USER_ACTION_REQUIRED"
	CodeUserCancelled         Code = "USER_CANCELLED"
	CodePermissionDenied      Code = "PERMISSION_DENIED"
	CodeToolNotFound          Code = "TOOL_NOT_FOUND"
	CodeMethodNotFound        Code = "METHOD_NOT_FOUND"
	CodeInvalidArgs           Code = "INVALID_ARGS"
	CodeInvalidRequest        Code = "INVALID_REQUEST"
	CodeConflict              Code = "CONFLICT"
	CodeRateLimited           Code = "RATE_LIMITED"
	CodeDeadlineExceeded      Code = "DEADLINE_EXCEEDED"
	CodeCancelled             Code = "CANCELLED"
	CodeResultTooLarge        Code = "RESULT_TOO_LARGE"
	CodeResultExpired         Code = "RESULT_EXPIRED"
	CodeUnavailable           Code = "UNAVAILABLE"
	CodeInternalError         Code = "INTERNAL_ERROR"
)

// Retry says how §5 fixes a code's retryable flag.
type Retry uint8

// The three retryable classes of the §5 table.
const (
	RetryNo          Retry = iota // 否
	RetryYes                      // 是
	RetryConditional              // 条件性: the context decides
)

// ErrorTable is the §5 table: every code and its retryable class.
var ErrorTable = map[Code]Retry{
	CodeUnsupportedVersion:    RetryNo,
	CodeUnsupportedCapability: RetryNo,
	CodeNegotiationRequired:   RetryYes,
	CodeAuthRequired:          RetryConditional,
	CodeUserActionRequired:    RetryConditional,
	CodeUserCancelled:         RetryNo,
	CodePermissionDenied:      RetryNo,
	CodeToolNotFound:          RetryNo,
	CodeMethodNotFound:        RetryNo,
	CodeInvalidArgs:           RetryNo,
	CodeInvalidRequest:        RetryNo,
	CodeConflict:              RetryConditional,
	CodeRateLimited:           RetryYes,
	CodeDeadlineExceeded:      RetryConditional,
	CodeCancelled:             RetryNo,
	CodeResultTooLarge:        RetryNo,
	CodeResultExpired:         RetryNo,
	CodeUnavailable:           RetryYes,
	CodeInternalError:         RetryConditional,
}

// Known reports whether c is a code of the §5 table.
func (c Code) Known() bool {
	_, ok := ErrorTable[c]
	return ok
}

// Bounds on what an error carries, so that no error envelope can grow
// without limit whatever a handler or hostile input puts into it.
const (
	MaxErrorMessageBytes = 1024
	MaxErrorDetailsBytes = 4096
)

// Error is a typed protocol error. Handlers return one to choose the
// error_code the Consumer sees; the engine builds them for its own checks.
type Error struct {
	// Code is the error_code.
	Code Code
	// Message is the user-facing, safe error_message.
	Message string
	// Retryable is the retryable flag; New fills it from ErrorTable and
	// only conditional codes should change it.
	Retryable bool
	// RetryAfter, when positive, becomes retry_after_ms.
	RetryAfter time.Duration
	// Details, when not empty, becomes error_details; it must be a JSON
	// object of at most MaxErrorDetailsBytes.
	Details json.RawMessage
	// Resolution and ResumeToken accompany AUTH_REQUIRED and
	// USER_ACTION_REQUIRED (§4.3).
	Resolution  *Resolution
	ResumeToken string
	// Hint is an optional resolution_hint.
	Hint string
}

// NewError returns an error with code and message whose Retryable is
// fixed by ErrorTable (false for conditional codes).
func NewError(code Code, format string, args ...any) *Error {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &Error{Code: code, Message: msg, Retryable: ErrorTable[code] == RetryYes}
}

// Error implements error.
func (e *Error) Error() string {
	return string(e.Code) + ": " + e.Message
}

// WithRetryable sets Retryable for a conditional code and returns e. It
// leaves codes whose retryable the table fixes unchanged.
func (e *Error) WithRetryable(r bool) *Error {
	if ErrorTable[e.Code] == RetryConditional {
		e.Retryable = r
	}
	return e
}

// WithDetails sets Details to the JSON encoding of v, dropping it when the
// encoding fails or exceeds MaxErrorDetailsBytes, and returns e.
func (e *Error) WithDetails(v any) *Error {
	raw, err := json.Marshal(v)
	if err != nil || len(raw) > MaxErrorDetailsBytes {
		return e
	}
	e.Details = raw
	return e
}

// Truncate returns s cut to at most max bytes on a UTF-8 boundary.
func Truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
