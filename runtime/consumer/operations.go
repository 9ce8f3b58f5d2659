package consumer

import (
	"context"
	"encoding/json"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Bounds on polling: a Provider's poll_after_ms is kept within them, so
// it can neither make the client spin nor stall it.
const (
	MinPollInterval = 20 * time.Millisecond
	MaxPollInterval = 30 * time.Second
	// cancelGrace bounds the cancel_operation sent after the caller's
	// context ended.
	cancelGrace = 2 * time.Second
	// maxProgressMessage caps a progress message.
	maxProgressMessage = 256
)

// Operation is a background operation a Provider accepted (§4.4). Its
// RequestID is the one that created it; every query carries it.
type Operation struct {
	ID        string
	RequestID string
	Tool      string
	PollAfter time.Duration
}

// Progress is an operation's optional progress: untrusted display data,
// never a sign of success.
type Progress struct {
	Current int64  `json:"current"`
	Total   int64  `json:"total"`
	Message string `json:"message"`
}

// OperationState is one answer of get_operation. Result is the verified
// result value of a succeeded operation; Err the error of a failed one.
type OperationState struct {
	ID        string
	State     string
	Progress  *Progress
	PollAfter time.Duration
	Result    json.RawMessage
	Err       *Error
}

// Operation states (§4.4).
const (
	StateQueued    = "queued"
	StateRunning   = "running"
	StateSucceeded = "succeeded"
	StateFailed    = "failed"
	StateCancelled = "cancelled"
)

// Terminal reports whether the state is final.
func (s *OperationState) Terminal() bool {
	return s.State == StateSucceeded || s.State == StateFailed || s.State == StateCancelled
}

// operationData is the wire form of a get_operation answer.
type operationData struct {
	OperationID string          `json:"operation_id"`
	State       string          `json:"state"`
	Progress    *Progress       `json:"progress"`
	PollAfterMs int64           `json:"poll_after_ms"`
	Result      json.RawMessage `json:"result"`
	Error       *struct {
		Code      string          `json:"error_code"`
		Message   string          `json:"error_message"`
		Retryable bool            `json:"retryable"`
		Details   json.RawMessage `json:"error_details"`
	} `json:"error"`
}

// opExtras returns the extras that name op.
func opExtras(op *Operation) protocol.Bundle {
	return protocol.Bundle{protocol.KeyOperationID: protocol.String(op.ID)}
}

// GetOperation queries op once. A succeeded result is verified like a
// synchronous one (file digest, size, output schema). It is sent only on
// a session that negotiated async_operations (§2.3); on any other it
// fails with UNSUPPORTED_CAPABILITY without sending anything.
func (c *Client) GetOperation(ctx context.Context, op *Operation) (*OperationState, error) {
	if err := c.needCapability(ctx, protocol.MethodGetOperation, op.RequestID, protocol.CapAsyncOperations); err != nil {
		return nil, err
	}
	r, err := c.retrying(ctx, func() (reply, error) {
		return c.callFile(ctx, protocol.MethodGetOperation, op.RequestID, opExtras(op))
	})
	if err != nil {
		return nil, stamp(err, protocol.MethodGetOperation, op.RequestID)
	}
	defer r.close()
	st, err := c.decodeState(ctx, op, r)
	return st, stamp(err, protocol.MethodGetOperation, op.RequestID)
}

// needCapability negotiates if needed and fails with
// UNSUPPORTED_CAPABILITY, sending nothing, when the session lacks
// capability (§2.3 "Consumer 不得调用未协商的可选能力").
func (c *Client) needCapability(ctx context.Context, method, requestID, capability string) error {
	s, err := c.ensureSession(ctx)
	if err != nil {
		return stamp(err, method, requestID)
	}
	if !s.Has(capability) {
		return &Error{Method: method, RequestID: requestID, Code: protocol.CodeUnsupportedCapability,
			Message: capability + " was not negotiated; this client does not call " + method}
	}
	return nil
}

// decodeState checks and decodes a get_operation answer.
func (c *Client) decodeState(ctx context.Context, op *Operation, r reply) (*OperationState, error) {
	var d operationData
	if err := json.Unmarshal(r.data, &d); err != nil {
		return nil, &ResponseError{Method: protocol.MethodGetOperation, Reason: "data: " + err.Error()}
	}
	if d.OperationID != op.ID {
		return nil, &ResponseError{Method: protocol.MethodGetOperation, Reason: "operation_id does not echo the request"}
	}
	st := &OperationState{ID: d.OperationID, State: d.State, Progress: capProgress(d.Progress),
		PollAfter: time.Duration(d.PollAfterMs) * time.Millisecond}
	switch d.State {
	case StateQueued, StateRunning, StateCancelled:
		return st, nil
	case StateFailed:
		return st, c.failedState(op, st, d)
	case StateSucceeded:
		var err error
		st.Result, err = c.result(ctx, op.Tool, reply{data: d.Result, file: r.file})
		return st, err
	}
	return nil, &ResponseError{Method: protocol.MethodGetOperation, Reason: "unknown state " + protocol.Truncate(d.State, 32)}
}

// failedState fills the error of a failed operation.
func (c *Client) failedState(op *Operation, st *OperationState, d operationData) error {
	if d.Error == nil {
		return &ResponseError{Method: protocol.MethodGetOperation, Reason: "failed state without an error object"}
	}
	st.Err = capError(&Error{Method: protocol.MethodGetOperation, RequestID: op.RequestID,
		Code: protocol.Code(d.Error.Code), Message: d.Error.Message, Retryable: d.Error.Retryable, Details: d.Error.Details})
	return nil
}

func capProgress(p *Progress) *Progress {
	if p != nil {
		p.Message = protocol.Truncate(p.Message, maxProgressMessage)
	}
	return p
}

// CancelOperation asks the Provider to cancel op (§4.4), only on a session
// that negotiated cancellation (UNSUPPORTED_CAPABILITY otherwise, nothing
// sent). Success only
// means the request was taken: query the operation for its end, which
// may still be succeeded. An operation that already finished answers
// CONFLICT.
func (c *Client) CancelOperation(ctx context.Context, op *Operation) error {
	if err := c.needCapability(ctx, protocol.MethodCancelOperation, op.RequestID, protocol.CapCancellation); err != nil {
		return err
	}
	data, err := c.call(ctx, protocol.MethodCancelOperation, op.RequestID, opExtras(op))
	if err != nil {
		return stamp(err, protocol.MethodCancelOperation, op.RequestID)
	}
	var d operationData
	if json.Unmarshal(data, &d) != nil || d.OperationID != op.ID || d.State != "cancellation_requested" {
		return &ResponseError{Method: protocol.MethodCancelOperation, RequestID: op.RequestID, Reason: "answer is not cancellation_requested for this operation"}
	}
	return nil
}

// Wait polls op every poll_after_ms (within MinPollInterval and
// MaxPollInterval) until it ends, reporting progress to
// Options.OnProgress, and returns its verified result or its error (a
// cancelled operation is a CANCELLED *Error). When ctx ends first, Wait
// asks the Provider to cancel the operation (if cancellation was
// negotiated) and returns a DEADLINE_EXCEEDED *Error: the operation may
// still finish, and GetOperation with the same Operation tells.
func (c *Client) Wait(ctx context.Context, op *Operation) (json.RawMessage, error) {
	wait := op.PollAfter
	for {
		if err := sleep(ctx, clampPoll(wait)); err != nil {
			return nil, c.abandon(op, err)
		}
		st, err := c.GetOperation(ctx, op)
		if err != nil {
			if cause := Expired(ctx); cause != nil {
				return nil, c.abandon(op, cause)
			}
			return nil, err
		}
		if st.Terminal() {
			return st.Result, terminalError(op, st)
		}
		if st.Progress != nil && c.opt.OnProgress != nil {
			c.opt.OnProgress(op, *st.Progress)
		}
		wait = st.PollAfter
	}
}

// Expired returns ctx's error, or context.DeadlineExceeded once its
// deadline has passed even if its timer has not fired yet, or nil. The
// deadline is the one the Provider was sent, deadline_at_ms, truncated
// to the millisecond: the Provider may find it passed up to a
// millisecond before ctx's. A caller that polls an operation with ctx
// tells by it whether an error is the call's own timeout.
func Expired(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(time.UnixMilli(d.UnixMilli())) {
		return context.DeadlineExceeded
	}
	return nil
}

func clampPoll(d time.Duration) time.Duration {
	return min(max(d, MinPollInterval), MaxPollInterval)
}

// terminalError returns the error of a failed or cancelled state.
func terminalError(op *Operation, st *OperationState) error {
	switch st.State {
	case StateFailed:
		return st.Err
	case StateCancelled:
		return &Error{Method: protocol.MethodGetOperation, RequestID: op.RequestID, Code: protocol.CodeCancelled,
			Message: "the operation was cancelled"}
	}
	return nil
}

// abandon cancels op on a fresh, short context after the caller's ended,
// and reports the deadline.
func (c *Client) abandon(op *Operation, cause error) error {
	if s := c.Session(); s != nil && s.Has(protocol.CapCancellation) {
		ctx, cancel := context.WithTimeout(context.Background(), cancelGrace)
		c.CancelOperation(ctx, op)
		cancel()
	}
	return &Error{Method: protocol.MethodGetOperation, RequestID: op.RequestID, Code: protocol.CodeDeadlineExceeded,
		Message: "gave up waiting for operation " + op.ID + " (" + cause.Error() + "); cancellation was requested if negotiated",
		cause:   cause}
}
