package provider

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/store"
)

// maxProgressMessage bounds the progress message a handler reports.
const maxProgressMessage = 256

// Progress is the optional progress of an operation (§4.4): display data,
// never a sign of business success.
type Progress struct {
	Current int64  `json:"current"`
	Total   int64  `json:"total,omitempty"`
	Message string `json:"message,omitempty"`
}

// RecoveryPolicy says what a Provider does with operations that another
// process accepted but did not finish: at start on a store without
// leases, and for every operation whose lease lapses on a store with
// them.
type RecoveryPolicy string

// Recovery policies.
const (
	// RecoverResume runs them again. This is safe because an operation's
	// business change commits in the same transaction as its terminal
	// state: an unfinished operation has changed nothing in the store.
	// Handlers with effects outside Call.Tx must be idempotent under the
	// request ID to use it.
	RecoverResume RecoveryPolicy = "resume"
	// RecoverFail ends them as failed with INTERNAL_ERROR, for handlers
	// whose effects outside the store cannot be repeated. On a store
	// without leases it suits a Provider that runs as one process: a
	// second process would fail the queued operations of the first. On a
	// store with leases (store.Leases) it fails only the operations whose
	// lease lapsed, which nobody runs.
	RecoverFail RecoveryPolicy = "fail"
)

// opRequest is what an operation runs, stored with it (Record.Request) so
// that a restarted Provider can run it.
type opRequest struct {
	Caller  Caller `json:"caller"`
	Tool    string `json:"tool"`
	Args    string `json:"args"`
	Version int    `json:"version"`
}

// liveOp is an operation this process runs or is about to run.
type liveOp struct {
	key     store.Key
	id      string
	req     opRequest
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{}
	mu      sync.Mutex
	stopped bool // the user asked to cancel
	prog    *Progress
	stored  time.Time    // when the progress was last written to the store
	lease   *store.Lease // this process's lease on a shared store
	lost    bool         // another process took the operation over
}

func (o *liveOp) requestCancel() {
	o.mu.Lock()
	o.stopped = true
	o.mu.Unlock()
	o.cancel()
}

func (o *liveOp) cancelRequested() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.stopped
}

// setProgress keeps p for get_operation here, and reports whether it is
// time to write it to the store as well (at most every progressEvery, and
// always for the last step), for get_operation on other processes.
func (o *liveOp) setProgress(p Progress, now time.Time) bool {
	p.Message = protocol.Truncate(p.Message, maxProgressMessage)
	o.mu.Lock()
	defer o.mu.Unlock()
	o.prog = &p
	if now.Sub(o.stored) < progressEvery && (p.Total == 0 || p.Current < p.Total) {
		return false
	}
	o.stored = now
	return true
}

// progressEvery bounds how often a running operation writes its progress
// to the store.
const progressEvery = 200 * time.Millisecond

func (o *liveOp) progress() *Progress {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.prog
}

// operations is the table of live operations of a Provider and the pool
// that runs them.
type operations struct {
	mu     sync.Mutex
	live   map[store.Key]*liveOp
	sem    chan struct{}
	wg     sync.WaitGroup
	base   context.Context
	stop   context.CancelFunc
	closed bool
	owner  string // this Provider in the leases it holds
}

func (t *operations) init(max int) {
	t.live = map[store.Key]*liveOp{}
	t.sem = make(chan struct{}, max)
	t.base, t.stop = context.WithCancel(context.Background())
	t.owner = newOwner()
}

// add registers a live operation; it returns nil once the Provider is
// closed.
func (t *operations) add(key store.Key, id string, req opRequest) *liveOp {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.live[key] != nil {
		return nil
	}
	ctx, cancel := context.WithCancel(t.base)
	op := &liveOp{key: key, id: id, req: req, ctx: ctx, cancel: cancel, done: make(chan struct{})}
	t.live[key] = op
	t.wg.Add(1)
	return op
}

func (t *operations) remove(op *liveOp) {
	t.mu.Lock()
	delete(t.live, op.key)
	t.mu.Unlock()
	op.cancel()
	close(op.done)
	t.wg.Done()
}

func (t *operations) get(key store.Key) *liveOp {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.live[key]
}

// Close stops the Provider's background operations: their handlers see a
// cancelled context, their transactions roll back, and they stay queued or
// running in the store for the next process to recover. It waits until
// every one has returned, or ctx ends.
func (p *Provider) Close(ctx context.Context) error {
	p.ops.mu.Lock()
	p.ops.closed = true
	p.ops.mu.Unlock()
	p.ops.stop()
	done := make(chan struct{})
	go func() { p.ops.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("provider %s: close: %w", p.desc.ID, ctx.Err())
	}
}

// newOperationID returns "op_" and 128 random bits in hex.
func newOperationID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("provider: random operation ID: %w", err)
	}
	return "op_" + hex.EncodeToString(b[:]), nil
}

// expiry returns the end of the idempotency window that starts now.
func (p *Provider) expiry() time.Time {
	return p.opt.Now().Add(time.Duration(p.limits.IdempotencyWindowSeconds) * time.Second)
}

