// Package pgstore is a store.Store on PostgreSQL, for a Provider that runs
// as several processes or replicas sharing one database. The embedded
// SQLite store stays the default; a Provider selects this one by passing
// the store that Open returns as provider.Options.Store:
//
//	st, err := pgstore.Open(ctx, os.Getenv("CETP_PG_DSN"), pgstore.Options{})
//	...
//	p, err := provider.New(desc, tools, provider.Options{Store: st})
//
// The connection goes through database/sql with the pgx driver
// (github.com/jackc/pgx/v5/stdlib), so a write handler's store.Tx is a
// *sql.Tx on PostgreSQL: its statements use PostgreSQL's $1, $2 ...
// placeholders.
//
// Every Execute is one READ COMMITTED transaction. It first claims the
// deduplication row of its key with INSERT ... ON CONFLICT DO NOTHING (a
// placeholder row in state running, visible to nobody until commit);
// a concurrent attempt on the same key, in this or any other process,
// waits on that row's unique-index entry, and once the first commits it
// reads the committed record (a plain SELECT, which never waits for a
// running operation's row lock) and serves it; only an expired record is
// locked, with SELECT ... FOR UPDATE, to be replaced. The
// attempt that claimed the row then consumes its resume token (a
// conditional UPDATE), runs the handler's own statements and turns the
// placeholder into the terminal record; the commit makes all of it durable
// at once. A crash, or a SIGKILL of the process, before the commit aborts
// the transaction on the server and releases the row, so the next attempt
// runs the handler again from nothing.
//
// An asynchronous operation is a row of the same table. Accept claims it
// as Execute does, in state queued; RunOperation locks it with SELECT ...
// FOR UPDATE, runs the work in that transaction and writes the terminal
// record, so that a concurrent run in any process waits and then finds the
// operation done. Cancellation requests live in a table of their own, so
// that recording one never waits for the running operation's row lock.
//
// A running operation holds a lease (store.Leases) that its process
// renews; when it lapses, a live process of the Provider takes the
// operation over, terminating the former holder's transaction, and the
// run's transaction deletes the lease of its own epoch before it writes
// the outcome, so a former holder cannot commit after a takeover. Faults
// of the server or the connection (a restart, a terminated session, a
// failover, a serialization failure) are returned as store.ErrUnavailable,
// which the engine answers UNAVAILABLE, retryable. A multi-host DSN with
// target_session_attrs=read-write follows a promoted standby.
//
// The schema is created and upgraded by numbered migrations that Open runs
// under a session-level advisory lock, so processes that start together
// migrate once; a database migrated by a newer runtime is refused. Purge
// deletes expired rows in small batches, each skipping rows that an
// attempt holds locked (FOR UPDATE SKIP LOCKED), so it never waits on
// traffic and traffic waits on it for one batch at most.
package pgstore
