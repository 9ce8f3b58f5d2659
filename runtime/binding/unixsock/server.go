package unixsock

import (
	"context"
	"errors"
	"net"
	"os"
	"sync"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// Handler is what a server calls for each request. *provider.Provider
// implements it; a wrapper may add behaviour in front of the engine.
type Handler interface {
	Call(ctx context.Context, caller provider.Caller, method string, extras protocol.Bundle) protocol.Bundle
	Launch(ctx context.Context, caller provider.Caller, r *protocol.Resolution) error
}

// Defaults of Options.
const (
	DefaultMaxConns       = 64
	DefaultMaxConnsPerUID = 16
	DefaultMaxInFlight    = 32
	DefaultRetryAfter     = 100 * time.Millisecond
	DefaultMaxRequest     = 1 << 20
	DefaultWriteTimeout   = 30 * time.Second
	DefaultShutdownGrace  = 5 * time.Second
	DefaultSocketFileMode = 0o666
)

// Options configure a server. The zero value is usable.
type Options struct {
	// Identify maps the kernel's peer credentials to a Caller; it
	// defaults to DefaultIdentify.
	Identify IdentifyFunc
	// MaxConns bounds the open connections; a connection past it is
	// closed at once. It defaults to DefaultMaxConns.
	MaxConns int
	// MaxConnsPerUID bounds the open connections of one UID, so that one
	// local user cannot take every connection; a connection past it is
	// closed at once. It defaults to DefaultMaxConnsPerUID.
	MaxConnsPerUID int
	// MaxInFlight bounds the calls and launches running at once on one
	// connection; one more is answered RATE_LIMITED at once. Twice it
	// bounds the answers of a connection not yet written: past that the
	// server stops reading the connection until one is. It defaults to
	// DefaultMaxInFlight.
	MaxInFlight int
	// RetryAfter is the retry_after_ms of that RATE_LIMITED answer; it
	// defaults to DefaultRetryAfter.
	RetryAfter time.Duration
	// MaxRequest bounds a frame a client sends, length prefix excluded;
	// it must exceed the Provider's max_request_bytes plus the envelope.
	// It defaults to DefaultMaxRequest and never exceeds HardMaxFrame.
	MaxRequest int
	// WriteTimeout bounds the writing of one response; a client that does
	// not read loses its connection. The connection's one write deadline
	// is moved forward only when less than seven eighths of it is left,
	// so a write that blocks fails after between 7/8 WriteTimeout and
	// WriteTimeout. It defaults to DefaultWriteTimeout.
	WriteTimeout time.Duration
	// ShutdownGrace is how long running calls may go on after the serving
	// context ends before their contexts are cancelled. It defaults to
	// DefaultShutdownGrace.
	ShutdownGrace time.Duration
}

// withDefaults returns o with every zero field set to its default.
func (o Options) withDefaults() Options {
	if o.Identify == nil {
		o.Identify = DefaultIdentify
	}
	o.MaxConns = positive(o.MaxConns, DefaultMaxConns)
	o.MaxConnsPerUID = positive(o.MaxConnsPerUID, DefaultMaxConnsPerUID)
	o.MaxInFlight = positive(o.MaxInFlight, DefaultMaxInFlight)
	o.MaxRequest = min(positive(o.MaxRequest, DefaultMaxRequest), HardMaxFrame)
	if o.RetryAfter <= 0 {
		o.RetryAfter = DefaultRetryAfter
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.ShutdownGrace <= 0 {
		o.ShutdownGrace = DefaultShutdownGrace
	}
	return o
}

func positive(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// Listen creates a SOCK_STREAM Unix socket at path with file mode perm
// (DefaultSocketFileMode lets every local UID connect; the identity of
// each comes from the kernel). A stale socket file at path, one nobody
// listens on, is removed first; a live socket or any other file there is
// an error.
func Listen(path string, perm os.FileMode) (*net.UnixListener, error) {
	if err := removeStale(path); err != nil {
		return nil, err
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, perm); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// removeStale removes a socket file at path that no server listens on.
func removeStale(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil // nothing there, or ListenUnix reports the problem
	}
	if fi.Mode()&os.ModeSocket == 0 {
		return errors.New("unixsock: " + path + " exists and is not a socket")
	}
	if c, err := net.Dial("unix", path); err == nil {
		c.Close()
		return errors.New("unixsock: a server already listens on " + path)
	}
	return os.Remove(path)
}

// Serve answers CETP calls for p on every connection ln accepts until ctx
// ends. It then closes ln, stops reading requests, lets running calls
// finish (cancelling their contexts after Options.ShutdownGrace), closes
// every connection and returns nil. It returns the listener's error when
// accepting fails for another reason.
func Serve(ctx context.Context, ln *net.UnixListener, p *provider.Provider, opt Options) error {
	return ServeHandler(ctx, ln, p, opt)
}

// ServeHandler is Serve for any Handler.
func ServeHandler(ctx context.Context, ln *net.UnixListener, h Handler, opt Options) error {
	s := newServer(ctx, h, opt.withDefaults())
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	err := s.acceptLoop(ctx, ln)
	s.conns.Wait()
	s.cancelHard()
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// server is the state Serve shares with its connections.
type server struct {
	h          Handler
	opt        Options
	slots      chan struct{}
	conns      sync.WaitGroup
	hard       context.Context // the parent of every call's context
	cancelHard context.CancelFunc

	mu     sync.Mutex
	perUID map[int]int // open connections by UID
}

// newServer returns a server whose call contexts end ShutdownGrace after
// ctx.
func newServer(ctx context.Context, h Handler, opt Options) *server {
	s := &server{h: h, opt: opt, slots: make(chan struct{}, opt.MaxConns), perUID: map[int]int{}}
	s.hard, s.cancelHard = context.WithCancel(context.WithoutCancel(ctx))
	context.AfterFunc(ctx, func() { time.AfterFunc(opt.ShutdownGrace, s.cancelHard) })
	return s
}

// acceptLoop accepts connections until ln fails or is closed.
func (s *server) acceptLoop(ctx context.Context, ln *net.UnixListener) error {
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return err
			}
			time.Sleep(10 * time.Millisecond) // EMFILE and the like: back off
			continue
		}
		select {
		case s.slots <- struct{}{}:
			s.conns.Add(1)
			go s.serveConn(ctx, c)
		default:
			c.Close()
		}
	}
}

// serveConn identifies the peer once, then serves the connection.
func (s *server) serveConn(ctx context.Context, c *net.UnixConn) {
	defer func() { <-s.slots; s.conns.Done() }()
	defer c.Close()
	peer, err := peerCred(c)
	if err != nil || !s.admit(peer.UID) {
		return
	}
	defer s.leave(peer.UID)
	caller, err := s.opt.Identify(peer)
	if err != nil {
		return
	}
	sc := newConn(s, c, peer, caller)
	stop := context.AfterFunc(ctx, func() { c.SetReadDeadline(time.Now()) })
	defer stop()
	sc.readLoop()
	sc.calls.Wait()
}

// admit counts a connection of uid, unless uid has MaxConnsPerUID open.
func (s *server) admit(uid int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.perUID[uid] >= s.opt.MaxConnsPerUID {
		return false
	}
	s.perUID[uid]++
	return true
}

// leave uncounts a connection of uid.
func (s *server) leave(uid int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.perUID[uid]--; s.perUID[uid] == 0 {
		delete(s.perUID, uid)
	}
}
