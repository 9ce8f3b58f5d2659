// Package sqlitestore is the embedded default store.Store: one SQLite file
// in WAL mode, opened through the pure-Go modernc.org/sqlite driver (no
// cgo, no server).
//
// Every Execute is one BEGIN IMMEDIATE transaction that holds the
// deduplication lookup, the resume-token use, the handler's own business
// statements and the terminal record, so a crash at any point keeps all or
// nothing of an attempt. Within a process write transactions are
// serialised by a mutex; across processes SQLite's lock and busy timeout
// do it.
//
// The deduplication table has no index on its expiry: every write would pay
// one more page, and Purge, which runs rarely, scans instead.
package sqlitestore
