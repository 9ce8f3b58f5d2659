package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
	"github.com/cetpgen/cetpgen/runtime/store/sqlitestore"
)

// clock is a settable clock shared by a Provider and its test client.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Date(2026, 9, 2, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// gate lets a test hold a handler inside its execution.
type gate struct {
	entered chan struct{}
	release chan struct{}
}

func newGate() *gate { return &gate{entered: make(chan struct{}, 128), release: make(chan struct{})} }

// fixture is a Provider with a tool of every kind the conformance suite
// needs, and counters of the handlers' effects.
type fixture struct {
	p       *provider.Provider
	st      store.Store
	clock   *clock
	auth    *providertest.Authorizer
	confirm *providertest.Confirmer
	audit   *auditLog
	effects sync.Map // tool name -> *atomic.Int64
	hidden  atomic.Bool
	panics  atomic.Bool // the visibility hook panics
	gate    atomic.Pointer[gate]
}

type auditLog struct {
	mu     sync.Mutex
	events []provider.AuditEvent
}

func (a *auditLog) Audit(_ context.Context, ev provider.AuditEvent) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.events = append(a.events, ev)
}

func (a *auditLog) last() provider.AuditEvent {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.events[len(a.events)-1]
}

const (
	quoteIn   = `{"type":"object","properties":{"symbol":{"type":"string","maxLength":12}},"required":["symbol"],"additionalProperties":false}`
	quoteOut  = `{"type":"object","properties":{"price":{"type":"number"},"blob":{"type":"string"}},"required":["price"]}`
	alertIn   = `{"type":"object","properties":{"symbol":{"type":"string"},"price":{"type":"number","exclusiveMinimum":0}},"required":["symbol","price"],"additionalProperties":false}`
	alertOut  = `{"type":"object","properties":{"alert_id":{"type":"string"}},"required":["alert_id"]}`
	deleteIn  = `{"type":"object","properties":{"alert_id":{"type":"string","$ref":"#/$defs/id"}},"required":["alert_id"],"$defs":{"id":{"type":"string","minLength":1}}}`
	okOut     = `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`
	emptyIn   = `{"type":"object"}`
	providerA = "com.example.app"
)

type fixtureConfig struct {
	versions []int
	limits   provider.Limits
	store    store.Store
}

func newFixture(t testing.TB, cfg fixtureConfig) *fixture {
	t.Helper()
	f := &fixture{clock: newClock(), audit: &auditLog{},
		auth:    &providertest.Authorizer{Grantable: []string{"alerts.read"}},
		confirm: &providertest.Confirmer{}}
	if cfg.versions == nil {
		cfg.versions = []int{1, 2}
	}
	if cfg.limits.MaxConcurrentRequests == 0 {
		cfg.limits.MaxConcurrentRequests = 128
	}
	f.st = cfg.store
	if f.st == nil {
		f.st = memstore.New()
	}
	desc := provider.Descriptor{
		ID: providerA, Name: "Example App", Description: "管理价格提醒和自选列表",
		Scopes: []provider.Scope{
			{Name: "alerts.read", Title: "查看提醒", Description: "读取提醒", Access: provider.AccessRead, Sensitivity: provider.SensitivityPersonal},
			{Name: "alerts.write", Title: "管理价格提醒", Description: "创建、修改和删除提醒", Access: provider.AccessWrite, Sensitivity: provider.SensitivityFinancial},
			{Name: "admin", Title: "管理", Description: "仅限内部", Access: provider.AccessWrite, Sensitivity: provider.SensitivityOther},
		},
		Versions: cfg.versions, Limits: cfg.limits,
	}
	p, err := provider.New(desc, f.tools(), provider.Options{
		Store: f.st, Authorizer: f.auth, Confirmer: f.confirm, Audit: f.audit, Now: f.clock.Now,
		Visibility: func(_ context.Context, c provider.Caller, tool provider.ToolInfo) bool {
			if f.panics.Load() {
				panic("visibility hook bug")
			}
			return !(f.hidden.Load() && tool.Name == "hidden_tool")
		},
	})
	if err != nil {
		t.Fatalf("provider.New: %v", err)
	}
	f.p = p
	return f
}

func readOnly() provider.Annotations {
	return provider.Annotations{Effect: provider.EffectRead, Risk: provider.RiskLow, Idempotent: true,
		Confirmation: provider.ConfirmNever, Execution: provider.ExecSync}
}

