// Package store defines the durable record a CETP Provider keeps: the
// deduplication records of §6 with their terminal results, and the
// single-use resume tokens of §4.3.
//
// The central operation is Store.Execute: it looks up the record of a
// request, consumes a resume token if one is given, runs the handler's own
// business change and writes the terminal record, all in one transaction.
// A crash at any point therefore either loses the whole attempt or keeps
// all of it; a retry with the same request ID then runs once or gets the
// stored result.
//
// The embedded default is package sqlitestore (one SQLite file); package
// memstore is a non-durable implementation for tests. The interface is kept
// free of SQLite specifics so that a PostgreSQL implementation for
// replicated Providers can follow, and records carry an operation ID and a
// state set that leave room for asynchronous operations, cancellation and
// stored large results.
package store
