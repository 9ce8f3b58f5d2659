package consumer_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

const jobOut = `{"type":"object","properties":{"rows":{"type":"integer"},"blob":{"type":"string"}},"required":["rows"]}`

// jobProvider has a sync_or_async tool that reports progress and runs
// until released or cancelled, and a read tool with a 300 KB result.
type jobProvider struct {
	p       *provider.Provider
	release chan struct{}
	started chan struct{}
	stopped chan struct{}
}

func newJobProvider(t *testing.T) *jobProvider {
	t.Helper()
	j := &jobProvider{release: make(chan struct{}), started: make(chan struct{}, 8), stopped: make(chan struct{}, 8)}
	async := provider.Annotations{Effect: provider.EffectCreate, Risk: provider.RiskLow,
		Confirmation: provider.ConfirmNever, Execution: provider.ExecSyncOrAsync}
	read := async
	read.Effect, read.Execution = provider.EffectRead, provider.ExecSync
	p, err := provider.New(provider.Descriptor{ID: "com.example.jobs", Name: "Jobs", Versions: []int{2},
		Capabilities: []string{protocol.CapAsyncOperations, protocol.CapCancellation, protocol.CapLargeResults}},
		[]provider.Tool{
			{Name: "job", Title: "Job", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`),
				OutputSchema: json.RawMessage(jobOut), Annotations: async, Handler: j.job},
			{Name: "big", Title: "Big", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`),
				OutputSchema: json.RawMessage(jobOut), Annotations: read, Handler: big},
		}, provider.Options{Store: memstore.New(), PollAfter: 20 * time.Millisecond, TempDir: t.TempDir(),
			ConfirmPolicy: func(context.Context, provider.Caller, provider.ToolInfo, json.RawMessage) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	j.p = p
	return j
}

func (j *jobProvider) job(ctx context.Context, call *provider.Call, _ json.RawMessage) (json.RawMessage, error) {
	call.ReportProgress(provider.Progress{Current: 1, Total: 3, Message: "step one"})
	j.started <- struct{}{}
	select {
	case <-j.release:
		return json.RawMessage(`{"rows":3}`), nil
	case <-ctx.Done():
		j.stopped <- struct{}{}
		return nil, ctx.Err()
	}
}

func big(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
	return json.Marshal(map[string]any{"rows": 2, "blob": strings.Repeat("b", 300_000)})
}

// TestExecuteFollowsOperation proves ExecuteTool polls an accepted
// operation to its result and reports its progress.
func TestExecuteFollowsOperation(t *testing.T) {
	j := newJobProvider(t)
	var mu sync.Mutex
	var seen []consumer.Progress
	c := consumer.New(consumer.InProcess{Provider: j.p, Caller: provider.Caller{UID: 1000}}, consumer.Options{
		OnProgress: func(_ *consumer.Operation, p consumer.Progress) { mu.Lock(); seen = append(seen, p); mu.Unlock() },
	})
	go func() { <-j.started; time.Sleep(100 * time.Millisecond); close(j.release) }()
	v, err := c.ExecuteTool(context.Background(), "job", json.RawMessage(`{}`))
	if err != nil || string(v) != `{"rows":3}` {
		t.Fatalf("ExecuteTool = %s, %v", v, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 || seen[0].Message != "step one" || seen[0].Total != 3 {
		t.Fatalf("progress seen = %+v", seen)
	}
}

// TestDeadlineCancelsOperation proves that when the caller's context ends
// while it waits, the client cancels the operation and the handler stops.
func TestDeadlineCancelsOperation(t *testing.T) {
	j := newJobProvider(t)
	c := consumer.New(consumer.InProcess{Provider: j.p, Caller: provider.Caller{UID: 1000}}, consumer.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := c.ExecuteTool(ctx, "job", json.RawMessage(`{}`))
	if consumer.CodeOf(err) != protocol.CodeDeadlineExceeded || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("ExecuteTool past the deadline = %v", err)
	}
	select {
	case <-j.stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler never saw the cancellation")
	}
}

// TestStartGetCancel drives an operation by hand: start, query, cancel,
// and the end state cancelled.
func TestStartGetCancel(t *testing.T) {
	j := newJobProvider(t)
	c := consumer.New(consumer.InProcess{Provider: j.p, Caller: provider.Caller{UID: 1000}}, consumer.Options{})
	ctx := context.Background()
	_, op, err := c.StartTool(ctx, consumer.NewRequestID(), "job", json.RawMessage(`{}`))
	if err != nil || op == nil || !strings.HasPrefix(op.ID, "op_") {
		t.Fatalf("StartTool = %+v, %v", op, err)
	}
	<-j.started
	if err := c.CancelOperation(ctx, op); err != nil {
		t.Fatal(err)
	}
	_, err = c.Wait(ctx, op)
	if consumer.CodeOf(err) != protocol.CodeCancelled {
		t.Fatalf("Wait after cancel = %v", err)
	}
	st, err := c.GetOperation(ctx, op)
	if err != nil || st.State != consumer.StateCancelled {
		t.Fatalf("GetOperation = %+v, %v", st, err)
	}
}

// TestFileResultVerified proves a file result is read, checked against
// size, digest and output schema, and its descriptor closed.
func TestFileResultVerified(t *testing.T) {
	j := newJobProvider(t)
	c := consumer.New(consumer.InProcess{Provider: j.p, Caller: provider.Caller{UID: 1000}}, consumer.Options{})
	v, err := c.ExecuteTool(context.Background(), "big", json.RawMessage(`{}`))
	if err != nil || len(v) < 300_000 || !strings.HasPrefix(string(v), `{"blob":"bbb`) {
		t.Fatalf("ExecuteTool = %.40s…, %v", v, err)
	}
	small := consumer.New(consumer.InProcess{Provider: j.p, Caller: provider.Caller{UID: 1000}}, consumer.Options{MaxResultBytes: 1000})
	if _, err := small.ExecuteTool(context.Background(), "big", json.RawMessage(`{}`)); err == nil || !strings.Contains(err.Error(), "local limit") {
		t.Fatalf("over the local cap: %v", err)
	}
}
