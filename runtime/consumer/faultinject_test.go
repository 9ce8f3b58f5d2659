package consumer_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

// cutter serves a Provider and cuts the Consumer's connection once: right
// after the Provider answered (and so committed) the first execute_tool,
// before the answer is written back. It records the request ID of every
// execute_tool it serves.
type cutter struct {
	p   *provider.Provider
	cut func()

	mu   sync.Mutex
	once bool
	ids  []string
}

func (c *cutter) Call(ctx context.Context, caller provider.Caller, method string, extras protocol.Bundle) protocol.Bundle {
	resp := c.p.Call(ctx, caller, method, extras)
	if method != protocol.MethodExecuteTool {
		return resp
	}
	id, _, _ := extras.String(protocol.KeyRequestID)
	c.mu.Lock()
	c.ids = append(c.ids, id)
	first := !c.once
	c.once = true
	c.mu.Unlock()
	if first {
		c.cut()
	}
	return resp
}

// requestIDs returns the request IDs of the execute_tool calls served.
func (c *cutter) requestIDs() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.ids...)
}

func (c *cutter) Launch(ctx context.Context, caller provider.Caller, r *protocol.Resolution) error {
	return c.p.Launch(ctx, caller, r)
}

// faultRig is a Provider with one write tool that counts its effects,
// served on a Unix socket behind a cutter, and a dialer whose current
// connection the cutter closes.
type faultRig struct {
	effects atomic.Int64
	cutter  *cutter
	dials   atomic.Int64
	mu      sync.Mutex
	conn    *unixsock.Transport
	socket  string
}

func newFaultRig(t *testing.T) *faultRig {
	t.Helper()
	r := &faultRig{}
	write := provider.Annotations{Effect: provider.EffectCreate, Risk: provider.RiskLow,
		Confirmation: provider.ConfirmNever, Execution: provider.ExecSync}
	p, err := provider.New(provider.Descriptor{ID: "com.example.notes", Name: "Notes", Versions: []int{2}},
		[]provider.Tool{{Name: "note", Title: "Note", Description: "d", InputSchema: json.RawMessage(echoSchema),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`), Annotations: write,
			Handler: func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
				return json.Marshal(map[string]int64{"n": r.effects.Add(1)})
			}}},
		provider.Options{Store: memstore.New()})
	if err != nil {
		t.Fatal(err)
	}
	r.cutter = &cutter{p: p, cut: func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.conn.Close()
	}}
	r.socket = filepath.Join(t.TempDir(), "cetp.sock")
	ln, err := unixsock.Listen(r.socket, unixsock.DefaultSocketFileMode)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- unixsock.ServeHandler(ctx, ln, r.cutter, unixsock.Options{}) }()
	t.Cleanup(func() { cancel(); <-done })
	return r
}

// dial connects to the rig's socket and keeps the connection for the cut.
func (r *faultRig) dial(ctx context.Context) (consumer.Conn, error) {
	c, err := unixsock.DialContext(ctx, r.socket, unixsock.ClientOptions{})
	if err != nil {
		return nil, err
	}
	r.dials.Add(1)
	r.mu.Lock()
	r.conn = c
	r.mu.Unlock()
	return c, nil
}

// noteIn, noteOut and notesClient have the shape cetpgen generates for a
// typed Go Client (gen/emit/golang): one method per tool, which calls
// consumer.Invoke.
type noteIn struct {
	Text string `json:"text"`
}

type noteOut struct {
	N int64 `json:"n"`
}

type notesClient struct{ C *consumer.Client }

func (c *notesClient) Note(ctx context.Context, in noteIn) (noteOut, error) {
	return consumer.Invoke[noteOut](ctx, c.C, "note", in)
}

// TestCutAfterCommitTypedClient cuts the connection after the Provider
// committed a write and before the typed Client read the answer. The
// client dials again and retries under the same request ID within the
// caller's deadline: the effect happened once and the caller gets the
// stored result.
func TestCutAfterCommitTypedClient(t *testing.T) {
	r := newFaultRig(t)
	rd := consumer.Redial(r.dial)
	defer rd.Close()
	c := &notesClient{C: consumer.New(rd, consumer.Options{})}
	out, err := c.Note(context.Background(), noteIn{Text: "buy"})
	if err != nil || out.N != 1 {
		t.Fatalf("Note = %+v, %v", out, err)
	}
	ids := r.cutter.requestIDs()
	if n := r.effects.Load(); n != 1 || len(ids) != 2 || ids[0] != ids[1] || r.dials.Load() != 2 {
		t.Fatalf("%d effects, execute_tool IDs %v, %d dials; want 1 effect, the same ID twice, 2 dials", n, ids, r.dials.Load())
	}
}

// TestCutAfterCommitResumeByID turns automatic retries off: the cut
// surfaces as a *TransportError that carries the request ID, and the
// caller resumes the same typed call under it with WithRequestID, getting
// the stored result without a second effect.
func TestCutAfterCommitResumeByID(t *testing.T) {
	r := newFaultRig(t)
	rd := consumer.Redial(r.dial)
	defer rd.Close()
	c := &notesClient{C: consumer.New(rd, consumer.Options{MaxRetries: -1})}
	_, err := c.Note(context.Background(), noteIn{Text: "buy"})
	var te *consumer.TransportError
	if !errors.As(err, &te) || te.RequestID == "" || consumer.RequestIDOf(err) != te.RequestID {
		t.Fatalf("Note over a cut connection = %v, want a *TransportError with the request ID", err)
	}
	out, err := c.Note(consumer.WithRequestID(context.Background(), consumer.RequestIDOf(err)), noteIn{Text: "buy"})
	if err != nil || out.N != 1 || r.effects.Load() != 1 {
		t.Fatalf("resumed Note = %+v, %v with %d effects; want the stored result and one effect", out, err, r.effects.Load())
	}
}
