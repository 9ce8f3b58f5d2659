// Package bench compares the CETP runtime with peers in one benchmark run:
// an in-process read-tool call through the Provider engine against an
// in-memory tools/call of the official MCP Go SDK with the same schemas and
// handler, and a durable write call against a bare SQLite insert with the
// same durability setting. It is a module of its own so that the peers
// never become dependencies of cetpgen. Run ./run.sh.
package bench
