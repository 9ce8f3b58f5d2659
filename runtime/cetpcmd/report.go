package cetpcmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Exit codes of cetp.
const (
	ExitOK        = 0
	ExitProvider  = 1
	ExitUsage     = 2
	ExitTransport = 3
)

// Codes of the failures cetp reports itself, beside the CETP codes of
// Provider errors.
const (
	CodeUsage     = "CLI_USAGE"
	CodeTransport = "CLI_TRANSPORT"
)

// errorBody is the object under "error" on stderr.
type errorBody struct {
	Source       string          `json:"source"`
	Code         string          `json:"code"`
	Message      string          `json:"message"`
	Retryable    bool            `json:"retryable"`
	RetryAfterMs int64           `json:"retry_after_ms,omitempty"`
	RequestID    string          `json:"request_id,omitempty"`
	Details      json.RawMessage `json:"details,omitempty"`
}

// report prints err as {"error": ...} on w and returns the exit code.
func report(w io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	body, code := classify(err)
	b, _ := json.MarshalIndent(map[string]errorBody{"error": body}, "", "  ")
	w.Write(append(b, '\n'))
	return code
}

// classify turns err into its error body and exit code: a Provider's CETP
// error, a failed exchange, or else a usage error.
func classify(err error) (errorBody, int) {
	var ce *consumer.Error
	if errors.As(err, &ce) {
		return providerBody(ce), ExitProvider
	}
	var pe *protocol.Error
	if errors.As(err, &pe) {
		return errorBody{Source: "provider", Code: string(pe.Code), Message: printable(pe.Message),
			Retryable: pe.Retryable, RetryAfterMs: pe.RetryAfter.Milliseconds(), Details: validJSON(pe.Details)}, ExitProvider
	}
	var te *transportError
	if errors.As(err, &te) {
		return errorBody{Source: "cli", Code: CodeTransport, Message: err.Error()}, ExitTransport
	}
	return errorBody{Source: "cli", Code: CodeUsage, Message: err.Error()}, ExitUsage
}

// providerBody is the error body of a Provider's CETP error. Its message
// is the Provider's text, escaped for the terminal.
func providerBody(ce *consumer.Error) errorBody {
	return errorBody{Source: "provider", Code: string(ce.Code), Message: printable(ce.Message),
		Retryable: ce.Retryable, RetryAfterMs: ce.RetryAfter.Milliseconds(), RequestID: ce.RequestID,
		Details: validJSON(ce.Details)}
}

// validJSON returns data when it is JSON, else nil.
func validJSON(data json.RawMessage) json.RawMessage {
	if len(data) == 0 || !json.Valid(data) {
		return nil
	}
	return data
}

// usageError is a problem with the command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usagef returns a usageError with a formatted message.
func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// transportError is an exchange with the Provider that did not complete:
// the socket, the protocol, or the command's deadline.
type transportError struct{ err error }

func (e *transportError) Error() string { return e.err.Error() }
func (e *transportError) Unwrap() error { return e.err }

// exchangeError classifies an error of the Consumer client: a CETP error
// (of a call, or of a launch) stays as it is, anything else is a
// transportError with context.
func exchangeError(what string, err error) error {
	var ce *consumer.Error
	var pe *protocol.Error
	if errors.As(err, &ce) || errors.As(err, &pe) {
		return err
	}
	return &transportError{err: fmt.Errorf("%s: %w", what, err)}
}
