package provider_test

import (
	"sync"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
)

const (
	alertArgs  = `{"symbol":"AAPL","price":190.5}`
	deleteArgs = `{"alert_id":"a-1"}`
)

// pending calls delete_alert without a token and returns the resolution
// and resume token of its USER_ACTION_REQUIRED.
func pending(t *testing.T, f *fixture, c *providertest.Client, id, tool, args string) (*protocol.Resolution, string) {
	t.Helper()
	b := c.Execute(ctx, id, tool, args, "")
	check(t, b, err2(protocol.CodeUserActionRequired, false, id))
	e, err := protocol.ParseError(b)
	if err != nil || e.Resolution == nil || e.ResumeToken == "" || len(e.ResumeToken) > 256 {
		t.Fatalf("USER_ACTION_REQUIRED without resolution and resume_token: %v", b)
	}
	return e.Resolution, e.ResumeToken
}

// approved returns a resume token for id that the user approved.
func approved(t *testing.T, f *fixture, c *providertest.Client, id, tool, args string) string {
	t.Helper()
	f.confirm.Approve = func(provider.ConfirmRequest) bool { return true }
	res, tok := pending(t, f, c, id, tool, args)
	if err := f.p.Launch(ctx, c.Caller, res); err != nil {
		t.Fatalf("launch: %v", err)
	}
	return tok
}

