package cetpcmd

import (
	"context"
	"os"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"github.com/cetpgen/cetpgen/runtime/consumer"
)

// SocketEnv is the environment variable that names the Provider socket
// when --socket is not given.
const SocketEnv = "CETP_SOCKET"

// Conn is a connection to a Provider: a Consumer transport that can launch
// the Provider's resolutions and closes.
type Conn interface {
	consumer.Transport
	consumer.Launcher
	Close() error
}

// Env is what cetp needs from its process. Zero fields take the process's
// own: the standard streams and environment (cliout.Stdio), the
// Unix-socket binding, and whether stderr is a terminal.
type Env struct {
	cliout.Stdio
	// Dial connects to the Provider listening at socket.
	Dial func(ctx context.Context, socket string) (Conn, error)
	// Terminal, when set, says whether stderr is a terminal, where the
	// progress line is redrawn in place.
	Terminal *bool
}

func (e Env) dial(ctx context.Context, socket string) (Conn, error) {
	if e.Dial == nil {
		return unixsock.DialContext(ctx, socket, unixsock.ClientOptions{})
	}
	return e.Dial(ctx, socket)
}

// terminal reports whether stderr is a terminal.
func (e Env) terminal() bool {
	if e.Terminal != nil {
		return *e.Terminal
	}
	f, ok := e.Err().(*os.File)
	return ok && cliout.IsTerminal(f)
}
