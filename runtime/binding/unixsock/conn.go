package unixsock

import (
	"context"
	"errors"
	"net"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// conn is the server side of one connection. One reader goroutine reads
// its frames and hands each request to an idle worker of the connection,
// starting one only when none is idle; workers live as long as the
// connection, so a steady stream of calls starts no goroutine per call.
type conn struct {
	s      *server
	c      *net.UnixConn
	caller provider.Caller
	ctx    context.Context // the parent of every request's context: carries the Peer
	jobs   chan job        // idle workers wait here
	calls  sync.WaitGroup
	// answers holds a token for every request whose answer is not yet
	// written, at most 2*MaxInFlight: a client that does not read its
	// answers stops the reader there instead of piling up goroutines.
	answers chan struct{}

	wmu   sync.Mutex
	wbuf  []byte    // the frame being written, reused
	armed time.Time // the write deadline last set

	mu       sync.Mutex
	inFlight int
	running  map[uint32]context.CancelFunc
}

// job is one request for a worker.
type job struct {
	ctx context.Context
	f   *frame
}

func newConn(s *server, c *net.UnixConn, peer Peer, caller provider.Caller) *conn {
	return &conn{s: s, c: c, caller: caller, ctx: context.WithValue(s.hard, peerKey{}, peer),
		jobs: make(chan job), answers: make(chan struct{}, 2*s.opt.MaxInFlight), running: map[uint32]context.CancelFunc{}}
}

// readLoop reads and dispatches frames until the connection ends, the
// server shuts down or the client breaks the wire format. Requests still
// running when the client closes its end run to completion, their answers
// lost, as a Binder call outlives a dead caller; after a malformed frame
// they are cancelled. Idle workers end with the loop; busy ones after
// their request.
func (c *conn) readLoop() {
	defer close(c.jobs)
	fr := newFramer(c.c, c.s.opt.MaxRequest)
	for {
		f, err := fr.next()
		if err == nil {
			err = c.dispatch(f)
		}
		if err != nil {
			if errors.Is(err, errFrame) {
				c.goAway(err)
			}
			return
		}
	}
}

// goAway tells the client why its connection ends, cancels its running
// requests and closes the connection: after a malformed frame the stream
// cannot be trusted.
func (c *conn) goAway(err error) {
	c.send(&frame{typ: typeGoAway, reason: err.Error()})
	c.mu.Lock()
	for _, cancel := range c.running {
		cancel()
	}
	c.mu.Unlock()
	c.c.Close()
}

// dispatch starts a call or a launch, or cancels one. A client may send
// only Call, Launch and Cancel frames, and may not reuse the number of a
// request still running.
func (c *conn) dispatch(f *frame) error {
	switch f.typ {
	case typeCancel:
		c.cancel(f.id)
		return nil
	case typeCall, typeLaunch:
		return c.start(f)
	}
	return frameErr("a client may not send type %d", f.typ)
}

// cancel cancels the context of request id, if it still runs.
func (c *conn) cancel(id uint32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cancel := c.running[id]; cancel != nil {
		cancel()
	}
}

// start hands f to a worker, or answers RATE_LIMITED at once when
// MaxInFlight requests of the connection are running: the reader does not
// wait for running requests, so it always reads their Cancel frames. It
// waits only while 2*MaxInFlight answers of the connection are not yet
// written, that is for a client that does not read them, until one is
// written or the server's call contexts end.
func (c *conn) start(f *frame) error {
	select {
	case c.answers <- struct{}{}:
	case <-c.ctx.Done():
		return c.ctx.Err()
	}
	c.mu.Lock()
	if c.running[f.id] != nil {
		c.mu.Unlock()
		<-c.answers
		return frameErr("request number %d is already running", f.id)
	}
	if c.inFlight >= c.s.opt.MaxInFlight {
		c.mu.Unlock()
		c.calls.Add(1)
		go func() { defer c.answered(); c.refuse(f) }()
		return nil
	}
	c.inFlight++
	ctx, cancel := context.WithCancel(c.ctx)
	c.running[f.id] = cancel
	c.mu.Unlock()
	c.calls.Add(1)
	select {
	case c.jobs <- job{ctx, f}:
	default:
		go c.work(job{ctx, f})
	}
	return nil
}

// work runs j, then every request handed to it, until the connection's
// reader ends.
func (c *conn) work(j job) {
	for ok := true; ok; j, ok = <-c.jobs {
		c.run(j.ctx, j.f)
	}
}

// refuse answers f with RATE_LIMITED, retryable after RetryAfter.
func (c *conn) refuse(f *frame) {
	e := protocol.NewError(protocol.CodeRateLimited, "too many requests on this connection").WithRetryable(true)
	e.RetryAfter = c.s.opt.RetryAfter
	typ, echo := typeResult, echoOf(f)
	if f.typ == typeLaunch {
		typ, echo = typeLaunched, protocol.Echo{}
	}
	c.send(&frame{typ: typ, id: f.id, bundle: protocol.ErrorBundle(echo, e)})
}

// echoOf returns what an answer the binding makes for the Call f echoes:
// protocol_version 2 and a request_id of at most 128 bytes.
func echoOf(f *frame) protocol.Echo {
	id, _, _ := f.bundle.String(protocol.KeyRequestID)
	if len(id) > 128 {
		id = ""
	}
	return protocol.Echo{Version: protocol.Version2, RequestID: id}
}

// run answers one call or launch. Its slot and request number are freed
// before the answer is written: a client may send its next request as
// soon as it reads this answer, and that request must find the slot free.
func (c *conn) run(ctx context.Context, f *frame) {
	defer c.answered()
	if f.typ == typeLaunch {
		err := c.s.h.Launch(ctx, c.caller, &protocol.Resolution{ID: f.resolution})
		c.finish(f.id)
		c.send(&frame{typ: typeLaunched, id: f.id, bundle: launchedBundle(err)})
		return
	}
	resp := c.s.h.Call(ctx, c.caller, f.method, f.bundle)
	c.finish(f.id)
	c.sendResult(f, resp)
}

// answered ends a request whose answer was written or given up.
func (c *conn) answered() {
	<-c.answers
	c.calls.Done()
}

// finish ends request id: it cancels its context, forgets its number and
// frees its slot.
func (c *conn) finish(id uint32) {
	c.mu.Lock()
	c.running[id]()
	delete(c.running, id)
	c.inFlight--
	c.mu.Unlock()
}

// launchedBundle is the answer to a launch: status "success", or the
// error envelope fields of the Provider's *protocol.Error, or
// INTERNAL_ERROR without the text of any other error.
func launchedBundle(err error) protocol.Bundle {
	if err == nil {
		return protocol.Bundle{protocol.KeyStatus: protocol.String(protocol.StatusSuccess)}
	}
	var perr *protocol.Error
	if !errors.As(err, &perr) {
		perr = protocol.NewError(protocol.CodeInternalError, "the resolution could not be launched")
	}
	return protocol.ErrorBundle(protocol.Echo{}, perr)
}

// sendResult sends resp for the call f, or INTERNAL_ERROR when resp
// cannot travel; it closes every descriptor resp holds afterwards.
func (c *conn) sendResult(f *frame, resp protocol.Bundle) {
	defer closeFDs(resp)
	if err := c.send(&frame{typ: typeResult, id: f.id, bundle: resp}); errors.Is(err, errEncode) {
		e := protocol.NewError(protocol.CodeInternalError, "Provider internal error")
		c.send(&frame{typ: typeResult, id: f.id, bundle: protocol.ErrorBundle(echoOf(f), e)})
	}
}

// closeFDs closes the descriptors of b.
func closeFDs(b protocol.Bundle) {
	for _, v := range b {
		if fd, ok := v.(protocol.FileDescriptor); ok && fd.File != nil {
			fd.File.Close()
		}
	}
}

// errEncode marks a frame that could not be encoded; nothing was sent.
var errEncode = errors.New("unixsock: cannot encode frame")

// send writes f and passes its descriptors. A write error closes the
// connection, since the stream may hold part of a frame.
func (c *conn) send(f *frame) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	buf, fds, err := appendFrame(c.wbuf, f)
	if err == nil && len(buf)-4 > HardMaxFrame {
		err = errors.New("frame exceeds HardMaxFrame")
	}
	if err != nil {
		return errors.Join(errEncode, err)
	}
	if cap(buf) <= maxKeptWriteBuffer {
		c.wbuf = buf
	}
	c.armWriteDeadline()
	if err := writeFrame(c.c, buf, fds); err != nil {
		c.c.Close()
		return err
	}
	return nil
}

