package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/store"
)

// Launch runs the user action behind a resolution that this Provider
// returned, as a transport does when the Consumer launches it (the
// analogue of starting the PendingIntent). A confirmation resolution shows
// the Provider's Confirmer and records the user's decision; any other
// resolution goes to the Authorizer. It returns a *protocol.Error with
// PERMISSION_DENIED when caller is not the caller the resolution was made
// for, and CONFLICT when the confirmation was already decided, used or has
// expired.
//
// One resolution gets one decision: Launches of the same resolution run one
// at a time, so a second Launch while the first waits for the user waits
// for it and then answers CONFLICT without asking the user again; the
// first decision stands, and resuming the call (by either Consumer) gets
// its outcome. A Launch that loses the race to record a decision against
// another process sharing the store also answers CONFLICT, never
// INTERNAL_ERROR, and its decision is not recorded.
func (p *Provider) Launch(ctx context.Context, caller Caller, r *protocol.Resolution) error {
	if r == nil {
		return errors.New("provider: launch: nil resolution")
	}
	if err := p.launches.Lock(ctx, r.ID); err != nil {
		return err
	}
	defer p.launches.Unlock(r.ID)
	if p.opt.Store == nil {
		return p.opt.Authorizer.Launch(ctx, caller, r)
	}
	t, err := p.opt.Store.TokenByID(ctx, r.ID)
	if errors.Is(err, store.ErrNotFound) {
		return p.opt.Authorizer.Launch(ctx, caller, r)
	}
	if err != nil {
		return fmt.Errorf("provider: launch %q: %w", r.ID, err)
	}
	if t.Kind != store.TokenConfirm || t.Key.Caller != caller.Key() || t.Key.Provider != p.desc.ID {
		return protocol.NewError(protocol.CodePermissionDenied, "this resolution is not yours")
	}
	now := p.opt.Now()
	if t.Used || t.Decision != store.DecisionPending || !now.Before(t.ExpiresAt) {
		return protocol.NewError(protocol.CodeConflict, "this confirmation is no longer pending")
	}
	tool := p.tools[t.Binding.Tool]
	if tool == nil {
		return fmt.Errorf("provider: launch %q: unknown tool %q", r.ID, t.Binding.Tool)
	}
	ok, err := p.opt.Confirmer.Confirm(ctx, ConfirmRequest{Caller: caller, Tool: tool.info,
		RequestID: t.Key.RequestID, Args: t.Args, ExpiresAt: t.ExpiresAt})
	if err != nil {
		return fmt.Errorf("provider: confirmation UI: %w", err)
	}
	d := store.DecisionDenied
	if ok {
		d = store.DecisionApproved
	}
	err = p.opt.Store.Decide(ctx, r.ID, d, p.opt.Now())
	switch {
	case errors.Is(err, store.ErrTokenUnusable):
		return protocol.NewError(protocol.CodeConflict, "this confirmation was decided elsewhere meanwhile; that decision stands")
	case err != nil:
		return fmt.Errorf("provider: record decision: %w", err)
	}
	return nil
}
