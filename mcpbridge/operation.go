package mcpbridge

import (
	"context"
	"fmt"
	"time"

	"github.com/cetpgen/cetpgen/runtime/cliout"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// follow polls a background operation (§4.4) until it ends, turning its
// progress into MCP progress notifications, and renders how it ended.
// When the host cancels the call (notifications/cancelled), or the call's
// timeout passes, the bridge asks the Provider to cancel the operation
// and keeps polling, for at most CancelWait, to learn the end the
// Provider reports: the result of an operation that finished anyway,
// CANCELLED only once the Provider says cancelled.
func (c *call) follow(ctx context.Context, op *consumer.Operation) *mcp.CallToolResult {
	c.b.opt.Logger.Info("operation accepted", "tool", c.tool, "request_id", c.requestID, "operation_id", op.ID)
	c.progress.send(ctx, "accepted by the Provider as background operation "+printable(op.ID), c.opMeta(op, "accepted", nil))
	wait := op.PollAfter
	for {
		if cliout.Sleep(ctx, clampPoll(wait)) != nil {
			return c.cancel(ctx, op)
		}
		st, err := c.b.client.GetOperation(ctx, op)
		if err != nil {
			if consumer.Expired(ctx) != nil { // the call's timeout, though the timer may not have fired
				return c.cancel(ctx, op)
			}
			return c.b.errorResult(c.requestID, op.ID, err)
		}
		if st.Terminal() {
			return c.ended(op, st)
		}
		c.progress.send(ctx, progressText(st), c.opMeta(op, st.State, st.Progress))
		wait = st.PollAfter
	}
}

// cancel asks the Provider to cancel op after the call's context ended
// and waits, on a context of its own, for the state the Provider reports.
func (c *call) cancel(callCtx context.Context, op *consumer.Operation) *mcp.CallToolResult {
	ctx, stop := context.WithTimeout(context.WithoutCancel(callCtx), c.b.opt.CancelWait)
	defer stop()
	log := c.b.opt.Logger.With("tool", c.tool, "request_id", c.requestID, "operation_id", op.ID)
	if err := c.b.client.CancelOperation(ctx, op); err != nil {
		log.Warn("cancel_operation failed", "err", err)
	} else {
		log.Info("cancellation requested")
	}
	for {
		st, err := c.b.client.GetOperation(ctx, op)
		switch {
		case err != nil:
			log.Warn("the end of the operation is not known", "err", err)
			return c.b.errorResult(c.requestID, op.ID, &unknownEndError{op: op, err: err})
		case st.Terminal():
			log.Info("operation ended after the host cancelled", "state", st.State)
			return c.ended(op, st)
		}
		if cliout.Sleep(ctx, clampPoll(st.PollAfter)) != nil {
			log.Warn("the end of the operation is not known", "state", st.State)
			return c.b.errorResult(c.requestID, op.ID, &unknownEndError{op: op, err: ctx.Err()})
		}
	}
}

// ended renders a terminal state: the verified result of a succeeded
// operation, the error of a failed one, CANCELLED for a cancelled one.
func (c *call) ended(op *consumer.Operation, st *consumer.OperationState) *mcp.CallToolResult {
	switch st.State {
	case consumer.StateSucceeded:
		return c.b.successResult(c.requestID, op.ID, st.Result)
	case consumer.StateFailed:
		return c.b.errorResult(c.requestID, op.ID, st.Err)
	}
	return c.b.errorResult(c.requestID, op.ID, &consumer.Error{Method: protocol.MethodGetOperation, RequestID: c.requestID,
		Code: protocol.CodeCancelled, Message: "the Provider reports the operation cancelled: it has no further effect"})
}

// unknownEndError is an operation whose end the bridge could not learn
// after asking to cancel it: it may still succeed.
type unknownEndError struct {
	op  *consumer.Operation
	err error
}

func (e *unknownEndError) Error() string {
	return fmt.Sprintf("cancellation of operation %s was requested but the Provider has not reported its end (%v); it may still succeed: query it with request_id %s",
		e.op.ID, e.err, e.op.RequestID)
}

func (e *unknownEndError) Unwrap() error { return e.err }

// opMeta is the _meta of a progress notification about op.
func (c *call) opMeta(op *consumer.Operation, state string, p *consumer.Progress) mcp.Meta {
	m := mcp.Meta{MetaRequestID: c.requestID, MetaOperationID: op.ID, MetaState: state}
	if p != nil {
		m[MetaProgress] = map[string]any{"current": p.Current, "total": p.Total}
	}
	return m
}

// progressText is the message of an operation's progress notification.
func progressText(st *consumer.OperationState) string {
	s := "operation " + st.State
	if p := st.Progress; p != nil {
		if p.Total > 0 {
			s += fmt.Sprintf(" %d/%d", p.Current, p.Total)
		} else {
			s += fmt.Sprintf(" %d", p.Current)
		}
		if p.Message != "" {
			s += " — Provider's message (untrusted): " + capText(p.Message, maxProgressText)
		}
	}
	return s
}

// Bounds on the poll interval, as the CETP client keeps them.
func clampPoll(d time.Duration) time.Duration {
	return min(max(d, consumer.MinPollInterval), consumer.MaxPollInterval)
}
