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
	// Dropped counts the listed tools left out for breaking a cap or a
	// name rule (see caps.go); they are never offered to an agent.
	Dropped int `json:"-"`
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
// when there is no session.
func (c *Client) ListTools(ctx context.Context) (*ToolList, error) {
	data, err := c.call(ctx, protocol.MethodListTools, c.opt.NewRequestID(), nil)
	if err != nil {
		return nil, err
	}
	var l ToolList
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, &ResponseError{Method: protocol.MethodListTools, Reason: "data: " + err.Error()}
	}
	l.Dropped = capTools(&l)
	c.cache.update(&l)
	return &l, nil
}

// ExecuteTool runs tool with args (a JSON object) under a fresh request
// ID and returns the inline result value. A Provider's error arrives as
// *Error, a background operation as *AcceptedError.
func (c *Client) ExecuteTool(ctx context.Context, tool string, args json.RawMessage) (json.RawMessage, error) {
	return c.ExecuteToolID(ctx, c.opt.NewRequestID(), tool, args)
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
	var a *AcceptedError
	if errors.As(err, &a) {
		return nil, &Operation{ID: a.OperationID, RequestID: requestID, Tool: tool, PollAfter: a.PollAfter}, nil
	}
	return v, nil, err
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
		return nil, err
	}
	return c.result(ctx, tool, r)
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
