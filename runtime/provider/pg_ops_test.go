package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore/pgtest"
)

// The symbols that steer pgOpsTool's handler: pgOpsWait inserts its alert
// and then waits until its context ends (a cancellation or a shutdown);
// pgOpsHold inserts its alert and waits for the tool's release (or its
// context); CONFLICT is a terminal business error; any other symbol
// succeeds at once.
const (
	pgOpsWait = "WAIT"
	pgOpsHold = "HOLD"
)

// pgOpsTool is the sync_or_async create_alert of one Provider process of
// the PostgreSQL operation tests. Its alert is inserted through Call.Tx,
// so it commits only with the operation's terminal state.
type pgOpsTool struct {
	runs    atomic.Int64
	release chan struct{}
}

func newPGOpsTool() *pgOpsTool { return &pgOpsTool{release: make(chan struct{})} }

func (o *pgOpsTool) handle(ctx context.Context, call *provider.Call, args json.RawMessage) (json.RawMessage, error) {
	o.runs.Add(1)
	var in struct{ Symbol string }
	if err := json.Unmarshal(args, &in); err != nil {
		return nil, err
	}
	if in.Symbol == "CONFLICT" {
		return nil, protocol.NewError(protocol.CodeConflict, "alert already exists")
	}
	id, err := pgInsertAlert(ctx, call, in.Symbol)
	if err != nil {
		return nil, err
	}
	call.ReportProgress(provider.Progress{Current: 1, Total: 2, Message: "holding " + in.Symbol})
	if err := o.wait(ctx, in.Symbol); err != nil {
		return nil, err
	}
	return json.RawMessage(fmt.Sprintf(`{"alert_id":"a-%d"}`, id)), nil
}

// wait blocks as the symbol says and returns the context's error when the
// context ended first.
func (o *pgOpsTool) wait(ctx context.Context, symbol string) error {
	switch symbol {
	case pgOpsWait:
		<-ctx.Done()
		return ctx.Err()
	case pgOpsHold:
		select {
		case <-o.release:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// awaitRuns waits until the handler has started n times.
func (o *pgOpsTool) awaitRuns(t *testing.T, n int64) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); o.runs.Load() < n; time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the handler started %d times, want %d", o.runs.Load(), n)
		}
	}
}

// pgOpsProcess is one Provider process: its own store (connection pool)
// on the shared database, its Provider and a negotiated client of callerA.
type pgOpsProcess struct {
	st   *pgstore.Store
	p    *provider.Provider
	c    *providertest.Client
	tool *pgOpsTool
}

// startPGOps starts a Provider process on dsn with the operation
// capabilities. Cancel requests made through another process are seen
// within 10 ms.
func startPGOps(t *testing.T, dsn string) *pgOpsProcess {
	t.Helper()
	return startPGOpsOn(t, pgtest.OpenDSN(t, dsn))
}

