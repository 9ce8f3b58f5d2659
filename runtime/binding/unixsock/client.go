package unixsock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"sync"
	"time"

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
	// Descriptors makes the Transport receive passed descriptors from its
	// first read. Without it the Transport reads with plain read(2) until a
	// negotiate on this connection selects large_results, the only
	// capability under which a Provider passes descriptors; a Consumer
	// that calls with a session negotiated over another connection sets
	// it.
	Descriptors bool
}

// Transport is a consumer.Transport over one connection to a Provider's
// socket. It is safe for concurrent use: calls are sent as they come and
// their responses matched by request number. No goroutine reads the
// connection on its own: one waiting caller at a time reads it, hands
// every other caller its response and, when its own arrives, passes the
// reading to a caller still waiting, so that a lone caller reads its own
// response without a hand-off. It does not reconnect; once the connection
// ends every call returns an error wrapping ErrClosed.
type Transport struct {
	c   *net.UnixConn
	fr  *fdReader
	in  *framer // reads c, or fr once descriptors may arrive; only the reader uses it
	wmu sync.Mutex
	// wbuf is the frame being written and wdeadline the write deadline
	// last set; both under wmu.
	wbuf      []byte
	wdeadline time.Time

	mu      sync.Mutex
	next    uint32
	pending map[uint32]*pending
	reading bool // a caller reads the connection; after the end, for good
	closing bool // Close was called while a caller read the connection
	err     error
	done    chan struct{} // closed when the connection ended
}

// pending is a request waiting for its response.
type pending struct {
	want      byte // the response type
	negotiate bool
	ch        chan *frame   // the response
	lead      chan struct{} // its caller is to read the connection now
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
	t := &Transport{c: uc, fr: newFDReader(uc), pending: map[uint32]*pending{}, done: make(chan struct{})}
	t.in = newFramer(uc, min(positive(opt.MaxResponse, DefaultMaxResponse), HardMaxFrame))
	if opt.Descriptors {
		t.in.r = t.fr
	}
	return t, nil
}

// Close closes the connection; calls in flight return ErrClosed.
func (t *Transport) Close() error {
	err := t.c.Close()
	t.mu.Lock()
	idle := !t.reading
	t.reading, t.closing = true, true // a reader ends the connection
	t.mu.Unlock()
	if idle {
		t.end(ErrClosed)
	}
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
	p := &pending{want: want, negotiate: f.method == protocol.MethodNegotiate,
		ch: make(chan *frame, 1), lead: make(chan struct{}, 1)}
	id, err := t.register(p)
	if err != nil {
		return nil, err
	}
	f.id = id
	if err := t.write(ctx, f); err != nil {
		t.forget(id)
		return nil, err
	}
	return t.wait(ctx, id, p)
}

// wait waits for the response to request id, reading the connection
// itself while no other caller does or once one passes it the reading. A
// request no longer pending was answered, or failed with the connection,
// while its frame was being written: its caller must not take the
// reading, which would wait for a response another reader already
// handed it.
func (t *Transport) wait(ctx context.Context, id uint32, p *pending) (*frame, error) {
	t.mu.Lock()
	_, waiting := t.pending[id]
	lead := waiting && !t.reading
	if lead {
		t.reading = true
	}
	t.mu.Unlock()
	for !lead {
		select {
		case f := <-p.ch:
			return f, nil
		case <-p.lead:
			lead = true
		case <-t.done:
			select {
			case f := <-p.ch: // delivered just before the end
				return f, nil
			default:
				return nil, t.closedErr()
			}
		case <-ctx.Done():
			return nil, t.abandon(ctx, id, p)
		}
	}
	return t.readOwn(ctx, id, p)
}

// abandon forgets request id, whose context ended, and cancels it on the
// server; a response that won the race is discarded.
func (t *Transport) abandon(ctx context.Context, id uint32, p *pending) error {
	if t.forget(id) {
		go t.sendCancel(id)
		return ctx.Err()
	}
	select { // the response or the end of the connection won the race
	case f := <-p.ch:
		closeFDs(f.bundle)
	case <-t.done:
	}
	return ctx.Err()
}

// readOwn reads the connection for every caller until the response to
// request id arrives, its context ends or the connection ends, then
// passes the reading on. The end of ctx interrupts a read by a deadline
// in the past; the framer keeps what it read, so the next reader goes on
// from there.
func (t *Transport) readOwn(ctx context.Context, id uint32, p *pending) (*frame, error) {
	disarm := t.interruptOnDone(ctx)
	for {
		f, err := t.in.next()
		if err == nil {
			var mine bool
			if mine, err = t.deliver(f, id); mine {
				disarm()
				t.passReading()
				return f, nil
			}
		}
		if err != nil && errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() != nil {
			disarm()
			return nil, t.abandonReading(ctx, id, p)
		}
		if err != nil {
			disarm()
			t.end(err)
			return nil, t.closedErr()
		}
	}
}

// interruptOnDone makes the end of ctx interrupt the connection's reads
// by a deadline in the past, and returns the function that undoes it: it
// waits for an interruption under way and clears the deadline. A context
// that never ends costs nothing.
func (t *Transport) interruptOnDone(ctx context.Context) func() {
	if ctx.Done() == nil {
		return func() {}
	}
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		t.c.SetReadDeadline(time.Unix(1, 0))
		close(fired)
	})
	return func() {
		if !stop() {
			<-fired
			t.c.SetReadDeadline(time.Time{})
		}
	}
}

