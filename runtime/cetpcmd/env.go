package cetpcmd

import (
	"context"
	"io"
	"os"
	"syscall"
	"unsafe"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
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
// own: os.Stdin, os.Stdout, os.Stderr, os.Getenv and the Unix-socket
// binding; Terminal reports whether stderr is a terminal.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// Dial connects to the Provider listening at socket.
	Dial func(ctx context.Context, socket string) (Conn, error)
	// Terminal, when set, says whether stderr is a terminal, where the
	// progress line is redrawn in place.
	Terminal *bool
}

func (e Env) stdin() io.Reader {
	if e.Stdin == nil {
		return os.Stdin
	}
	return e.Stdin
}

func (e Env) stdout() io.Writer {
	if e.Stdout == nil {
		return os.Stdout
	}
	return e.Stdout
}

func (e Env) stderr() io.Writer {
	if e.Stderr == nil {
		return os.Stderr
	}
	return e.Stderr
}

func (e Env) getenv(key string) string {
	if e.Getenv == nil {
		return os.Getenv(key)
	}
	return e.Getenv(key)
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
	f, ok := e.stderr().(*os.File)
	return ok && isTerminal(f)
}

// isTerminal reports whether f is a terminal (TCGETS succeeds on it).
func isTerminal(f *os.File) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}
