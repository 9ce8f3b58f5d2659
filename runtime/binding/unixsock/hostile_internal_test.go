package unixsock

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// stubHandler answers every call with its method and launches nothing;
// calls of the method "block" wait for gate, calls of "wait" for the end
// of their context, which they report on ended.
type stubHandler struct {
	gate  chan struct{}
	ended chan error
}

// Call implements Handler.
func (h stubHandler) Call(ctx context.Context, _ provider.Caller, method string, _ protocol.Bundle) protocol.Bundle {
	switch method {
	case "block":
		<-h.gate
	case "wait":
		h.ended <- nil
		<-ctx.Done()
		h.ended <- ctx.Err()
	}
	return protocol.Bundle{protocol.KeyData: protocol.String(method)}
}

// Launch implements Handler.
func (stubHandler) Launch(context.Context, provider.Caller, *protocol.Resolution) error {
	return errors.New("secret internal detail")
}

// serveStub serves h until the test ends and returns the socket path.
func serveStub(t *testing.T, h Handler, opt Options) string {
	path := filepath.Join(t.TempDir(), "s.sock")
	ln, err := Listen(path, DefaultSocketFileMode)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- ServeHandler(ctx, ln, h, opt) }()
	t.Cleanup(func() { cancel(); <-done })
	return path
}

// rawExchange writes data on a fresh connection, half-closes it and
// returns the frames the server sent before closing.
func rawExchange(t *testing.T, path string, data []byte) []*frame {
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write(data)
	c.CloseWrite()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	var got []*frame
	br := bufio.NewReader(c)
	for {
		f, err := readFrame(br, HardMaxFrame)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("reading the server: %v", err)
			}
			return got
		}
		got = append(got, f)
	}
}

// TestServerRefusesMalformedFrames proves that each malformed frame ends
// its connection with a GoAway frame (a truncated one with a plain close),
// and that the server goes on serving other connections.
func TestServerRefusesMalformedFrames(t *testing.T) {
	path := serveStub(t, stubHandler{}, Options{})
	for name, data := range badFrames() {
		got := rawExchange(t, path, data)
		if name == "truncated" && len(got) == 0 {
			continue
		}
		if len(got) != 1 || got[0].typ != typeGoAway {
			t.Errorf("%s: server sent %+v", name, got)
		}
	}
	wantStubAnswer(t, path)
}

// TestServerRefusesDuplicateRequestNumber proves that reusing the number
// of a running request ends the connection.
func TestServerRefusesDuplicateRequestNumber(t *testing.T) {
	gate := make(chan struct{})
	path := serveStub(t, stubHandler{gate: gate}, Options{})
	defer close(gate)
	call, _, _ := encodeFrame(&frame{typ: typeCall, id: 7, method: "block"})
	got := rawExchange(t, path, append(append([]byte{}, call...), call...))
	if len(got) == 0 || got[0].typ != typeGoAway {
		t.Fatalf("server sent %+v", got)
	}
}

// TestClientDescriptorDiscarded proves that a descriptor a client passes
// with a request is neither used nor kept: the server answers and this
// process (both sides) has as many descriptors open as before.
func TestClientDescriptorDiscarded(t *testing.T) {
	path := serveStub(t, stubHandler{}, Options{})
	wantStubAnswer(t, path)
	base := restCount()
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	call, _, _ := encodeFrame(&frame{typ: typeCall, id: 1, method: "m"})
	if _, _, err := c.WriteMsgUnix(call, syscall.UnixRights(int(os.Stdin.Fd())), nil); err != nil {
		t.Fatal(err)
	}
	f, err := readFrame(c, HardMaxFrame)
	if err != nil || f.typ != typeResult || len(f.fdKeys) != 0 {
		t.Fatalf("answer %+v %v", f, err)
	}
	c.Close()
	waitCount(t, base)
}

