// Package bench compares the CETP runtime with peers in one benchmark run
// (run.sh): a read tool of an application's size, search_orders, called
// through the CETP Consumer client and through the official MCP Go SDK's
// client with the same JSON Schemas and handler, in process, to a child
// process (the Unix-socket binding against MCP's stdio CommandTransport)
// and from 16 callers sharing one connection, with and without a live
// heap in every process; the floors under them (a bare jsonschema/v6
// validate plus the handler, a raw Unix-socket round trip of the same
// sizes); and a durable write call against a bare SQLite insert with the
// same durability setting. It is a module of its own so that the peers
// never become dependencies of cetpgen.
package bench
