package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/store"
)

// DefaultTombstoneTTL is the default of Options.TombstoneTTL.
const DefaultTombstoneTTL = 30 * 24 * time.Hour

// After its idempotency window a request ID is not run again (§4.4, §5,
// §6): a deduplicated execute_tool or a get_operation whose record is
// past its window answers RESULT_EXPIRED, both while the record is still
// stored and, on a store that implements store.Tombstones (memstore,
// sqlitestore), after Purge removed it: Purge leaves a tombstone (key,
// tool, args digest, operation ID; nothing of the outcome) kept for
// Options.TombstoneTTL after the purge. Past that, or on a store without
// tombstones, a purged request ID is unknown again. A request ID reused
// with other content still answers INVALID_REQUEST.

// expiredCall returns RESULT_EXPIRED (or INVALID_REQUEST for other
// content) when the request ID of x was used and its window has passed,
// or nil when the call may go on.
func (p *Provider) expiredCall(ctx context.Context, x *execution) *protocol.Error {
	rec, err := p.opt.Store.Get(ctx, x.storeKey())
	switch {
	case err == nil:
		if !rec.State.Terminal() || p.opt.Now().Before(rec.ExpiresAt) {
			return nil
		}
		return expiredAnswer(rec.Binding, x.argsBinding())
	case !errors.Is(err, store.ErrNotFound):
		return storeError(err)
	}
	t, found, err := p.tombstone(ctx, x.storeKey())
	switch {
	case err != nil:
		return storeError(err)
	case !found:
		return nil
	}
	return expiredAnswer(t.Binding, x.argsBinding())
}

// expiredAnswer is RESULT_EXPIRED for the same content, INVALID_REQUEST
// for other content under the same request ID.
func expiredAnswer(stored, presented store.Binding) *protocol.Error {
	if stored != presented {
		return bindingMismatch()
	}
	return resultExpired()
}

func resultExpired() *protocol.Error {
	return protocol.NewError(protocol.CodeResultExpired, "this request_id is past its idempotency window; its result is no longer kept")
}

// tombstone returns the tombstone of key on a store that keeps them.
func (p *Provider) tombstone(ctx context.Context, key store.Key) (store.Tombstone, bool, error) {
	ts, ok := p.opt.Store.(store.Tombstones)
	if !ok {
		return store.Tombstone{}, false, nil
	}
	t, err := ts.Tombstone(ctx, key)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return t, false, nil
	case err != nil:
		return t, false, err
	}
	return t, true, nil
}

// purgedOperation reports whether operation id of key was purged after
// its window, leaving a tombstone: get_operation and cancel_operation
// then answer RESULT_EXPIRED instead of INVALID_REQUEST.
func (p *Provider) purgedOperation(ctx context.Context, key store.Key, id string) bool {
	t, found, err := p.tombstone(ctx, key)
	return err == nil && found && t.OperationID != "" && t.OperationID == id
}

// bury writes the tombstones of the records Purge(now) is about to
// delete, and deletes the tombstones past their time.
func (p *Provider) bury(ctx context.Context, now time.Time) (int64, error) {
	ts, ok := p.opt.Store.(store.Tombstones)
	if !ok {
		return 0, nil
	}
	if _, err := ts.BuryExpired(ctx, now, now.Add(p.opt.TombstoneTTL)); err != nil {
		return 0, fmt.Errorf("provider %s: tombstones: %w", p.desc.ID, err)
	}
	n, err := ts.PurgeTombstones(ctx, now)
	if err != nil {
		return n, fmt.Errorf("provider %s: purge tombstones: %w", p.desc.ID, err)
	}
	return n, nil
}
