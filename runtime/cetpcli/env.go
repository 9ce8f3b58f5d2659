package cetpcli

import (
	"context"
	"errors"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"github.com/cetpgen/cetpgen/runtime/consumer"
)

// Conn is a connection to a Provider: a Consumer transport that closes.
type Conn interface {
	consumer.Transport
	Close() error
}

// Env is what a CLI needs from its process. Zero fields take the process's
// own: the standard streams and environment (cliout.Stdio) and the
// Unix-socket binding.
type Env struct {
	cliout.Stdio
	// Catalog opens the embedded catalog for the schema command.
	Catalog func() (*catalog.Catalog, error)
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

func (e Env) dial(ctx context.Context, socket string) (Conn, error) {
	if e.Dial == nil {
		return unixsock.DialContext(ctx, socket, unixsock.ClientOptions{})
	}
	return e.Dial(ctx, socket)
}
