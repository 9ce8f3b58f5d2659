// Package serve runs a generated Go Provider as a server in one call:
//
//	func main() {
//		serve.Main(serve.Server{
//			Name:       "notesd",
//			Descriptor: notes.Descriptor(),
//			Tools: func(env serve.Env) ([]provider.Tool, error) {
//				return notes.Tools(&handler{}), nil
//			},
//		})
//	}
//
// Main parses the command line every server shares (Flags: --socket,
// --db, --socket-mode, --log-format, --grants, --auto-deny, plus the
// server's own), opens the store the --db DSN names (a SQLite file by
// default, postgres://… for the shared store, through storeopen), builds
// the engine with ready building blocks (the server's UID holds every
// scope, a --grants file adds other callers, confirmations are asked on
// the terminal or denied), serves the Unix-socket binding and stops
// gracefully on SIGINT or SIGTERM: the socket stops accepting, running
// calls finish, background operations stop and stay in the store for the
// next start, and the store is closed. A second signal ends the process at
// once.
//
// Every execute_tool call is logged with log/slog on stderr (text or
// JSON): the caller's UID, the tool, the request ID, the outcome and the
// authorization and confirmation results, never an argument value
// (CETP v2 §7.2). A failed call also says what a Provider author needs to
// fix it: the handler's error and the code it became, an error code the
// protocol does not know, the first output-schema violation with its
// instance and keyword pointers, or, for a call denied for its scopes, the
// missing scopes and how to grant them.
//
// serve takes the generated package's Descriptor and Tools rather than
// its New (which is provider.New(Descriptor(), Tools(h), opt)) because it
// wraps each tool's handler to see what it returned.
package serve
