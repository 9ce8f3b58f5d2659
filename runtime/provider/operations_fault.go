package provider

import (
	"errors"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/store"
)

// faultRetryAfter is the retry_after_ms of a store fault whose store
// suggests no delay of its own.
const faultRetryAfter = 500 * time.Millisecond

// isStoreFault reports whether err is a fault of the store (a lost
// connection, a restart, a failover, a serialization failure) rather
// than a refusal or a bug: the attempt stored nothing, so the same
// request retried later runs once or gets the record that did commit.
func isStoreFault(err error) bool { return errors.Is(err, store.ErrUnavailable) }

// storeUnavailable is the answer to a call that a store fault ended:
// UNAVAILABLE, retryable (§5), with the delay the store suggests as
// retry_after_ms.
func storeUnavailable(err error) *protocol.Error {
	e := protocol.NewError(protocol.CodeUnavailable, "the Provider's store is unavailable; nothing was committed, retry with the same request ID")
	e.RetryAfter = faultDelay(err)
	return e
}

// faultDelay is the wait that a store fault suggests before a retry.
func faultDelay(err error) time.Duration {
	if d, ok := store.FaultRetryAfter(err); ok && d > 0 {
		return d
	}
	return faultRetryAfter
}

// storeError is the answer to a store error that is no refusal: a fault
// is UNAVAILABLE (storeUnavailable), anything else the retryable
// INTERNAL_ERROR of storeFailure.
func storeError(err error) *protocol.Error {
	if isStoreFault(err) {
		return storeUnavailable(err)
	}
	return storeFailure()
}
