package provider

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/store"
)

// maxAuditToolName bounds the tool name an audit event repeats from the
// request.
const maxAuditToolName = 64

// execution carries one execute_tool call through the steps of DESIGN.md
// §5.
type execution struct {
	req   *request
	t     *tool
	args  []byte
	token string // the resume_token, if any
	// confirm is whether the call needs confirmation, once decided.
	confirm, decided bool
	ev               *AuditEvent
	// provider is the Provider's ID. key and binding, computed by storeKey
	// and argsBinding when a step needs them (a read tool without a resume
	// token never does), are set when keyed and bound.
	provider     string
	keyed, bound bool
	key          store.Key
	binding      store.Binding
}

// storeKey returns the deduplication key of the call: the caller's key,
// the Provider and the request ID.
func (x *execution) storeKey() store.Key {
	if !x.keyed {
		callerKey := x.ev.CallerKey
		if callerKey == "" {
			callerKey = x.req.caller.Key()
		}
		x.key, x.keyed = store.Key{Caller: callerKey, Provider: x.provider, RequestID: x.req.requestID}, true
	}
	return x.key
}

// argsBinding returns the tool name and args digest the call is bound to.
func (x *execution) argsBinding() store.Binding {
	if !x.bound {
		x.binding, x.bound = store.NewBinding(x.t.Name, x.args), true
	}
	return x.binding
}

// handlerFailure is the outcome of a handler run that did not succeed.
type handlerFailure struct {
	err *protocol.Error
	// storable is true when the failure is terminal for this request ID:
	// a business decision of the handler, an invalid or oversized result.
	storable bool
}

// executeTool runs execute_tool and reports its audit event. Without an
// AuditSink no event is assembled: the caller's key is then computed only
// when a step needs the deduplication key.
func (p *Provider) executeTool(ctx context.Context, req *request) protocol.Bundle {
	if !p.audited {
		return p.execute(ctx, req, &AuditEvent{})
	}
	ev := AuditEvent{Time: p.opt.Now(), CallerUID: req.caller.UID, CallerKey: req.caller.Key(),
		Version: protocol.Version2, RequestID: req.requestID}
	b := p.execute(ctx, req, &ev)
	ev.Status, _, _ = b.String(protocol.KeyStatus)
	code, _, _ := b.String(protocol.KeyErrorCode)
	ev.ErrorCode = code
	p.opt.Audit.Audit(ctx, ev)
	return b
}

func (p *Provider) execute(ctx context.Context, req *request, ev *AuditEvent) protocol.Bundle {
	fail := func(e *protocol.Error) protocol.Bundle { return protocol.ErrorBundle(req.echo, e) }
	name, ok, _ := req.extras.String(protocol.KeyToolName)
	if !ok {
		return fail(protocol.NewError(protocol.CodeInvalidRequest, "tool_name is required"))
	}
	ev.Tool = protocol.Truncate(name, maxAuditToolName)
	args, ok, _ := req.extras.String(protocol.KeyArgs)
	if !ok {
		return fail(protocol.NewError(protocol.CodeInvalidRequest, "args is required"))
	}
	t := p.tools[name]
	if t == nil || !p.opt.Visibility(ctx, req.caller, t.info) {
		return fail(protocol.NewError(protocol.CodeToolNotFound, "no such tool"))
	}
	argBytes := []byte(args)
	if e := p.checkArgs(t, argBytes); e != nil {
		return fail(e)
	}
	x := p.newExecution(req, t, argBytes, ev)
	if e := p.authorize(ctx, x); e != nil {
		return fail(e)
	}
	if tok, present, _ := req.extras.String(protocol.KeyResumeToken); present {
		if tok == "" || len(tok) > maxTokenBytes {
			return fail(protocol.NewError(protocol.CodeInvalidRequest, "resume_token must be 1 to %d bytes", maxTokenBytes))
		}
		x.token = tok
	}
	switch {
	case p.async(t, req):
		return p.runAsync(ctx, x)
	case t.Annotations.Effect == EffectRead:
		return p.runRead(ctx, x)
	}
	return p.runWrite(ctx, x)
}

