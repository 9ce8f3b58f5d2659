package cetpcmd

import (
	"context"
	"fmt"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"io"

	"github.com/cetpgen/cetpgen/runtime/protocol"
)

// noticeConn is a Conn that tells the user on stderr when a resolution is
// launched, since the decision is taken elsewhere: in the Provider's own
// UI, on the Provider's terminal.
type noticeConn struct {
	Conn
	w io.Writer
}

// Launch implements consumer.Launcher.
func (c noticeConn) Launch(ctx context.Context, r *protocol.Resolution) error {
	fmt.Fprintf(c.w, "cetp: the Provider asks its user for a decision (resolution %s); waiting for its answer\n", cliout.Printable(r.ID))
	if err := c.Conn.Launch(ctx, r); err != nil {
		return err
	}
	fmt.Fprintln(c.w, "cetp: the Provider's UI answered; resuming the call")
	return nil
}