// TestConformanceIdentity covers §9 "调用方 UID/签名变化、scope 过期、
// PendingIntent 绑定与 token 重放".
func TestConformanceIdentity(t *testing.T) {
	id := providertest.NewRequestID()
	runCases(t, []conformanceCase{
		{name: "caller UID change with the same session token", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			c.Caller = callerB
			return c.Execute(ctx, id, "get_quote", `{"symbol":"A"}`, ""), err2(protocol.CodeNegotiationRequired, true, id)
		}, post: noEffect("get_quote")},
		{name: "unknown session token", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			c.Token = "forged-token"
			return c.Execute(ctx, id, "get_quote", `{"symbol":"A"}`, ""), err2(protocol.CodeNegotiationRequired, true, id)
		}},
		{name: "expired session token", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			f.clock.Advance(time.Hour)
			return c.Execute(ctx, id, "get_quote", `{"symbol":"A"}`, ""), err2(protocol.CodeNegotiationRequired, true, id)
		}},
		{name: "scope missing and grantable: AUTH_REQUIRED with resolution", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			return c.Execute(ctx, id, "list_alerts", `{}`, ""), err2(protocol.CodeAuthRequired, false, id)
		}, post: func(t *testing.T, f *fixture, b protocol.Bundle) {
			noEffect("list_alerts")(t, f, b)
			e, _ := protocol.ParseError(b)
			if e.Resolution == nil || e.ResumeToken == "" {
				t.Fatalf("AUTH_REQUIRED without resolution/resume_token: %v", b)
			}
			if err := f.p.Launch(ctx, callerA, e.Resolution); err != nil {
				t.Fatal(err)
			}
			c := &providertest.Client{P: f.p, Caller: callerA, Now: f.clock.Now}
			c.Negotiate(ctx)
			check(t, c.Execute(ctx, id, "list_alerts", `{}`, e.ResumeToken), ok2(id))
			effects("list_alerts", 1)(t, f, b)
		}},
		{name: "scope missing and not grantable: PERMISSION_DENIED", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			return c.Execute(ctx, id, "admin_stats", `{}`, ""), err2(protocol.CodePermissionDenied, false, id)
		}, post: noEffect("admin_stats")},
		{name: "scope revoked after an earlier success is checked again", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			earlier := providertest.NewRequestID()
			check(t, c.Execute(ctx, earlier, "create_alert", alertArgs, ""), ok2(earlier))
			f.auth.Revoke(callerA.UID)
			return c.Execute(ctx, id, "create_alert", `{"symbol":"MSFT","price":1}`, ""), err2(protocol.CodePermissionDenied, false, id)
		}, post: effects("create_alert", 1)},
		{name: "resume token replay on a read tool", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			tok := approved(t, f, c, id, "peek_secret", `{}`)
			check(t, c.Execute(ctx, id, "peek_secret", `{}`, tok), ok2(id))
			return c.Execute(ctx, id, "peek_secret", `{}`, tok), err2(protocol.CodeInvalidRequest, false, id)
		}, post: effects("peek_secret", 1)},
		{name: "resume token with other args", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			tok := approved(t, f, c, id, "delete_alert", deleteArgs)
			return c.Execute(ctx, id, "delete_alert", `{"alert_id":"a-2"}`, tok), err2(protocol.CodeInvalidRequest, false, id)
		}, post: noEffect("delete_alert")},
		{name: "resume token with same args but other byte form", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			tok := approved(t, f, c, id, "delete_alert", deleteArgs)
			return c.Execute(ctx, id, "delete_alert", `{ "alert_id":"a-1"}`, tok), err2(protocol.CodeInvalidRequest, false, id)
		}, post: noEffect("delete_alert")},
		{name: "resume token with another request ID", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			tok := approved(t, f, c, id, "delete_alert", deleteArgs)
			other := providertest.NewRequestID()
			return c.Execute(ctx, other, "delete_alert", deleteArgs, tok), err2(protocol.CodeInvalidRequest, false, other)
		}, post: noEffect("delete_alert")},
		{name: "resume token of another caller", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			a := f.client(t, callerA)
			tok := approved(t, f, a, id, "delete_alert", deleteArgs)
			b := f.client(t, callerB)
			return b.Execute(ctx, id, "delete_alert", deleteArgs, tok), err2(protocol.CodeInvalidRequest, false, id)
		}, post: noEffect("delete_alert")},
		{name: "resume token after a signing certificate change", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			a := f.client(t, callerA)
			tok := approved(t, f, a, id, "delete_alert", deleteArgs)
			a.Caller = callerA2 // same UID: the session still holds, the binding does not
			return a.Execute(ctx, id, "delete_alert", deleteArgs, tok), err2(protocol.CodeInvalidRequest, false, id)
		}, post: noEffect("delete_alert")},
		{name: "resume token expired", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			tok := approved(t, f, c, id, "delete_alert", deleteArgs)
			f.clock.Advance(11 * time.Minute)
			c.Negotiate(ctx)
			return c.Execute(ctx, id, "delete_alert", deleteArgs, tok), err2(protocol.CodeInvalidRequest, false, id)
		}, post: noEffect("delete_alert")},
		{name: "unknown resume token", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			return c.Execute(ctx, id, "delete_alert", deleteArgs, "forged"), err2(protocol.CodeInvalidRequest, false, id)
		}, post: noEffect("delete_alert")},
		{name: "resolution launched by another caller", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			f.confirm.Approve = func(provider.ConfirmRequest) bool { return true }
			res, tok := pending(t, f, c, id, "delete_alert", deleteArgs)
			err := f.p.Launch(ctx, callerB, res)
			if e, ok := err.(*protocol.Error); !ok || e.Code != protocol.CodePermissionDenied {
				t.Fatalf("launch by another caller: %v", err)
			}
			return c.Execute(ctx, id, "delete_alert", deleteArgs, tok), err2(protocol.CodeUserActionRequired, false, id)
		}, post: func(t *testing.T, f *fixture, b protocol.Bundle) {
			noEffect("delete_alert")(t, f, b)
			if n := len(f.confirm.Requests()); n != 0 {
				t.Fatalf("confirmation UI shown %d times to another caller", n)
			}
		}},
	})
}

