package provider

import (
	"context"
	"encoding/json"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/store"
)

// async reports whether a call runs as a background operation: the tool is
// sync_or_async and the session negotiated async_operations. On any other
// session a sync_or_async tool runs synchronously: §3.4 lets the Provider
// choose, and refusing would make the tool unusable for Consumers that
// cannot poll.
func (p *Provider) async(t *tool, req *request) bool {
	return t.Annotations.Execution == ExecSyncOrAsync && req.session != nil &&
		req.session.has(protocol.CapAsyncOperations) && p.opt.Store != nil
}

// runAsync runs steps 5 and 6 as runWrite does, then stores the operation
// as queued (with the token use, in one transaction), starts it in the
// background and answers accepted. The deadline bounds the call that
// starts the operation, not the operation.
func (p *Provider) runAsync(ctx context.Context, x *execution) protocol.Bundle {
	use, resp := p.begin(ctx, x)
	if resp != nil {
		return resp
	}
	defer p.keys.Unlock(x.storeKey())
	// A retry of a running operation is answered from a plain read: Accept
	// may wait for the lock that the operation's transaction holds.
	if rec, err := p.opt.Store.Lookup(ctx, x.storeKey(), p.opt.Now()); err == nil {
		return p.replay(x, rec)
	}
	id, err := newOperationID()
	if err != nil {
		return protocol.ErrorBundle(x.req.echo, storeFailure())
	}
	req := opRequest{Caller: x.req.caller, Tool: x.t.Name, Args: string(x.args), Version: protocol.Version2}
	a := p.attempt(x, use)
	if a.Request, err = json.Marshal(req); err != nil {
		return protocol.ErrorBundle(x.req.echo, storeFailure())
	}
	rec, created, err := p.opt.Store.Accept(ctx, a, id)
	if err != nil {
		return p.attemptError(x, err)
	}
	if !created {
		return p.replay(x, rec)
	}
	return p.accepted(ctx, x, rec, p.startOperation(rec, req))
}

// accepted answers a new operation: with its result when it finishes
// within Options.AsyncWait (and the call's deadline), otherwise accepted.
func (p *Provider) accepted(ctx context.Context, x *execution, rec store.Record, op *liveOp) protocol.Bundle {
	if op != nil && p.opt.AsyncWait > 0 {
		wait := min(p.opt.AsyncWait, x.req.deadline.Sub(p.opt.Now()))
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-op.done:
			if done, err := p.opt.Store.Get(ctx, rec.Key); err == nil && done.State.Terminal() {
				return p.replay(x, done)
			}
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return protocol.Accepted(x.req.echo, rec.OperationID, p.opt.PollAfter.Milliseconds())
}

// inFlight answers a retry of a request whose operation has not finished:
// the same operation (§6), or, on a session that cannot poll, a retryable
// CONFLICT.
func (p *Provider) inFlight(x *execution, rec store.Record) protocol.Bundle {
	if x.req.session != nil && x.req.session.has(protocol.CapAsyncOperations) {
		return protocol.Accepted(x.req.echo, rec.OperationID, p.opt.PollAfter.Milliseconds())
	}
	e := protocol.NewError(protocol.CodeConflict, "this request is still running as an operation; retry with the same request ID").WithRetryable(true)
	e.RetryAfter = p.opt.PollAfter
	return protocol.ErrorBundle(x.req.echo, e)
}
