package mcpbridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sources of a tool error (the "source" of its _meta "cetp/error").
const (
	SourceProvider  = "provider"  // the Provider's CETP error, its code from §5
	SourceTransport = "transport" // no answer: the call may have run
	SourceResponse  = "response"  // an answer that breaks the protocol or its schema
	SourceBridge    = "bridge"    // the bridge's own refusal
)

// Codes of the errors the bridge raises itself (source transport,
// response or bridge); a Provider's error keeps its §5 code.
const (
	CodeNoAnswer       = "NO_ANSWER"
	CodeBadResponse    = "BAD_RESPONSE"
	CodeResultOverCap  = "RESULT_OVER_CAP"
	CodeOutcomeUnknown = "OUTCOME_UNKNOWN"
	CodeWrongProvider  = "WRONG_PROVIDER"
	CodeCannotConfirm  = "CANNOT_CONFIRM"
)

// ErrorInfo is the _meta "cetp/error" of a tool error: what the host's
// program (not only its model) can act on.
type ErrorInfo struct {
	Source       string          `json:"source"`
	Code         string          `json:"code"`
	Message      string          `json:"message"`
	Retryable    bool            `json:"retryable"`
	RetryAfterMs int64           `json:"retry_after_ms,omitempty"`
	RequestID    string          `json:"request_id,omitempty"`
	OperationID  string          `json:"operation_id,omitempty"`
	Details      json.RawMessage `json:"details,omitempty"`
}

// successResult renders a verified result value: structuredContent, the
// same JSON as text (as MCP asks of a tool with structured output), and
// the request ID in _meta. A value past MaxResultBytes is not returned.
func (b *Bridge) successResult(requestID, operationID string, v json.RawMessage) *mcp.CallToolResult {
	if len(v) > b.opt.MaxResultBytes {
		return b.toolError(ErrorInfo{Source: SourceBridge, Code: CodeResultOverCap, RequestID: requestID, OperationID: operationID,
			Message: fmt.Sprintf("the call succeeded, but its result (%d bytes) exceeds this bridge's cap of %d bytes; it is not returned",
				len(v), b.opt.MaxResultBytes)})
	}
	var text bytes.Buffer
	if json.Compact(&text, v) != nil {
		text.Reset()
		text.Write(v)
	}
	meta := mcp.Meta{MetaRequestID: requestID}
	if operationID != "" {
		meta[MetaOperationID] = operationID
	}
	return &mcp.CallToolResult{StructuredContent: json.RawMessage(text.Bytes()),
		Content: []mcp.Content{&mcp.TextContent{Text: text.String()}}, Meta: meta}
}

// errorResult renders err as an MCP tool error (isError) whose text names
// the code and marks the Provider's message as untrusted, with the
// structured ErrorInfo in _meta.
func (b *Bridge) errorResult(requestID, operationID string, err error) *mcp.CallToolResult {
	info := errorInfo(err)
	if info.RequestID == "" {
		info.RequestID = requestID
	}
	info.OperationID = operationID
	return b.toolError(info)
}

// toolError is the tool error of info.
func (b *Bridge) toolError(info ErrorInfo) *mcp.CallToolResult {
	text := fmt.Sprintf("CETP %s error %s (retryable: %t", info.Source, info.Code, info.Retryable)
	if info.RetryAfterMs > 0 {
		text += fmt.Sprintf(", retry after %d ms", info.RetryAfterMs)
	}
	text += ", request_id " + info.RequestID + ")"
	if info.Source == SourceProvider {
		text += "\n" + untrusted("error message", info.Message)
	} else {
		text += ": " + info.Message
	}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}},
		Meta: mcp.Meta{MetaError: info, MetaRequestID: info.RequestID}}
}

// errorInfo classifies err, whoever raised it.
func errorInfo(err error) ErrorInfo {
	var (
		e  *consumer.Error
		pe *protocol.Error
		te *consumer.TransportError
		re *consumer.ResponseError
		pm *consumer.ProviderMismatchError
		ue *unknownEndError
		le *launchError
	)
	switch {
	case errors.As(err, &ue):
		return ErrorInfo{Source: SourceBridge, Code: CodeOutcomeUnknown, Message: ue.Error(), Retryable: true}
	case errors.As(err, &e):
		return providerInfo(e)
	case errors.As(err, &pe):
		return ErrorInfo{Source: SourceProvider, Code: string(pe.Code), Message: capText(pe.Message, consumer.MaxErrorMessage),
			Retryable: pe.Retryable, RetryAfterMs: pe.RetryAfter.Milliseconds()}
	case errors.As(err, &pm):
		return ErrorInfo{Source: SourceBridge, Code: CodeWrongProvider, Message: pm.Error()}
	case errors.As(err, &le):
		return ErrorInfo{Source: SourceBridge, Code: CodeCannotConfirm, Message: le.Error() + "; the call did not run"}
	case errors.As(err, &te):
		return ErrorInfo{Source: SourceTransport, Code: CodeNoAnswer, Retryable: true, RequestID: te.RequestID,
			Message: "no answer from the Provider (" + te.Err.Error() + "); the call may have run: the Provider keeps its outcome under this request_id"}
	case errors.As(err, &re):
		return ErrorInfo{Source: SourceResponse, Code: CodeBadResponse, RequestID: re.RequestID, Message: re.Reason}
	}
	return ErrorInfo{Source: SourceBridge, Code: CodeNoAnswer, Message: err.Error(), RequestID: consumer.RequestIDOf(err)}
}

// providerInfo is the ErrorInfo of a Provider's CETP error: code,
// retryable and retry_after_ms as the Provider sent them, its message
// (untrusted) and details. A resolution and its resume token never leave
// the bridge.
func providerInfo(e *consumer.Error) ErrorInfo {
	info := ErrorInfo{Source: SourceProvider, Code: string(e.Code), Message: printableKeepLines(e.Message), Retryable: e.Retryable,
		RetryAfterMs: e.RetryAfter.Milliseconds(), RequestID: e.RequestID, Details: e.Details}
	if e.UnknownCode != "" {
		info.Message = "the Provider sent an error code CETP does not define (" + printable(e.UnknownCode) + "): " + info.Message
	}
	return info
}
