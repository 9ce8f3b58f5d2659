package unixsock

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// fakeServer accepts one connection at a fresh socket and runs script on
// it with the first request the client sent.
func fakeServer(t *testing.T, script func(c *net.UnixConn, req *frame)) string {
	path := filepath.Join(t.TempDir(), "fake.sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c, err := ln.AcceptUnix()
		ln.Close()
		if err != nil {
			return
		}
		defer c.Close()
		if req, err := readFrame(c, HardMaxFrame); err == nil {
			script(c, req)
		}
	}()
	t.Cleanup(func() { ln.Close(); <-done })
	return path
}

// sendRaw writes a frame, passing fds with it, and closes its copies of
// fds.
func sendRaw(c *net.UnixConn, buf []byte, fds ...int) {
	var oob []byte
	if len(fds) > 0 {
		oob = syscall.UnixRights(fds...)
	}
	c.WriteMsgUnix(buf, oob, nil)
	for _, fd := range fds {
		syscall.Close(fd)
	}
}

// callFake makes one call to a fake server running script.
func callFake(t *testing.T, script func(*net.UnixConn, *frame)) error {
	tr, err := DialContext(context.Background(), fakeServer(t, script), ClientOptions{Descriptors: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	b, err := tr.Call(context.Background(), "m", nil)
	closeFDs(b)
	return err
}

// dupStdin returns a new descriptor of stdin for a fake server to pass.
func dupStdin(t *testing.T) int {
	fd, err := syscall.Dup(int(os.Stdin.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	return fd
}

// TestClientRefusesHostileServer proves that the client ends the
// connection on a server's GoAway, an oversized frame, a frame claiming
// descriptors that never came and an answer of the wrong type, and that
// it closes every descriptor a server passed, whether a frame claimed it
// or not.
func TestClientRefusesHostileServer(t *testing.T) {
	big := rawFrame(typeResult, 1)
	big[0] = 0x7f
	cases := map[string]func(*net.UnixConn, *frame){
		"goaway": func(c *net.UnixConn, _ *frame) {
			b, _, _ := encodeFrame(&frame{typ: typeGoAway, reason: "bye"})
			sendRaw(c, b)
		},
		"oversized": func(c *net.UnixConn, _ *frame) { sendRaw(c, big) },
		"missing descriptor": func(c *net.UnixConn, req *frame) {
			sendRaw(c, rawFrame(typeResult, req.id, 1, 1, 'k', 0))
		},
		"wrong type": func(c *net.UnixConn, req *frame) {
			sendRaw(c, rawFrame(typeLaunched, req.id, 0, 0))
		},
		"unclaimed descriptors": func(c *net.UnixConn, req *frame) {
			sendRaw(c, rawFrame(typeResult, req.id, 0, 0), dupStdin(t), dupStdin(t), dupStdin(t), dupStdin(t), dupStdin(t))
			sendRaw(c, rawFrame(typeResult, 99, 0, 0), dupStdin(t))
		},
	}
	for name, script := range cases {
		base := restCount()
		err := callFake(t, script)
		if name != "unclaimed descriptors" && !errors.Is(err, ErrClosed) {
			t.Errorf("%s: call returned %v", name, err)
		}
		t.Logf("%s: %v", name, err)
		waitCount(t, base)
	}
}

// TestClientClosesUnsolicitedDescriptors proves that a descriptor passed
// with an answer nobody waits for is closed, and that the call it
// precedes still succeeds.
func TestClientClosesUnsolicitedDescriptors(t *testing.T) {
	base := restCount()
	err := callFake(t, func(c *net.UnixConn, req *frame) {
		sendRaw(c, rawFrame(typeResult, req.id+1000, 1, 1, 'k', 0), dupStdin(t))
		sendRaw(c, rawFrame(typeResult, req.id, 1, 1, 'k', 0), dupStdin(t))
	})
	if err != nil {
		t.Fatal(err)
	}
	waitCount(t, base)
}

// TestGoAwayReason proves the client reports the server's reason.
func TestGoAwayReason(t *testing.T) {
	err := callFake(t, func(c *net.UnixConn, _ *frame) {
		b, _, _ := encodeFrame(&frame{typ: typeGoAway, reason: "shutting down"})
		sendRaw(c, b)
	})
	if err == nil || !strings.Contains(err.Error(), "shutting down") {
		t.Fatalf("err %v", err)
	}
}

// TestAnsweredBeforeWaiting proves that a caller whose response another
// reader delivered while it was still writing its request returns that
// response instead of taking the idle reading and waiting on the
// connection for an answer that already came: with 16 callers on one
// connection this interleaving hung a call.
func TestAnsweredBeforeWaiting(t *testing.T) {
	tr, err := DialContext(context.Background(), fakeServer(t, func(*net.UnixConn, *frame) {}), ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	p := &pending{want: typeResult, ch: make(chan *frame, 1), lead: make(chan struct{}, 1)}
	id, err := tr.register(p)
	if err != nil {
		t.Fatal(err)
	}
	answer := &frame{typ: typeResult, id: id, bundle: protocol.Bundle{protocol.KeyData: protocol.String("early")}}
	if _, err := tr.deliver(answer, 0); err != nil { // as another caller reading the connection does
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	f, err := tr.wait(ctx, id, p)
	if err != nil {
		t.Fatalf("wait for a delivered answer: %v", err)
	}
	if data, _, _ := f.bundle.String(protocol.KeyData); data != "early" {
		t.Fatalf("answer %v", f.bundle)
	}
}