// startPGOpsOn is startPGOps on an open store.
func startPGOpsOn(t *testing.T, st *pgstore.Store) *pgOpsProcess {
	t.Helper()
	tool := newPGOpsTool()
	ann := writes(provider.EffectCreate, provider.ConfirmNever)
	ann.Execution = provider.ExecSyncOrAsync
	p, err := provider.New(provider.Descriptor{ID: providerA, Name: "Example App", Versions: []int{2},
		Capabilities: []string{protocol.CapAsyncOperations, protocol.CapCancellation}},
		[]provider.Tool{{
			Name: "create_alert", Title: "创建价格提醒", Description: "为指定证券创建价格提醒",
			InputSchema: json.RawMessage(alertIn), OutputSchema: json.RawMessage(alertOut),
			Annotations: ann, Handler: tool.handle,
		}}, provider.Options{Store: st, PollAfter: 10 * time.Millisecond, CancelPoll: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	c := &providertest.Client{P: p, Caller: callerA}
	if _, err := c.Negotiate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return &pgOpsProcess{st: st, p: p, c: c, tool: tool}
}

// stop closes the process's Provider, which leaves its unfinished
// operations in the store, and then its store.
func (x *pgOpsProcess) stop(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := x.p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	x.st.Close()
}

// pgOp is an operation of the tests: its request ID, operation ID and
// the args it was accepted with.
type pgOp struct{ requestID, operationID, args string }

// accept calls create_alert for symbol and returns the operation that
// the accepted answer names.
func (x *pgOpsProcess) accept(t *testing.T, symbol string) pgOp {
	t.Helper()
	op := pgOp{requestID: providertest.NewRequestID(), args: fmt.Sprintf(`{"symbol":%q,"price":1}`, symbol)}
	op.operationID = x.execute(t, op)
	return op
}

// execute calls create_alert for op's request and returns the operation ID
// of the accepted answer.
func (x *pgOpsProcess) execute(t *testing.T, op pgOp) string {
	t.Helper()
	b := x.c.Execute(context.Background(), op.requestID, "create_alert", op.args, "")
	if s, _, _ := b.String(protocol.KeyStatus); s != protocol.StatusAccepted {
		t.Fatalf("execute_tool %s: not accepted: %v", op.args, b)
	}
	var a struct {
		OperationID string `json:"operation_id"`
	}
	d, _, _ := b.String(protocol.KeyData)
	if err := json.Unmarshal([]byte(d), &a); err != nil || a.OperationID == "" {
		t.Fatalf("accepted answer without an operation ID: %v", b)
	}
	return a.OperationID
}

// state calls get_operation and returns the answer's data and state.
func (x *pgOpsProcess) state(t *testing.T, op pgOp) (string, string) {
	t.Helper()
	b := x.c.GetOperation(context.Background(), op.requestID, op.operationID)
	d, err := successData(b)
	if err != nil {
		t.Fatalf("get_operation: %v", err)
	}
	var s struct {
		State string `json:"state"`
	}
	if err := json.Unmarshal([]byte(d), &s); err != nil {
		t.Fatalf("get_operation data %s: %v", d, err)
	}
	return d, s.State
}

// await polls get_operation until the operation reaches want and returns
// that answer's data; another terminal state, or 10 s, fails t.
func (x *pgOpsProcess) await(t *testing.T, op pgOp, want store.State) string {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		d, s := x.state(t, op)
		if s == string(want) {
			return d
		}
		if store.State(s).Terminal() {
			t.Fatalf("operation ended %s, want %s: %s", s, want, d)
		}
	}
	t.Fatalf("operation not %s after 10 s", want)
	return ""
}

// alerts counts the committed alerts of a request.
func (x *pgOpsProcess) alerts(t *testing.T, op pgOp) int {
	t.Helper()
	var n int
	if err := x.st.DB().QueryRow(`SELECT COUNT(*) FROM alerts WHERE request_id = $1`, op.requestID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPostgresOperationsAcrossProcesses proves that an operation accepted
// by one Provider process is served by get_operation and cancel_operation
// on another process of the same database: its state while it runs, a
// retry of its request (answered with the operation at once), its
// cancellation (which reaches the running handler through the store and
// rolls its business change back), its result, and the refusal to cancel
// a finished operation.
func TestPostgresOperationsAcrossProcesses(t *testing.T) {
	dsn := pgSchema(t)
	p1, p2 := startPGOps(t, dsn), startPGOps(t, dsn)

	held := p1.accept(t, pgOpsHold)
	p2.await(t, held, store.StateRunning)
	p2.awaitProgress(t, held, "holding HOLD")
	p2.c.Deadline = 2 * time.Second // a retry that waited for the run would fail
	if id := p2.execute(t, held); id != held.operationID {
		t.Fatalf("a retry on the other process named operation %s, want %s", id, held.operationID)
	}
	close(p1.tool.release)
	done := p2.await(t, held, store.StateSucceeded)
	if d, _ := p1.state(t, held); d != done {
		t.Fatalf("the processes disagree on a finished operation: %s and %s", d, done)
	}
	b := p2.c.CancelOperation(context.Background(), held.requestID, held.operationID)
	if c, _, _ := b.String(protocol.KeyErrorCode); c != string(protocol.CodeConflict) {
		t.Fatalf("cancel_operation of a finished operation on the other process: %v", b)
	}

	waiting := p1.accept(t, pgOpsWait)
	p2.await(t, waiting, store.StateRunning)
	p1.tool.awaitRuns(t, 2) // the handler runs: the cancel must reach it
	b = p2.c.CancelOperation(context.Background(), waiting.requestID, waiting.operationID)
	if _, err := successData(b); err != nil {
		t.Fatalf("cancel_operation on the other process: %v", err)
	}
	p2.await(t, waiting, store.StateCancelled)
	p1.await(t, waiting, store.StateCancelled)

	if n := p1.alerts(t, held); n != 1 {
		t.Fatalf("the finished operation committed %d alerts, want 1", n)
	}
	if n := p1.alerts(t, waiting); n != 0 {
		t.Fatalf("the cancelled operation committed %d alerts", n)
	}
	if r1, r2 := p1.tool.runs.Load(), p2.tool.runs.Load(); r1 != 2 || r2 != 0 {
		t.Fatalf("handler runs: %d in the accepting process, %d in the other; want 2 and 0", r1, r2)
	}
}

// TestPostgresOperationsRestart proves that a Provider process started
// again on the database serves the operation states of the one before
// unchanged (get_operation answers and stored records alike), and resumes
// once the operation that the stopped process left running, whose
// business change had rolled back.
func TestPostgresOperationsRestart(t *testing.T) {
	dsn := pgSchema(t)
	p1 := startPGOps(t, dsn)
	ops := map[store.State]pgOp{
		store.StateSucceeded: p1.accept(t, "AAPL"),
		store.StateFailed:    p1.accept(t, "CONFLICT"),
		store.StateCancelled: p1.accept(t, pgOpsWait),
	}
	p1.await(t, ops[store.StateCancelled], store.StateRunning)
	if _, err := successData(p1.c.CancelOperation(context.Background(), ops[store.StateCancelled].requestID,
		ops[store.StateCancelled].operationID)); err != nil {
		t.Fatal(err)
	}
	answers, records := map[store.State]string{}, map[store.State]store.Record{}
	for want, op := range ops {
		answers[want] = p1.await(t, op, want)
		records[want] = pgOpsRecord(t, p1.st, op)
	}
	left := p1.accept(t, pgOpsHold)
	p1.await(t, left, store.StateRunning)
	p1.stop(t)

	p3 := startPGOps(t, dsn)
	close(p3.tool.release)
	for want, op := range ops {
		if d, _ := p3.state(t, op); d != answers[want] {
			t.Fatalf("%s operation after the restart: %s, before: %s", want, d, answers[want])
		}
		if rec := pgOpsRecord(t, p3.st, op); !pgOpsSameRecord(rec, records[want]) {
			t.Fatalf("%s record after the restart: %+v, before: %+v", want, rec, records[want])
		}
	}
	p3.await(t, left, store.StateSucceeded)
	if n := p3.alerts(t, left); n != 1 {
		t.Fatalf("the resumed operation committed %d alerts, want 1", n)
	}
	if r := p3.tool.runs.Load(); r != 1 {
		t.Fatalf("the restarted process ran the handler %d times, want once (the left operation)", r)
	}
}

// pgOpsRecord reads the stored record of op's request.
func pgOpsRecord(t *testing.T, st *pgstore.Store, op pgOp) store.Record {
	t.Helper()
	rec, err := st.Get(context.Background(), store.Key{Caller: callerA.Key(), Provider: providerA, RequestID: op.requestID})
	if err != nil || rec.OperationID != op.operationID {
		t.Fatalf("record of %s: %+v, %v", op.operationID, rec, err)
	}
	return rec
}

// pgOpsSameRecord reports whether two records are the same to the byte.
func pgOpsSameRecord(a, b store.Record) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// TestPostgresPoolNotExhausted runs more long operations than the store's
// pool can hold at once: the engine runs only OperationSlots of them (the
// rest stay queued), so get_operation and cancel_operation keep answering
// and every operation can be cancelled.
func TestPostgresPoolNotExhausted(t *testing.T) {
	dsn := pgSchema(t)
	st, err := pgstore.Open(context.Background(), dsn, pgstore.Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	x := startPGOpsOn(t, st)
	x.c.Deadline = 3 * time.Second
	var ops []pgOp
	for range 6 {
		ops = append(ops, x.accept(t, pgOpsWait))
	}
	x.tool.awaitRuns(t, 2)
	for _, op := range ops {
		x.state(t, op)
	}
	if n := x.tool.runs.Load(); n != 2 {
		t.Fatalf("%d handlers run at once on a pool of 4, want 2", n)
	}
	for _, op := range ops {
		if _, err := successData(x.c.CancelOperation(context.Background(), op.requestID, op.operationID)); err != nil {
			t.Fatalf("cancel_operation: %v", err)
		}
	}
	for _, op := range ops {
		x.await(t, op, store.StateCancelled)
	}
}

// awaitProgress polls get_operation until its progress message is want:
// the progress of an operation that runs in another process.
func (x *pgOpsProcess) awaitProgress(t *testing.T, op pgOp, want string) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		d, _ := x.state(t, op)
		var s struct {
			Progress *provider.Progress `json:"progress"`
		}
		if json.Unmarshal([]byte(d), &s) == nil && s.Progress != nil && s.Progress.Message == want {
			return
		}
	}
	t.Fatalf("progress %q never visible on the other process", want)
}
