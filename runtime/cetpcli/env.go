package cetpcli

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/cetpgen/cetpgen/runtime/consumer"
)

// Conn is a connection to a Provider: a Consumer transport that closes.
type Conn interface {
	consumer.Transport
	Close() error
}

// Env is what a CLI needs from its process. Zero fields take the process's
// own: os.Stdin, os.Stdout, os.Stderr, os.Getenv and the Unix-socket
// binding.
type Env struct {
	// Catalog opens the embedded catalog for the schema command.
	Catalog func() (*catalog.Catalog, error)
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Getenv  func(string) string
	// Dial connects to the Provider listening at socket.
	Dial func(ctx context.Context, socket string) (Conn, error)
}

// errNoCatalog answers a schema query in a tree built without a catalog.
var errNoCatalog = errors.New("this command tree has no catalog")

func (e Env) catalog() func() (*catalog.Catalog, error) {
	if e.Catalog == nil {
		return func() (*catalog.Catalog, error) { return nil, errNoCatalog }
	}
	return e.Catalog
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
