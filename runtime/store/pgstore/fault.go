package pgstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"
	"github.com/jackc/pgx/v5/pgconn"
)

// The retry delays a store fault suggests: a lost connection, a restart or
// a failover takes the server (or the new primary) a moment; a
// serialization failure or deadlock clears as soon as the other
// transaction ends.
const (
	retryConnection = 500 * time.Millisecond
	retryConflict   = 50 * time.Millisecond
)

// faultStates are the SQLSTATEs of a fault of the server rather than of
// the statement, with the delay each suggests. Class 08 (connection
// exception) is matched by prefix.
var faultStates = map[string]time.Duration{
	"40001": retryConflict,   // serialization_failure
	"40P01": retryConflict,   // deadlock_detected
	"25006": retryConnection, // read_only_sql_transaction: a standby, before or after a failover
	"53300": retryConnection, // too_many_connections
	"57P01": retryConnection, // admin_shutdown (pg_terminate_backend, a fast or smart shutdown)
	"57P02": retryConnection, // crash_shutdown (an immediate shutdown)
	"57P03": retryConnection, // cannot_connect_now (starting, shutting down, in recovery)
	"58030": retryConnection, // io_error
}

// faultDelay reports whether err is a fault of the store (the server or
// the connection to it) and the retry delay it suggests.
func faultDelay(err error) (time.Duration, bool) {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		if strings.HasPrefix(pe.Code, "08") {
			return retryConnection, true
		}
		d, ok := faultStates[pe.Code]
		return d, ok
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	switch {
	case errors.As(err, &ce), errors.As(err, &ne),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone), errors.Is(err, pgconn.ErrConnClosed),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.EPIPE),
		pgconn.SafeToRetry(err):
		return retryConnection, true
	}
	return 0, false
}

// fault turns err into a store.UnavailableError when it is a fault of the
// store, so that the engine answers UNAVAILABLE, retryable, instead of an
// internal error. An error after the caller's context ended is left
// alone: the engine maps the context's end itself.
func fault(ctx context.Context, err error) error {
	if err == nil || ctx.Err() != nil || errors.Is(err, store.ErrUnavailable) {
		return err
	}
	if d, ok := faultDelay(err); ok {
		return store.Unavailable(err, d)
	}
	return err
}

// brokenTx is the error of a work function that failed inside tx. When the
// error is not itself a store fault, a probe statement tells whether the
// connection under tx still works: a handler that turned the driver's
// error into its own still sees its transaction answered as a store
// fault. The probe of a transaction that a failed statement aborted fails
// with in_failed_sql_transaction, which is no fault.
func brokenTx(ctx context.Context, tx *sql.Tx, err error) error {
	if _, ok := faultDelay(err); ok || ctx.Err() != nil {
		return err
	}
	if _, perr := tx.ExecContext(ctx, `SELECT 1`); perr != nil {
		if _, ok := faultDelay(perr); ok {
			return errors.Join(err, perr)
		}
	}
	return err
}
