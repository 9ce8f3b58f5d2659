package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// maxPending bounds the handler outcomes and denials waiting for their
// audit event, so that events the engine never sends cannot grow memory.
const maxPending = 4096

// watch connects what the handlers returned and what the Authorizer
// refused with the engine's audit events, so that each call is logged
// once, with the reason of its failure.
type watch struct {
	log           *slog.Logger
	authorization string // how scopes are decided, for the start-up line and hints
	custom        bool   // the server brought its own Authorizer
	schemas       map[string]*outputSchema

	mu      sync.Mutex
	results map[callKey]result
	denials map[denialKey][]string
}

// callKey identifies one execute_tool call: the caller's key and the
// request ID.
type callKey struct{ caller, request string }

// denialKey identifies a refused authorization until its audit event.
type denialKey struct{ caller, tool string }

// result is what a handler returned.
type result struct {
	out json.RawMessage
	err error
}

func newWatch(log *slog.Logger, d provider.Descriptor, tools []provider.Tool) *watch {
	w := &watch{log: log, schemas: map[string]*outputSchema{}, results: map[callKey]result{}, denials: map[denialKey][]string{}}
	for _, t := range tools {
		w.schemas[t.Name] = &outputSchema{tool: t.Name, raw: t.OutputSchema}
	}
	return w
}

// wrap returns tools with each handler wrapped to record its result.
func (w *watch) wrap(tools []provider.Tool) []provider.Tool {
	out := make([]provider.Tool, len(tools))
	for i, t := range tools {
		h := t.Handler
		t.Handler = func(ctx context.Context, call *provider.Call, args json.RawMessage) (res json.RawMessage, err error) {
			defer func() {
				if r := recover(); r != nil {
					w.record(call, result{err: fmt.Errorf("panic: %v", r)})
					panic(r)
				}
			}()
			res, err = h(ctx, call, args)
			w.record(call, result{out: res, err: err})
			return res, err
		}
		out[i] = t
	}
	return out
}

func (w *watch) record(call *provider.Call, r result) {
	k := callKey{call.Caller.Key(), call.RequestID}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.results) < maxPending {
		w.results[k] = r
	}
}

func (w *watch) takeResult(ev provider.AuditEvent) (result, bool) {
	k := callKey{ev.CallerKey, ev.RequestID}
	w.mu.Lock()
	defer w.mu.Unlock()
	r, ok := w.results[k]
	delete(w.results, k)
	return r, ok
}

func (w *watch) takeDenial(ev provider.AuditEvent) []string {
	k := denialKey{ev.CallerKey, ev.Tool}
	w.mu.Lock()
	defer w.mu.Unlock()
	m := w.denials[k]
	delete(w.denials, k)
	return m
}

// authorizer wraps a: a failure is logged, a refusal remembered for the
// call's log line.
func (w *watch) authorizer(a provider.Authorizer) provider.Authorizer {
	return &watchedAuthorizer{a: a, w: w}
}

type watchedAuthorizer struct {
	a provider.Authorizer
	w *watch
}

func (x *watchedAuthorizer) Scopes(ctx context.Context, c provider.Caller) ([]string, error) {
	s, err := x.a.Scopes(ctx, c)
	if err != nil {
		x.w.log.Error("the Authorizer failed; calls with scopes are answered UNAVAILABLE until it is fixed", "uid", c.UID, "err", err)
	}
	return s, err
}

func (x *watchedAuthorizer) Resolution(ctx context.Context, c provider.Caller, t provider.ToolInfo, missing []string) *protocol.Resolution {
	r := x.a.Resolution(ctx, c, t, missing)
	if r == nil {
		x.w.mu.Lock()
		if len(x.w.denials) < maxPending {
			x.w.denials[denialKey{c.Key(), protocol.Truncate(t.Name, 64)}] = append([]string(nil), missing...)
		}
		x.w.mu.Unlock()
	}
	return r
}

func (x *watchedAuthorizer) Launch(ctx context.Context, c provider.Caller, r *protocol.Resolution) error {
	return x.a.Launch(ctx, c, r)
}