func (p *Provider) newExecution(req *request, t *tool, args []byte, ev *AuditEvent) *execution {
	return &execution{req: req, t: t, args: args, ev: ev, provider: p.desc.ID}
}

// checkArgs is step 3: size, JSON object, input schema.
func (p *Provider) checkArgs(t *tool, args []byte) *protocol.Error {
	if len(args) > p.limits.MaxRequestBytes {
		return protocol.NewError(protocol.CodeInvalidArgs, "args exceed %d bytes", p.limits.MaxRequestBytes)
	}
	if !utf8.Valid(args) {
		return protocol.NewError(protocol.CodeInvalidArgs, "args are not valid UTF-8")
	}
	v, err := decodeJSON(args)
	if err != nil {
		return protocol.NewError(protocol.CodeInvalidArgs, "args are not valid JSON")
	}
	if _, isObj := v.(map[string]any); !isObj {
		return protocol.NewError(protocol.CodeInvalidArgs, "args must be a JSON object")
	}
	if err := t.in.Validate(v); err != nil {
		return protocol.NewError(protocol.CodeInvalidArgs, "args do not match the input schema").
			WithDetails(map[string]any{"violations": violations(err)})
	}
	return nil
}

// authorize is step 4: every call checks every scope of the tool.
func (p *Provider) authorize(ctx context.Context, x *execution) *protocol.Error {
	caller, t, ev := x.req.caller, x.t, x.ev
	if len(t.Scopes) == 0 {
		ev.Authorization = "granted"
		return nil
	}
	held, err := p.opt.Authorizer.Scopes(ctx, caller)
	if err != nil {
		return protocol.NewError(protocol.CodeUnavailable, "authorization is unavailable now")
	}
	var missing []string
	for _, s := range t.Scopes {
		if !slices.Contains(held, s) {
			missing = append(missing, s)
		}
	}
	if len(missing) == 0 {
		ev.Authorization = "granted"
		return nil
	}
	details := map[string]any{"missing_scopes": missing}
	res := p.opt.Authorizer.Resolution(ctx, caller, t.info, missing)
	if res == nil {
		ev.Authorization = "denied"
		return protocol.NewError(protocol.CodePermissionDenied, "caller lacks a required scope").WithDetails(details)
	}
	ev.Authorization = "auth_required"
	return p.authRequired(ctx, x, res, details)
}

// runRead runs a read tool: no deduplication and no transaction.
func (p *Provider) runRead(ctx context.Context, x *execution) protocol.Bundle {
	use, e := p.resume(ctx, x)
	if e != nil {
		return protocol.ErrorBundle(x.req.echo, e)
	}
	if use != nil {
		if err := p.opt.Store.ConsumeToken(ctx, *use); err != nil {
			return protocol.ErrorBundle(x.req.echo, tokenError(err))
		}
		if use.Decision == store.DecisionDenied {
			return protocol.ErrorBundle(x.req.echo, userCancelled())
		}
	}
	if x.req.passed(p.opt.Now()) {
		return protocol.ErrorBundle(x.req.echo, deadlinePassed())
	}
	value, allowFile, f := p.runValue(ctx, x, nil)
	if f == nil && p.fitsInline(value) {
		return protocol.InlineSuccess(x.req.echo, value)
	}
	var out store.Outcome
	if f == nil {
		out, f = p.outcome(value, allowFile)
	}
	if f != nil {
		return protocol.ErrorBundle(x.req.echo, f.err)
	}
	return p.serve(x.req.echo, x.req.session, out)
}

