package provider

import (
	"context"
	"time"
)

// DefaultPurgeEvery is the default of Options.PurgeEvery.
const DefaultPurgeEvery = time.Hour

// purgeLoop calls Purge every Options.PurgeEvery until the Provider is
// closed. A failed purge is retried at the next tick; records stay past
// their window meanwhile, which §6 allows.
func (p *Provider) purgeLoop() {
	defer p.ops.wg.Done()
	tick := time.NewTicker(p.opt.PurgeEvery)
	defer tick.Stop()
	for {
		select {
		case <-p.ops.base.Done():
			return
		case <-tick.C:
			ctx, cancel := context.WithTimeout(p.ops.base, p.opt.PurgeEvery)
			p.Purge(ctx)
			cancel()
		}
	}
}

// startPurging starts purgeLoop when the Provider has a store and
// PurgeEvery is positive.
func (p *Provider) startPurging() {
	if p.opt.Store == nil || p.opt.PurgeEvery <= 0 {
		return
	}
	p.ops.wg.Add(1)
	go p.purgeLoop()
}
