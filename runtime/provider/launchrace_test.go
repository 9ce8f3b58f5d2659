package provider_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/store"
)

// TestConcurrentLaunchesOneDecision launches one confirmation twice at
// once, for an approval and a denial, on memstore and SQLite. The user is
// asked once (the UI would answer the opposite the second time); the
// second Launch gets CONFLICT, never INTERNAL_ERROR; the resumed call gets
// the outcome of the one decision, so a denial never lets the tool run.
func TestConcurrentLaunchesOneDecision(t *testing.T) {
	stores := map[string]func(t *testing.T) store.Store{
		"memstore": func(*testing.T) store.Store { return nil },
		"sqlite":   func(t *testing.T) store.Store { return openSQLite(t) },
	}
	for name, open := range stores {
		for _, approve := range []bool{true, false} {
			t.Run(name+map[bool]string{true: "/approve", false: "/deny"}[approve], func(t *testing.T) {
				concurrentLaunches(t, newFixture(t, fixtureConfig{store: open(t)}), approve)
			})
		}
	}
}

func concurrentLaunches(t *testing.T, f *fixture, approve bool) {
	shown, release := make(chan struct{}), make(chan struct{})
	var asked atomic.Int64
	f.confirm.Approve = func(provider.ConfirmRequest) bool {
		if asked.Add(1) > 1 {
			return !approve // a second dialog would contradict the first
		}
		close(shown)
		<-release
		return approve
	}
	c := f.client(t, callerA)
	id := "7f3c2a90-5b1e-4d2a-9c4e-1a2b3c4d5e6f"
	res, tok := pending(t, f, c, id, "delete_alert", deleteArgs)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	wg.Add(2)
	go func() { defer wg.Done(); errs[0] = f.p.Launch(ctx, callerA, res) }()
	<-shown
	go func() { defer wg.Done(); errs[1] = f.p.Launch(ctx, callerA, res) }()
	// Give the second Launch time to reach the resolution while the first
	// one's dialog is open; if it arrives later it must answer the same.
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	if errs[0] != nil {
		t.Fatalf("first Launch: %v", errs[0])
	}
	var pe *protocol.Error
	if !errors.As(errs[1], &pe) || pe.Code != protocol.CodeConflict {
		t.Fatalf("second Launch = %v, want CONFLICT", errs[1])
	}
	if n := len(f.confirm.Requests()); n != 1 {
		t.Fatalf("the user was asked %d times, want once", n)
	}
	b := c.Execute(ctx, id, "delete_alert", deleteArgs, tok)
	if approve {
		check(t, b, ok2(id))
		effects("delete_alert", 1)(t, f, b)
		return
	}
	check(t, b, err2(protocol.CodeUserCancelled, false, id))
	noEffect("delete_alert")(t, f, b)
}

// TestLaunchLosesToAnotherProcess records a decision behind the
// Provider's back, as another process sharing the store would, while the
// Provider's dialog is open: the Launch answers CONFLICT (not
// INTERNAL_ERROR) and the decision recorded first stands.
func TestLaunchLosesToAnotherProcess(t *testing.T) {
	f := newFixture(t, fixtureConfig{store: openSQLite(t)})
	c := f.client(t, callerA)
	id := "8a3c2a90-5b1e-4d2a-9c4e-1a2b3c4d5e6f"
	res, tok := pending(t, f, c, id, "delete_alert", deleteArgs)
	f.confirm.Approve = func(provider.ConfirmRequest) bool {
		if err := f.st.Decide(context.Background(), res.ID, store.DecisionDenied, f.clock.Now()); err != nil {
			t.Errorf("the other process's decision: %v", err)
		}
		return true
	}
	var pe *protocol.Error
	if err := f.p.Launch(ctx, callerA, res); !errors.As(err, &pe) || pe.Code != protocol.CodeConflict {
		t.Fatalf("Launch = %v, want CONFLICT", err)
	}
	b := c.Execute(ctx, id, "delete_alert", deleteArgs, tok)
	check(t, b, err2(protocol.CodeUserCancelled, false, id))
	noEffect("delete_alert")(t, f, b)
}