// TestLaunchHidesInternalErrors proves that a launch failing with an
// error other than *protocol.Error reaches the client as INTERNAL_ERROR
// without its text.
func TestLaunchHidesInternalErrors(t *testing.T) {
	tr, err := Dial(serveStub(t, stubHandler{}, Options{}))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	err = tr.Launch(context.Background(), &protocol.Resolution{ID: "r"})
	var perr *protocol.Error
	if !errors.As(err, &perr) || perr.Code != protocol.CodeInternalError || perr.Message == "secret internal detail" {
		t.Fatalf("launch: %v", err)
	}
}

// wantStubAnswer fails unless a fresh client gets an answer from the stub.
func wantStubAnswer(t *testing.T, path string) {
	t.Helper()
	tr, err := Dial(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	b, err := tr.Call(context.Background(), "ping", nil)
	if s, _, _ := b.String(protocol.KeyData); err != nil || s != "ping" {
		t.Fatalf("answer %v %v", b, err)
	}
}

// countFDs counts the descriptors open in this process.
func countFDs() int {
	ents, _ := os.ReadDir("/proc/self/fd")
	return len(ents) - 1
}

// restCount returns the lowest of several descriptor counts: the count
// at rest, not one that caught a connection the server was closing.
func restCount() int {
	low := countFDs()
	for range 10 {
		time.Sleep(5 * time.Millisecond)
		low = min(low, countFDs())
	}
	return low
}

// waitCount waits until this process has at most want descriptors open,
// so that a leak fails the test and a slow close does not.
func waitCount(t *testing.T, want int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); countFDs() > want; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d descriptors open, want at most %d", countFDs(), want)
		}
	}
}

// TestInFlightLimit proves that a request past MaxInFlight is answered
// RATE_LIMITED at once, and that the server still reads the Cancel of a
// running request while the limit is reached.
func TestInFlightLimit(t *testing.T) {
	h := stubHandler{ended: make(chan error, 2)}
	tr, err := Dial(serveStub(t, h, Options{MaxInFlight: 1}))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go tr.Call(ctx, "wait", nil)
	<-h.ended // running
	b, err := tr.Call(context.Background(), "ping", protocol.Bundle{protocol.KeyRequestID: protocol.String("id-1")})
	perr, _ := protocol.ParseError(b)
	if err != nil || perr == nil || perr.Code != protocol.CodeRateLimited || !perr.Retryable || perr.RetryAfter != DefaultRetryAfter {
		t.Fatalf("past the limit: %v %v", b, err)
	}
	if id, _, _ := b.String(protocol.KeyRequestID); id != "id-1" {
		t.Fatalf("request_id not echoed: %v", b)
	}
	cancel()
	if err := <-h.ended; !errors.Is(err, context.Canceled) {
		t.Fatalf("running call's context: %v", err)
	}
}

// TestConnsPerUID proves that a UID's connection past MaxConnsPerUID is
// closed at once while its first connection goes on working.
func TestConnsPerUID(t *testing.T) {
	path := serveStub(t, stubHandler{}, Options{MaxConnsPerUID: 1})
	first, err := Dial(path)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if _, err := first.Call(context.Background(), "ping", nil); err != nil {
		t.Fatal(err)
	}
	second, err := Dial(path)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if _, err := second.Call(context.Background(), "ping", nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("second connection: %v", err)
	}
	if _, err := first.Call(context.Background(), "ping", nil); err != nil {
		t.Fatal(err)
	}
}

// TestListenRefusesLiveSocket proves that Listen replaces a stale socket
// file but neither a live socket nor another file.
func TestListenRefusesLiveSocket(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.sock")
	ln, err := Listen(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(path, 0o600); err == nil {
		t.Fatal("a live socket was replaced")
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	ln, err = Listen(path, 0o600)
	if err != nil {
		t.Fatalf("stale socket: %v", err)
	}
	ln.Close()
	plain := filepath.Join(dir, "file")
	os.WriteFile(plain, nil, 0o600)
	if _, err := Listen(plain, 0o600); err == nil {
		t.Fatal("a plain file was replaced")
	}
}