// startOperation runs an accepted operation in the background. It returns
// nil when the operation already runs here or the Provider is closed.
func (p *Provider) startOperation(rec store.Record, req opRequest) *liveOp {
	op := p.ops.add(rec.Key, rec.OperationID, req)
	if op != nil {
		go p.runOperation(op)
	}
	return op
}

// runOperation runs an operation until it ends, another process takes
// it over, or the Provider closes. A run that a store fault rolled back
// put the operation back to queued; it runs again here after the delay
// the fault suggests (unless another process of a shared store took it
// first), and since the rolled-back run committed nothing, its effect
// still commits once.
func (p *Provider) runOperation(op *liveOp) {
	defer p.ops.remove(op)
	var delay time.Duration
	for {
		again, wait := p.runAttempt(op)
		if !again {
			return
		}
		delay = backoff(delay, wait)
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-op.ctx.Done():
			t.Stop()
			if op.cancelRequested() {
				p.finishOperation(op, cancelledOutcome())
			}
			return
		}
	}
}

// runAttempt is one run of an operation: a slot of the pool, the
// operation's start (its lease, on a shared store), the run in the
// store. It reports whether to run again and after how long.
func (p *Provider) runAttempt(op *liveOp) (bool, time.Duration) {
	select {
	case p.ops.sem <- struct{}{}:
		defer func() { <-p.ops.sem }()
	case <-op.ctx.Done():
		if op.cancelRequested() {
			p.finishOperation(op, cancelledOutcome())
		}
		return false, 0
	}
	started, err := p.startRun(op)
	if !started {
		return isStoreFault(err) && p.ops.base.Err() == nil, faultDelay(err)
	}
	stopLease := p.keepLease(op)
	defer stopLease()
	stopWatch := p.watchCancel(op)
	defer stopWatch()
	return p.runInStore(op)
}

// runInStore is the operation's transaction: the handler's business
// change and the terminal state commit together. A handler failure rolls
// the change back and is then stored on its own; a cancellation that
// stopped the handler is stored as cancelled. A store fault, or a
// Provider shutting down, stores nothing and puts the operation back to
// queued; a lost lease leaves it to the process that took it over.
func (p *Provider) runInStore(op *liveOp) (bool, time.Duration) {
	t := p.tools[op.req.Tool]
	if p.cancelAsked(op) {
		return p.finishAfterRun(op, cancelledOutcome())
	}
	var failure *handlerFailure
	rec, ran, err := p.runStored(op, func(ctx context.Context, tx store.Tx) (store.Outcome, error) {
		// Only the local flag here: asking the store would take a second
		// connection while this transaction holds one. A request made
		// through another process reaches the handler through watchCancel.
		if op.cancelRequested() {
			return cancelledOutcome(), nil
		}
		if t.Annotations.Effect == EffectRead {
			tx = nil
		}
		out, f := p.runOperationHandler(op, t, tx)
		if f != nil {
			failure = f
			return store.Outcome{}, f.err
		}
		return out, nil
	})
	switch {
	case op.leaseLost() || errors.Is(err, store.ErrLeaseLost):
		// Taken over: the process that holds the lease runs it.
	case p.ops.base.Err() != nil && (failure != nil || err != nil):
		p.release(op) // shutting down: another process (or the next) runs it
	case isStoreFault(err):
		p.release(op)
		return true, faultDelay(err)
	case failure != nil && op.cancelRequested():
		return p.finishAfterRun(op, cancelledOutcome())
	case failure != nil:
		return p.finishAfterRun(op, failedOutcome(failure.err))
	case err != nil:
		p.release(op) // an unexpected store error: the operation stays queued
	case ran:
		p.auditEnd(op, rec)
	}
	return false, 0
}

// finishAfterRun stores the outcome of a run that stored nothing itself;
// on a store fault the operation goes back to queued and runs again.
func (p *Provider) finishAfterRun(op *liveOp, out store.Outcome) (bool, time.Duration) {
	if err := p.finishOperation(op, out); isStoreFault(err) && p.ops.base.Err() == nil {
		p.release(op)
		return true, faultDelay(err)
	}
	return false, 0
}

// auditEnd records the terminal state of an operation (§7.2), without its
// arguments or result.
func (p *Provider) auditEnd(op *liveOp, rec store.Record) {
	p.opt.Audit.Audit(p.ops.base, AuditEvent{Time: p.opt.Now(), CallerUID: op.req.Caller.UID, CallerKey: op.key.Caller,
		Version: protocol.Version2, Tool: op.req.Tool, RequestID: op.key.RequestID, Status: string(rec.State),
		ErrorCode: rec.Outcome.ErrorCode, Operation: op.id})
}

