package consumer

import (
	"context"
	"encoding/json"
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
	return &l, nil
}

// ExecuteTool runs tool with args (a JSON object) under a fresh request
// ID and returns the inline result value. A Provider's error arrives as
// *Error, a background operation as *AcceptedError.
func (c *Client) ExecuteTool(ctx context.Context, tool string, args json.RawMessage) (json.RawMessage, error) {
	return c.ExecuteToolID(ctx, c.opt.NewRequestID(), tool, args)
}

// ExecuteToolID is ExecuteTool with the caller's request ID, for a retry
// or query of the same logical execution.
func (c *Client) ExecuteToolID(ctx context.Context, requestID, tool string, args json.RawMessage) (json.RawMessage, error) {
	return c.executeResolving(ctx, requestID, tool, args)
}

// execute sends execute_tool, with resumeToken when it is not empty, and
// retries retryable errors under the same request ID.
func (c *Client) execute(ctx context.Context, requestID, tool string, args json.RawMessage, resumeToken string) (json.RawMessage, error) {
	extra := protocol.Bundle{
		protocol.KeyToolName: protocol.String(tool),
		protocol.KeyArgs:     protocol.String(args),
	}
	if resumeToken != "" {
		extra[protocol.KeyResumeToken] = protocol.String(resumeToken)
	}
	data, err := c.retrying(ctx, func() ([]byte, error) {
		return c.call(ctx, protocol.MethodExecuteTool, requestID, extra)
	})
	if err != nil {
		return nil, err
	}
	return inlineValue(data)
}

// inlineValue returns the value of an inline result data object (§4.2).
func inlineValue(data []byte) (json.RawMessage, error) {
	var d struct {
		Kind  string          `json:"kind"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, &ResponseError{Method: protocol.MethodExecuteTool, Reason: "data: " + err.Error()}
	}
	if d.Kind != "inline" || d.Value == nil {
		return nil, &ResponseError{Method: protocol.MethodExecuteTool, Reason: fmt.Sprintf("result kind %q is not supported", d.Kind)}
	}
	return d.Value, nil
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
