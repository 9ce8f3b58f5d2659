package store

import (
	"context"
	"errors"
	"time"
)

// ErrLeaseLost means the lease named in a call is no longer the
// operation's lease: it expired and another process took the operation
// over, or it was released. The call stored nothing.
var ErrLeaseLost = errors.New("store: operation lease lost")

// Lease is one process's hold on an operation that it runs. The process
// renews it while the handler runs; once it lapses, another process of
// the same Provider may take the operation over.
type Lease struct {
	// Epoch is the fencing token: every acquisition of the operation's
	// lease gets a greater one, and only the holder of the current epoch
	// can store the operation's outcome.
	Epoch int64
	// Duration is how long the lease lasts from its acquisition or last
	// renewal, measured by the store's clock.
	Duration time.Duration
}

// Leases is implemented by a store that several processes of one
// Provider share. It replaces recovery at start-up: an operation that
// nobody runs (its process died, hangs or lost the store) is taken over
// by a live process once its lease lapses, and the former holder is
// fenced off, so that its business change cannot commit after the
// takeover.
type Leases interface {
	// AcquireOperation gives owner a new lease on the operation of key:
	// a queued one (just accepted, or released) becomes running; a
	// running one whose lease lapsed is taken over, and the store ends
	// the former holder's transaction where it can. ok is false, with no
	// error, when the operation is terminal or another lease holds it.
	AcquireOperation(ctx context.Context, key Key, owner string) (l Lease, ok bool, err error)
	// RenewOperation extends l by its duration; ErrLeaseLost when l is no
	// longer the operation's lease.
	RenewOperation(ctx context.Context, key Key, l Lease) error
	// ReleaseOperation puts the running operation of key back to queued
	// and ends l at once, so that any live process runs it again: its
	// transaction rolled back on a store fault or a shutdown. It does
	// nothing when l is no longer the operation's lease.
	ReleaseOperation(ctx context.Context, key Key, l Lease) error
	// RunLeased is RunOperation fenced by l: fn's outcome is stored, and
	// the lease ended, in fn's transaction, only while l is the
	// operation's lease; otherwise it rolls back with ErrLeaseLost.
	RunLeased(ctx context.Context, key Key, l Lease, expiresAt time.Time, fn TxFunc) (rec Record, ran bool, err error)
	// UnleasedOperations returns the non-terminal operations of provider
	// that no live lease holds, oldest first, at most limit of them.
	UnleasedOperations(ctx context.Context, provider string, limit int) ([]Record, error)
	// LeaseDuration is the duration of the leases that AcquireOperation
	// gives.
	LeaseDuration() time.Duration
}
