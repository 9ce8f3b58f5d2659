// Package unixsock is the local CETP binding over Unix domain sockets, the
// Go analogue of Android's ContentProvider.call().
//
// A Provider process serves a *provider.Provider on a listening SOCK_STREAM
// Unix socket with Serve. The caller's identity comes from the kernel: the
// server reads SO_PEERCRED once, when it accepts a connection, and passes
// that UID to every Provider.Call on the connection, as Android passes
// Binder.getCallingUid(). Nothing a client writes can change it.
//
// A Consumer process reaches the Provider with Dial, whose *Transport
// implements consumer.Transport. Every message is a length-prefixed frame;
// several calls may be in flight on one connection and their responses may
// arrive in any order, matched by request number. A FileDescriptor value in
// a response travels as a passed descriptor (SCM_RIGHTS), the analogue of
// a ParcelFileDescriptor. A Consumer launches a resolution it received with
// (*Transport).Launch; the server hands it to Provider.Launch, whose UI
// returns the user's decision.
//
// The framing, the Bundle encoding and the limits are specified in
// docs/binding-unix.md, precisely enough to write a client in another
// language.
package unixsock
