package provider

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"
)

// maxFaultBackoff caps the wait between runs of an operation that store
// faults keep rolling back.
const maxFaultBackoff = 5 * time.Second

// releaseTimeout bounds the release of a lease, which also runs while the
// Provider closes and its base context has ended.
const releaseTimeout = 5 * time.Second

// errNotOurs means another process holds the operation's lease, or the
// operation ended: this process does not run it.
var errNotOurs = errors.New("provider: the operation is run by another process or has ended")

// newOwner names this Provider instance in the leases it holds: host,
// process and 64 random bits, so that two Providers of one process differ
// too.
func newOwner() string {
	host, _ := os.Hostname()
	var b [8]byte
	crand.Read(b[:])
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// leases returns the store's leases when it has them (a shared store).
func (p *Provider) leases() (store.Leases, bool) {
	l, ok := p.opt.Store.(store.Leases)
	return l, ok
}

// startRun marks the operation running: on a shared store by taking its
// lease, which fails (errNotOurs) when another process holds it or it
// ended.
func (p *Provider) startRun(op *liveOp) (bool, error) {
	l, ok := p.leases()
	if !ok {
		if err := p.opt.Store.MarkRunning(p.ops.base, op.key); err != nil {
			return false, err // the store is failing; the operation stays queued
		}
		return true, nil
	}
	lease, got, err := l.AcquireOperation(p.ops.base, op.key, p.ops.owner)
	if err != nil || !got {
		return false, errors.Join(err, errNotOurs)
	}
	op.setLease(&lease)
	return true, nil
}

// keepLease renews the operation's lease every third of its duration
// while it runs. When the lease is found lost (the store was unreachable
// for longer than the lease and another process took the operation over)
// the handler's context is cancelled: its transaction cannot commit
// anyway. The returned function stops the renewal.
func (p *Provider) keepLease(op *liveOp) func() {
	l, ok := p.leases()
	lease := op.currentLease()
	if !ok || lease == nil {
		return func() {}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(max(lease.Duration/3, time.Millisecond))
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-op.ctx.Done():
				return
			case <-tick.C:
				if err := l.RenewOperation(op.ctx, op.key, *lease); errors.Is(err, store.ErrLeaseLost) {
					op.loseLease()
					return
				}
			}
		}
	}()
	return func() { close(stop); <-done }
}

// runStored runs fn as the operation's transaction, fenced by its lease
// on a shared store.
func (p *Provider) runStored(op *liveOp, fn store.TxFunc) (store.Record, bool, error) {
	if l, ok := p.leases(); ok {
		lease := op.currentLease()
		if lease == nil {
			return store.Record{}, false, store.ErrLeaseLost
		}
		return l.RunLeased(p.ops.base, op.key, *lease, p.expiry(), fn)
	}
	return p.opt.Store.RunOperation(p.ops.base, op.key, p.expiry(), fn)
}

// finishStored stores out as the operation's outcome; on a shared store
// under its lease, taken first when the operation holds none (a cancel
// before it started, a recovery that fails it). An operation that
// another process holds is left to it.
func (p *Provider) finishStored(op *liveOp, out store.Outcome) (store.Record, bool, error) {
	l, ok := p.leases()
	if !ok {
		return p.opt.Store.FinishOperation(p.ops.base, op.key, p.expiry(), out)
	}
	if op.currentLease() == nil {
		lease, got, err := l.AcquireOperation(p.ops.base, op.key, p.ops.owner)
		if err != nil || !got {
			return store.Record{}, false, err
		}
		op.setLease(&lease)
	}
	rec, done, err := l.RunLeased(p.ops.base, op.key, *op.currentLease(), p.expiry(), func(context.Context, store.Tx) (store.Outcome, error) {
		return out, nil
	})
	if err == nil {
		op.setLease(nil)
	}
	return rec, done, err
}

// release gives up the operation's lease and puts it back to queued, so
// that it runs again here or in any live process, at once rather than
// after the lease lapses. A release that fails leaves the lease to lapse.
func (p *Provider) release(op *liveOp) {
	l, ok := p.leases()
	lease := op.currentLease()
	if !ok || lease == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	l.ReleaseOperation(ctx, op.key, *lease)
	op.setLease(nil)
}

// sweepLeases runs while the Provider does: every half lease (with
// jitter, so that processes started together do not sweep together) it
// takes up, as far as the pool has room, the operations of the Provider
// whose lease lapsed: their process died, hangs, or lost the store.
func (p *Provider) sweepLeases(l store.Leases) {
	defer p.ops.wg.Done()
	every := max(l.LeaseDuration()/2, 10*time.Millisecond)
	for {
		p.sweepOnce(l)
		t := time.NewTimer(every/2 + rand.N(every))
		select {
		case <-p.ops.base.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

func (p *Provider) sweepOnce(l store.Leases) {
	room := cap(p.ops.sem) - p.ops.count()
	if room <= 0 {
		return
	}
	recs, err := l.UnleasedOperations(p.ops.base, p.desc.ID, room)
	if err != nil {
		return // the store is failing: the next sweep tries again
	}
	for _, rec := range recs {
		p.recoverOne(p.ops.base, rec)
	}
}

// backoff returns the wait before the next run after a store fault: the
// fault's own delay at first, then doubling up to maxFaultBackoff, with
// jitter so that the Providers of one database do not all retry at once.
func backoff(last, suggested time.Duration) time.Duration {
	d := max(suggested, min(2*last, maxFaultBackoff))
	return d/2 + rand.N(d/2+1)
}

// setLease records the lease that this process holds on the operation.
func (o *liveOp) setLease(l *store.Lease) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.lease = l
}

func (o *liveOp) currentLease() *store.Lease {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.lease
}

// loseLease records that another process took the operation over and
// stops the handler.
func (o *liveOp) loseLease() {
	o.mu.Lock()
	o.lost = true
	o.mu.Unlock()
	o.cancel()
}

func (o *liveOp) leaseLost() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.lost
}

// count returns the number of live operations.
func (t *operations) count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.live)
}
