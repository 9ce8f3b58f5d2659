package provider_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore"
)

// The store-fault tests run Provider processes (the test binary again)
// on one database and fault the database under them. The child's
// environment: faultChildEnv marks it, pgChildDSN names the database,
// faultLeaseEnv is the store's lease, faultSlowEnv how long the handler
// of symbol SLOW holds its transaction.
const (
	faultChildEnv = "CETP_PG_FAULT_CHILD"
	faultLeaseEnv = "CETP_PG_FAULT_LEASE"
	faultSlowEnv  = "CETP_PG_FAULT_SLOW"
	// faultLease is the lease of the fault tests' stores: short, so that
	// takeovers happen within the tests' time.
	faultLease = time.Second
	// faultPatience bounds how long a request of the fault tests may take
	// to end, retries included, and how long the tests wait for a state.
	faultPatience = 60 * time.Second
)

// faultChildMain runs a fault child and exits when the process is one; it
// returns at once in the test process.
func faultChildMain() {
	if os.Getenv(faultChildEnv) == "" {
		return
	}
	if err := runFaultChild(); err != nil {
		fmt.Fprintln(os.Stderr, "fault child:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

// faultTool is the child's handler of create_alert (synchronous) and
// queue_alert (sync_or_async): it inserts the alert, reports progress,
// holds its transaction (5 ms, or the SLOW time), then records the
// effect, all through Call.Tx. failed counts the runs whose second
// statement failed.
type faultTool struct {
	slow   time.Duration
	runs   atomic.Int64
	failed atomic.Int64
}

func (f *faultTool) handle(ctx context.Context, call *provider.Call, args json.RawMessage) (json.RawMessage, error) {
	f.runs.Add(1)
	var in struct{ Symbol string }
	if err := json.Unmarshal(args, &in); err != nil {
		return nil, err
	}
	id, err := pgInsertAlert(ctx, call, in.Symbol)
	if err != nil {
		return nil, err
	}
	call.ReportProgress(provider.Progress{Current: 1, Total: 2, Message: "holding"})
	hold := 5 * time.Millisecond
	if in.Symbol == "SLOW" {
		hold = f.slow
	}
	time.Sleep(hold)
	if _, err := call.Tx.ExecContext(ctx, `INSERT INTO effects (request_id, n) VALUES ($1, 1)
ON CONFLICT (request_id) DO UPDATE SET n = effects.n + 1`, call.RequestID); err != nil {
		f.failed.Add(1)
		return nil, err
	}
	return json.RawMessage(fmt.Sprintf(`{"alert_id":"a-%d"}`, id)), nil
}

// faultProvider is the Provider of a fault child: create_alert runs
// synchronously, queue_alert as an operation.
func faultProvider(st *pgstore.Store, tool *faultTool) (*provider.Provider, error) {
	async := writes(provider.EffectCreate, provider.ConfirmNever)
	async.Execution = provider.ExecSyncOrAsync
	tools := []provider.Tool{
		{Name: "create_alert", Title: "创建价格提醒", Description: "为指定证券创建价格提醒",
			InputSchema: json.RawMessage(alertIn), OutputSchema: json.RawMessage(alertOut),
			Annotations: writes(provider.EffectCreate, provider.ConfirmNever), Handler: tool.handle},
		{Name: "queue_alert", Title: "排队创建价格提醒", Description: "在后台创建价格提醒",
			InputSchema: json.RawMessage(alertIn), OutputSchema: json.RawMessage(alertOut),
			Annotations: async, Handler: tool.handle},
	}
	return provider.New(provider.Descriptor{ID: providerA, Name: "Example App", Versions: []int{2},
		Capabilities: []string{protocol.CapAsyncOperations, protocol.CapCancellation},
		Limits:       provider.Limits{MaxConcurrentRequests: 64}},
		tools, provider.Options{Store: st, PollAfter: 20 * time.Millisecond, CancelPoll: 50 * time.Millisecond})
}

func runFaultChild() error {
	lease, _ := time.ParseDuration(os.Getenv(faultLeaseEnv))
	slow, _ := time.ParseDuration(os.Getenv(faultSlowEnv))
	st, err := pgstore.Open(context.Background(), os.Getenv(pgChildDSN), pgstore.Options{MaxConns: 24, Lease: lease})
	if err != nil {
		return err
	}
	defer st.Close()
	tool := &faultTool{slow: slow}
	p, err := faultProvider(st, tool)
	if err != nil {
		return err
	}
	defer p.Close(context.Background())
	c := &providertest.Client{P: p, Caller: callerA}
	if _, err := c.Negotiate(context.Background()); err != nil {
		return err
	}
	fmt.Println("ready")
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		fmt.Println(faultCommand(c, tool, lease, strings.Fields(sc.Text())))
	}
	return sc.Err()
}

// faultCommand answers one command line of a fault child with one line:
//
//	stream D W      requests with new IDs over W goroutines for D, half
//	                synchronous, half operations, each retried until it
//	                ends; answer: the JSON map of request ID to its tool
//	                and result
//	async ID SYM    queue_alert for SYM; answer: the operation ID
//	get ID OP       get_operation; answer: its data
//	replay ID TOOL  the request again; answer: its result
//	stats           answer: "runs R failed F retries N"
//
// A failure is answered "error: ...".
func faultCommand(c *providertest.Client, tool *faultTool, lease time.Duration, f []string) string {
	var out string
	var err error
	switch {
	case len(f) == 3 && f[0] == "stream":
		out, err = faultStream(c, lease, f[1], f[2])
	case len(f) == 3 && f[0] == "async":
		out, err = acceptedOperation(c.Execute(context.Background(), f[1], "queue_alert", alertArgsFor(f[2]), ""))
	case len(f) == 3 && f[0] == "get":
		out, err = successData(c.GetOperation(context.Background(), f[1], f[2]))
	case len(f) == 3 && f[0] == "replay":
		out, err = untilDone(c, lease, f[1], f[2])
	case len(f) == 1 && f[0] == "stats":
		out = fmt.Sprintf("runs %d failed %d retries %d", tool.runs.Load(), tool.failed.Load(), faultRetries.Load())
	default:
		err = fmt.Errorf("bad command %q", f)
	}
	if err != nil {
		return "error: " + strings.ReplaceAll(err.Error(), "\n", " ")
	}
	return out
}

func alertArgsFor(symbol string) string { return fmt.Sprintf(`{"symbol":%q,"price":1}`, symbol) }

// faultStream sends requests for the duration d over w goroutines and
// returns the JSON map of every request ID to its tool and acknowledged
// result.
func faultStream(c *providertest.Client, lease time.Duration, d, w string) (string, error) {
	dur, err := time.ParseDuration(d)
	if err != nil {
		return "", err
	}
	var workers int
	if _, err := fmt.Sscan(w, &workers); err != nil {
		return "", err
	}
	end := time.Now().Add(dur)
	var mu sync.Mutex
	acked := map[string][2]string{}
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tool := []string{"create_alert", "queue_alert"}[i%2]
			for time.Now().Before(end) && errs[i] == nil {
				id := providertest.NewRequestID()
				var data string
				if data, errs[i] = untilDone(c, lease, id, tool); errs[i] == nil {
					mu.Lock()
					acked[id] = [2]string{tool, data}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return "", err
	}
	b, err := json.Marshal(acked)
	return string(b), err
}

// untilDone sends the request id to tool until it ends, as a Consumer
// that follows §5 does: a retryable error is retried with the same
// request ID after its retry_after_ms; an accepted operation is polled
// until it ends. It returns the result; a non-retryable error, a failed
// operation, one reported running for longer than three leases on end,
// or faultPatience without an end is an error.
func untilDone(c *providertest.Client, lease time.Duration, id, tool string) (string, error) {
	end := time.Now().Add(faultPatience)
	for time.Now().Before(end) {
		b := c.Execute(context.Background(), id, tool, alertArgs, "")
		switch s, _, _ := b.String(protocol.KeyStatus); s {
		case protocol.StatusSuccess:
			return successData(b)
		case protocol.StatusAccepted:
			op, err := acceptedOperation(b)
			if err != nil {
				return "", err
			}
			return awaitResult(c, lease, id, op, end)
		}
		if err := retryWait(b, id); err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("request %s did not end within %s", id, faultPatience)
}

// faultRetries counts the retryable errors a fault child's requests met.
var faultRetries atomic.Int64

// retryWait waits for the retry_after_ms of a retryable error envelope;
// anything else is an error, and so is INTERNAL_ERROR, retryable or not:
// a store fault must be answered UNAVAILABLE.
func retryWait(b protocol.Bundle, id string) error {
	e, err := protocol.ParseError(b)
	if err != nil || !e.Retryable || e.Code == protocol.CodeInternalError {
		return fmt.Errorf("request %s: not retryable or internal: %v (%v)", id, b, err)
	}
	faultRetries.Add(1)
	time.Sleep(max(e.RetryAfter, 10*time.Millisecond))
	return nil
}

// awaitResult polls get_operation until the operation ends.
func awaitResult(c *providertest.Client, lease time.Duration, id, op string, end time.Time) (string, error) {
	var runningSince time.Time
	for time.Now().Before(end) {
		b := c.GetOperation(context.Background(), id, op)
		if s, _, _ := b.String(protocol.KeyStatus); s != protocol.StatusSuccess {
			if err := retryWait(b, id); err != nil {
				return "", err
			}
			continue
		}
		d, _ := successData(b)
		var st struct {
			State  string          `json:"state"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(d), &st); err != nil {
			return "", err
		}
		switch st.State {
		case "succeeded":
			return string(st.Result), nil
		case "running":
			if runningSince.IsZero() {
				runningSince = time.Now()
			}
			if time.Since(runningSince) > 3*lease+2*time.Second {
				return "", fmt.Errorf("operation %s reported running for %s", op, time.Since(runningSince))
			}
		case "queued":
			runningSince = time.Time{}
		default:
			return "", fmt.Errorf("operation %s ended %s", op, d)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return "", fmt.Errorf("operation %s did not end within %s", op, faultPatience)
}

// acceptedOperation returns the operation ID of an accepted answer.
func acceptedOperation(b protocol.Bundle) (string, error) {
	if s, _, _ := b.String(protocol.KeyStatus); s != protocol.StatusAccepted {
		return "", fmt.Errorf("not accepted: %v", b)
	}
	d, _, _ := b.String(protocol.KeyData)
	var a struct {
		OperationID string `json:"operation_id"`
	}
	if err := json.Unmarshal([]byte(d), &a); err != nil || a.OperationID == "" {
		return "", fmt.Errorf("accepted without an operation ID: %v", b)
	}
	return a.OperationID, nil
}

// faultChild is a fault child process.
type faultChild struct {
	cmd *exec.Cmd
	in  *os.File
	out *bufio.Scanner
}

// startFaultChild starts a fault child on dsn, run through the named
// test, with the extra environment env.
func startFaultChild(t *testing.T, dsn string, env ...string) *faultChild {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$")
	cmd.Env = append(os.Environ(), append([]string{faultChildEnv + "=1", pgChildDSN + "=" + dsn,
		faultLeaseEnv + "=" + faultLease.String()}, env...)...)
	cmd.Stderr = os.Stderr
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin = r
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &faultChild{cmd: cmd, in: w, out: bufio.NewScanner(out)}
	c.out.Buffer(nil, 16<<20)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	t.Cleanup(func() { w.Close(); cmd.Process.Kill(); cmd.Wait() })
	if line := c.read(t); line != "ready" {
		t.Fatalf("fault child not ready: %q", line)
	}
	return c
}

func (c *faultChild) send(t *testing.T, line string) {
	t.Helper()
	if _, err := fmt.Fprintln(c.in, line); err != nil {
		t.Fatal(err)
	}
}

func (c *faultChild) read(t *testing.T) string {
	t.Helper()
	if !c.out.Scan() {
		t.Fatalf("fault child closed its output: %v", c.out.Err())
	}
	return c.out.Text()
}

// ask sends a command and returns its answer; "error: ..." fails t.
func (c *faultChild) ask(t *testing.T, line string) string {
	t.Helper()
	c.send(t, line)
	answer := c.read(t)
	if strings.HasPrefix(answer, "error: ") {
		t.Fatalf("%s: %s", line, answer)
	}
	return answer
}

// acked reads the answer of a stream command into results (request ID
// to result) and tools (request ID to tool).
func (c *faultChild) acked(t *testing.T, results, tools map[string]string) {
	t.Helper()
	line := c.read(t)
	var m map[string][2]string
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("stream: %s", line)
	}
	for id, v := range m {
		tools[id], results[id] = v[0], v[1]
	}
}

// stats returns the child's handler runs, the runs whose second statement
// failed, and the retryable errors its requests met.
func (c *faultChild) stats(t *testing.T) (runs, failed, retries int64) {
	t.Helper()
	line := c.ask(t, "stats")
	if _, err := fmt.Sscanf(line, "runs %d failed %d retries %d", &runs, &failed, &retries); err != nil {
		t.Fatalf("stats %q: %v", line, err)
	}
	return runs, failed, retries
}