// abandonReading gives up request id, whose context ended while its
// caller read the connection, and passes the reading on.
func (t *Transport) abandonReading(ctx context.Context, id uint32, p *pending) error {
	t.mu.Lock()
	_, waiting := t.pending[id]
	delete(t.pending, id)
	next := t.passReadingLocked()
	t.mu.Unlock()
	t.follow(next)
	if waiting {
		go t.sendCancel(id)
	}
	return ctx.Err()
}

// passReading passes the reading of the connection to a caller still
// waiting, if any.
func (t *Transport) passReading() {
	t.mu.Lock()
	next := t.passReadingLocked()
	t.mu.Unlock()
	t.follow(next)
}

// afterReading is what the caller giving up the reading must do next.
type afterReading int

const (
	passedOn  afterReading = iota // nothing: a waiting caller reads, or nobody needs to
	mustEnd                       // end the connection: Close is waiting for the last reader
	mustDrain                     // go on reading in the background: see passReadingLocked
)

// passReadingLocked is passReading with t.mu held, by the caller holding
// the reading. With nobody waiting, the reading stays taken while the
// framer holds part of a frame or descriptors arrived: a late answer's
// descriptor must be closed now, not at the next call.
func (t *Transport) passReadingLocked() afterReading {
	if t.err != nil {
		return passedOn
	}
	for _, q := range t.pending {
		q.lead <- struct{}{}
		return passedOn
	}
	switch {
	case t.closing:
		return mustEnd
	case t.in.start < t.in.end || len(t.fr.queue) > 0:
		return mustDrain
	}
	t.reading = false
	return passedOn
}

// follow does what next says.
func (t *Transport) follow(next afterReading) {
	switch next {
	case mustEnd:
		t.end(ErrClosed)
	case mustDrain:
		go t.drain()
	}
}

// drain reads the frames that nobody waits for, closing their
// descriptors, until the framer and the descriptor queue are empty or a
// caller waits; then it passes the reading on.
func (t *Transport) drain() {
	for {
		f, err := t.in.next()
		if err == nil {
			_, err = t.deliver(f, 0)
		}
		if err != nil {
			t.end(err)
			return
		}
		t.mu.Lock()
		next := t.passReadingLocked()
		t.mu.Unlock()
		if next != mustDrain {
			t.follow(next)
			return
		}
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

// forget drops request id and reports whether it was still pending. When
// the reading had been passed to its caller, it passes it on.
func (t *Transport) forget(id uint32) bool {
	t.mu.Lock()
	p, ok := t.pending[id]
	delete(t.pending, id)
	next := passedOn
	if ok {
		select {
		case <-p.lead:
			next = t.passReadingLocked()
		default:
		}
	}
	t.mu.Unlock()
	t.follow(next)
	return ok
}

// sendCancel tells the server to cancel the context of request id.
func (t *Transport) sendCancel(id uint32) {
	t.write(context.Background(), &frame{typ: typeCancel, id: id})
}

// write writes one whole frame by the deadline of ctx, if any; a failed
// write breaks the connection, which may hold part of a frame. The write
// deadline is set only when it changes.
func (t *Transport) write(ctx context.Context, f *frame) error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	buf, _, err := appendFrame(t.wbuf, f)
	if err != nil {
		return err
	}
	if cap(buf) <= maxKeptWriteBuffer {
		t.wbuf = buf
	}
	if deadline, _ := ctx.Deadline(); !deadline.Equal(t.wdeadline) {
		t.c.SetWriteDeadline(deadline)
		t.wdeadline = deadline
	}
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

// end ends the connection after err: it fails every pending request and
// closes every descriptor still held. Only the caller holding the reading
// calls it, once; the reading stays taken.
func (t *Transport) end(err error) {
	t.c.Close()
	t.fr.closeAll()
	t.mu.Lock()
	if !errors.Is(err, ErrClosed) {
		err = fmt.Errorf("%w: %v", ErrClosed, err)
	}
	t.err = err
	t.pending = nil
	t.mu.Unlock()
	close(t.done)
}

// deliver attaches the descriptors of f and hands it to its request, or
// closes them when nobody waits for it. It reports whether f is the
// response of request own, which it does not hand over. After the answer
// to a negotiate that selected large_results, reads receive descriptors.
func (t *Transport) deliver(f *frame, own uint32) (bool, error) {
	if f.typ == typeGoAway {
		return false, fmt.Errorf("server: %s", f.reason)
	}
	files, err := t.fr.take(len(f.fdKeys))
	if err != nil {
		return false, err
	}
	for i, k := range f.fdKeys {
		f.bundle[k] = protocol.FileDescriptor{File: files[i]}
	}
	t.mu.Lock()
	p := t.pending[f.id]
	if p != nil && p.want == f.typ {
		delete(t.pending, f.id)
	}
	t.mu.Unlock()
	if p == nil || p.want != f.typ {
		closeFDs(f.bundle)
		return false, checkUnsolicited(p, f)
	}
	if p.negotiate && selectsLargeResults(f.bundle) {
		t.in.r = t.fr
	}
	if f.id == own {
		return true, nil
	}
	p.ch <- f
	return false, nil
}

// selectsLargeResults reports whether the negotiate answer b selected the
// large_results capability.
func selectsLargeResults(b protocol.Bundle) bool {
	data, _, _ := b.String(protocol.KeyData)
	var s struct {
		Capabilities []string `json:"capabilities"`
	}
	return json.Unmarshal([]byte(data), &s) == nil && slices.Contains(s.Capabilities, protocol.CapLargeResults)
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