// runWrite runs a tool with effects: deduplication (step 5), confirmation
// (6), deadline and handler inside the store's transaction (7), output
// (8). In-process duplicates wait for the one executor on a per-key lock;
// the store serialises attempts across processes.
func (p *Provider) runWrite(ctx context.Context, x *execution) protocol.Bundle {
	use, resp := p.begin(ctx, x)
	if resp != nil {
		return resp
	}
	defer p.keys.Unlock(x.storeKey())
	var failure *handlerFailure
	rec, ran, err := p.opt.Store.Execute(ctx, p.attempt(x, use), func(ctx context.Context, tx store.Tx) (store.Outcome, error) {
		if x.req.passed(p.opt.Now()) {
			failure = &handlerFailure{err: deadlinePassed()}
			return store.Outcome{}, failure.err
		}
		out, f := p.runHandler(ctx, x, tx)
		if f != nil {
			failure = f
			return store.Outcome{}, f.err
		}
		return out, nil
	})
	switch {
	case err == nil && !ran:
		return p.replay(x, rec)
	case err == nil:
		return p.serve(x.req.echo, x.req.session, rec.Outcome)
	case isStoreFault(err): // before the handler's failure, which the fault caused
		return protocol.ErrorBundle(x.req.echo, storeUnavailable(err))
	case failure != nil && failure.storable:
		return p.storeFailure(ctx, x, use, failure.err)
	case failure != nil:
		return protocol.ErrorBundle(x.req.echo, failure.err)
	}
	return p.attemptError(x, err)
}

// begin is the common start of a deduplicated execution: the per-key lock
// (released by the caller unless begin answers), RESULT_EXPIRED for a
// request ID past its window (expiry.go), steps 5 and 6, and the deadline
// check before any effect.
func (p *Provider) begin(ctx context.Context, x *execution) (*store.TokenUse, protocol.Bundle) {
	if err := p.waitTurn(ctx, x); err != nil {
		return nil, protocol.ErrorBundle(x.req.echo, err)
	}
	if e := p.expiredCall(ctx, x); e != nil {
		p.keys.Unlock(x.storeKey())
		return nil, protocol.ErrorBundle(x.req.echo, e)
	}
	use, resp := p.confirmStep(ctx, x)
	if resp == nil && x.req.passed(p.opt.Now()) {
		resp = protocol.ErrorBundle(x.req.echo, deadlinePassed())
	}
	if resp != nil {
		p.keys.Unlock(x.storeKey())
	}
	return use, resp
}

// confirmStep is step 5 before step 6 for a call that presents a resume
// token or needs confirmation: a stored result is served without asking
// again; then the token is checked or confirmation requested. It returns
// the token use to commit with the attempt, or the response to answer
// with. Without confirmation the store's Execute or Accept does step 5.
func (p *Provider) confirmStep(ctx context.Context, x *execution) (*store.TokenUse, protocol.Bundle) {
	if x.token == "" && !p.needsConfirmation(ctx, x) {
		x.ev.Confirmation = "not_required"
		return nil, nil
	}
	rec, err := p.opt.Store.Lookup(ctx, x.storeKey(), p.opt.Now())
	switch {
	case err == nil:
		return nil, p.replay(x, rec)
	case !errors.Is(err, store.ErrNotFound):
		return nil, protocol.ErrorBundle(x.req.echo, storeError(err))
	}
	use, e := p.resume(ctx, x)
	if e != nil {
		return nil, protocol.ErrorBundle(x.req.echo, e)
	}
	if use != nil && use.Decision == store.DecisionDenied {
		return nil, p.storeFailure(ctx, x, use, userCancelled())
	}
	return use, nil
}

// waitTurn takes the per-key lock that makes one executor of in-process
// duplicates. A duplicate waits at most until its own deadline; it then
// gets a retryable DEADLINE_EXCEEDED, and a retry with the same request ID
// gets the result of the executor.
func (p *Provider) waitTurn(ctx context.Context, x *execution) *protocol.Error {
	wctx, cancel := context.WithTimeout(ctx, x.req.deadline.Sub(p.opt.Now()))
	defer cancel()
	if err := p.keys.Lock(wctx, x.storeKey()); err != nil {
		if ctx.Err() != nil {
			return protocol.NewError(protocol.CodeUnavailable, "request abandoned while waiting")
		}
		return protocol.NewError(protocol.CodeDeadlineExceeded, "deadline passed while the same request was running; retry with the same request ID").WithRetryable(true)
	}
	return nil
}

