package unixsock

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// TestReadingPassedOn proves that callers sharing a connection all get
// their answers when the caller reading the connection gives up: its
// context ends while the others still wait, and whichever caller read
// the connection, one of those left goes on reading it.
func TestReadingPassedOn(t *testing.T) {
	for round := range 20 {
		gate := make(chan struct{})
		tr, err := Dial(serveStub(t, stubHandler{gate: gate}, Options{}))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		quitter := round % 4 // which of the four callers gives up
		errs := make([]error, 4)
		for i := range 4 {
			c := context.Background()
			if i == quitter {
				c = ctx
			}
			wg.Go(func() {
				b, err := tr.Call(c, "block", nil)
				if data, _, _ := b.String(protocol.KeyData); err == nil && data != "block" {
					err = errors.New("wrong answer")
				}
				errs[i] = err
			})
		}
		time.Sleep(20 * time.Millisecond) // every call is sent and waiting
		cancel()
		time.Sleep(10 * time.Millisecond)
		close(gate)
		wg.Wait()
		for i, err := range errs {
			if i == quitter && !errors.Is(err, context.Canceled) || i != quitter && err != nil {
				t.Fatalf("round %d, caller %d (caller %d gave up): %v", round, i, quitter, err)
			}
		}
		if _, err := tr.Call(context.Background(), "ping", nil); err != nil {
			t.Fatalf("round %d: the connection after: %v", round, err)
		}
		tr.Close()
	}
}

// TestCloseWhileReading proves that Close ends calls waiting on a
// connection, the reading caller's among them, with ErrClosed.
func TestCloseWhileReading(t *testing.T) {
	gate := make(chan struct{})
	defer close(gate)
	tr, err := Dial(serveStub(t, stubHandler{gate: gate}, Options{}))
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 3)
	for range 3 {
		go func() { _, err := tr.Call(context.Background(), "block", nil); errs <- err }()
	}
	time.Sleep(20 * time.Millisecond)
	tr.Close()
	for range 3 {
		if err := <-errs; !errors.Is(err, ErrClosed) {
			t.Fatalf("call after Close: %v", err)
		}
	}
}

// TestLeftoverDescriptorClosedWhileIdle proves that a descriptor which
// arrived with the caller's answer, for a late answer whose bytes were
// still arriving, is closed once those bytes arrive, with no further call
// on the connection: the client goes on reading while a frame is partly
// read or descriptors are queued.
func TestLeftoverDescriptorClosedWhileIdle(t *testing.T) {
	held, done := make(chan struct{}), make(chan struct{})
	defer close(done)
	tr, err := DialContext(context.Background(), fakeServer(t, func(c *net.UnixConn, req *frame) {
		late := rawFrame(typeResult, req.id+1000, 1, 1, 'k', 0)
		sendRaw(c, append(rawFrame(typeResult, req.id, 0, 0), late[:6]...), dupStdin(t))
		<-held
		c.Write(late[6:])
		<-done
	}), ClientOptions{Descriptors: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if _, err := tr.Call(context.Background(), "m", nil); err != nil {
		t.Fatal(err)
	}
	queued := countFDs() // with the late answer's descriptor
	close(held)
	waitCount(t, queued-1)
}
