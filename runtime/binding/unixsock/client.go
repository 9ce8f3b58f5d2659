package unixsock

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"sync"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// DefaultMaxResponse is the default bound of a frame a client accepts:
// the consumer's default result bound plus room for the envelope.
const DefaultMaxResponse = consumer.DefaultMaxResultBytes + 64<<10

// ErrClosed is returned by calls on a Transport whose connection ended.
var ErrClosed = errors.New("unixsock: connection closed")

// ClientOptions configure a Transport. The zero value is usable.
type ClientOptions struct {
	// MaxResponse bounds a frame the Provider sends, length prefix
	// excluded. It defaults to DefaultMaxResponse and never exceeds
	// HardMaxFrame.
	MaxResponse int
}

// Transport is a consumer.Transport over one connection to a Provider's
// socket. It is safe for concurrent use: calls are sent as they come and
// their responses matched by request number. It does not reconnect; once
// the connection ends every call returns an error wrapping ErrClosed.
type Transport struct {
	c   *net.UnixConn
	fr  *fdReader
	max int
	wmu sync.Mutex

	mu      sync.Mutex
	next    uint32
	pending map[uint32]*pending
	err     error
	done    chan struct{}
}

// pending is a request waiting for its response.
type pending struct {
	want byte // the response type
	ch   chan *frame
}

var _ consumer.Transport = (*Transport)(nil)

// Dial connects to the Provider socket at path with default options.
func Dial(path string) (*Transport, error) {
	return DialContext(context.Background(), path, ClientOptions{})
}

// DialContext connects to the Provider socket at path.
func DialContext(ctx context.Context, path string, opt ClientOptions) (*Transport, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, err
	}
	uc := c.(*net.UnixConn)
	t := &Transport{c: uc, fr: newFDReader(uc), pending: map[uint32]*pending{}, done: make(chan struct{}),
		max: min(positive(opt.MaxResponse, DefaultMaxResponse), HardMaxFrame)}
	go t.readLoop()
	return t, nil
}

// Close closes the connection; calls in flight return ErrClosed.
func (t *Transport) Close() error {
	err := t.c.Close()
	<-t.done
	return err
}

// Call implements consumer.Transport. A FileDescriptor value in the
// response is an open *os.File that the caller owns and must close.
func (t *Transport) Call(ctx context.Context, method string, extras protocol.Bundle) (protocol.Bundle, error) {
	if len(method) == 0 || len(method) > MaxMethodBytes {
		return nil, fmt.Errorf("unixsock: method name of %d bytes", len(method))
	}
	f, err := t.roundTrip(ctx, &frame{typ: typeCall, method: method, bundle: extras}, typeResult)
	if err != nil {
		return nil, err
	}
	return f.bundle, nil
}

// Launch asks the Provider to launch resolution r, a resolution it
// returned, and waits for the user's decision as its UI reports it. It
// returns nil when the resolution completed, a *protocol.Error when the
// Provider refused it (PERMISSION_DENIED, CONFLICT, ...), or another error
// when the binding broke.
func (t *Transport) Launch(ctx context.Context, r *protocol.Resolution) error {
	if r == nil || len(r.ID) == 0 || len(r.ID) > MaxResolutionIDBytes {
		return errors.New("unixsock: launch: bad resolution")
	}
	f, err := t.roundTrip(ctx, &frame{typ: typeLaunch, resolution: r.ID}, typeLaunched)
	if err != nil {
		return err
	}
	if s, _, _ := f.bundle.String(protocol.KeyStatus); s == protocol.StatusSuccess {
		return nil
	}
	perr, err := protocol.ParseError(f.bundle)
	if err != nil {
		return fmt.Errorf("unixsock: launch answer: %w", err)
	}
	return perr
}