func (p *Provider) attempt(x *execution, use *store.TokenUse) store.Attempt {
	now := p.opt.Now()
	return store.Attempt{Key: x.storeKey(), Binding: x.argsBinding(), Now: now, Token: use,
		ExpiresAt: now.Add(time.Duration(p.limits.IdempotencyWindowSeconds) * time.Second)}
}

// storeFailure records a terminal failure for the request ID, in a
// transaction of its own after the business change was rolled back, and
// answers with the stored record.
func (p *Provider) storeFailure(ctx context.Context, x *execution, use *store.TokenUse, e *protocol.Error) protocol.Bundle {
	out := store.Outcome{ErrorCode: string(e.Code), ErrorMessage: protocol.Truncate(e.Message, protocol.MaxErrorMessageBytes),
		Retryable: e.Retryable, RetryAfterMs: e.RetryAfter.Milliseconds(), ErrorDetails: e.Details}
	rec, ran, err := p.opt.Store.Execute(ctx, p.attempt(x, use), func(context.Context, store.Tx) (store.Outcome, error) {
		return out, nil
	})
	if err != nil {
		return p.attemptError(x, err)
	}
	if !ran {
		return p.replay(x, rec)
	}
	return protocol.ErrorBundle(x.req.echo, e)
}

func (p *Provider) attemptError(x *execution, err error) protocol.Bundle {
	switch {
	case errors.Is(err, store.ErrBindingMismatch):
		return protocol.ErrorBundle(x.req.echo, bindingMismatch())
	case errors.Is(err, store.ErrTokenUnusable):
		return protocol.ErrorBundle(x.req.echo, tokenError(err))
	case isStoreFault(err):
		return protocol.ErrorBundle(x.req.echo, storeUnavailable(err))
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return protocol.ErrorBundle(x.req.echo, storeAbandoned(err))
	}
	return protocol.ErrorBundle(x.req.echo, storeFailure())
}

// storeAbandoned is the answer to a call whose context ended while the
// store wrote its attempt (the Consumer's Cancel, or the deadline, during
// the commit): retryable UNAVAILABLE or DEADLINE_EXCEEDED, as when the
// handler itself stops on its context, never INTERNAL_ERROR. Whether the
// write committed is learned by retrying under the same request ID.
func storeAbandoned(err error) *protocol.Error {
	if errors.Is(err, context.DeadlineExceeded) {
		return protocol.NewError(protocol.CodeDeadlineExceeded,
			"the deadline passed while the result was stored; retry with the same request ID").WithRetryable(true)
	}
	return protocol.NewError(protocol.CodeUnavailable,
		"the call was abandoned while its result was stored; retry with the same request ID").WithRetryable(true)
}

// replay answers with a stored terminal record, after checking that it was
// made for the same tool and argument bytes.
func (p *Provider) replay(x *execution, rec store.Record) protocol.Bundle {
	if rec.Binding != x.argsBinding() {
		return protocol.ErrorBundle(x.req.echo, bindingMismatch())
	}
	x.ev.Deduplicated = true
	if !rec.State.Terminal() {
		return p.inFlight(x, rec)
	}
	o := rec.Outcome
	if o.ErrorCode == "" {
		return p.serve(x.req.echo, x.req.session, o)
	}
	return protocol.ErrorBundle(x.req.echo, &protocol.Error{Code: protocol.Code(o.ErrorCode),
		Message: o.ErrorMessage, Retryable: o.Retryable, RetryAfter: time.Duration(o.RetryAfterMs) * time.Millisecond, Details: o.ErrorDetails})
}

func bindingMismatch() *protocol.Error {
	return protocol.NewError(protocol.CodeInvalidRequest, "request_id was already used with other content")
}

func storeFailure() *protocol.Error {
	return protocol.NewError(protocol.CodeInternalError, "Provider internal error").WithRetryable(true)
}

func userCancelled() *protocol.Error {
	return protocol.NewError(protocol.CodeUserCancelled, "the user declined")
}

