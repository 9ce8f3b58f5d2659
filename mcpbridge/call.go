package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// call is one tools/call: one logical CETP execution under one request
// ID, kept across the CETP client's retries and reconnects, the resume
// after a confirmation and every query of its operation (§4.1, §6).
type call struct {
	b         *Bridge
	tool      string
	args      json.RawMessage
	requestID string
	progress  *notifier
}

// handler returns the MCP handler of the CETP tool named tool.
func (b *Bridge) handler(tool string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		c := &call{b: b, tool: tool, args: arguments(req.Params.Arguments), requestID: consumer.NewRequestID(),
			progress: newNotifier(req)}
		res := c.run(ctx)
		b.checkRevision(ctx)
		return res, nil
	}
}

// arguments are the host's arguments as sent, or {} when there are none.
// Only the arguments reach the Provider: nothing else of the request (its
// _meta above all) is read, so no host-side flag can stand in for the
// Provider's confirmation.
func arguments(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}")
	}
	return raw
}

// run executes the call and renders its outcome. The call's context is
// the host's request bounded by CallTimeout; the host cancelling the
// request ends a synchronous call (the CETP client tells the Provider)
// and cancels a background operation through the Provider.
func (c *call) run(ctx context.Context) *mcp.CallToolResult {
	if c.b.opt.CallTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.b.opt.CallTimeout)
		defer cancel()
	}
	c.b.opt.Logger.Info("tools/call", "tool", c.tool, "request_id", c.requestID)
	v, op, err := c.b.client.StartTool(ctx, c.requestID, c.tool, c.args)
	if e, ok := confirmation(err); ok {
		v, op, err = c.confirm(ctx, e)
	}
	if err == nil && op != nil {
		return c.follow(ctx, op)
	}
	if err != nil {
		return c.b.errorResult(c.requestID, "", err)
	}
	return c.b.successResult(c.requestID, "", v)
}

// confirmation reports whether err is a USER_ACTION_REQUIRED with a
// resolution and a resume token: a call the Provider's own UI must
// confirm (§4.3). AUTH_REQUIRED is not launched: it is returned to the
// host with the Provider's message.
func confirmation(err error) (*consumer.Error, bool) {
	var e *consumer.Error
	if !errors.As(err, &e) || e.Code != protocol.CodeUserActionRequired || e.Resolution == nil || e.ResumeToken == "" {
		return nil, false
	}
	return e, true
}

// confirm launches the resolution of e through the Provider, whose own
// UI asks its user (the host's approval never counts), telling the host
// meanwhile by progress notifications, then resumes the call with the
// resume token under the same request ID. A denial is the Provider's
// USER_CANCELLED.
func (c *call) confirm(ctx context.Context, e *consumer.Error) (json.RawMessage, *consumer.Operation, error) {
	c.b.opt.Logger.Info("confirmation asked in the Provider's UI", "tool", c.tool, "request_id", c.requestID)
	c.progress.send(ctx, "waiting for the Provider's own UI: its user confirms or denies this call there",
		mcp.Meta{MetaRequestID: c.requestID, MetaState: "waiting_for_confirmation"})
	if err := c.b.client.Resolve(ctx, e); err != nil {
		return nil, nil, &launchError{err: err, requestID: c.requestID}
	}
	c.progress.send(ctx, "the Provider's UI answered; resuming the call",
		mcp.Meta{MetaRequestID: c.requestID, MetaState: "resuming"})
	v, err := c.b.client.ResumeTool(ctx, c.requestID, c.tool, c.args, e.ResumeToken)
	var a *consumer.AcceptedError
	if errors.As(err, &a) {
		return nil, &consumer.Operation{ID: a.OperationID, RequestID: c.requestID, Tool: c.tool, PollAfter: a.PollAfter}, nil
	}
	return v, nil, err
}

// launchError is a resolution that could not be launched or answered:
// the call did not run, since the Provider runs it only after its UI's
// approval and the resume.
type launchError struct {
	err       error
	requestID string
}

func (e *launchError) Error() string {
	return "the Provider's confirmation could not be completed: " + e.err.Error()
}

func (e *launchError) Unwrap() error { return e.err }
