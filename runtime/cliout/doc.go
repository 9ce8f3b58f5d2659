// Package cliout is what the command-line Consumers of the runtime share:
// the generated Consumer CLIs (runtime/cetpcli) and cetp
// (runtime/cetpcmd). It holds their standard streams, their exit codes,
// and the one JSON shape in which they report an error on stderr:
//
//	{"error": {"source": "provider"|"cli", "code", "message", "retryable",
//	           "retry_after_ms"?, "request_id"?, "details"?}}
//
// A Provider's text is untrusted: Printable escapes what a terminal would
// interpret.
package cliout
