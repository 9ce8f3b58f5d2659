// Package cetpcmd is the cetp command: a small CETP v2 Consumer for the
// command line, over the Unix-socket binding (runtime/binding/unixsock)
// and the Consumer client (runtime/consumer). cmd/cetp is its thin main.
//
//	cetp tools [--json]                          the tools of a Provider
//	cetp call TOOL [ARGS|-] [--async|--follow]   call a tool with a JSON object
//	cetp operation get --request-id R --tool T OP_ID   the state of an operation
//	cetp operation cancel --request-id R --tool T OP_ID   ask to cancel an operation
//
// Every command takes --socket (default: the environment variable
// CETP_SOCKET), --timeout, which bounds the whole command (2m by
// default, cliout.DefaultTimeout, as in the generated CLIs), and
// --provider-id, which refuses (CLI_WRONG_PROVIDER, exit 3) a Provider
// whose negotiated provider_id is another, before anything is sent to it.
//
// call prints the result value as indented JSON on stdout. When the
// Provider needs its user's decision (a confirmation, a grant), call
// launches the resolution through the binding: the Provider's own UI asks
// the user (on the Provider's terminal, say), then call resumes the same
// request with the resume token and prints its outcome; a denial is
// USER_CANCELLED. A tool the Provider runs as a background operation is
// followed until it ends (--follow shows a progress line on stderr), or,
// with --async, its handle (operation_id, request_id, tool) is printed at once
// for operation get and cancel. When --timeout passes or SIGINT arrives
// while an operation is followed, the Provider is asked to cancel it, the
// command fails with DEADLINE_EXCEEDED and a note says how to learn how the
// operation ended. --sync leaves async_operations out of the negotiation,
// so the Provider runs a sync_or_async tool synchronously. --request-id
// reuses a request ID: the Provider then answers with the stored outcome
// of that execution instead of running it again (§6).
//
// Every failure is printed as one JSON object {"error": {...}} on stderr,
// and the exit code says who failed:
//
//	0  success
//	1  the Provider answered with a CETP error (its code, message, retryable…)
//	2  usage: unknown command or flag, bad arguments
//	3  no answer: the Provider could not be reached, broke the protocol,
//	   or the command ended (--timeout, SIGINT) before it answered
//
// Everything a Provider sends is untrusted: tool texts are shown with
// their control characters escaped.
package cetpcmd
