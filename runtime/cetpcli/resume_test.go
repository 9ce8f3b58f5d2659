package cetpcli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/cetpcli"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

// writeApp is a CLI table with one write tool, for the Provider of
// serveWrites.
func writeApp(providerID string) *cetpcli.App {
	return &cetpcli.App{Name: "cetp-w", Product: "notes", ProductShort: "Notes", SocketEnv: "CETP_W_SOCKET", ProviderID: providerID,
		Commands: []cetpcli.Command{{Path: "notes add", Canonical: "notes.add", Tool: "add", Required: []string{"text"},
			Flags: []cetpcli.Flag{{Name: "text", Property: "text", Kind: cetpcli.String}}}}}
}

// serveWrites serves a Provider whose write tool add counts its effects
// and answers the count.
func serveWrites(t *testing.T, effects *atomic.Int64) string {
	t.Helper()
	ann := provider.Annotations{Effect: provider.EffectCreate, Risk: provider.RiskLow,
		Confirmation: provider.ConfirmNever, Execution: provider.ExecSync}
	p, err := provider.New(provider.Descriptor{ID: "com.example.notes", Name: "Notes", Versions: []int{2}},
		[]provider.Tool{{Name: "add", Title: "Add", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`),
			OutputSchema: json.RawMessage(`{"type":"object","required":["n"]}`), Annotations: ann,
			Handler: func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
				return json.Marshal(map[string]int64{"n": effects.Add(1)})
			}}}, provider.Options{Store: memstore.New()})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "w.sock")
	ln, err := unixsock.Listen(path, unixsock.DefaultSocketFileMode)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- unixsock.Serve(ctx, ln, p, unixsock.Options{}) }()
	t.Cleanup(func() { cancel(); <-done })
	return path
}

// cutConn is a connection that, on its first execute_tool, lets the
// Provider answer (and commit), then closes the connection before the
// answer is read, as a broken socket would.
type cutConn struct {
	*unixsock.Transport
	cut *atomic.Bool
}

var errCut = errors.New("connection reset by the test after the Provider answered")

func (c cutConn) Call(ctx context.Context, method string, extras protocol.Bundle) (protocol.Bundle, error) {
	resp, err := c.Transport.Call(ctx, method, extras)
	if err == nil && method == protocol.MethodExecuteTool && c.cut.CompareAndSwap(false, true) {
		c.Transport.Close()
		return nil, errCut
	}
	return resp, err
}

// runWrites runs app with args against socket; dial, when set, replaces
// the binding's own.
func runWrites(app *cetpcli.App, dial func(ctx context.Context, socket string) (cetpcli.Conn, error), args ...string) result {
	var out, errb bytes.Buffer
	code := cetpcli.Run(context.Background(), app, cetpcli.Env{Dial: dial, Stdio: cliout.Stdio{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" }}}, args)
	return result{code, out.String(), errb.String()}
}

// TestCutAfterCommitCLI cuts the connection of a CLI command after the
// Provider committed its write and before the answer was read: the CLI
// dials again and retries under the same request ID, so the effect
// happens once and the stored result is printed.
func TestCutAfterCommitCLI(t *testing.T) {
	var effects atomic.Int64
	sock := serveWrites(t, &effects)
	var cut atomic.Bool
	var dials atomic.Int64
	dial := func(ctx context.Context, socket string) (cetpcli.Conn, error) {
		dials.Add(1)
		tr, err := unixsock.DialContext(ctx, socket, unixsock.ClientOptions{})
		if err != nil {
			return nil, err
		}
		return cutConn{Transport: tr, cut: &cut}, nil
	}
	r := runWrites(writeApp("com.example.notes"), dial, "notes", "add", "--text", "x", "--socket", sock)
	if r.code != cetpcli.ExitOK || compact(t, r.stdout) != `{"n":1}` || effects.Load() != 1 || !cut.Load() || dials.Load() != 2 {
		t.Fatalf("exit %d, stdout %q, stderr %s: %d effects, %d dials", r.code, r.stdout, r.stderr, effects.Load(), dials.Load())
	}
}

// TestRequestIDResumes runs one command twice under one --request-id:
// the second run prints the stored result of the first without a second
// effect; the same ID with other arguments is the Provider's
// INVALID_REQUEST; an ID that is not a UUID is a usage error.
func TestRequestIDResumes(t *testing.T) {
	var effects atomic.Int64
	sock := serveWrites(t, &effects)
	app := writeApp("com.example.notes")
	id := "0b6f3c52-3f6e-4c8e-9a51-2d1f0a9e7c11"
	for range 2 {
		r := runWrites(app, nil, "notes", "add", "--text", "x", "--request-id", id, "--socket", sock)
		if r.code != cetpcli.ExitOK || compact(t, r.stdout) != `{"n":1}` {
			t.Fatalf("exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
		}
	}
	r := runWrites(app, nil, "notes", "add", "--text", "other", "--request-id", id, "--socket", sock)
	if e := errorOf(t, r.stderr); r.code != cetpcli.ExitProvider || e["code"] != "INVALID_REQUEST" || e["request_id"] != id {
		t.Fatalf("same ID, other args: exit %d, %v", r.code, e)
	}
	r = runWrites(app, nil, "notes", "add", "--text", "x", "--request-id", "order-1", "--socket", sock)
	if e := errorOf(t, r.stderr); r.code != cetpcli.ExitUsage || !strings.Contains(e["message"].(string), "not a UUID") {
		t.Fatalf("bad --request-id: exit %d, %v", r.code, e)
	}
	if n := effects.Load(); n != 1 {
		t.Fatalf("%d effects, want 1", n)
	}
}

// TestNoAnswerPrintsRequestID: a call that gets no answer (every attempt
// cut) prints its request ID and how to resume it.
func TestNoAnswerPrintsRequestID(t *testing.T) {
	var effects atomic.Int64
	sock := serveWrites(t, &effects)
	var mu sync.Mutex
	dial := func(ctx context.Context, socket string) (cetpcli.Conn, error) {
		mu.Lock()
		defer mu.Unlock()
		tr, err := unixsock.DialContext(ctx, socket, unixsock.ClientOptions{})
		if err != nil {
			return nil, err
		}
		return cutConn{Transport: tr, cut: new(atomic.Bool)}, nil
	}
	id := "1c6f3c52-3f6e-4c8e-9a51-2d1f0a9e7c11"
	r := runWrites(writeApp("com.example.notes"), dial, "notes", "add", "--text", "x", "--request-id", id, "--socket", sock)
	e := errorOf(t, r.stderr)
	if r.code != cetpcli.ExitTransport || e["request_id"] != id || !strings.Contains(e["hint"].(string), "--request-id "+id) {
		t.Fatalf("exit %d, error %v", r.code, e)
	}
	r = runWrites(writeApp("com.example.notes"), nil, "notes", "add", "--text", "x", "--request-id", id, "--socket", sock)
	if r.code != cetpcli.ExitOK || compact(t, r.stdout) != `{"n":1}` || effects.Load() != 1 {
		t.Fatalf("resumed: exit %d, stdout %q, %d effects", r.code, r.stdout, effects.Load())
	}
}

// TestWrongProviderRefused: a CLI generated for one Provider sends no
// arguments to another listening on its socket.
func TestWrongProviderRefused(t *testing.T) {
	var effects atomic.Int64
	sock := serveWrites(t, &effects)
	r := runWrites(writeApp("com.example.other"), nil, "notes", "add", "--text", "secret", "--socket", sock)
	e := errorOf(t, r.stderr)
	if r.code != cetpcli.ExitTransport || e["code"] != cliout.CodeWrongProvider || !strings.Contains(e["message"].(string), `"com.example.notes"`) {
		t.Fatalf("exit %d, error %v", r.code, e)
	}
	if effects.Load() != 0 {
		t.Fatal("the tool ran on the wrong Provider")
	}
}
