package consumer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// ToolList is the answer of list_tools (§3.3).
type ToolList struct {
	Revision string `json:"revision"`
	Tools    []Tool `json:"tools"`
	// Rejected are the listed tools left out, each with the reason: a
	// name rule, a size cap, or a safety annotation that is missing or
	// has an unknown value (see caps.go). They are never offered to an
	// agent, and results of them are never accepted.
	Rejected []RejectedTool `json:"rejected,omitempty"`
	// Dropped is len(Rejected).
	Dropped int `json:"-"`
}

// RejectedTool is a listed tool the client does not use, and why.
type RejectedTool struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Tool is one tool a Provider describes. Every text in it is untrusted.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"input_schema"`
	OutputSchema json.RawMessage `json:"output_schema"`
	Scopes       []string        `json:"scopes"`
	Annotations  map[string]any  `json:"annotations"`
}

// ListTools returns the tools visible to this Consumer, negotiating first
// when there is no session, and caches their output schemas for the
// session: every result is checked against them (§4.5, §7.3).
func (c *Client) ListTools(ctx context.Context) (*ToolList, error) {
	requestID := c.opt.NewRequestID()
	data, err := c.call(ctx, protocol.MethodListTools, requestID, nil)
	if err != nil {
		return nil, stamp(err, protocol.MethodListTools, requestID)
	}
	s := c.Session()
	var l ToolList
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, &ResponseError{Method: protocol.MethodListTools, RequestID: requestID, Reason: "data: " + err.Error()}
	}
	if reason := checkIdentifier("revision", l.Revision, MaxRevision, printableIDRE); reason != "" {
		return nil, &ResponseError{Method: protocol.MethodListTools, RequestID: requestID, Reason: reason}
	}
	capTools(&l, s != nil && s.Has(protocol.CapAsyncOperations))
	c.cache.update(&l, s)
	return &l, nil
}

// ExecuteTool runs tool with args (a JSON object) and returns the
// verified result value. It runs under the request ID of WithRequestID
// when ctx carries one, else under a fresh one; every error carries the
// ID (RequestIDOf), so the call can be retried or queried under it. A
// Provider's error arrives as *Error, a call that got no answer as
// *TransportError.
func (c *Client) ExecuteTool(ctx context.Context, tool string, args json.RawMessage) (json.RawMessage, error) {
	id, ok := RequestIDFrom(ctx)
	if !ok {
		id = c.opt.NewRequestID()
	}
	return c.ExecuteToolID(ctx, id, tool, args)
}

// ExecuteToolID is ExecuteTool with the caller's request ID, for a retry
// or query of the same logical execution. A background operation is
// followed to its end (Wait); the context bounds the whole execution.
func (c *Client) ExecuteToolID(ctx context.Context, requestID, tool string, args json.RawMessage) (json.RawMessage, error) {
	v, op, err := c.StartTool(ctx, requestID, tool, args)
	if err != nil || op == nil {
		return v, err
	}
	return c.Wait(ctx, op)
}

// StartTool runs execute_tool (with the resolution flow when
// Options.LaunchResolutions is set) and returns the verified result of a
// synchronous answer, or the operation of an accepted one.
func (c *Client) StartTool(ctx context.Context, requestID, tool string, args json.RawMessage) (json.RawMessage, *Operation, error) {
	v, err := c.executeResolving(ctx, requestID, tool, args)
	if err == nil {
		return v, nil, nil
	}
	var a *AcceptedError
	if errors.As(err, &a) {
		return nil, &Operation{ID: a.OperationID, RequestID: requestID, Tool: tool, PollAfter: a.PollAfter}, nil
	}
	return v, nil, stamp(err, protocol.MethodExecuteTool, requestID)
}

// execute sends execute_tool, with resumeToken when it is not empty,
// retries retryable errors under the same request ID, and verifies the
// result.
func (c *Client) execute(ctx context.Context, requestID, tool string, args json.RawMessage, resumeToken string) (json.RawMessage, error) {
	extra := protocol.Bundle{
		protocol.KeyToolName: protocol.String(tool),
		protocol.KeyArgs:     protocol.String(args),
	}
	if resumeToken != "" {
		extra[protocol.KeyResumeToken] = protocol.String(resumeToken)
	}
	r, err := c.retrying(ctx, func() (reply, error) {
		return c.callFile(ctx, protocol.MethodExecuteTool, requestID, extra)
	})
	if err != nil {
		return nil, stamp(err, protocol.MethodExecuteTool, requestID)
	}
	v, err := c.result(ctx, tool, r)
	return v, stamp(err, protocol.MethodExecuteTool, requestID)
}

// Invoke executes tool with in encoded as its arguments and decodes the
// result into Out. Generated clients call it for their typed methods.
func Invoke[Out any](ctx context.Context, c *Client, tool string, in any) (Out, error) {
	var out Out
	args, err := json.Marshal(in)
	if err != nil {
		return out, fmt.Errorf("cetp %s: encode args: %w", tool, err)
	}
	raw, err := c.ExecuteTool(ctx, tool, args)
	if err != nil {
		return out, err
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return out, &ResponseError{Method: protocol.MethodExecuteTool, Reason: tool + " result: " + err.Error()}
	}
	return out, nil
}