// roundTrip sends f under a fresh request number and waits for the
// response of type want. When ctx ends first it sends a Cancel frame and
// forgets the request; a late response is discarded, its descriptors
// closed.
func (t *Transport) roundTrip(ctx context.Context, f *frame, want byte) (*frame, error) {
	buf, _, err := encodeFrame(f)
	if err != nil {
		return nil, err
	}
	p := &pending{want: want, ch: make(chan *frame, 1)}
	id, err := t.register(p)
	if err != nil {
		return nil, err
	}
	setID(buf, id)
	if err := t.write(ctx, buf); err != nil {
		t.forget(id)
		return nil, err
	}
	return t.wait(ctx, id, p)
}

// wait waits for the response to request id.
func (t *Transport) wait(ctx context.Context, id uint32, p *pending) (*frame, error) {
	select {
	case f := <-p.ch:
		return f, nil
	case <-t.done:
		return nil, t.closedErr()
	case <-ctx.Done():
		if t.forget(id) {
			go t.sendCancel(id)
			return nil, ctx.Err()
		}
		select { // the response or the end of the connection won the race
		case f := <-p.ch:
			closeFDs(f.bundle)
		case <-t.done:
		}
		return nil, ctx.Err()
	}
}

// register assigns a request number that is neither 0 nor pending.
func (t *Transport) register(p *pending) (uint32, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return 0, t.err
	}
	for {
		t.next++
		if _, busy := t.pending[t.next]; t.next != 0 && !busy {
			t.pending[t.next] = p
			return t.next, nil
		}
	}
}

// forget drops request id and reports whether it was still pending.
func (t *Transport) forget(id uint32) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.pending[id]
	delete(t.pending, id)
	return ok
}

// sendCancel tells the server to cancel the context of request id.
func (t *Transport) sendCancel(id uint32) {
	buf, _, _ := encodeFrame(&frame{typ: typeCancel, id: id})
	t.write(context.Background(), buf)
}

// write writes one whole frame by the deadline of ctx, if any; a failed
// write breaks the connection, which may hold part of a frame.
func (t *Transport) write(ctx context.Context, buf []byte) error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	deadline, _ := ctx.Deadline()
	t.c.SetWriteDeadline(deadline)
	if _, err := t.c.Write(buf); err != nil {
		t.c.Close()
		return fmt.Errorf("%w: %v", ErrClosed, err)
	}
	return nil
}

func (t *Transport) closedErr() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// readLoop reads responses and hands each to its request until the
// connection ends; then it fails every pending request and closes every
// descriptor it still holds.
func (t *Transport) readLoop() {
	br := bufio.NewReaderSize(t.fr, 64<<10)
	var err error
	for err == nil {
		var f *frame
		if f, err = readFrame(br, t.max); err == nil {
			err = t.deliver(f)
		}
	}
	t.c.Close()
	t.fr.closeAll()
	t.mu.Lock()
	t.err = fmt.Errorf("%w: %v", ErrClosed, err)
	t.pending = nil
	t.mu.Unlock()
	close(t.done)
}

// deliver attaches the descriptors of f and hands it to its request, or
// closes them when nobody waits for it.
func (t *Transport) deliver(f *frame) error {
	if f.typ == typeGoAway {
		return fmt.Errorf("server: %s", f.reason)
	}
	files, err := t.fr.take(len(f.fdKeys))
	if err != nil {
		return err
	}
	for i, k := range f.fdKeys {
		f.bundle[k] = protocol.FileDescriptor{File: files[i]}
	}
	t.mu.Lock()
	p := t.pending[f.id]
	delete(t.pending, f.id)
	t.mu.Unlock()
	if p == nil || p.want != f.typ {
		closeFDs(f.bundle)
		return checkUnsolicited(p, f)
	}
	p.ch <- f
	return nil
}

// checkUnsolicited accepts a response to a forgotten request and rejects
// one of the wrong type.
func checkUnsolicited(p *pending, f *frame) error {
	if f.typ != typeResult && f.typ != typeLaunched {
		return frameErr("a server may not send type %d", f.typ)
	}
	if p != nil {
		return frameErr("response type %d does not answer request %d", f.typ, f.id)
	}
	return nil
}
