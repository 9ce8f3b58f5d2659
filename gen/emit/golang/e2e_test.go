package golang_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/cetpgen/cetpgen/out/go/alerts"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/jsonval"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
)

// alertBook is a hand-written alerts.Handler over a map.
type alertBook struct {
	mu     sync.Mutex
	alerts map[string]alerts.ListAlertsAlert
	calls  int
}

func (b *alertBook) CreateAlert(_ context.Context, _ *provider.Call, in alerts.CreateAlertInput) (alerts.CreateAlertOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls++
	return alerts.CreateAlertOutput{AlertID: "a_" + in.Symbol}, nil
}

func (b *alertBook) DeleteAlert(context.Context, *provider.Call, alerts.DeleteAlertInput) (alerts.DeleteAlertOutput, error) {
	return alerts.DeleteAlertOutput{}, errors.New("not reached: delete_alert needs confirmation")
}

func (b *alertBook) ListAlerts(_ context.Context, _ *provider.Call, in alerts.ListAlertsInput) (alerts.ListAlertsOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls++
	out := alerts.ListAlertsOutput{Alerts: []alerts.ListAlertsAlert{}}
	for _, a := range b.alerts {
		if in.Status == nil || string(a.Status) == string(*in.Status) {
			out.Alerts = append(out.Alerts, a)
		}
	}
	return out, nil
}

func (b *alertBook) UpdateAlert(_ context.Context, _ *provider.Call, in alerts.UpdateAlertInput) (alerts.UpdateAlertOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls++
	a, ok := b.alerts[in.AlertID]
	if !ok {
		return alerts.UpdateAlertOutput{}, protocol.NewError(protocol.CodeConflict, "no alert %s", in.AlertID)
	}
	if in.Paused != nil && *in.Paused {
		a.Status = alerts.ListAlertsAlertStatusPaused
	}
	if in.Note.Set {
		a.Note = in.Note
	}
	b.alerts[in.AlertID] = a
	return alerts.UpdateAlertOutput{AlertID: a.AlertID, Status: alerts.UpdateAlertOutputStatus(a.Status), UpdatedAt: "2026-11-30T00:00:00Z"}, nil
}

// newAlerts serves the generated alerts package on the runtime engine and
// returns its generated Client over the in-process transport.
func newAlerts(t *testing.T) (*alerts.Client, *alertBook) {
	t.Helper()
	book := &alertBook{alerts: map[string]alerts.ListAlertsAlert{"a_1": {
		AlertID: "a_1", Symbol: "600519.SH", Price: jsonval.NumberFromInt(1688), Direction: alerts.ListAlertsAlertDirectionAbove,
		Status: alerts.ListAlertsAlertStatusActive, CreatedAt: "2026-11-29T07:00:00Z",
	}}}
	auth := &providertest.Authorizer{}
	auth.Grant(1000, "alerts.read", "alerts.write")
	p, err := alerts.New(book, provider.Options{Store: memstore.New(), Authorizer: auth,
		ConfirmPolicy: func(context.Context, provider.Caller, provider.ToolInfo, json.RawMessage) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	c := consumer.New(consumer.InProcess{Provider: p, Caller: provider.Caller{UID: 1000}}, consumer.Options{})
	return alerts.NewClient(c), book
}

// TestEndToEnd proves a generated Provider package and its generated
// Client talk through the runtime: typed calls succeed, a handler's
// protocol error and the engine's own errors arrive with their codes, and
// the handler never runs for a call the engine refuses.
func TestEndToEnd(t *testing.T) {
	ctx := context.Background()
	client, book := newAlerts(t)
	up, err := client.UpdateAlert(ctx, alerts.UpdateAlertInput{AlertID: "a_1", Paused: ptr(true), Note: alerts.NullableValue("hold")})
	if err != nil || up.Status != alerts.UpdateAlertOutputStatusPaused {
		t.Fatalf("update: %+v, %v", up, err)
	}
	status := alerts.ListAlertsInputStatusPaused
	list, err := client.ListAlerts(ctx, alerts.ListAlertsInput{Status: &status})
	if err != nil || len(list.Alerts) != 1 || list.Alerts[0].Note.Value != "hold" || list.NextPageToken != nil {
		t.Fatalf("list: %+v, %v", list, err)
	}
	// create_alert is sync_or_async: the Provider accepts it as an
	// operation and the Client follows it to its result.
	created, err := client.CreateAlert(ctx, alerts.CreateAlertInput{Symbol: "X", Price: jsonval.NumberFromInt(1)})
	if err != nil || created.AlertID != "a_X" {
		t.Fatalf("create: %+v, %v", created, err)
	}
	errorPaths := []struct {
		call func() error
		want protocol.Code
	}{
		{func() error {
			_, err := client.UpdateAlert(ctx, alerts.UpdateAlertInput{AlertID: "nope", Paused: ptr(true)})
			return err
		}, protocol.CodeConflict},
		{func() error {
			_, err := client.UpdateAlert(ctx, alerts.UpdateAlertInput{AlertID: "a_1", Price: ptr(jsonval.NumberFromInt(-1))})
			return err
		}, protocol.CodeInvalidArgs},
		{func() error { _, err := client.DeleteAlert(ctx, alerts.DeleteAlertInput{AlertID: "a_1"}); return err }, protocol.CodeUserActionRequired},
		{func() error {
			_, err := client.CreateAlert(ctx, alerts.CreateAlertInput{Symbol: "X", Price: jsonval.Number{}})
			return err
		}, protocol.CodeInvalidArgs},
	}
	for i, e := range errorPaths {
		if got := consumer.CodeOf(e.call()); got != e.want {
			t.Errorf("error path %d: got %q, want %s", i, got, e.want)
		}
	}
	if book.calls != 4 {
		t.Errorf("handler ran %d times, want 4 (update, list, create, the update that failed)", book.calls)
	}
}

// TestClientCallerIdentity proves the scopes are checked per caller: an
// unknown caller is refused before the handler.
func TestClientCallerIdentity(t *testing.T) {
	_, book := newAlerts(t)
	p, err := alerts.New(book, provider.Options{Store: memstore.New()})
	if err != nil {
		t.Fatal(err)
	}
	c := alerts.NewClient(consumer.New(consumer.InProcess{Provider: p, Caller: provider.Caller{UID: 2000}}, consumer.Options{}))
	_, err = c.ListAlerts(context.Background(), alerts.ListAlertsInput{})
	if consumer.CodeOf(err) != protocol.CodePermissionDenied || book.calls != 0 {
		t.Fatalf("got %v after %d handler calls", err, book.calls)
	}
}

func ptr[T any](v T) *T { return &v }

// TestRevisionPinned proves that the generated Provider answers list_tools
// with the revision its package pins (Revision), the one the generated
// catalog records.
func TestRevisionPinned(t *testing.T) {
	auth := &providertest.Authorizer{}
	auth.Grant(1000, "alerts.read", "alerts.write")
	p, err := alerts.New(&alertBook{}, provider.Options{Store: memstore.New(), Authorizer: auth})
	if err != nil {
		t.Fatal(err)
	}
	c := consumer.New(consumer.InProcess{Provider: p, Caller: provider.Caller{UID: 1000}}, consumer.Options{})
	l, err := c.ListTools(context.Background())
	if err != nil || l.Revision != alerts.Revision || c.Revision() != alerts.Revision {
		t.Fatalf("list_tools revision %q (%v), the package pins %q", l.Revision, err, alerts.Revision)
	}
}
