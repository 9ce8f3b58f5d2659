package unixsock

import (
	"context"
	"errors"
	"net"
	"syscall"

	"github.com/cetpgen/cetpgen/runtime/provider"
)

// Peer is the identity of a connected process as the kernel reported it
// (SO_PEERCRED) when the server accepted the connection.
type Peer struct {
	UID int
	GID int
	PID int
}

// IdentifyFunc maps a kernel-reported Peer to the Caller the Provider
// sees, for example to add the packages and certificate digests of the
// UID. An error refuses the connection.
type IdentifyFunc func(Peer) (provider.Caller, error)

// DefaultIdentify returns a Caller with the peer's UID and no packages.
func DefaultIdentify(p Peer) (provider.Caller, error) {
	return provider.Caller{UID: p.UID}, nil
}

// peerCred reads SO_PEERCRED from c. The kernel records the credentials
// of the connecting process at connect(); nothing the peer later writes
// can change them.
func peerCred(c *net.UnixConn) (Peer, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return Peer{}, err
	}
	var cred *syscall.Ucred
	var credErr error
	err = raw.Control(func(fd uintptr) {
		cred, credErr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	})
	if err = errors.Join(err, credErr); err != nil {
		return Peer{}, err
	}
	return Peer{UID: int(cred.Uid), GID: int(cred.Gid), PID: int(cred.Pid)}, nil
}

type peerKey struct{}

// PeerFromContext returns the Peer of the connection a call arrived on,
// for tool handlers and Provider hooks that run under Serve.
func PeerFromContext(ctx context.Context) (Peer, bool) {
	p, ok := ctx.Value(peerKey{}).(Peer)
	return p, ok
}
