package unixsock_test

import (
	"context"
	"io"
	"os"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// gatedHandler holds each answer of file_result until gate is closed,
// ignoring the call's context, so that a client can give up before the
// answer comes.
type gatedHandler struct {
	fdHandler
	gate chan struct{}
}

// Call implements unixsock.Handler.
func (h gatedHandler) Call(ctx context.Context, c provider.Caller, method string, extras protocol.Bundle) protocol.Bundle {
	resp := h.fdHandler.Call(ctx, c, method, extras)
	if name, _, _ := extras.String(protocol.KeyToolName); name == "file_result" {
		<-h.gate
	}
	return resp
}

// negotiated returns a transport to a server of h and a session token.
func negotiated(t *testing.T, h unixsock.Handler) (*unixsock.Transport, string) {
	tr := dial(t, serve(t, h, unixsock.Options{}))
	s, err := consumer.New(tr, consumer.Options{}).Negotiate(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tr, s.Token
}

// readResultFD calls file_result and returns the content of the passed
// descriptor, which it closes.
func readResultFD(t *testing.T, tr *unixsock.Transport, token string) string {
	t.Helper()
	resp, err := tr.Call(context.Background(), protocol.MethodExecuteTool, execute(token, "file_result", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	fd, ok := resp[protocol.KeyResultFD].(protocol.FileDescriptor)
	if !ok || fd.File == nil {
		t.Fatalf("no result_fd in %v", resp)
	}
	defer fd.File.Close()
	data, err := io.ReadAll(fd.File)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// waitFDs waits until this process has want descriptors open.
func waitFDs(t *testing.T, want int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for openFDs() > want {
		if time.Now().After(deadline) {
			t.Fatalf("%d descriptors open, want at most %d: %v", openFDs(), want, fdTargets())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestDescriptorPassing proves that a FileDescriptor in a response
// arrives as a readable descriptor with the same content, and that the
// server closes its copy after sending while the client hands its copy to
// the caller: after many calls, with the caller closing each file, this
// process (both sides) has as many descriptors open as before.
func TestDescriptorPassing(t *testing.T) {
	tr, token := negotiated(t, fdHandler{newProvider(t, nil), t.TempDir()})
	readResultFD(t, tr, token) // warm up the runtime's own descriptors
	base := restFDs()
	for range 20 {
		if got := readResultFD(t, tr, token); got != fileContent {
			t.Fatalf("content %q", got)
		}
	}
	waitFDs(t, base)
}

// TestLateDescriptorClosed proves that the client closes the descriptor
// of a response that arrives after its caller gave up.
func TestLateDescriptorClosed(t *testing.T) {
	gate := make(chan struct{})
	tr, token := negotiated(t, gatedHandler{fdHandler{newProvider(t, nil), t.TempDir()}, gate})
	base := restFDs()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := tr.Call(ctx, protocol.MethodExecuteTool, execute(token, "file_result", `{}`)); err != context.DeadlineExceeded {
		t.Fatalf("err %v", err)
	}
	close(gate)
	if _, err := tr.Call(context.Background(), protocol.MethodListTools, envelope(token)); err != nil {
		t.Fatal(err) // the late response came before this one
	}
	waitFDs(t, base)
}

// TestRequestDescriptorRefused proves that a client cannot send a
// descriptor: requests carry none.
func TestRequestDescriptorRefused(t *testing.T) {
	tr, token := negotiated(t, newProvider(t, nil))
	b := envelope(token)
	b[protocol.KeyResultFD] = protocol.FileDescriptor{}
	if _, err := tr.Call(context.Background(), protocol.MethodListTools, b); err == nil {
		t.Fatal("a request with a descriptor was sent")
	}
}

// fdTargets lists what this process's open descriptors refer to.
func fdTargets() []string {
	ents, _ := os.ReadDir("/proc/self/fd")
	var out []string
	for _, e := range ents {
		target, _ := os.Readlink("/proc/self/fd/" + e.Name())
		out = append(out, e.Name()+"->"+target)
	}
	return out
}
