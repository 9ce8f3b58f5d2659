// Package store defines the durable record a CETP Provider keeps: the
// deduplication records of §6 with their terminal results, the
// single-use resume tokens of §4.3, and the background operations of
// async_operations and cancellation (queued, running, cancel requested,
// progress, terminal outcome).
//
// The central operation is Store.Execute: it looks up the record of a
// request, consumes a resume token if one is given, runs the handler's own
// business change and writes the terminal record, all in one transaction.
// A crash at any point therefore either loses the whole attempt or keeps
// all of it; a retry with the same request ID then runs once or gets the
// stored result. RunOperation does the same for an accepted operation.
//
// What ships, all checked by the shared suite in package storetest:
//
//   - sqlitestore, the embedded default: one SQLite file, pure Go; it
//     keeps Tombstones (the trace of purged records, so an expired request
//     ID is answered RESULT_EXPIRED, never run again).
//   - pgstore: PostgreSQL, for a Provider that runs as several processes
//     or replicas sharing one database; it keeps Tombstones and implements
//     Leases, so a live process takes over the operation of a dead one.
//   - memstore: in memory, for tests; nothing survives the process and its
//     transaction offers no SQL. It keeps Tombstones.
//   - storeopen: chooses sqlitestore or pgstore from one DSN.
//
// A large result (§4.5) is stored with its record (Outcome.File), so a
// retry or a later get_operation is served a fresh file of the same
// content.
package store