// TestConformanceConfirmation covers §9 "用户批准、拒绝、token 过期以及确认前无副作用".
func TestConformanceConfirmation(t *testing.T) {
	id := providertest.NewRequestID()
	runCases(t, []conformanceCase{
		{name: "nothing happens before confirmation", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			return c.Execute(ctx, id, "delete_alert", deleteArgs, ""), err2(protocol.CodeUserActionRequired, false, id)
		}, post: func(t *testing.T, f *fixture, b protocol.Bundle) {
			noEffect("delete_alert")(t, f, b)
			if len(f.confirm.Requests()) != 0 {
				t.Fatal("confirmation UI ran before the resolution was launched")
			}
			if ev := f.audit.last(); ev.Confirmation != "requested" || ev.Authorization != "granted" || ev.ErrorCode != "USER_ACTION_REQUIRED" {
				t.Fatalf("audit event = %+v", ev)
			}
		}},
		{name: "a consumer's confirmed flag is worthless", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			b := c.Envelope(id)
			b[protocol.KeyToolName], b[protocol.KeyArgs] = protocol.String("delete_alert"), protocol.String(deleteArgs)
			b["confirmed"] = protocol.Boolean(true)
			return f.p.Call(ctx, callerA, protocol.MethodExecuteTool, b), err2(protocol.CodeUserActionRequired, false, id)
		}, post: noEffect("delete_alert")},
		{name: "token still pending", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			_, tok := pending(t, f, c, id, "delete_alert", deleteArgs)
			return c.Execute(ctx, id, "delete_alert", deleteArgs, tok), err2(protocol.CodeUserActionRequired, false, id)
		}, post: noEffect("delete_alert")},
		{name: "approval runs the call once", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			tok := approved(t, f, c, id, "delete_alert", deleteArgs)
			return c.Execute(ctx, id, "delete_alert", deleteArgs, tok), ok2(id)
		}, post: func(t *testing.T, f *fixture, b protocol.Bundle) {
			effects("delete_alert", 1)(t, f, b)
			reqs := f.confirm.Requests()
			if len(reqs) != 1 || string(reqs[0].Args) != deleteArgs || reqs[0].Tool.Name != "delete_alert" || reqs[0].Caller.UID != callerA.UID {
				t.Fatalf("confirmation UI saw %+v", reqs)
			}
			if ev := f.audit.last(); ev.Confirmation != "approved" || ev.Status != "success" || ev.RequestID != id {
				t.Fatalf("audit event = %+v", ev)
			}
		}},
		{name: "retry of an approved call with its used token gets the stored result", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			tok := approved(t, f, c, id, "delete_alert", deleteArgs)
			check(t, c.Execute(ctx, id, "delete_alert", deleteArgs, tok), ok2(id))
			return c.Execute(ctx, id, "delete_alert", deleteArgs, tok), ok2(id)
		}, post: effects("delete_alert", 1)},
		{name: "denial is USER_CANCELLED and stays so", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			f.confirm.Approve = func(provider.ConfirmRequest) bool { return false }
			res, tok := pending(t, f, c, id, "delete_alert", deleteArgs)
			if err := f.p.Launch(ctx, callerA, res); err != nil {
				t.Fatal(err)
			}
			check(t, c.Execute(ctx, id, "delete_alert", deleteArgs, tok), err2(protocol.CodeUserCancelled, false, id))
			return c.Execute(ctx, id, "delete_alert", deleteArgs, ""), err2(protocol.CodeUserCancelled, false, id)
		}, post: noEffect("delete_alert")},
		{name: "a decided confirmation cannot be launched again", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			f.confirm.Approve = func(provider.ConfirmRequest) bool { return false }
			res, tok := pending(t, f, c, id, "delete_alert", deleteArgs)
			f.p.Launch(ctx, callerA, res)
			f.confirm.Approve = func(provider.ConfirmRequest) bool { return true }
			if e, ok := f.p.Launch(ctx, callerA, res).(*protocol.Error); !ok || e.Code != protocol.CodeConflict {
				t.Fatalf("second launch: %v", e)
			}
			return c.Execute(ctx, id, "delete_alert", deleteArgs, tok), err2(protocol.CodeUserCancelled, false, id)
		}, post: noEffect("delete_alert")},
		{name: "default auto-deny UI", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			res, tok := pending(t, f, c, id, "delete_alert", deleteArgs)
			f.p.Launch(ctx, callerA, res)
			return c.Execute(ctx, id, "delete_alert", deleteArgs, tok), err2(protocol.CodeUserCancelled, false, id)
		}, post: noEffect("delete_alert")},
		{name: "provider_policy write tool asks by default", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			return c.Execute(ctx, id, "policy_alert", `{}`, ""), err2(protocol.CodeUserActionRequired, false, id)
		}, post: noEffect("policy_alert")},
		{name: "deadline passing while the user decides", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			c.Deadline = 2 * time.Minute
			tok := approved(t, f, c, id, "delete_alert", deleteArgs)
			b := c.Envelope(id)
			b[protocol.KeyToolName], b[protocol.KeyArgs] = protocol.String("delete_alert"), protocol.String(deleteArgs)
			b[protocol.KeyResumeToken] = protocol.String(tok)
			b[protocol.KeyDeadlineAtMs] = protocol.Long(f.clock.Now().Add(-time.Second).UnixMilli())
			return f.p.Call(ctx, callerA, protocol.MethodExecuteTool, b), err2(protocol.CodeDeadlineExceeded, true, id)
		}, post: func(t *testing.T, f *fixture, b protocol.Bundle) {
			noEffect("delete_alert")(t, f, b)
		}},
	})
}