// maxKeptWriteBuffer is the largest write buffer a connection keeps for
// its next frame.
const maxKeptWriteBuffer = 64 << 10

// armWriteDeadline moves the connection's write deadline to WriteTimeout
// from now when the one set last has less than seven eighths of
// WriteTimeout left, so that every write gets at least that long while a
// busy connection resets its deadline a few times per WriteTimeout, not
// once per frame.
func (c *conn) armWriteDeadline() {
	now := time.Now()
	if c.armed.Sub(now) >= c.s.opt.WriteTimeout-c.s.opt.WriteTimeout/8 {
		return
	}
	c.armed = now.Add(c.s.opt.WriteTimeout)
	c.c.SetWriteDeadline(c.armed)
}

// writeFrame writes buf, passing fds with its first bytes (SCM_RIGHTS).
func writeFrame(c *net.UnixConn, buf []byte, fds []protocol.FileDescriptor) error {
	if len(fds) == 0 {
		_, err := c.Write(buf)
		return err
	}
	raw := make([]int, len(fds))
	for i, fd := range fds {
		raw[i] = int(fd.File.Fd())
	}
	n, _, err := c.WriteMsgUnix(buf, syscall.UnixRights(raw...), nil)
	if err == nil && n < len(buf) {
		_, err = c.Write(buf[n:])
	}
	runtime.KeepAlive(fds)
	return err
}
