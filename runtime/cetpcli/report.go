package cetpcli

import (
	"encoding/json"
	"errors"
	"io"

	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Exit codes of a generated CLI.
const (
	ExitOK        = 0
	ExitProvider  = 1
	ExitUsage     = 2
	ExitTransport = 3
)

// Codes of the failures the CLI reports itself, beside the CETP codes of
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

// report prints err as {"error": ...} on w and returns the exit code. A
// schema query error was printed on stdout by the schema command.
func report(w io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	var qe *catalog.QueryError
	if errors.As(err, &qe) {
		return ExitUsage
	}
	body, code := classify(err)
	b, _ := json.MarshalIndent(map[string]errorBody{"error": body}, "", "  ")
	w.Write(append(b, '\n'))
	return code
}

// classify turns err into its error body and exit code: a Provider's CETP
// error (from the call, or a refused resolution launch), a failed
// exchange, or else a usage error.
func classify(err error) (errorBody, int) {
	var ce *consumer.Error
	if errors.As(err, &ce) {
		return errorBody{Source: "provider", Code: string(ce.Code), Message: ce.Message, Retryable: ce.Retryable,
			RetryAfterMs: ce.RetryAfter.Milliseconds(), RequestID: ce.RequestID, Details: validJSON(ce.Details)}, ExitProvider
	}
	var pe *protocol.Error
	if errors.As(err, &pe) {
		return errorBody{Source: "provider", Code: string(pe.Code), Message: pe.Message, Retryable: pe.Retryable,
			RetryAfterMs: pe.RetryAfter.Milliseconds(), Details: validJSON(pe.Details)}, ExitProvider
	}
	var call *callError
	if errors.As(err, &call) {
		return errorBody{Source: "cli", Code: CodeTransport, Message: err.Error()}, ExitTransport
	}
	return errorBody{Source: "cli", Code: CodeUsage, Message: err.Error()}, ExitUsage
}

// validJSON returns data when it is JSON, else nil.
func validJSON(data json.RawMessage) json.RawMessage {
	if len(data) == 0 || !json.Valid(data) {
		return nil
	}
	return data
}