// TestConformanceIdempotency covers §9 "同 ID 并发、超时后重试、不同参数复用 ID
// 和幂等窗口".
func TestConformanceIdempotency(t *testing.T) {
	id := providertest.NewRequestID()
	runCases(t, []conformanceCase{
		{name: "same ID twice: one effect, same result", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			first := c.Execute(ctx, id, "create_alert", alertArgs, "")
			check(t, first, ok2(id))
			second := c.Execute(ctx, id, "create_alert", alertArgs, "")
			sameData(t, first, second)
			return second, ok2(id)
		}, post: func(t *testing.T, f *fixture, b protocol.Bundle) {
			effects("create_alert", 1)(t, f, b)
			if !f.audit.last().Deduplicated {
				t.Fatal("audit does not mark the replay")
			}
		}},
		{name: "idempotent=true tools are deduplicated too", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			c.Execute(ctx, id, "touch_alert", `{}`, "")
			return c.Execute(ctx, id, "touch_alert", `{}`, ""), ok2(id)
		}, post: effects("touch_alert", 1)},
		{name: "different args with the same ID", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			check(t, c.Execute(ctx, id, "create_alert", alertArgs, ""), ok2(id))
			return c.Execute(ctx, id, "create_alert", `{"symbol":"AAPL","price":200}`, ""), err2(protocol.CodeInvalidRequest, false, id)
		}, post: effects("create_alert", 1)},
		{name: "different tool with the same ID", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			check(t, c.Execute(ctx, id, "touch_alert", `{}`, ""), ok2(id))
			return c.Execute(ctx, id, "conflict_alert", `{}`, ""), err2(protocol.CodeInvalidRequest, false, id)
		}, post: effects("touch_alert", 1)},
		{name: "the same ID from another caller is another request", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			a, b := f.client(t, callerA), f.client(t, callerB)
			check(t, a.Execute(ctx, id, "create_alert", alertArgs, ""), ok2(id))
			return b.Execute(ctx, id, "create_alert", alertArgs, ""), ok2(id)
		}, post: effects("create_alert", 2)},
		{name: "stored result within the idempotency window", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			check(t, c.Execute(ctx, id, "create_alert", alertArgs, ""), ok2(id))
			f.clock.Advance(86399 * time.Second)
			c.Negotiate(ctx)
			return c.Execute(ctx, id, "create_alert", alertArgs, ""), ok2(id)
		}, post: effects("create_alert", 1)},
		{name: "after the window the record is purged and the request ID answers RESULT_EXPIRED", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			check(t, c.Execute(ctx, id, "create_alert", alertArgs, ""), ok2(id))
			f.clock.Advance(86400 * time.Second)
			if n, err := f.p.Purge(ctx); err != nil || n != 1 {
				t.Fatalf("Purge = %d, %v", n, err)
			}
			c.Negotiate(ctx)
			return c.Execute(ctx, id, "create_alert", alertArgs, ""), err2(protocol.CodeResultExpired, false, id)
		}, post: effects("create_alert", 1)},
		{name: "terminal business error is stored", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			check(t, c.Execute(ctx, id, "conflict_alert", `{}`, ""), err2(protocol.CodeConflict, false, id))
			return c.Execute(ctx, id, "conflict_alert", `{}`, ""), err2(protocol.CodeConflict, false, id)
		}, post: func(t *testing.T, f *fixture, b protocol.Bundle) {
			if msg, _, _ := b.String(protocol.KeyErrorMessage); msg != "alert already exists" {
				t.Fatalf("stored message = %q", msg)
			}
		}},
		{name: "internal error hides its text", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			return c.Execute(ctx, id, "broken_alert", `{}`, ""), err2(protocol.CodeInternalError, false, id)
		}, post: noLeak},
		{name: "a duplicate waits no longer than its own deadline", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			g := newGate()
			f.gate.Store(g)
			done := make(chan protocol.Bundle)
			go func() { done <- c.Execute(ctx, id, "create_alert", alertArgs, "") }()
			<-g.entered // the executor is held until the duplicate has given up
			impatient := *c
			impatient.Deadline = time.Millisecond
			b := impatient.Execute(ctx, id, "create_alert", alertArgs, "")
			close(g.release)
			first := <-done
			check(t, first, ok2(id))
			sameData(t, first, c.Execute(ctx, id, "create_alert", alertArgs, ""))
			return b, err2(protocol.CodeDeadlineExceeded, true, id)
		}, post: effects("create_alert", 1)},
		{name: "retry after timeout while the first attempt still runs", run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			g := newGate()
			f.gate.Store(g)
			var first protocol.Bundle
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { defer wg.Done(); first = c.Execute(ctx, id, "create_alert", alertArgs, "") }()
			<-g.entered // the first attempt is inside the handler; its caller gave up
			var retry protocol.Bundle
			wg.Add(1)
			go func() { defer wg.Done(); retry = c.Execute(ctx, id, "create_alert", alertArgs, "") }()
			close(g.release)
			wg.Wait()
			sameData(t, first, retry)
			return retry, ok2(id)
		}, post: effects("create_alert", 1)},
	})
}

