package provider_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
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

// opFixture is a Provider with async_operations, cancellation and
// large_results, whose sync_or_async tools a test steers.
type opFixture struct {
	p       *provider.Provider
	st      store.Store
	effects atomic.Int64 // committed runs of export_report
	started chan string  // the request ID of each run that starts
	release chan struct{}
	stub    atomic.Bool // export_report ignores cancellation
	fail    atomic.Bool // export_report fails with CONFLICT
}

const (
	exportIn  = `{"type":"object","properties":{"rows":{"type":"integer"}},"additionalProperties":false}`
	exportOut = `{"type":"object","properties":{"rows":{"type":"integer"},"blob":{"type":"string"}},"required":["rows"]}`
)

func newOpFixture(t testing.TB, st store.Store, opt provider.Options) *opFixture {
	t.Helper()
	f := &opFixture{st: st, started: make(chan string, 64), release: make(chan struct{})}
	desc := provider.Descriptor{ID: providerA, Name: "Ops", Description: "operations", Versions: []int{2},
		Capabilities: []string{protocol.CapAsyncOperations, protocol.CapCancellation, protocol.CapLargeResults}}
	opt.Store = st
	opt.ConfirmPolicy = func(context.Context, provider.Caller, provider.ToolInfo, json.RawMessage) bool { return false }
	opt.TempDir = t.TempDir()
	p, err := provider.New(desc, f.tools(), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	f.p = p
	return f
}

func (f *opFixture) tools() []provider.Tool {
	async := provider.Annotations{Effect: provider.EffectCreate, Risk: provider.RiskLow, Confirmation: provider.ConfirmNever,
		Execution: provider.ExecSyncOrAsync}
	read := async
	read.Effect = provider.EffectRead
	return []provider.Tool{
		{Name: "export_report", Title: "导出", Description: "导出报表", InputSchema: json.RawMessage(exportIn),
			OutputSchema: json.RawMessage(exportOut), Annotations: async, Handler: f.export},
		{Name: "big_report", Title: "大报表", Description: "大结果", InputSchema: json.RawMessage(exportIn),
			OutputSchema: json.RawMessage(exportOut), Annotations: read, Handler: bigReport},
	}
}

// export reports progress, waits for release or cancellation, and counts
// a committed effect when it succeeds.
func (f *opFixture) export(ctx context.Context, call *provider.Call, _ json.RawMessage) (json.RawMessage, error) {
	call.ReportProgress(provider.Progress{Current: 1, Total: 2, Message: "正在导出"})
	f.started <- call.RequestID
	select {
	case <-f.release:
	case <-ctx.Done():
		if !f.stub.Load() {
			return nil, ctx.Err()
		}
		<-f.release
	}
	if f.fail.Load() {
		return nil, protocol.NewError(protocol.CodeConflict, "report locked").WithDetails(map[string]any{"lock": "x"})
	}
	f.effects.Add(1)
	return json.RawMessage(`{"rows":7}`), nil
}

// bigReport returns a result of about 300 KB, past the inline minimum.
func bigReport(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
	return json.Marshal(map[string]any{"rows": 1, "blob": strings.Repeat("x", 300_000)})
}

func (f *opFixture) client(t testing.TB, caller provider.Caller, caps []string) *providertest.Client {
	t.Helper()
	c := &providertest.Client{P: f.p, Caller: caller, Capabilities: caps}
	if _, err := c.Negotiate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c
}

// accept starts export_report and returns the request and operation IDs.
func accept(t testing.TB, c *providertest.Client, tool string) (string, string) {
	t.Helper()
	id := providertest.NewRequestID()
	b := c.Execute(context.Background(), id, tool, `{}`, "")
	check(t, b, want{status: protocol.StatusAccepted, version: 2, requestID: id})
	d := data(t, b)
	op, _ := d["operation_id"].(string)
	if !strings.HasPrefix(op, "op_") || d["poll_after_ms"] != float64(500) {
		t.Fatalf("accepted data = %v", d)
	}
	return id, op
}

// waitState polls get_operation until the state is want.
func waitState(t testing.TB, c *providertest.Client, id, op, want string) protocol.Bundle {
	t.Helper()
	for range 500 {
		b := c.GetOperation(context.Background(), id, op)
		check(t, b, ok2(id))
		if data(t, b)["state"] == want {
			return b
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("operation %s never reached %s", op, want)
	return nil
}

// TestOperationSucceeds walks an operation through running (with
// progress) to succeeded, and retries of the request through the same
// operation and result (§4.4, §6).
func TestOperationSucceeds(t *testing.T) {
	f := newOpFixture(t, memstore.New(), provider.Options{})
	c := f.client(t, callerA, nil)
	id, op := accept(t, c, "export_report")
	<-f.started
	b := waitState(t, c, id, op, "running")
	d := data(t, b)
	if p, _ := d["progress"].(map[string]any); p["message"] != "正在导出" || p["total"] != float64(2) || d["poll_after_ms"] != float64(500) {
		t.Fatalf("running state = %v", d)
	}
	retry := c.Execute(context.Background(), id, "export_report", `{}`, "")
	if data(t, retry)["operation_id"] != op {
		t.Fatalf("retry while running = %v", retry)
	}
	close(f.release)
	d = data(t, waitState(t, c, id, op, "succeeded"))
	if r, _ := d["result"].(map[string]any); r["kind"] != "inline" || r["value"].(map[string]any)["rows"] != float64(7) {
		t.Fatalf("succeeded state = %v", d)
	}
	if _, ok := d["poll_after_ms"]; ok {
		t.Fatalf("terminal state carries poll_after_ms: %v", d)
	}
	again := c.Execute(context.Background(), id, "export_report", `{}`, "")
	check(t, again, ok2(id))
	if got, _, _ := again.String(protocol.KeyData); got != `{"kind":"inline","value":{"rows":7}}` {
		t.Fatalf("retry after success = %s", got)
	}
	if n := f.effects.Load(); n != 1 {
		t.Fatalf("effect ran %d times", n)
	}
}

// TestOperationFails checks that a failed operation carries the §5 error
// object and is never retryable.
func TestOperationFails(t *testing.T) {
	f := newOpFixture(t, memstore.New(), provider.Options{})
	f.fail.Store(true)
	c := f.client(t, callerA, nil)
	id, op := accept(t, c, "export_report")
	close(f.release)
	d := data(t, waitState(t, c, id, op, "failed"))
	e, _ := d["error"].(map[string]any)
	if e["error_code"] != "CONFLICT" || e["error_message"] != "report locked" || e["retryable"] != false ||
		e["error_details"].(map[string]any)["lock"] != "x" {
		t.Fatalf("failed state = %v", d)
	}
	check(t, c.Execute(context.Background(), id, "export_report", `{}`, ""), err2(protocol.CodeConflict, false, id))
	if f.effects.Load() != 0 {
		t.Fatal("a failed operation left an effect")
	}
}

// TestOperationCancelled checks cooperative cancellation: the handler sees
// a cancelled context, stops, and the operation becomes cancelled with no
// effect.
func TestOperationCancelled(t *testing.T) {
	f := newOpFixture(t, memstore.New(), provider.Options{})
	c := f.client(t, callerA, nil)
	id, op := accept(t, c, "export_report")
	<-f.started
	b := c.CancelOperation(context.Background(), id, op)
	check(t, b, ok2(id))
	if d := data(t, b); d["state"] != "cancellation_requested" || d["operation_id"] != op {
		t.Fatalf("cancel answer = %v", d)
	}
	waitState(t, c, id, op, "cancelled")
	check(t, c.CancelOperation(context.Background(), id, op), ok2(id))
	if f.effects.Load() != 0 {
		t.Fatal("a cancelled operation left an effect")
	}
}

// TestCancelQueuedOperation cancels an operation that waits for a slot: it
// never starts.
func TestCancelQueuedOperation(t *testing.T) {
	f := newOpFixture(t, memstore.New(), provider.Options{MaxOperations: 1})
	c := f.client(t, callerA, nil)
	first, firstOp := accept(t, c, "export_report")
	<-f.started
	id, op := accept(t, c, "export_report")
	if d := data(t, c.GetOperation(context.Background(), id, op)); d["state"] != "queued" {
		t.Fatalf("second operation = %v, want queued", d)
	}
	check(t, c.CancelOperation(context.Background(), id, op), ok2(id))
	waitState(t, c, id, op, "cancelled")
	close(f.release)
	waitState(t, c, first, firstOp, "succeeded")
	if f.effects.Load() != 1 {
		t.Fatalf("effects = %d, want only the first", f.effects.Load())
	}
}

// TestCancelRaceNeverLies covers the cancellation race of §4.4: a handler
// that commits despite the request ends succeeded, and a later cancel is
// CONFLICT, never a false cancelled.
func TestCancelRaceNeverLies(t *testing.T) {
	f := newOpFixture(t, memstore.New(), provider.Options{})
	f.stub.Store(true)
	c := f.client(t, callerA, nil)
	id, op := accept(t, c, "export_report")
	<-f.started
	check(t, c.CancelOperation(context.Background(), id, op), ok2(id))
	close(f.release)
	waitState(t, c, id, op, "succeeded")
	check(t, c.CancelOperation(context.Background(), id, op), err2(protocol.CodeConflict, false, id))
	if f.effects.Load() != 1 {
		t.Fatal("the committed effect is missing")
	}
}

// TestOperationBoundToCaller checks that another caller, another request
// ID or an unknown operation ID cannot read or cancel an operation, and
// that the answers do not tell them apart.
func TestOperationBoundToCaller(t *testing.T) {
	f := newOpFixture(t, memstore.New(), provider.Options{})
	c := f.client(t, callerA, nil)
	id, op := accept(t, c, "export_report")
	<-f.started
	other := f.client(t, callerB, nil)
	for _, b := range []protocol.Bundle{
		other.GetOperation(context.Background(), id, op),
		other.CancelOperation(context.Background(), id, op),
		c.GetOperation(context.Background(), providertest.NewRequestID(), op),
		c.GetOperation(context.Background(), id, "op_0000"),
	} {
		rid, _, _ := b.String(protocol.KeyRequestID)
		check(t, b, err2(protocol.CodeInvalidRequest, false, rid))
	}
	close(f.release)
	waitState(t, c, id, op, "succeeded")
	if f.effects.Load() != 1 {
		t.Fatal("another caller's cancel stopped the operation")
	}
}

// TestOperationMethodsNeedCapabilities checks UNSUPPORTED_CAPABILITY on a
// session without them, and that a sync_or_async tool runs synchronously
// there.
func TestOperationMethodsNeedCapabilities(t *testing.T) {
	f := newOpFixture(t, memstore.New(), provider.Options{})
	c := f.client(t, callerA, []string{})
	id := providertest.NewRequestID()
	check(t, c.GetOperation(context.Background(), id, "op_1"), err2(protocol.CodeUnsupportedCapability, false, id))
	check(t, c.CancelOperation(context.Background(), id, "op_1"), err2(protocol.CodeUnsupportedCapability, false, id))
	close(f.release)
	check(t, c.Execute(context.Background(), id, "export_report", `{}`, ""), ok2(id))
	onlyAsync := f.client(t, callerA, []string{protocol.CapCancellation})
	check(t, onlyAsync.CancelOperation(context.Background(), id, "op_1"), err2(protocol.CodeUnsupportedCapability, false, id))
}

// TestOperationExpires checks RESULT_EXPIRED once the idempotency window
// of a finished operation has passed.
func TestOperationExpires(t *testing.T) {
	clk := newClock()
	f := newOpFixture(t, memstore.New(), provider.Options{Now: clk.Now})
	c := f.client(t, callerA, nil)
	c.Now = clk.Now
	id, op := accept(t, c, "export_report")
	close(f.release)
	waitState(t, c, id, op, "succeeded")
	clk.Advance(24*time.Hour + time.Second)
	if _, err := c.Negotiate(context.Background()); err != nil {
		t.Fatal(err)
	}
	check(t, c.GetOperation(context.Background(), id, op), err2(protocol.CodeResultExpired, false, id))
	check(t, c.CancelOperation(context.Background(), id, op), err2(protocol.CodeResultExpired, false, id))
}

// TestOperationRecovery stops a Provider while its operation runs and
// starts another on the same SQLite file: the operation resumes and
// commits once (RecoverResume), or fails truthfully (RecoverFail).
func TestOperationRecovery(t *testing.T) {
	for _, policy := range []provider.RecoveryPolicy{provider.RecoverResume, provider.RecoverFail} {
		t.Run(string(policy), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ops.db")
			f1 := newOpFixture(t, openSQLiteAt(t, path), provider.Options{})
			c1 := f1.client(t, callerA, nil)
			id, op := accept(t, c1, "export_report")
			<-f1.started
			if err := f1.p.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			if d := data(t, c1.GetOperation(context.Background(), id, op)); d["state"] != "running" {
				t.Fatalf("after close the operation is %v, want still running", d)
			}
			f2 := newOpFixture(t, openSQLiteAt(t, path), provider.Options{Recovery: policy})
			close(f2.release)
			c2 := f2.client(t, callerA, nil)
			if policy == provider.RecoverFail {
				d := data(t, waitState(t, c2, id, op, "failed"))
				if d["error"].(map[string]any)["error_code"] != "INTERNAL_ERROR" || f2.effects.Load() != 0 {
					t.Fatalf("failed recovery = %v", d)
				}
				return
			}
			waitState(t, c2, id, op, "succeeded")
			if f1.effects.Load()+f2.effects.Load() != 1 {
				t.Fatalf("effects = %d + %d, want 1", f1.effects.Load(), f2.effects.Load())
			}
		})
	}
}

// TestLargeResult checks §4.5: past max_inline_result_bytes a session with
// large_results gets a read-only descriptor whose size and sha256 match the
// data, a fresh one on each retry; a session without gets
// RESULT_TOO_LARGE.
func TestLargeResult(t *testing.T) {
	f := newOpFixture(t, memstore.New(), provider.Options{AsyncWait: 10 * time.Second})
	c := f.client(t, callerA, nil)
	id := providertest.NewRequestID()
	var first string
	for range 2 {
		b := c.Execute(context.Background(), id, "big_report", `{}`, "")
		check(t, b, ok2(id))
		content := readResultFile(t, b)
		if first != "" && content != first {
			t.Fatal("a retry served other content")
		}
		first = content
	}
	if !strings.Contains(first, `"rows":1`) {
		t.Fatalf("file content starts %.40q", first)
	}
	small := f.client(t, callerA, []string{protocol.CapAsyncOperations})
	id2 := providertest.NewRequestID()
	check(t, small.Execute(context.Background(), id2, "big_report", `{}`, ""), err2(protocol.CodeResultTooLarge, false, id2))
}

// readResultFile checks the file data object against the descriptor's
// content, checks the descriptor is read-only, closes it and returns the
// content.
func readResultFile(t testing.TB, b protocol.Bundle) string {
	t.Helper()
	fd, ok := b[protocol.KeyResultFD].(protocol.FileDescriptor)
	if !ok || fd.File == nil {
		t.Fatalf("no result_fd in %v", b)
	}
	defer fd.File.Close()
	if _, err := fd.File.Write([]byte("x")); err == nil {
		t.Fatal("the result descriptor is writable")
	}
	content, err := io.ReadAll(fd.File)
	if err != nil {
		t.Fatal(err)
	}
	d := data(t, b)
	sum := sha256.Sum256(content)
	if d["kind"] != "file" || d["media_type"] != "application/json" || d["size_bytes"] != float64(len(content)) ||
		d["sha256"] != hex.EncodeToString(sum[:]) {
		t.Fatalf("file data %v does not describe %d bytes", d, len(content))
	}
	return string(content)
}

// TestLargeOperationResult checks that a succeeded operation with a file
// result serves a fresh descriptor on every get_operation.
func TestLargeOperationResult(t *testing.T) {
	f := newOpFixture(t, memstore.New(), provider.Options{})
	c := f.client(t, callerA, nil)
	id, op := accept(t, c, "big_report")
	b := waitState(t, c, id, op, "succeeded")
	for range 2 {
		fd := b[protocol.KeyResultFD].(protocol.FileDescriptor)
		content, _ := io.ReadAll(fd.File)
		fd.File.Close()
		r := data(t, b)["result"].(map[string]any)
		if r["kind"] != "file" || r["size_bytes"] != float64(len(content)) {
			t.Fatalf("result %v for %d bytes", r, len(content))
		}
		b = c.GetOperation(context.Background(), id, op)
	}
}

// openSQLiteAt opens the SQLite store at path, closed at the end of the
// test.
func openSQLiteAt(t testing.TB, path string) *sqlitestore.Store {
	t.Helper()
	st, err := sqlitestore.Open(path, sqlitestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestBackgroundPurge checks that the Provider purges expired records on
// its own, every PurgeEvery, and stops when closed.
func TestBackgroundPurge(t *testing.T) {
	clk := newClock()
	st := memstore.New()
	f := newOpFixture(t, st, provider.Options{Now: clk.Now, PurgeEvery: 10 * time.Millisecond})
	c := f.client(t, callerA, nil)
	c.Now = clk.Now
	id, op := accept(t, c, "export_report")
	close(f.release)
	waitState(t, c, id, op, "succeeded")
	clk.Advance(25 * time.Hour)
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := st.Get(context.Background(), store.Key{Caller: callerA.Key(), Provider: providerA, RequestID: id}); err != nil {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the expired record was never purged")
		}
	}
	if err := f.p.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestInlineBoundary checks the Binder-like bound of §4.5 to the byte: a
// data object of exactly max_inline_result_bytes is inline, one byte more
// is a file (with large_results) or RESULT_TOO_LARGE (without), and the
// file holds exactly the value.
func TestInlineBoundary(t *testing.T) {
	const limit = provider.MinInlineResultBytes
	blob := func(n int) json.RawMessage { return json.RawMessage(`{"blob":"` + strings.Repeat("x", n) + `"}`) }
	exact := limit - len(`{"kind":"inline","value":}`) - len(`{"blob":""}`)
	var size atomic.Int64
	tool := provider.Tool{Name: "sized", Title: "t", Description: "d",
		InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: provider.Annotations{Effect: provider.EffectRead, Risk: provider.RiskLow,
			Confirmation: provider.ConfirmNever, Execution: provider.ExecSync},
		Handler: func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
			return blob(int(size.Load())), nil
		}}
	p, err := provider.New(provider.Descriptor{ID: providerA, Name: "A", Versions: []int{2},
		Capabilities: []string{protocol.CapLargeResults}}, []provider.Tool{tool}, provider.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	large := &providertest.Client{P: p, Caller: callerA}
	small := &providertest.Client{P: p, Caller: callerA, Capabilities: []string{}}
	for _, c := range []*providertest.Client{large, small} {
		if _, err := c.Negotiate(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	size.Store(int64(exact))
	for _, c := range []*providertest.Client{large, small} {
		b := c.Execute(context.Background(), providertest.NewRequestID(), "sized", `{}`, "")
		if d, _, _ := b.String(protocol.KeyData); len(d) != limit || b[protocol.KeyResultFD] != nil {
			t.Fatalf("at the limit: data of %d bytes, want %d inline", len(d), limit)
		}
	}
	size.Store(int64(exact + 1))
	id := providertest.NewRequestID()
	if got := readResultFile(t, large.Execute(context.Background(), id, "sized", `{}`, "")); got != string(blob(exact+1)) {
		t.Fatalf("one byte over: the file holds %d bytes", len(got))
	}
	id = providertest.NewRequestID()
	check(t, small.Execute(context.Background(), id, "sized", `{}`, ""), err2(protocol.CodeResultTooLarge, false, id))
}

// TestDescriptorRevision checks that list_tools answers the generated
// revision to a caller who sees every tool, and another revision, stable
// per visible set, to one who sees a subset.
func TestDescriptorRevision(t *testing.T) {
	hide := atomic.Bool{}
	read := provider.Annotations{Effect: provider.EffectRead, Risk: provider.RiskLow, Confirmation: provider.ConfirmNever, Execution: provider.ExecSync}
	mk := func(name string) provider.Tool {
		return provider.Tool{Name: name, Title: "t", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`),
			OutputSchema: json.RawMessage(`{}`), Annotations: read,
			Handler: func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
				return json.RawMessage(`{}`), nil
			}}
	}
	p, err := provider.New(provider.Descriptor{ID: providerA, Name: "A", Versions: []int{2}, Revision: "15388e254f523f1c"},
		[]provider.Tool{mk("one"), mk("two")}, provider.Options{
			Visibility: func(_ context.Context, _ provider.Caller, ti provider.ToolInfo) bool {
				return !hide.Load() || ti.Name == "one"
			}})
	if err != nil {
		t.Fatal(err)
	}
	c := &providertest.Client{P: p, Caller: callerA}
	if _, err := c.Negotiate(context.Background()); err != nil {
		t.Fatal(err)
	}
	rev := func() string {
		b := p.Call(context.Background(), callerA, protocol.MethodListTools, c.Envelope(providertest.NewRequestID()))
		return data(t, b)["revision"].(string)
	}
	if got := rev(); got != "15388e254f523f1c" {
		t.Fatalf("all visible: revision %q", got)
	}
	hide.Store(true)
	sub := rev()
	if sub == "15388e254f523f1c" || len(sub) != 16 || rev() != sub {
		t.Fatalf("subset: revision %q", sub)
	}
}

// TestOperationAudited checks that the end of an operation is audited with
// its terminal state and operation ID, as its start is with accepted.
func TestOperationAudited(t *testing.T) {
	audit := &auditLog{}
	f := newOpFixture(t, memstore.New(), provider.Options{Audit: audit})
	c := f.client(t, callerA, nil)
	id, op := accept(t, c, "export_report")
	close(f.release)
	waitState(t, c, id, op, "succeeded")
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if ev := audit.last(); ev.Operation == op {
			if ev.Status != "succeeded" || ev.RequestID != id || ev.Tool != "export_report" || ev.CallerUID != callerA.UID {
				t.Fatalf("end of operation audited as %+v", ev)
			}
			return
		}
	}
	t.Fatalf("the end of the operation was not audited: %+v", audit.last())
}
