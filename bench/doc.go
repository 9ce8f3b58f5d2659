// Package bench compares the CETP runtime with peers in one benchmark run:
// an in-process read-tool call through the Provider engine against an
// in-memory tools/call of the official MCP Go SDK with the same schemas and
// handler, and a durable write call against a bare SQLite insert with the
// same durability setting (run.sh); and the calls per second of the same
// read tool through a consumer.Client in process, over the Unix socket
// binding with one or many connections, and through the MCP Go SDK over OS
// pipes (socket.sh). It is a module of its own so that the peers never
// become dependencies of cetpgen.
package bench