// runHandler runs the handler of a synchronous call and places its
// result (step 8): inline, as a file when the session negotiated
// large_results, or RESULT_TOO_LARGE.
func (p *Provider) runHandler(ctx context.Context, x *execution, tx store.Tx) (store.Outcome, *handlerFailure) {
	value, allowFile, f := p.runValue(ctx, x, tx)
	if f != nil {
		return store.Outcome{}, f
	}
	return p.outcome(value, allowFile)
}

// runValue runs the handler of a synchronous call and returns its checked,
// compact result value, and whether the session may receive it as a file.
func (p *Provider) runValue(ctx context.Context, x *execution, tx store.Tx) (json.RawMessage, bool, *handlerFailure) {
	call := &Call{Caller: x.req.caller, RequestID: x.req.requestID, Tool: x.t.info,
		Deadline: x.req.deadline, Version: protocol.Version2, Tx: tx}
	if x.req.echo.Version == 0 {
		call.Version, call.Deadline = protocol.Version1, time.Time{}
	}
	allowFile := x.req.session != nil && x.req.session.has(protocol.CapLargeResults)
	if !call.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, call.Deadline)
		defer cancel()
	}
	value, f := p.handle(ctx, x.t, call, x.args, p.resultLimit(allowFile))
	return value, allowFile, f
}

// checkOutput validates a handler's result and returns it compacted.
func (p *Provider) checkOutput(t *tool, out json.RawMessage) (json.RawMessage, *handlerFailure) {
	v, err := decodeJSON(out)
	if err == nil {
		err = t.out.Validate(v)
	}
	if err != nil {
		return nil, &handlerFailure{storable: true, err: protocol.NewError(protocol.CodeInternalError, "Provider produced an invalid result")}
	}
	return compactJSON(out), nil
}

// compactJSON returns the valid JSON text raw without insignificant
// white space: raw itself when it holds no white-space byte at all, as a
// handler that encodes with encoding/json returns it.
func compactJSON(raw []byte) []byte {
	if !bytes.ContainsAny(raw, " \t\r\n") {
		return raw
	}
	var b bytes.Buffer
	b.Grow(len(raw))
	json.Compact(&b, raw) // raw was decoded: it is valid
	return b.Bytes()
}

// safeCall runs h, turning a panic into an error.
func safeCall(ctx context.Context, h Handler, call *Call, args json.RawMessage) (out json.RawMessage, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("provider: handler %s panicked: %v", call.Tool.Name, r)
		}
	}()
	return h(ctx, call, args)
}

// handlerError maps a handler's error: a context that ended is a
// retryable DEADLINE_EXCEEDED or UNAVAILABLE (the handler's change rolls
// back, so a retry under the same request ID is safe); a known protocol
// error passes its code, message and details (its retryable flag only
// where §5 leaves it to the context); anything else is INTERNAL_ERROR
// without its text.
func handlerError(err error) *handlerFailure {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return &handlerFailure{err: protocol.NewError(protocol.CodeDeadlineExceeded,
			"the deadline passed while the tool ran; nothing was committed, retry with the same request ID").WithRetryable(true)}
	case errors.Is(err, context.Canceled):
		return &handlerFailure{err: protocol.NewError(protocol.CodeUnavailable, "the call was abandoned; nothing was committed").WithRetryable(true)}
	}
	var pe *protocol.Error
	if !errors.As(err, &pe) || !pe.Code.Known() {
		return &handlerFailure{err: protocol.NewError(protocol.CodeInternalError, "Provider internal error")}
	}
	e := protocol.NewError(pe.Code, "%s", pe.Message)
	if protocol.ErrorTable[pe.Code] == protocol.RetryConditional {
		e.Retryable = pe.Retryable
	}
	e.RetryAfter = pe.RetryAfter
	if len(pe.Details) <= protocol.MaxErrorDetailsBytes && isObject(pe.Details) {
		e.Details = pe.Details
	}
	return &handlerFailure{err: e, storable: !e.Retryable}
}

func isObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}

func digest(s string) store.Digest { return sha256.Sum256([]byte(s)) }
