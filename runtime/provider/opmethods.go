package provider

import (
	"context"
	"encoding/json"
	"errors"
	"os"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/store"
)

// Operation states of get_operation beyond the store's, and the answer of
// cancel_operation.
const stateCancellationRequested = "cancellation_requested"

// operationError is the error object of a failed operation: the fields of
// §5 under the keys of the error envelope.
type operationError struct {
	Code      string          `json:"error_code"`
	Message   string          `json:"error_message"`
	Retryable bool            `json:"retryable"`
	Details   json.RawMessage `json:"error_details,omitempty"`
	// RetryAfterMs is the stored failure's retry_after_ms.
	RetryAfterMs int64 `json:"retry_after_ms,omitempty"`
}

// operationState is the data of a get_operation answer (§4.4).
type operationState struct {
	OperationID string          `json:"operation_id"`
	State       string          `json:"state"`
	Progress    *Progress       `json:"progress,omitempty"`
	PollAfterMs int64           `json:"poll_after_ms,omitempty"`
	Result      json.RawMessage `json:"result,omitempty"`
	Error       *operationError `json:"error,omitempty"`
}

// findOperation is the common part of get_operation and cancel_operation:
// the capability, the operation_id, and the record of this caller's
// request_id naming that operation. Another caller's operation, an
// unknown one and one whose request_id differs look the same. A record
// past its window is RESULT_EXPIRED, and so is one purged since, while its
// tombstone lasts (expiry.go).
func (p *Provider) findOperation(ctx context.Context, req *request, capability string) (store.Record, string, *protocol.Error) {
	if !req.session.has(capability) {
		return store.Record{}, "", protocol.NewError(protocol.CodeUnsupportedCapability, "capability %s was not negotiated", capability)
	}
	id, ok, _ := req.extras.String(protocol.KeyOperationID)
	if !ok || id == "" || len(id) > maxEchoRequestID {
		return store.Record{}, "", protocol.NewError(protocol.CodeInvalidRequest, "operation_id is required")
	}
	key := store.Key{Caller: req.caller.Key(), Provider: p.desc.ID, RequestID: req.requestID}
	rec, err := p.opt.Store.Get(ctx, key)
	switch {
	case errors.Is(err, store.ErrNotFound) && p.purgedOperation(ctx, key, id):
		return rec, id, resultExpired()
	case errors.Is(err, store.ErrNotFound) || err == nil && rec.OperationID != id:
		return rec, id, protocol.NewError(protocol.CodeInvalidRequest, "no operation %s for this request_id", protocol.Truncate(id, 64))
	case err != nil:
		return rec, id, storeError(err)
	case rec.State.Terminal() && !p.opt.Now().Before(rec.ExpiresAt):
		return rec, id, protocol.NewError(protocol.CodeResultExpired, "the operation's result is past its retention window")
	}
	return rec, id, nil
}

// getOperation answers get_operation.
func (p *Provider) getOperation(ctx context.Context, req *request) protocol.Bundle {
	rec, id, e := p.findOperation(ctx, req, protocol.CapAsyncOperations)
	if e != nil {
		return protocol.ErrorBundle(req.echo, e)
	}
	st := operationState{OperationID: id, State: string(rec.State)}
	if !rec.State.Terminal() {
		st.PollAfterMs = p.opt.PollAfter.Milliseconds()
		if op := p.ops.get(rec.Key); op != nil {
			st.Progress = op.progress()
		} else {
			st.Progress = p.storedProgress(ctx, rec.Key)
		}
		return p.operationBundle(req, st, nil)
	}
	o := rec.Outcome
	switch rec.State {
	case store.StateSucceeded:
		st.Result = o.Data
		if o.File != nil {
			f, e := p.fileFor(req.session, o)
			if e != nil {
				return protocol.ErrorBundle(req.echo, e)
			}
			return p.operationBundle(req, st, f)
		}
	case store.StateFailed:
		st.Error = &operationError{Code: o.ErrorCode, Message: o.ErrorMessage, Retryable: o.Retryable, Details: o.ErrorDetails,
			RetryAfterMs: o.RetryAfterMs}
	}
	return p.operationBundle(req, st, nil)
}

// operationBundle encodes a get_operation answer, with the result file
// when there is one.
func (p *Provider) operationBundle(req *request, st operationState, f *os.File) protocol.Bundle {
	data, err := json.Marshal(st)
	if err != nil {
		if f != nil {
			f.Close()
		}
		return protocol.ErrorBundle(req.echo, protocol.NewError(protocol.CodeInternalError, "Provider internal error"))
	}
	b := protocol.Success(req.echo, data)
	if f != nil {
		b[protocol.KeyResultFD] = protocol.FileDescriptor{File: f}
	}
	return b
}

// cancelOperation answers cancel_operation (§4.4). Cancellation is
// cooperative: the answer only says the request was taken; the operation
// becomes cancelled only if it stops before committing. One that already
// finished is CONFLICT (or answered again when it was cancelled), never a
// false cancellation.
func (p *Provider) cancelOperation(ctx context.Context, req *request) protocol.Bundle {
	rec, id, e := p.findOperation(ctx, req, protocol.CapCancellation)
	if e != nil {
		return protocol.ErrorBundle(req.echo, e)
	}
	switch rec.State {
	case store.StateSucceeded, store.StateFailed:
		return protocol.ErrorBundle(req.echo, protocol.NewError(protocol.CodeConflict,
			"the operation already finished as %s and cannot be cancelled", rec.State))
	case store.StateQueued, store.StateRunning:
		if err := p.opt.Store.RequestCancel(ctx, rec.Key); err != nil {
			return protocol.ErrorBundle(req.echo, storeError(err))
		}
		if op := p.ops.get(rec.Key); op != nil {
			op.requestCancel()
		}
	}
	data, _ := json.Marshal(operationState{OperationID: id, State: stateCancellationRequested})
	return protocol.Success(req.echo, data)
}
