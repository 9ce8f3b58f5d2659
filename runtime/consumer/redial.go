package consumer

import (
	"context"
	"errors"
	"sync"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// Conn is a Transport over a connection that can break and be closed: a
// Unix-socket connection, say.
type Conn interface {
	Transport
	Close() error
}

// Redialer is a Transport that dials its connection when it needs one and
// dials again after the connection broke, so that the Client's retry of a
// call under the same request ID (after a *TransportError) reaches the
// Provider on a fresh connection. It launches resolutions when the
// connection can. It is safe for concurrent use.
type Redialer struct {
	dial func(ctx context.Context) (Conn, error)

	mu   sync.Mutex
	conn Conn
}

// Redial returns a Redialer that connects with dial.
func Redial(dial func(ctx context.Context) (Conn, error)) *Redialer {
	return &Redialer{dial: dial}
}

// Connect dials now unless a connection is open, so that a caller can
// report an unreachable Provider before it sends anything.
func (r *Redialer) Connect(ctx context.Context) error {
	_, err := r.current(ctx)
	return err
}

// current returns the open connection, dialing one if there is none.
func (r *Redialer) current(ctx context.Context) (Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conn != nil {
		return r.conn, nil
	}
	c, err := r.dial(ctx)
	if err != nil {
		return nil, err
	}
	r.conn = c
	return c, nil
}

// broken closes c and forgets it, unless another call replaced it.
func (r *Redialer) broken(c Conn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conn == c {
		r.conn = nil
	}
	c.Close()
}

// Call implements Transport. A failure that is not the caller's context
// ending drops the connection, so the next call dials again.
func (r *Redialer) Call(ctx context.Context, method string, extras protocol.Bundle) (protocol.Bundle, error) {
	c, err := r.current(ctx)
	if err != nil {
		return nil, err
	}
	resp, err := c.Call(ctx, method, extras)
	if err != nil && ctx.Err() == nil {
		r.broken(c)
	}
	return resp, err
}

// Launch implements Launcher when the connection does.
func (r *Redialer) Launch(ctx context.Context, res *protocol.Resolution) error {
	c, err := r.current(ctx)
	if err != nil {
		return err
	}
	l, ok := c.(Launcher)
	if !ok {
		return ErrCannotLaunch
	}
	err = l.Launch(ctx, res)
	var pe *protocol.Error
	if err != nil && ctx.Err() == nil && !errors.As(err, &pe) {
		r.broken(c)
	}
	return err
}

// Close closes the current connection, if any.
func (r *Redialer) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conn == nil {
		return nil
	}
	err := r.conn.Close()
	r.conn = nil
	return err
}