// TestConformanceLimits covers max_concurrent_requests.
func TestConformanceLimits(t *testing.T) {
	runCases(t, []conformanceCase{
		{name: "rate limit per caller", cfg: fixtureConfig{limits: provider.Limits{MaxConcurrentRequests: 1}}, run: func(t *testing.T, f *fixture) (protocol.Bundle, want) {
			c := f.client(t, callerA)
			other := f.client(t, callerB)
			g := newGate()
			f.gate.Store(g)
			done := make(chan protocol.Bundle)
			slow := providertest.NewRequestID()
			go func() { done <- c.Execute(ctx, slow, "create_alert", alertArgs, "") }()
			<-g.entered
			id := providertest.NewRequestID()
			b := c.Execute(ctx, id, "get_quote", `{"symbol":"A"}`, "")
			f.gate.Store(nil)
			check(t, other.Execute(ctx, id, "get_quote", `{"symbol":"A"}`, ""), ok2(id))
			close(g.release)
			check(t, <-done, ok2(slow))
			return b, err2(protocol.CodeRateLimited, true, id)
		}, post: func(t *testing.T, f *fixture, b protocol.Bundle) {
			if ms, ok, _ := b.Long(protocol.KeyRetryAfterMs); !ok || ms != 100 {
				t.Fatalf("retry_after_ms = %d (%v)", ms, ok)
			}
		}},
	})
}

func sameData(t *testing.T, a, b protocol.Bundle) {
	t.Helper()
	da, _, _ := a.String(protocol.KeyData)
	db, _, _ := b.String(protocol.KeyData)
	if da == "" || da != db {
		t.Fatalf("results differ:\n%v\n%v", a, b)
	}
}