func writes(e provider.Effect, c provider.Confirmation) provider.Annotations {
	a := provider.Annotations{Effect: e, Risk: provider.RiskModerate, Confirmation: c, Execution: provider.ExecSync}
	if e == provider.EffectDelete {
		a.Risk, a.Destructive = provider.RiskHigh, true
	}
	return a
}

func (f *fixture) count(tool string) *atomic.Int64 {
	v, _ := f.effects.LoadOrStore(tool, new(atomic.Int64))
	return v.(*atomic.Int64)
}

// effect records one business effect of tool, holding at the gate first
// when one is set.
func (f *fixture) effect(call *provider.Call) {
	if g := f.gate.Load(); g != nil {
		g.entered <- struct{}{}
		<-g.release
	}
	f.count(call.Tool.Name).Add(1)
}

func (f *fixture) tools() []provider.Tool {
	quote := func(_ context.Context, call *provider.Call, args json.RawMessage) (json.RawMessage, error) {
		var in struct{ Symbol string }
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, err
		}
		f.effect(call)
		switch in.Symbol {
		case "BAD":
			return json.RawMessage(`{"price":"not a number"}`), nil
		case "BIG":
			return json.RawMessage(fmt.Sprintf(`{"price":1,"blob":%q}`, strings.Repeat("x", 300000))), nil
		case "PANIC":
			panic("handler bug at /srv/secret/path")
		}
		return json.RawMessage(`{"price": 1.5}`), nil
	}
	ok := func(_ context.Context, call *provider.Call, _ json.RawMessage) (json.RawMessage, error) {
		f.effect(call)
		return json.RawMessage(`{"ok":true}`), nil
	}
	create := func(_ context.Context, call *provider.Call, _ json.RawMessage) (json.RawMessage, error) {
		f.effect(call)
		return json.RawMessage(fmt.Sprintf(`{"alert_id":"a-%d"}`, f.count(call.Tool.Name).Load())), nil
	}
	conflict := func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
		return nil, protocol.NewError(protocol.CodeConflict, "alert already exists")
	}
	broken := func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
		return nil, fmt.Errorf("open /srv/secret/db: permission denied")
	}
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	return []provider.Tool{
		{Name: "get_quote", Title: "报价", Description: "查询报价", InputSchema: raw(quoteIn), OutputSchema: raw(quoteOut), Annotations: readOnly(), Handler: quote},
		{Name: "list_alerts", Title: "提醒列表", Description: "列出提醒", InputSchema: raw(emptyIn), OutputSchema: raw(okOut), Scopes: []string{"alerts.read"}, Annotations: readOnly(), Handler: ok},
		{Name: "admin_stats", Title: "统计", Description: "内部统计", InputSchema: raw(emptyIn), OutputSchema: raw(okOut), Scopes: []string{"admin"}, Annotations: readOnly(), Handler: ok},
		{Name: "hidden_tool", Title: "隐藏", Description: "可隐藏", InputSchema: raw(emptyIn), OutputSchema: raw(okOut), Annotations: readOnly(), Handler: ok},
		{Name: "peek_secret", Title: "查看机密", Description: "需要确认的读取", InputSchema: raw(emptyIn), OutputSchema: raw(okOut), Annotations: func() provider.Annotations {
			a := readOnly()
			a.Confirmation = provider.ConfirmAlways
			return a
		}(), Handler: ok},
		{Name: "create_alert", Title: "创建价格提醒", Description: "为指定证券创建价格提醒", InputSchema: raw(alertIn), OutputSchema: raw(alertOut), Scopes: []string{"alerts.write"}, Annotations: writes(provider.EffectCreate, provider.ConfirmNever), Handler: create},
		{Name: "touch_alert", Title: "刷新提醒", Description: "幂等更新", InputSchema: raw(emptyIn), OutputSchema: raw(okOut), Annotations: func() provider.Annotations {
			a := writes(provider.EffectUpdate, provider.ConfirmNever)
			a.Idempotent = true
			return a
		}(), Handler: ok},
		{Name: "policy_alert", Title: "策略确认", Description: "provider_policy", InputSchema: raw(emptyIn), OutputSchema: raw(okOut), Annotations: writes(provider.EffectUpdate, provider.ConfirmProviderPolicy), Handler: ok},
		{Name: "delete_alert", Title: "删除提醒", Description: "删除一个提醒", InputSchema: raw(deleteIn), OutputSchema: raw(okOut), Scopes: []string{"alerts.write"}, Annotations: writes(provider.EffectDelete, provider.ConfirmAlways), Handler: ok},
		{Name: "conflict_alert", Title: "冲突", Description: "总是冲突", InputSchema: raw(emptyIn), OutputSchema: raw(okOut), Annotations: writes(provider.EffectUpdate, provider.ConfirmNever), Handler: conflict},
		{Name: "broken_alert", Title: "故障", Description: "内部错误", InputSchema: raw(emptyIn), OutputSchema: raw(okOut), Annotations: writes(provider.EffectUpdate, provider.ConfirmNever), Handler: broken},
	}
}

