// Package cliout is what the command-line Consumers of the runtime share:
// the generated Consumer CLIs (runtime/cetpcli) and cetp
// (runtime/cetpcmd). It holds their standard streams, their exit codes,
// and the one JSON shape in which they report an error on stderr:
//
//	{"error": {"source": "provider"|"cli", "code", "message", "retryable",
//	           "retry_after_ms"?, "request_id"?, "details"?, "hint"?}}
//
// request_id is the ID of the call that failed, for a Provider error and
// for a call that got no answer alike; hint, on the latter, says to run
// the call again under that ID (the Provider then answers with its stored
// outcome) instead of under a new one.
//
// They share more than the error shape: the status line while the
// Provider asks its user for a decision (NoticeConn), the default and the
// help of --timeout (DefaultTimeout, TimeoutUsage), and the position of
// invalid JSON arguments (JSONError).
//
// A Provider's text is untrusted: Printable escapes what a terminal would
// interpret.
package cliout
