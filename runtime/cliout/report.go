package cliout

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Exit codes.
const (
	ExitOK        = 0
	ExitProvider  = 1 // the Provider answered with a CETP error
	ExitUsage     = 2 // the command line is wrong
	ExitTransport = 3 // no complete exchange with the Provider
)

// Codes of the failures a command reports itself, beside the CETP codes of
// Provider errors.
const (
	CodeUsage     = "CLI_USAGE"
	CodeTransport = "CLI_TRANSPORT"
	// CodeWrongProvider is a Provider whose negotiated provider_id is
	// not the one the command expects; nothing was sent to it.
	CodeWrongProvider = "CLI_WRONG_PROVIDER"
)

// ErrorBody is the object under "error" on stderr.
type ErrorBody struct {
	Source       string          `json:"source"`
	Code         string          `json:"code"`
	Message      string          `json:"message"`
	Retryable    bool            `json:"retryable"`
	RetryAfterMs int64           `json:"retry_after_ms,omitempty"`
	RequestID    string          `json:"request_id,omitempty"`
	Details      json.RawMessage `json:"details,omitempty"`
	// Hint says how to learn the outcome of a call that got no answer:
	// run it again under its request ID (§4.1, §6).
	Hint string `json:"hint,omitempty"`
}

// TransportError is an exchange with the Provider that did not complete:
// the socket, the protocol, or the command's deadline.
type TransportError struct{ Err error }

// Error implements error.
func (e *TransportError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *TransportError) Unwrap() error { return e.Err }

// Exchange classifies an error of the Consumer client: a CETP error (of a
// call, or of a refused resolution launch) stays as it is, anything else
// becomes a *TransportError saying what failed.
func Exchange(what string, err error) error {
	var ce *consumer.Error
	var pe *protocol.Error
	if err == nil || errors.As(err, &ce) || errors.As(err, &pe) {
		return err
	}
	return &TransportError{Err: fmt.Errorf("%s: %w", what, err)}
}

// Report prints err as {"error": ...} on w and returns its exit code;
// nil is ExitOK and prints nothing.
func Report(w io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	body, code := Classify(err)
	b, _ := json.MarshalIndent(map[string]ErrorBody{"error": body}, "", "  ")
	w.Write(append(b, '\n'))
	return code
}

// Classify turns err into its error body and exit code: a Provider's CETP
// error, a *TransportError, or else a usage error.
func Classify(err error) (ErrorBody, int) {
	var ce *consumer.Error
	if errors.As(err, &ce) {
		return ProviderBody(ce), ExitProvider
	}
	var pe *protocol.Error
	if errors.As(err, &pe) {
		return ErrorBody{Source: "provider", Code: string(pe.Code), Message: Printable(pe.Message),
			Retryable: pe.Retryable, RetryAfterMs: pe.RetryAfter.Milliseconds(), Details: validJSON(pe.Details)}, ExitProvider
	}
	var pm *consumer.ProviderMismatchError
	if errors.As(err, &pm) {
		return ErrorBody{Source: "cli", Code: CodeWrongProvider, Message: Printable(err.Error())}, ExitTransport
	}
	var te *TransportError
	if errors.As(err, &te) {
		body := ErrorBody{Source: "cli", Code: CodeTransport, Message: Printable(err.Error()), RequestID: consumer.RequestIDOf(err)}
		if body.RequestID != "" {
			body.Hint = "the call may have run: run it again with --request-id " + body.RequestID +
				" and the same arguments to get its outcome, never with a new ID"
		}
		return body, ExitTransport
	}
	return ErrorBody{Source: "cli", Code: CodeUsage, Message: err.Error()}, ExitUsage
}

// ProviderBody is the error body of a Provider's CETP error; its message,
// the Provider's text, is escaped for the terminal.
func ProviderBody(ce *consumer.Error) ErrorBody {
	return ErrorBody{Source: "provider", Code: string(ce.Code), Message: Printable(ce.Message),
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

// Printable escapes every rune of s that is not graphic (control
// characters, escape sequences, bidi overrides) as \uXXXX, so that text
// from a Provider or a caller cannot drive a terminal.
func Printable(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsGraphic(r) {
			b.WriteRune(r)
			continue
		}
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}
