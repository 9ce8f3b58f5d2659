package store

import (
	"context"
	"time"
)

// Tombstone is the compact trace a store keeps of a terminal record after
// Purge removed it: its key, its binding (tool and args digest) and its
// operation ID, nothing of its outcome. With it a Provider answers a
// request ID that comes back after its idempotency window with
// RESULT_EXPIRED instead of running it again (§4.4, §5, §6).
type Tombstone struct {
	Key
	Binding
	OperationID string
	// Until is when PurgeTombstones may delete the tombstone.
	Until time.Time
}

// Tombstones is implemented by a store that keeps tombstones. The engine
// calls BuryExpired(now, until) right before Purge(now), so every terminal
// record that Purge removes leaves a tombstone kept until until, and
// PurgeTombstones(now) after it.
type Tombstones interface {
	// BuryExpired writes a tombstone, kept until until, for every
	// terminal record expired at now (those Purge(now) deletes),
	// replacing an older tombstone of the same key, and returns how many
	// it wrote.
	BuryExpired(ctx context.Context, now, until time.Time) (int64, error)
	// Tombstone returns the tombstone of key, or ErrNotFound.
	Tombstone(ctx context.Context, key Key) (Tombstone, error)
	// PurgeTombstones deletes the tombstones whose Until has passed at
	// now and returns how many it deleted.
	PurgeTombstones(ctx context.Context, now time.Time) (int64, error)
}
