package store

import (
	"errors"
	"fmt"
	"time"
)

// ErrUnavailable marks a fault of the store itself: a lost connection, a
// server that shuts down or restarts, a failover, a serialization failure.
// The attempt's transaction rolled back (or its commit may not have been
// acknowledged), so nothing is known to have been stored; the same request
// retried later either runs or finds the record that did commit. Test for
// it with errors.Is; a store reports it as an *UnavailableError.
var ErrUnavailable = errors.New("store: unavailable")

// UnavailableError is a store fault together with how long the store
// suggests waiting before a retry. It satisfies errors.Is(err,
// ErrUnavailable) and unwraps to the driver's error.
type UnavailableError struct {
	// Err is the driver's error.
	Err error
	// RetryAfter is the suggested wait before a retry; zero leaves it to
	// the caller.
	RetryAfter time.Duration
}

// Unavailable wraps err, a fault of the store, as an *UnavailableError.
func Unavailable(err error, retryAfter time.Duration) error {
	return &UnavailableError{Err: err, RetryAfter: retryAfter}
}

// Error implements error.
func (e *UnavailableError) Error() string { return fmt.Sprintf("store unavailable: %v", e.Err) }

// Unwrap returns the driver's error.
func (e *UnavailableError) Unwrap() error { return e.Err }

// Is reports whether target is ErrUnavailable.
func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

// FaultRetryAfter returns the retry delay an error chain suggests when it
// holds an *UnavailableError, and whether it holds one.
func FaultRetryAfter(err error) (time.Duration, bool) {
	var u *UnavailableError
	if !errors.As(err, &u) {
		return 0, false
	}
	return u.RetryAfter, true
}