// audit returns the AuditSink that logs every event, after passing it to
// next when there is one.
func (w *watch) audit(next provider.AuditSink) provider.AuditSink {
	return provider.AuditFunc(func(ctx context.Context, ev provider.AuditEvent) {
		if next != nil {
			next.Audit(ctx, ev)
		}
		w.logEvent(ctx, ev)
	})
}

// final reports whether ev ends its call: an answer other than accepted,
// or the end of an operation.
func final(ev provider.AuditEvent) bool { return ev.Status != "accepted" }

// logEvent writes the log line of one audit event.
func (w *watch) logEvent(ctx context.Context, ev provider.AuditEvent) {
	msg, level := "call", slog.LevelInfo
	if ev.Operation != "" && ev.Status != "accepted" {
		msg = "operation ended"
	}
	attrs := callAttrs(ev)
	var diag []slog.Attr
	if final(ev) {
		if r, ok := w.takeResult(ev); ok {
			msg, level, diag = w.diagnose(ev, r, msg, level)
		}
	}
	if ev.Authorization == "denied" {
		msg, level, diag = "call denied: the caller lacks scopes", slog.LevelWarn, w.denialAttrs(ev)
	}
	if ev.ErrorCode == string(protocol.CodeInternalError) && level < slog.LevelError {
		level = slog.LevelError
	}
	w.log.LogAttrs(ctx, level, msg, append(attrs, diag...)...)
}

// callAttrs are the attributes of every call line: who, what, outcome;
// never an argument value.
func callAttrs(ev provider.AuditEvent) []slog.Attr {
	a := []slog.Attr{slog.Int("uid", ev.CallerUID), slog.String("tool", ev.Tool), slog.String("request_id", ev.RequestID),
		slog.String("status", ev.Status)}
	if ev.ErrorCode != "" {
		a = append(a, slog.String("code", ev.ErrorCode))
	}
	if ev.Operation != "" {
		a = append(a, slog.String("operation", ev.Operation))
	}
	if ev.Authorization != "" && ev.Authorization != "granted" {
		a = append(a, slog.String("authorization", ev.Authorization))
	}
	if ev.Confirmation != "" && ev.Confirmation != "not_required" {
		a = append(a, slog.String("confirmation", ev.Confirmation))
	}
	if ev.Deduplicated {
		a = append(a, slog.Bool("deduplicated", true))
	}
	return a
}

// diagnose explains a failed call from what its handler returned.
func (w *watch) diagnose(ev provider.AuditEvent, r result, msg string, level slog.Level) (string, slog.Level, []slog.Attr) {
	if r.err != nil {
		var pe *protocol.Error
		switch {
		case errors.As(r.err, &pe) && !pe.Code.Known():
			return "handler error: an error code CETP v2 does not define became " + ev.ErrorCode, slog.LevelError,
				[]slog.Attr{slog.String("unknown_code", string(pe.Code)), slog.String("handler_error", r.err.Error())}
		case errors.As(r.err, &pe):
			return msg, level, []slog.Attr{slog.String("handler_error", r.err.Error())}
		}
		return "handler error became " + ev.ErrorCode, slog.LevelWarn, []slog.Attr{slog.String("handler_error", r.err.Error())}
	}
	if ev.ErrorCode != string(protocol.CodeInternalError) {
		return msg, level, nil
	}
	if attrs := w.schemas[ev.Tool].violation(r.out); attrs != nil {
		return "the handler's result breaks the output schema; the Consumer got INTERNAL_ERROR", slog.LevelError, attrs
	}
	return "INTERNAL_ERROR after the handler returned a valid result (see the store's errors above)", slog.LevelError, nil
}

// denialAttrs are the missing scopes of a denied call and how to grant
// them.
func (w *watch) denialAttrs(ev provider.AuditEvent) []slog.Attr {
	missing := w.takeDenial(ev)
	hint := "the server's Authorizer (serve.Server.Options.Authorizer) grants this caller none of them"
	if !w.custom {
		hint = fmt.Sprintf("%s; to let uid %d call this tool, add to a --grants file: {uid: %d, scopes: %s}, "+
			"and give --socket-mode a mode that lets that uid connect", w.authorization, ev.CallerUID, ev.CallerUID, yamlList(missing))
	}
	return []slog.Attr{slog.Any("missing_scopes", missing), slog.String("hint", hint)}
}

func yamlList(s []string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
