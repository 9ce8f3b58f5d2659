package cliout

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// DefaultTimeout is the default of --timeout of every command-line
// Consumer (cetp and the generated CLIs): the bound of a whole command,
// the user's decision in the Provider's UI and background work included.
const DefaultTimeout = 2 * time.Minute

// TimeoutUsage is the help of their --timeout flag.
const TimeoutUsage = "bound of the whole command, the Provider's confirmation and background work included; 0 for none"

// NoticeConn returns conn with a status line on w, prefixed with the
// program's name, while the Provider asks its user for a decision: the
// decision is taken elsewhere (the Provider's own UI, on the Provider's
// terminal), so the user learns why the command waits, and when it
// resumes. A conn that cannot launch a resolution still cannot
// (consumer.ErrCannotLaunch).
func NoticeConn(conn consumer.Conn, w io.Writer, prog string) consumer.Conn {
	return noticeConn{Conn: conn, w: w, prog: prog}
}

// noticeConn is the Conn of NoticeConn.
type noticeConn struct {
	consumer.Conn
	w    io.Writer
	prog string
}

// Launch implements consumer.Launcher.
func (c noticeConn) Launch(ctx context.Context, r *protocol.Resolution) error {
	l, ok := c.Conn.(consumer.Launcher)
	if !ok {
		return consumer.ErrCannotLaunch
	}
	fmt.Fprintf(c.w, "%s: the Provider asks its user for a decision (resolution %s); waiting for its answer\n", c.prog, Printable(r.ID))
	if err := l.Launch(ctx, r); err != nil {
		return err
	}
	fmt.Fprintf(c.w, "%s: the Provider's UI answered; resuming the call\n", c.prog)
	return nil
}