// callerA and callerB are two apps; callerA2 is callerA after a signing
// certificate change.
var (
	callerA  = provider.Caller{UID: 10001, Packages: []provider.CallerPackage{{Name: "com.agent.a", CertSHA256: []string{"aa"}}}}
	callerA2 = provider.Caller{UID: 10001, Packages: []provider.CallerPackage{{Name: "com.agent.a", CertSHA256: []string{"bb"}}}}
	callerB  = provider.Caller{UID: 10002, Packages: []provider.CallerPackage{{Name: "com.agent.b", CertSHA256: []string{"cc"}}}}
)

// client returns a negotiated client for caller with the alerts.write
// scope granted.
func (f *fixture) client(t testing.TB, caller provider.Caller) *providertest.Client {
	t.Helper()
	f.auth.Grant(caller.UID, "alerts.write")
	c := &providertest.Client{P: f.p, Caller: caller, Now: f.clock.Now}
	if _, err := c.Negotiate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c
}

func openSQLite(t testing.TB) *sqlitestore.Store {
	t.Helper()
	st, err := sqlitestore.Open(filepath.Join(t.TempDir(), "cetp.db"), sqlitestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// want is the exact envelope a conformance case expects.
type want struct {
	status    string
	code      protocol.Code
	retryable bool
	version   int32  // 0: no protocol_version (v1)
	requestID string // "": no request_id
}

// check asserts the exact status, error_code, retryable and echoed fields.
func check(t testing.TB, b protocol.Bundle, w want) {
	t.Helper()
	if err := b.CheckKnownTypes(); err != nil {
		t.Fatalf("response has a mistyped key: %v (%v)", err, b)
	}
	status, _, _ := b.String(protocol.KeyStatus)
	if status != w.status {
		t.Fatalf("status = %q, want %q (%v)", status, w.status, b)
	}
	code, hasCode, _ := b.String(protocol.KeyErrorCode)
	if protocol.Code(code) != w.code {
		t.Fatalf("error_code = %q, want %q (%v)", code, w.code, b)
	}
	retry, hasRetry, _ := b.Boolean(protocol.KeyRetryable)
	switch {
	case w.status == protocol.StatusError && w.version != 0 && (!hasRetry || retry != w.retryable):
		t.Fatalf("retryable = %v (present %v), want %v (%v)", retry, hasRetry, w.retryable, b)
	case w.status != protocol.StatusError && (hasCode || hasRetry):
		t.Fatalf("success carries error fields: %v", b)
	case w.version == 0 && hasRetry:
		t.Fatalf("v1 response carries retryable: %v", b)
	}
	if w.status == protocol.StatusError {
		if msg, ok, _ := b.String(protocol.KeyErrorMessage); !ok || msg == "" {
			t.Fatalf("error without error_message: %v", b)
		}
	}
	v, hasV, _ := b.Int(protocol.KeyProtocolVersion)
	if (w.version == 0) == hasV || v != w.version {
		t.Fatalf("protocol_version = %d (present %v), want %d (%v)", v, hasV, w.version, b)
	}
	id, hasID, _ := b.String(protocol.KeyRequestID)
	if (w.requestID == "") == hasID || id != w.requestID {
		t.Fatalf("request_id = %q (present %v), want %q (%v)", id, hasID, w.requestID, b)
	}
}

func ok2(id string) want { return want{status: protocol.StatusSuccess, version: 2, requestID: id} }

func err2(code protocol.Code, retryable bool, id string) want {
	return want{status: protocol.StatusError, code: code, retryable: retryable, version: 2, requestID: id}
}

// data decodes the data JSON of a success envelope.
func data(t testing.TB, b protocol.Bundle) map[string]any {
	t.Helper()
	s, _, _ := b.String(protocol.KeyData)
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("data is not a JSON object: %q", s)
	}
	return m
}
