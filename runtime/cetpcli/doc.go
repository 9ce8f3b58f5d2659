// Package cetpcli runs the Consumer CLIs that cetpgen generates, one per
// Provider spec.
//
// A generated CLI is data: an App value (the root name, the product and
// one Command per tool with its path, aliases, tool name and flags) and a
// main function that passes it, with the embedded catalog, to Main.
// NewRoot builds the cobra tree from that table; the generator builds the
// same tree from the same value, so the catalog it binds and gates is the
// tree the binary has.
//
// Each leaf command calls its tool through the runtime Consumer client
// (runtime/consumer) over the Unix-socket binding (runtime/binding/unixsock)
// at --socket, whose default is the environment variable App.SocketEnv;
// --timeout bounds the whole call (cliout.DefaultTimeout, as for cetp).
// While the Provider asks its user for a decision, the CLI prints cetp's
// status line under its own name (cliout.NoticeConn).
//
// A call runs under one request ID, new or given with --request-id (a
// UUID). A broken connection is dialed again and the call retried under
// the same ID while --timeout allows, so a write whose answer was lost is
// answered from the Provider's stored outcome instead of running twice.
// Every error names the request ID; one of a call that got no answer adds
// a hint: run the same command again with --request-id and the same
// arguments to get its outcome. The CLI refuses a Provider whose
// negotiated provider_id is not App.ProviderID before it sends arguments
// or launches anything (CLI_WRONG_PROVIDER, exit 3). The
// args object is built from the --json flag (the whole object) and then
// from every flag given on the command line, which sets its property. The
// result is printed as indented JSON on stdout. Every failure is printed as
// a JSON object {"error": {...}} on stderr, and the exit code says who
// failed:
//
//	0  success
//	1  the Provider answered with a CETP error (its code, message, retryable…)
//	2  usage: unknown command or flag, an invalid flag value, a missing
//	   required property, a bad --json, a failed schema query
//	3  the Provider could not be reached, gave no answer, broke the
//	   protocol, or is not the Provider the CLI was generated for
//
// The schema command (runtime/catalog.NewCommand) answers from the catalog
// embedded in the binary.
package cetpcli
