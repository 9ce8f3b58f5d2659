package unixsock_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

const echoSchema = `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`

// fileContent is what the file_result tool passes as a descriptor.
const fileContent = "large result bytes\n"

var (
	readAnn = provider.Annotations{Effect: provider.EffectRead, Risk: provider.RiskLow,
		Confirmation: provider.ConfirmNever, Execution: provider.ExecSync}
	confirmAnn = provider.Annotations{Effect: provider.EffectDelete, Risk: provider.RiskHigh,
		Confirmation: provider.ConfirmAlways, Execution: provider.ExecSync}
)

// asyncAnn are the annotations of a sync_or_async tool with effects.
var asyncAnn = provider.Annotations{Effect: provider.EffectCreate, Risk: provider.RiskLow,
	Confirmation: provider.ConfirmNever, Execution: provider.ExecSyncOrAsync}

// slow sleeps {"ms": N} milliseconds, or until its context is cancelled.
func slow(ctx context.Context, _ *provider.Call, args json.RawMessage) (json.RawMessage, error) {
	var a struct{ MS int }
	json.Unmarshal(args, &a)
	select {
	case <-time.After(time.Duration(a.MS) * time.Millisecond):
		return json.Marshal(map[string]int{"slept": a.MS})
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// bigSize is the size of the big tool's result: past the inline minimum.
const bigSize = 300_000

// big returns a result of bigSize bytes and more, sent as a file.
func big(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
	return json.Marshal(map[string]string{"blob": strings.Repeat("z", bigSize)})
}

func echo(_ context.Context, _ *provider.Call, args json.RawMessage) (json.RawMessage, error) {
	return args, nil
}

func fail(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
	e := protocol.NewError(protocol.CodeConflict, "busy").WithRetryable(true)
	e.RetryAfter, e.Details = 250*time.Millisecond, json.RawMessage(`{"why":"busy"}`)
	return nil, e
}

// whoami answers the Caller UID the Provider saw and the peer PID and GID
// the kernel reported.
func whoami(ctx context.Context, call *provider.Call, _ json.RawMessage) (json.RawMessage, error) {
	peer, _ := unixsock.PeerFromContext(ctx)
	return json.Marshal(map[string]int{"uid": call.Caller.UID, "pid": peer.PID, "gid": peer.GID})
}

// fdcount answers the number of descriptors open in the Provider process.
func fdcount(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
	return json.Marshal(map[string]int{"n": openFDs()})
}

func tool(name string, ann provider.Annotations, in, out string, h provider.Handler) provider.Tool {
	return provider.Tool{Name: name, Title: name, Description: "d", InputSchema: json.RawMessage(in),
		OutputSchema: json.RawMessage(out), Annotations: ann, Handler: h}
}

// newProvider builds the test Provider; confirm is its confirmation UI.
func newProvider(t testing.TB, confirm provider.Confirmer) *provider.Provider {
	p, err := buildProvider(confirm)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// buildProvider builds the test Provider with six tools. It allows 64
// concurrent requests per caller.
func buildProvider(confirm provider.Confirmer) (*provider.Provider, error) {
	obj := `{"type":"object"}`
	return provider.New(provider.Descriptor{ID: "com.example.notes", Name: "Notes", Versions: []int{2},
		Limits:       provider.Limits{MaxConcurrentRequests: 64},
		Capabilities: []string{protocol.CapAsyncOperations, protocol.CapCancellation, protocol.CapLargeResults}},
		[]provider.Tool{
			tool("echo", readAnn, echoSchema, echoSchema, echo),
			tool("fail", readAnn, obj, `{}`, fail),
			tool("whoami", readAnn, obj, obj, whoami),
			tool("fdcount", readAnn, obj, obj, fdcount),
			tool("file_result", readAnn, obj, obj, echo),
			tool("wipe", confirmAnn, obj, obj, echo),
			tool("slow", asyncAnn, obj, obj, slow),
			tool("big", readAnn, obj, obj, big),
		}, provider.Options{Store: memstore.New(), Confirmer: confirm, PollAfter: 20 * time.Millisecond})
}

// fdHandler serves a Provider and attaches a result_fd holding
// fileContent to every answer of the file_result tool, as the engine will
// for large results.
type fdHandler struct {
	*provider.Provider
	dir string
}

// Call implements unixsock.Handler.
func (h fdHandler) Call(ctx context.Context, c provider.Caller, method string, extras protocol.Bundle) protocol.Bundle {
	resp := h.Provider.Call(ctx, c, method, extras)
	if name, _, _ := extras.String(protocol.KeyToolName); name != "file_result" || method != protocol.MethodExecuteTool {
		return resp
	}
	f, err := os.CreateTemp(h.dir, "result")
	if err != nil {
		panic(err)
	}
	os.Remove(f.Name())
	f.WriteString(fileContent)
	f.Seek(0, 0)
	resp[protocol.KeyResultFD] = protocol.FileDescriptor{File: f}
	return resp
}

// serve serves h on a fresh socket until the test ends and returns the
// socket's path.
func serve(t testing.TB, h unixsock.Handler, opt unixsock.Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cetp.sock")
	ln, err := unixsock.Listen(path, unixsock.DefaultSocketFileMode)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- unixsock.ServeHandler(ctx, ln, h, opt) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return path
}

// dial connects to path and closes the transport when the test ends.
func dial(t testing.TB, path string) *unixsock.Transport {
	t.Helper()
	tr, err := unixsock.Dial(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

// restFDs returns the lowest of several counts of this process's open
// descriptors: the count at rest, not one that caught a descriptor the
// runtime or a server goroutine was about to close.
func restFDs() int {
	low := openFDs()
	for range 10 {
		time.Sleep(5 * time.Millisecond)
		low = min(low, openFDs())
	}
	return low
}

// openFDs counts this process's open descriptors.
func openFDs() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		panic(err)
	}
	return len(ents) - 1 // the directory itself
}

// envelope returns the v2 request fields for token and a fresh request
// ID.
func envelope(token string) protocol.Bundle {
	return protocol.Bundle{
		protocol.KeyProtocolVersion: protocol.Int(2),
		protocol.KeySessionToken:    protocol.String(token),
		protocol.KeyRequestID:       protocol.String(providertest.NewRequestID()),
		protocol.KeyDeadlineAtMs:    protocol.Long(time.Now().Add(time.Minute).UnixMilli()),
	}
}

// execute returns the request Bundle of execute_tool.
func execute(token, name, args string) protocol.Bundle {
	b := envelope(token)
	b[protocol.KeyToolName], b[protocol.KeyArgs] = protocol.String(name), protocol.String(args)
	return b
}