// runOperationHandler runs the handler of an operation and turns its
// result into the outcome to store.
func (p *Provider) runOperationHandler(op *liveOp, t *tool, tx store.Tx) (store.Outcome, *handlerFailure) {
	call := &Call{Caller: op.req.Caller, RequestID: op.key.RequestID, Tool: t.info, Version: protocol.Version2,
		Tx: tx, Operation: op.id, progress: func(pr Progress) { p.reportProgress(op, pr) }}
	allowFile := p.has(protocol.CapLargeResults)
	value, f := p.handle(op.ctx, t, call, []byte(op.req.Args), p.resultLimit(allowFile))
	if f != nil {
		return store.Outcome{}, f
	}
	return p.outcome(value, allowFile)
}

// cancelAsked reports whether cancellation was asked for, here or through
// the store by another process.
func (p *Provider) cancelAsked(op *liveOp) bool {
	if op.cancelRequested() {
		return true
	}
	asked, err := p.opt.Store.CancelRequested(p.ops.base, op.key)
	return err == nil && asked
}

// watchCancel polls the store for a cancel request made through another
// process while the operation runs, and cancels its context when one
// arrives. The returned function stops the watch.
func (p *Provider) watchCancel(op *liveOp) func() {
	stop := make(chan struct{})
	go func() {
		tick := time.NewTicker(p.opt.CancelPoll)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-op.ctx.Done():
				return
			case <-tick.C:
				if asked, err := p.opt.Store.CancelRequested(op.ctx, op.key); err == nil && asked {
					op.requestCancel()
				}
			}
		}
	}()
	return func() { close(stop) }
}

// finishOperation stores a terminal outcome without running anything,
// under the operation's lease on a shared store (taken for it when the
// operation has none yet).
func (p *Provider) finishOperation(op *liveOp, out store.Outcome) error {
	rec, done, err := p.finishStored(op, out)
	if err == nil && done {
		p.auditEnd(op, rec)
	}
	return err
}

func cancelledOutcome() store.Outcome {
	return store.Outcome{ErrorCode: store.CodeCancelled, ErrorMessage: "the operation was cancelled before it took effect"}
}

// failedOutcome is the stored failure of an operation, with the
// retryable flag and retry_after_ms of its error (§5). A retry under the
// same request ID gets this same record; the flag tells the Consumer
// whether a new request may succeed.
func failedOutcome(e *protocol.Error) store.Outcome {
	return store.Outcome{ErrorCode: string(e.Code), ErrorMessage: protocol.Truncate(e.Message, protocol.MaxErrorMessageBytes),
		Retryable: e.Retryable, RetryAfterMs: e.RetryAfter.Milliseconds(), ErrorDetails: e.Details}
}

// has reports whether the runtime and the Descriptor offer capability.
func (p *Provider) has(capability string) bool {
	for _, c := range p.caps {
		if c == capability {
			return true
		}
	}
	return false
}

// recoverOperations resumes or fails the operations an earlier process
// left unfinished, as Options.Recovery says. On a store with leases it
// starts the sweep instead, which does that for every operation whose
// lease lapses, for as long as the Provider runs.
func (p *Provider) recoverOperations(ctx context.Context) error {
	if p.opt.Store == nil || !p.has(protocol.CapAsyncOperations) {
		return nil
	}
	if l, ok := p.opt.Store.(store.Leases); ok {
		p.ops.wg.Add(1)
		go p.sweepLeases(l)
		return nil
	}
	recs, err := p.opt.Store.PendingOperations(ctx, p.desc.ID)
	if err != nil {
		return fmt.Errorf("provider %s: recover operations: %w", p.desc.ID, err)
	}
	for _, rec := range recs {
		p.recoverOne(ctx, rec)
	}
	return nil
}

func (p *Provider) recoverOne(ctx context.Context, rec store.Record) {
	var req opRequest
	err := json.Unmarshal(rec.Request, &req)
	if err == nil && p.tools[req.Tool] != nil && p.opt.Recovery == RecoverResume {
		p.startOperation(rec, req)
		return
	}
	e := protocol.NewError(protocol.CodeInternalError, "the Provider restarted and could not resume the operation")
	op := &liveOp{key: rec.Key, id: rec.OperationID, req: req, ctx: ctx}
	p.finishOperation(op, failedOutcome(e))
}

// reportProgress keeps a handler's progress and, from time to time,
// writes it to the store, where get_operation on another process of a
// shared store finds it. A failed write only costs that display.
func (p *Provider) reportProgress(op *liveOp, pr Progress) {
	if !op.setProgress(pr, time.Now()) {
		return
	}
	if data, err := json.Marshal(op.progress()); err == nil {
		p.opt.Store.SetProgress(op.ctx, op.key, data)
	}
}

// storedProgress reads the progress of an operation that runs in another
// process; it is nil when there is none or it cannot be read.
func (p *Provider) storedProgress(ctx context.Context, key store.Key) *Progress {
	data, err := p.opt.Store.Progress(ctx, key)
	if err != nil || data == nil {
		return nil
	}
	var pr Progress
	if json.Unmarshal(data, &pr) != nil {
		return nil
	}
	pr.Message = protocol.Truncate(pr.Message, maxProgressMessage)
	return &pr
}
