package main

import (
	"context"
	"errors"
	"github.com/cetpgen/cetpgen/runtime/jsonval"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/out/go/alerts"
	"github.com/cetpgen/cetpgen/runtime/authz"
	"github.com/cetpgen/cetpgen/runtime/confirm"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/store/sqlitestore"
)

// fixture is an alertsd Provider in the test process, on a SQLite file of
// its own, and a typed client that calls it as the owner's UID.
type fixture struct {
	st *sqlitestore.Store
	p  *provider.Provider
	c  *alerts.Client
}

// newFixture builds the Provider with alertsd's options; ui is its
// confirmation UI.
func newFixture(t *testing.T, ui provider.Confirmer) *fixture {
	t.Helper()
	st, err := sqlitestore.Open(filepath.Join(t.TempDir(), "alerts.db"), sqlitestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := createSchema(context.Background(), st.DB()); err != nil {
		t.Fatal(err)
	}
	f := &fixture{st: st}
	opt := provider.Options{Store: st, Authorizer: authz.NewOwner(os.Getuid(), alerts.Descriptor().Scopes),
		Confirmer: ui, ConfirmPolicy: confirm.OnlyAlways}
	f.p, err = alerts.New(&handler{db: st.DB(), delay: 4 * time.Millisecond, now: time.Now}, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.p.Close(context.Background()) })
	f.c = f.client(os.Getuid())
	return f
}

// client returns a typed client calling as uid, launching resolutions.
func (f *fixture) client(uid int) *alerts.Client {
	tr := consumer.InProcess{Provider: f.p, Caller: provider.Caller{UID: uid}}
	return alerts.NewClient(consumer.New(tr, consumer.Options{LaunchResolutions: true}))
}

// approve is a Confirmer that approves everything and records what it saw.
type approve struct{ seen []provider.ConfirmRequest }

func (a *approve) Confirm(_ context.Context, req provider.ConfirmRequest) (bool, error) {
	a.seen = append(a.seen, req)
	return true, nil
}

func TestCreateListUpdateDelete(t *testing.T) {
	ui := &approve{}
	f := newFixture(t, ui)
	ctx := context.Background()
	created, err := f.c.CreateAlert(ctx, alerts.CreateAlertInput{Symbol: "600519.SH", Price: jsonval.NumberFromInt(1688)})
	if err != nil || !strings.HasPrefix(created.AlertID, "a_") {
		t.Fatalf("create: %+v, %v", created, err)
	}
	f.c.CreateAlert(ctx, alerts.CreateAlertInput{Symbol: "AAPL", Price: jsonval.NumberFromInt(200)})
	paused := true
	up, err := f.c.UpdateAlert(ctx, alerts.UpdateAlertInput{AlertID: created.AlertID, Paused: &paused,
		Note: alerts.NullableValue("before the earnings")})
	if err != nil || up.Status != alerts.UpdateAlertOutputStatusPaused {
		t.Fatalf("update: %+v, %v", up, err)
	}
	list := listAll(t, f.c, alerts.ListAlertsInput{Symbol: ptr("600519.SH")})
	if len(list) != 1 || list[0].Status != "paused" || list[0].Note.Value != "before the earnings" || list[0].Price != jsonval.NumberFromInt(1688) {
		t.Fatalf("list: %+v", list)
	}
	if _, err := f.c.DeleteAlert(ctx, alerts.DeleteAlertInput{AlertID: created.AlertID}); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if len(ui.seen) != 1 || ui.seen[0].Tool.Name != "delete_alert" || !strings.Contains(string(ui.seen[0].Args), created.AlertID) {
		t.Fatalf("confirmations asked: %+v (only delete_alert, with its args)", ui.seen)
	}
	if rest := listAll(t, f.c, alerts.ListAlertsInput{}); len(rest) != 1 || rest[0].Symbol != "AAPL" {
		t.Fatalf("after delete: %+v", rest)
	}
}

func TestUnknownAlertIsConflict(t *testing.T) {
	f := newFixture(t, &approve{})
	ctx := context.Background()
	paused := false
	_, err := f.c.UpdateAlert(ctx, alerts.UpdateAlertInput{AlertID: "a_missing", Paused: &paused})
	if consumer.CodeOf(err) != protocol.CodeConflict {
		t.Fatalf("update of an unknown alert: %v, want CONFLICT", err)
	}
	_, err = f.c.DeleteAlert(ctx, alerts.DeleteAlertInput{AlertID: "a_missing"})
	if consumer.CodeOf(err) != protocol.CodeConflict {
		t.Fatalf("delete of an unknown alert: %v, want CONFLICT", err)
	}
}

