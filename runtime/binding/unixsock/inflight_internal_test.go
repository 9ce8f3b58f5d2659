package unixsock

import (
	"bufio"
	"context"
	"io"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// bulkBytes is the size of the answer to "bulk": far more than a Unix
// socket buffers, so writing it blocks until the client reads.
const bulkBytes = 4 << 20

// chunkBytes is the size of the answer to "chunk": more than a Unix
// socket buffers, so a client that does not read blocks the second one.
const chunkBytes = 256 << 10

// bulkHandler answers "bulk" with bulkBytes of data, "chunk" with
// chunkBytes, and every other call with its method.
type bulkHandler struct{ stubHandler }

// Call implements Handler.
func (bulkHandler) Call(_ context.Context, _ provider.Caller, method string, _ protocol.Bundle) protocol.Bundle {
	switch method {
	case "bulk":
		return protocol.Bundle{protocol.KeyData: protocol.String(strings.Repeat("b", bulkBytes))}
	case "chunk":
		return protocol.Bundle{protocol.KeyData: protocol.String(strings.Repeat("c", chunkBytes))}
	}
	return protocol.Bundle{protocol.KeyData: protocol.String(method)}
}

// TestSlotFreedBeforeWrite proves that a request's in-flight slot is free
// once its handler has returned, while its answer is still being written:
// with MaxInFlight 1, a call sent while the server is blocked writing the
// previous answer (the client has read only its first bytes) is served,
// not answered RATE_LIMITED.
func TestSlotFreedBeforeWrite(t *testing.T) {
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: serveStub(t, bulkHandler{}, Options{MaxInFlight: 1}), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	writeCall(t, c, 1, "bulk")
	br := bufio.NewReader(c)
	if _, err := br.Peek(4); err != nil { // the answer is being written
		t.Fatal(err)
	}
	writeCall(t, c, 2, "ping")
	for _, want := range []struct {
		id   uint32
		size int
	}{{1, bulkBytes}, {2, len("ping")}} {
		f, err := readFrame(br, HardMaxFrame)
		if err != nil {
			t.Fatal(err)
		}
		data, _, _ := f.bundle.String(protocol.KeyData)
		if f.id != want.id || len(data) != want.size {
			code, _, _ := f.bundle.String(protocol.KeyErrorCode)
			t.Fatalf("answer %d: %d bytes of data, error code %q; want request %d with %d bytes", f.id, len(data), code, want.id, want.size)
		}
	}
}

// writeCall writes a Call frame of method with request number id.
func writeCall(t *testing.T, c io.Writer, id uint32, method string) {
	t.Helper()
	buf, _, err := encodeFrame(&frame{typ: typeCall, id: id, method: method, bundle: protocol.Bundle{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write(buf); err != nil {
		t.Fatal(err)
	}
}

// TestSixteenCallersUnderTheLimit proves that 16 callers sharing one
// connection, each waiting for its answer before its next call, are never
// answered RATE_LIMITED when MaxInFlight is 16: a caller's next request
// can only arrive after its previous one has left its slot.
func TestSixteenCallersUnderTheLimit(t *testing.T) {
	const callers, calls = 16, 200
	tr, err := Dial(serveStub(t, stubHandler{}, Options{MaxInFlight: callers}))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			for range calls {
				b, err := tr.Call(context.Background(), "ping", protocol.Bundle{})
				if err != nil {
					t.Error(err)
					return
				}
				if data, _, _ := b.String(protocol.KeyData); data != "ping" {
					t.Errorf("answer %v", b)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestUnreadAnswersBounded proves that a client which sends calls and
// never reads their answers holds at most 2*MaxInFlight answers, and as
// many goroutines, in the server: past that the server stops reading the
// connection instead of starting a goroutine per call.
func TestUnreadAnswersBounded(t *testing.T) {
	const maxInFlight, calls = 2, 100
	base := runtime.NumGoroutine()
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: serveStub(t, bulkHandler{}, Options{MaxInFlight: maxInFlight}), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	wrote := make(chan struct{})
	defer func() { c.Close(); <-wrote }()
	go func() { // blocks once the server stops reading, until c closes
		defer close(wrote)
		for id := range uint32(calls) {
			buf, _, _ := encodeFrame(&frame{typ: typeCall, id: id + 1, method: "chunk", bundle: protocol.Bundle{}})
			if _, err := c.Write(buf); err != nil {
				return
			}
		}
	}()
	time.Sleep(300 * time.Millisecond)
	// the listener's and the connection's goroutines, the writer above, and
	// one worker or refusal per answer held
	if n := runtime.NumGoroutine() - base; n > 2*maxInFlight+6 {
		t.Fatalf("%d goroutines for %d unread answers with MaxInFlight %d", n, calls, maxInFlight)
	}
}
