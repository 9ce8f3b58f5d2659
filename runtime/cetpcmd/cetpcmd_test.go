package cetpcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"strings"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

const testUID = 10001

// inProcess is a Conn to a Provider in the test process.
type inProcess struct{ consumer.InProcess }

func (inProcess) Close() error { return nil }

var objectSchema = json.RawMessage(`{"type":"object"}`)

// annotations returns the seven annotations of a tool with effect e.
func annotations(e provider.Effect, c provider.Confirmation, x provider.Execution) provider.Annotations {
	return provider.Annotations{Effect: e, Risk: provider.RiskLow, Idempotent: e == provider.EffectRead,
		Destructive: e == provider.EffectDelete, Confirmation: c, Execution: x}
}

// testTools are an echo (read), a slow write that reports progress
// (sync_or_async) and a delete that always needs confirmation.
func testTools(delay time.Duration) []provider.Tool {
	echo := func(_ context.Context, _ *provider.Call, args json.RawMessage) (json.RawMessage, error) {
		if strings.Contains(string(args), "fail") {
			return nil, protocol.NewError(protocol.CodeConflict, "asked to fail").WithDetails(map[string]any{"why": "test"})
		}
		return args, nil
	}
	slow := func(ctx context.Context, call *provider.Call, _ json.RawMessage) (json.RawMessage, error) {
		for i := range 4 {
			call.ReportProgress(provider.Progress{Current: int64(i), Total: 4, Message: "step\x1b[2J"})
			if err := cliout.Sleep(ctx, delay/4); err != nil {
				return nil, err
			}
		}
		return json.RawMessage(`{"done":true}`), nil
	}
	done := func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"deleted":true}`), nil
	}
	return []provider.Tool{
		{Name: "echo", Title: "Echo \x1b[31mred", Description: "d", InputSchema: objectSchema, OutputSchema: objectSchema,
			Annotations: annotations(provider.EffectRead, provider.ConfirmNever, provider.ExecSync), Handler: echo},
		{Name: "slow", Title: "Slow", Description: "d", InputSchema: objectSchema, OutputSchema: objectSchema, Scopes: []string{"w"},
			Annotations: annotations(provider.EffectCreate, provider.ConfirmNever, provider.ExecSyncOrAsync), Handler: slow},
		{Name: "remove", Title: "Remove", Description: "d", InputSchema: objectSchema, OutputSchema: objectSchema, Scopes: []string{"w"},
			Annotations: annotations(provider.EffectDelete, provider.ConfirmAlways, provider.ExecSync), Handler: done},
	}
}

// newEnv returns an Env whose Dial reaches a fresh test Provider with the
// confirmation UI ui, and the buffers of its output.
func newEnv(t *testing.T, ui provider.Confirmer, delay time.Duration) (Env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	auth := &providertest.Authorizer{}
	auth.Grant(testUID, "w")
	desc := provider.Descriptor{ID: "com.example.test", Name: "Test", Description: "d", Versions: []int{2},
		Scopes:       []provider.Scope{{Name: "w", Title: "W", Description: "d", Access: provider.AccessWrite, Sensitivity: provider.SensitivityOther}},
		Capabilities: []string{protocol.CapAsyncOperations, protocol.CapCancellation}}
	p, err := provider.New(desc, testTools(delay), provider.Options{Store: memstore.New(), Authorizer: auth, Confirmer: ui,
		PollAfter: 10 * time.Millisecond, CancelPoll: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	var out, errb bytes.Buffer
	no := false
	env := Env{Stdio: cliout.Stdio{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }},
		Terminal: &no,
		Dial: func(context.Context, string) (Conn, error) {
			return inProcess{consumer.InProcess{Provider: p, Caller: provider.Caller{UID: testUID}}}, nil
		}}
	return env, &out, &errb
}

// cliError decodes the {"error": ...} object on stderr.
func cliError(t *testing.T, stderr string) cliout.ErrorBody {
	t.Helper()
	var v map[string]cliout.ErrorBody
	if err := json.Unmarshal([]byte(stderr[strings.Index(stderr, "{"):]), &v); err != nil {
		t.Fatalf("stderr holds no error object: %v\n%s", err, stderr)
	}
	return v["error"]
}

func TestToolsTable(t *testing.T) {
	env, out, _ := newEnv(t, nil, 0)
	if code := Run(context.Background(), env, []string{"tools", "--socket", "s"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, s := range []string{"Test (com.example.test)", "NAME", "slow", "create", "sync_or_async", "destructive", `Echo \u001b[31mred`} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("table lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out.String(), "\x1b") {
		t.Error("a Provider's escape sequence reached the terminal")
	}
}

func TestToolsJSON(t *testing.T) {
	env, out, _ := newEnv(t, nil, 0)
	if code := Run(context.Background(), env, []string{"tools", "--json", "--socket", "s"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	var list consumer.ToolList
	if err := json.Unmarshal(out.Bytes(), &list); err != nil || len(list.Tools) != 3 || list.Revision == "" {
		t.Fatalf("tools --json: %v\n%s", err, out)
	}
}

func TestCallPrintsTheResult(t *testing.T) {
	env, out, _ := newEnv(t, nil, 0)
	env.Stdin = strings.NewReader(` {"a": [1, 2]} `)
	if code := Run(context.Background(), env, []string{"call", "echo", "-", "--socket", "s"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if out.String() != "{\n  \"a\": [\n    1,\n    2\n  ]\n}\n" {
		t.Fatalf("result:\n%s", out)
	}
}

func TestCallProviderError(t *testing.T) {
	env, out, errb := newEnv(t, nil, 0)
	code := Run(context.Background(), env, []string{"call", "--socket", "s", "--request-id", "6f1c0b8e-5d2a-4c47-9a57-0e2b1f3d4c5a", "echo", `{"fail":1}`})
	e := cliError(t, errb.String())
	var details bytes.Buffer
	json.Compact(&details, e.Details)
	if code != cliout.ExitProvider || out.Len() != 0 || e.Source != "provider" || e.Code != "CONFLICT" || e.RequestID != "6f1c0b8e-5d2a-4c47-9a57-0e2b1f3d4c5a" ||
		details.String() != `{"why":"test"}` {
		t.Fatalf("exit %d, error %+v", code, e)
	}
}

func TestUsageAndTransportErrors(t *testing.T) {
	env, _, errb := newEnv(t, nil, 0)
	cases := []struct {
		args []string
		code int
	}{
		{[]string{"call", "--socket", "s"}, cliout.ExitUsage},
		{[]string{"call", "--socket", "s", "echo", "[]"}, cliout.ExitUsage},
		{[]string{"call", "--socket", "s", "--async", "--follow", "slow"}, cliout.ExitUsage},
		{[]string{"tools"}, cliout.ExitUsage}, // no socket
		{[]string{"tools", "--bogus"}, cliout.ExitUsage},
		{[]string{"operation", "get", "--socket", "s", "--tool", "slow", "op_1"}, cliout.ExitUsage},                                       // no --request-id
		{[]string{"operation", "get", "--socket", "s", "--request-id", "5b0e4c1a-2f3d-4e5f-8a9b-0c1d2e3f4a5b", "op_1"}, cliout.ExitUsage}, // no --tool
	}
	for _, c := range cases {
		errb.Reset()
		if got := Run(context.Background(), env, c.args); got != c.code || cliError(t, errb.String()).Code != cliout.CodeUsage {
			t.Errorf("%v: exit %d, want %d\n%s", c.args, got, c.code, errb)
		}
	}
	env.Dial = func(context.Context, string) (Conn, error) { return nil, errors.New("connection refused") }
	errb.Reset()
	if got := Run(context.Background(), env, []string{"tools", "--socket", "s"}); got != cliout.ExitTransport ||
		cliError(t, errb.String()).Code != cliout.CodeTransport {
		t.Errorf("unreachable Provider: exit %d\n%s", got, errb)
	}
}

func TestConfirmationApprovedAndDenied(t *testing.T) {
	for _, approve := range []bool{true, false} {
		ui := &providertest.Confirmer{Approve: func(provider.ConfirmRequest) bool { return approve }}
		env, out, errb := newEnv(t, ui, 0)
		code := Run(context.Background(), env, []string{"call", "--socket", "s", "remove", `{"id":"x"}`})
		if !strings.Contains(errb.String(), "asks its user for a decision") {
			t.Errorf("approve %v: no notice of the launch:\n%s", approve, errb)
		}
		switch {
		case approve && (code != 0 || !strings.Contains(out.String(), `"deleted": true`)):
			t.Errorf("approved: exit %d\n%s%s", code, out, errb)
		case !approve && (code != cliout.ExitProvider || cliError(t, errb.String()).Code != "USER_CANCELLED"):
			t.Errorf("denied: exit %d\n%s", code, errb)
		}
	}
}

func TestFollowShowsProgress(t *testing.T) {
	env, out, errb := newEnv(t, nil, 200*time.Millisecond)
	if code := Run(context.Background(), env, []string{"call", "--socket", "s", "--follow", "slow"}); code != 0 {
		t.Fatalf("exit %d\n%s", code, errb)
	}
	if !strings.Contains(out.String(), `"done": true`) || !strings.Contains(errb.String(), "accepted as operation op_") ||
		!strings.Contains(errb.String(), `cetp: slow 1/4 (25%) step\u001b[2J`) {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", out, errb)
	}
}

func TestSyncRunsWithoutAnOperation(t *testing.T) {
	env, out, errb := newEnv(t, nil, 20*time.Millisecond)
	if code := Run(context.Background(), env, []string{"call", "--socket", "s", "--sync", "--follow", "slow"}); code != 0 {
		t.Fatalf("exit %d\n%s", code, errb)
	}
	if !strings.Contains(out.String(), `"done": true`) || strings.Contains(errb.String(), "operation") {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", out, errb)
	}
}

func TestAsyncThenCancel(t *testing.T) {
	env, out, errb := newEnv(t, nil, 5*time.Second)
	if code := Run(context.Background(), env, []string{"call", "--socket", "s", "--async", "slow"}); code != 0 {
		t.Fatalf("exit %d\n%s", code, errb)
	}
	var h opHandle
	if err := json.Unmarshal(out.Bytes(), &h); err != nil || h.OperationID == "" || h.RequestID == "" || h.Tool != "slow" {
		t.Fatalf("handle: %v\n%s", err, out)
	}
	out.Reset()
	if code := Run(context.Background(), env, []string{"operation", "get", "--socket", "s", "--request-id", h.RequestID, "--tool", h.Tool, h.OperationID}); code != 0 ||
		!strings.Contains(out.String(), `"state": "running"`) && !strings.Contains(out.String(), `"state": "queued"`) {
		t.Fatalf("get: exit %d\n%s%s", code, out, errb)
	}
	out.Reset()
	if code := Run(context.Background(), env, []string{"operation", "cancel", "--socket", "s", "--wait", "--request-id", h.RequestID, "--tool", h.Tool, h.OperationID}); code != 0 ||
		!strings.Contains(out.String(), `"state": "cancelled"`) {
		t.Fatalf("cancel --wait: exit %d\n%s%s", code, out, errb)
	}
}

func TestOperationOfAnotherRequest(t *testing.T) {
	env, _, errb := newEnv(t, nil, 0)
	code := Run(context.Background(), env, []string{"operation", "get", "--socket", "s", "--request-id", "5b0e4c1a-2f3d-4e5f-8a9b-0c1d2e3f4a5b", "--tool", "slow", "op_none"})
	if e := cliError(t, errb.String()); code != cliout.ExitProvider || e.Code != "INVALID_REQUEST" {
		t.Fatalf("exit %d, error %+v", code, e)
	}
}

func TestProgressLineOnATerminal(t *testing.T) {
	var b bytes.Buffer
	l := newProgressLine(&b, true, true)
	op := &consumer.Operation{ID: "op_1", RequestID: "r", Tool: "t"}
	l.show(op, consumer.Progress{Current: 1, Total: 4, Message: "a"})
	l.show(op, consumer.Progress{Current: 1, Total: 4, Message: "a"})
	l.show(op, consumer.Progress{Current: 2, Message: strings.Repeat("x", 100)})
	l.end()
	want := "\r\x1b[Kcetp: t 1/4 (25%) a\r\x1b[Kcetp: t 2 " + strings.Repeat("x", maxProgressText) + "…\n"
	if b.String() != want {
		t.Fatalf("progress line %q, want %q", b.String(), want)
	}
}

func TestTimeoutWhileFollowingCancelsTheOperation(t *testing.T) {
	// The timeout leaves the Provider time to answer accepted even on a
	// loaded machine; the handler outlives it by far.
	env, out, errb := newEnv(t, nil, 20*time.Second)
	rid := "0d9e6b4c-3f1a-4e2b-8c7d-5a6b7c8d9e0f"
	code := Run(context.Background(), env, []string{"call", "--socket", "s", "--timeout", "1500ms", "--request-id", rid, "slow"})
	e := cliError(t, errb.String())
	if code != cliout.ExitProvider || e.Code != "DEADLINE_EXCEEDED" || out.Len() != 0 {
		t.Fatalf("exit %d, error %+v", code, e)
	}
	hint := errb.String()[:strings.Index(errb.String(), "{")]
	at := strings.Index(hint, "op_")
	if at < 0 {
		t.Fatalf("the timed-out call names no operation:\n%s", errb)
	}
	opID := hint[at:]
	opID = opID[:strings.IndexAny(opID, " \n")]
	if !strings.Contains(hint, "cetp operation get --request-id "+rid+" --tool slow "+opID) {
		t.Fatalf("no hint to find the operation again:\n%s", errb)
	}
	code = Run(context.Background(), env, []string{"operation", "get", "--socket", "s", "--wait", "--request-id", rid, "--tool", "slow", opID})
	if code != 0 || !strings.Contains(out.String(), `"state": "cancelled"`) {
		t.Fatalf("after the timeout: exit %d\n%s%s", code, out, errb)
	}
}

func TestTimeoutBoundsASynchronousCall(t *testing.T) {
	env, _, errb := newEnv(t, nil, 2*time.Second)
	start := time.Now()
	code := Run(context.Background(), env, []string{"call", "--socket", "s", "--sync", "--timeout", "100ms", "slow"})
	if e := cliError(t, errb.String()); code != cliout.ExitProvider || e.Code != "DEADLINE_EXCEEDED" || time.Since(start) > time.Second {
		t.Fatalf("exit %d after %v, error %+v", code, time.Since(start), e)
	}
}

// TestVersion: --version prints the program, its version and Go's.
func TestVersion(t *testing.T) {
	env, out, errb := newEnv(t, nil, 0)
	if code := Run(context.Background(), env, []string{"--version"}); code != 0 || !strings.HasPrefix(out.String(), "cetp ") || !strings.Contains(out.String(), "go1.") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errb)
	}
}