// TestPriceKeptExactly proves a price float64 cannot hold, past its 17
// significant digits and beyond its range, is stored and listed exactly.
func TestPriceKeptExactly(t *testing.T) {
	f := newFixture(t, &approve{})
	ctx := context.Background()
	for _, lit := range []string{"1688.00000000000000000001", "1e400"} {
		price, err := jsonval.ParseNumber(lit)
		if err != nil {
			t.Fatal(err)
		}
		a, err := f.c.CreateAlert(ctx, alerts.CreateAlertInput{Symbol: "EXACT", Price: price})
		if err != nil {
			t.Fatal(err)
		}
		listed := map[string]jsonval.Number{}
		for _, got := range listAll(t, f.c, alerts.ListAlertsInput{}) {
			listed[got.AlertID] = got.Price
		}
		if got, ok := listed[a.AlertID]; !ok || got != price {
			t.Fatalf("created at %s, listed at %s (listed: %v)", lit, got, ok)
		}
	}
}

func TestAutoDenyCancelsDelete(t *testing.T) {
	f := newFixture(t, provider.AutoDeny{})
	ctx := context.Background()
	a, err := f.c.CreateAlert(ctx, alerts.CreateAlertInput{Symbol: "AAPL", Price: jsonval.NumberFromInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.c.DeleteAlert(ctx, alerts.DeleteAlertInput{AlertID: a.AlertID})
	if consumer.CodeOf(err) != protocol.CodeUserCancelled {
		t.Fatalf("denied delete: %v, want USER_CANCELLED", err)
	}
	if n := len(listAll(t, f.c, alerts.ListAlertsInput{})); n != 1 {
		t.Fatalf("%d alerts after a denied delete, want 1", n)
	}
}

func TestOtherUIDIsDenied(t *testing.T) {
	f := newFixture(t, &approve{})
	_, err := f.client(os.Getuid()+1).ListAlerts(context.Background(), alerts.ListAlertsInput{})
	if consumer.CodeOf(err) != protocol.CodePermissionDenied {
		t.Fatalf("another UID: %v, want PERMISSION_DENIED", err)
	}
}

func TestAlertsAreOwnedByTheirCaller(t *testing.T) {
	f := newFixture(t, &approve{})
	ctx := context.Background()
	tr := consumer.InProcess{Provider: f.p, Caller: provider.Caller{UID: os.Getuid(),
		Packages: []provider.CallerPackage{{Name: "com.other.app"}}}}
	other := alerts.NewClient(consumer.New(tr, consumer.Options{}))
	if _, err := other.CreateAlert(ctx, alerts.CreateAlertInput{Symbol: "AAPL", Price: jsonval.NumberFromInt(1)}); err != nil {
		t.Fatal(err)
	}
	if n := len(listAll(t, f.c, alerts.ListAlertsInput{})); n != 0 {
		t.Fatalf("a caller sees %d alerts of another", n)
	}
}

func TestPages(t *testing.T) {
	f := newFixture(t, &approve{})
	ctx := context.Background()
	for i := range 5 {
		if _, err := f.c.CreateAlert(ctx, alerts.CreateAlertInput{Symbol: "S", Price: jsonval.NumberFromInt(int64(i + 1))}); err != nil {
			t.Fatal(err)
		}
	}
	size := jsonval.Int64(2)
	var got []string
	in := alerts.ListAlertsInput{PageSize: &size}
	for range 4 {
		out, err := f.c.ListAlerts(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range out.Alerts {
			got = append(got, a.Price.String())
		}
		if out.NextPageToken == nil {
			break
		}
		in.PageToken = alerts.NullableValue(*out.NextPageToken)
	}
	if len(got) != 5 || got[0] != "5" || got[4] != "1" {
		t.Fatalf("pages gave prices %v, want 5..1 newest first", got)
	}
	_, err := f.c.ListAlerts(ctx, alerts.ListAlertsInput{PageToken: alerts.NullableValue("x")})
	if consumer.CodeOf(err) != protocol.CodeInvalidArgs {
		t.Fatalf("bad page token: %v, want INVALID_ARGS", err)
	}
}

func TestCreateStopsWhenCancelled(t *testing.T) {
	h := &handler{delay: time.Hour, now: time.Now}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := h.CreateAlert(ctx, &provider.Call{}, alerts.CreateAlertInput{Symbol: "AAPL", Price: jsonval.NumberFromInt(1)})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled create: %v", err)
	}
}

func listAll(t *testing.T, c *alerts.Client, in alerts.ListAlertsInput) []alerts.ListAlertsAlert {
	t.Helper()
	out, err := c.ListAlerts(context.Background(), in)
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	return out.Alerts
}

func ptr[T any](v T) *T { return &v }
