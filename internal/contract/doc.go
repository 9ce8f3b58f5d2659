// Package contract holds the independent check of the project's wire
// contract: a CETP v2 Consumer in Python (standard library only) written
// from docs/binding-unix.md, docs/protocol.md and docs/consumer.md alone,
// never from the Go code of runtime/binding, runtime/consumer or
// runtime/provider, and a test that runs it against examples/alertsd
// started as the README starts it. The files:
//
//   - cetp_wire.py: frames, bundle sections and the binary Bundle format
//     of docs/binding-unix.md, and a connection that reads with recvmsg
//     and queues SCM_RIGHTS descriptors;
//   - consumer_check.py: the checks, one per promise of the docs (the
//     handshake, list_tools, a read, a write retried under its request
//     ID, the request ID reused with other arguments, malformed frames,
//     an unknown method, confirmation, the error shape, rate limiting,
//     background operations and their cancellation, descriptors a client
//     passes, a connection closed with a write running, the v1 subset,
//     file results and their descriptors, shutdown on SIGTERM);
//   - contract_test.go: builds alertsd, starts two of them on temporary
//     sockets (one whose writes take 300 ms, one without delay for the
//     400 writes of the large-result checks) and runs consumer_check.py
//     against them.
//
// The test needs python3 and fails, not skips, when it is missing. When
// the docs and the server disagree, the docs are the contract: the check
// is never bent to the server.
package contract
