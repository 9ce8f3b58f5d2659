package unixsock_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// slowHandler answers file_result calls only when gate closes or the
// call's context ends, and reports which on ended.
type slowHandler struct {
	*provider.Provider
	gate  chan struct{}
	ended chan error
}

// Call implements unixsock.Handler.
func (h slowHandler) Call(ctx context.Context, c provider.Caller, method string, extras protocol.Bundle) protocol.Bundle {
	if name, _, _ := extras.String(protocol.KeyToolName); name == "file_result" {
		select {
		case <-h.gate:
			h.ended <- nil
		case <-ctx.Done():
			h.ended <- ctx.Err()
		}
	}
	return h.Provider.Call(ctx, c, method, extras)
}

// shutdownCase serves h with Serve's graceful shutdown, starts a slow
// call, ends the serving context and returns the call's result channel
// and Serve's.
func shutdownCase(t *testing.T, h unixsock.Handler, grace time.Duration) (chan error, chan error) {
	path := filepath.Join(t.TempDir(), "cetp.sock")
	ln, err := unixsock.Listen(path, unixsock.DefaultSocketFileMode)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- unixsock.ServeHandler(ctx, ln, h, unixsock.Options{ShutdownGrace: grace}) }()
	tr := dial(t, path)
	c := consumer.New(tr, consumer.Options{})
	if _, err := c.Negotiate(context.Background()); err != nil {
		t.Fatal(err)
	}
	called := make(chan error, 1)
	go func() {
		_, err := tr.Call(context.Background(), protocol.MethodExecuteTool, execute(c.Session().Token, "file_result", `{}`))
		called <- err
	}()
	time.Sleep(50 * time.Millisecond) // let the call reach the handler
	cancel()
	refused(t, path)
	return called, served
}

// refused waits until the socket at path refuses connections; the
// listener closes shortly after the serving context ends.
func refused(t *testing.T, path string) {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		tr, err := unixsock.Dial(path)
		if err != nil {
			return
		}
		tr.Close()
	}
	t.Error("connections are still accepted after shutdown began")
}

// TestGracefulShutdown proves that ending Serve's context refuses new
// connections but lets a running call finish and answer, after which
// Serve returns nil.
func TestGracefulShutdown(t *testing.T) {
	h := slowHandler{newProvider(t, nil), make(chan struct{}), make(chan error, 1)}
	called, served := shutdownCase(t, h, time.Minute)
	close(h.gate)
	if err := <-h.ended; err != nil {
		t.Fatalf("handler context: %v", err)
	}
	if err := <-called; err != nil {
		t.Fatalf("running call: %v", err)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

// TestShutdownGrace proves that a call still running ShutdownGrace after
// the end of Serve's context has its context cancelled.
func TestShutdownGrace(t *testing.T) {
	h := slowHandler{newProvider(t, nil), make(chan struct{}), make(chan error, 1)}
	_, served := shutdownCase(t, h, 20*time.Millisecond)
	if err := <-h.ended; !errors.Is(err, context.Canceled) {
		t.Fatalf("handler context: %v", err)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

// TestServeProvider proves Serve serves a *provider.Provider as is and
// returns nil when its context ends.
func TestServeProvider(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cetp.sock")
	ln, err := unixsock.Listen(path, unixsock.DefaultSocketFileMode)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- unixsock.Serve(ctx, ln, newProvider(t, nil), unixsock.Options{}) }()
	tr := dial(t, path)
	if _, err := consumer.New(tr, consumer.Options{}).ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Call(context.Background(), protocol.MethodNegotiate, nil); !errors.Is(err, unixsock.ErrClosed) {
		t.Fatalf("call after shutdown: %v", err)
	}
}
