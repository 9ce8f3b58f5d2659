package golang_test

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/out/go/alerts"
	broker "github.com/cetpgen/cetpgen/out/go/brokerage"
	"github.com/cetpgen/cetpgen/out/go/fitness"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/store/memstore"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// instance is a valid input or output of a tool and the round trip
// through its generated type.
type instance struct {
	tool, side, json string
	trip             func([]byte) ([]byte, error)
}

// trip decodes data into T and encodes it back.
func trip[T any](data []byte) ([]byte, error) {
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

func in[T any](tool, data string) instance  { return instance{tool, "input", data, trip[T]} }
func out[T any](tool, data string) instance { return instance{tool, "output", data, trip[T]} }

// instances cover every example tool: absent, null and present optional
// members, enums, date-times, maps, $ref types and both union variants.
var instances = []instance{
	in[alerts.CreateAlertInput]("create_alert", `{"symbol":"600519.SH","price":1688.5}`),
	out[alerts.CreateAlertOutput]("create_alert", `{"alert_id":"a_1"}`),
	in[alerts.DeleteAlertInput]("delete_alert", `{"alert_id":"a_1"}`),
	out[alerts.DeleteAlertOutput]("delete_alert", `{"alert_id":"a_1","deleted":true}`),
	in[alerts.ListAlertsInput]("list_alerts", `{}`),
	in[alerts.ListAlertsInput]("list_alerts", `{"symbol":"600519.SH","status":"active","page_size":20,"page_token":null}`),
	in[alerts.ListAlertsInput]("list_alerts", `{"page_token":"p2"}`),
	out[alerts.ListAlertsOutput]("list_alerts", `{"alerts":[{"alert_id":"a_1","symbol":"600519.SH","price":1688,"direction":"above","status":"active","note":null,"created_at":"2026-11-29T07:00:00+08:00","triggered_at":null},{"alert_id":"a_2","symbol":"X","price":0.5,"direction":"below","status":"triggered","created_at":"2026-11-29T07:00:00.123Z","triggered_at":"2026-11-30T01:02:03Z"}],"next_page_token":null}`),
	in[alerts.UpdateAlertInput]("update_alert", `{"alert_id":"a_1","note":null,"paused":true}`),
	in[alerts.UpdateAlertInput]("update_alert", `{"alert_id":"a_1","note":"n","price":2,"direction":"below"}`),
	out[alerts.UpdateAlertOutput]("update_alert", `{"alert_id":"a_1","status":"paused","updated_at":"2026-11-29T07:00:00Z"}`),
	in[broker.CancelOrderInput]("cancel_order", `{"order_id":"o1"}`),
	out[broker.CancelOrderOutput]("cancel_order", `{"order_id":"o1","state":"cancelled","cancelled_quantity":10}`),
	in[broker.ExportStatementsInput]("export_statements", `{"from":"2026-01-01T00:00:00Z","to":"2026-06-30T23:59:59Z","kinds":["tax_summary"]}`),
	out[broker.ExportStatementsOutput]("export_statements", `{"account_id":"acc","documents":[{"kind":"monthly_statement","period_start":"2026-01-01T00:00:00Z","period_end":"2026-01-31T23:59:59Z","lines":[{"date":"2026-01-02T00:00:00Z","description":"Fee","amount":-1.5,"balance":100.25},{"date":"2026-01-03T00:00:00Z","description":"In","amount":10}]}]}`),
	in[broker.GetPortfolioInput]("get_portfolio", `{"include_closed_today":true}`),
	out[broker.GetPortfolioOutput]("get_portfolio", `{"account":{"account_id":"a","holder_name":"H","account_type":"cash","base_currency":"USD"},"positions":[{"symbol":"AAPL.US","quantity":10,"average_cost":{"amount":150.5,"currency":"USD"},"market_value":{"amount":1900,"currency":"USD"},"unrealized_pnl":{"amount":395,"currency":"USD"},"closed_today":false}],"cash":{"USD":1000.5,"HKD":0},"total_value":{"amount":2900.5,"currency":"USD"},"as_of":"2026-11-29T07:00:00Z"}`),
	in[broker.GetQuoteInput]("get_quote", `{"symbol":"AAPL.US"}`),
	out[broker.GetQuoteOutput]("get_quote", `{"symbol":"AAPL.US","currency":"USD","last":190.1,"bid":null,"ask":190.2,"volume":123456,"status":"open","as_of":"2026-11-29T15:00:00Z","delay_seconds":900}`),
	in[broker.PlaceOrderInput]("place_order", `{"symbol":"AAPL.US","side":"buy","quantity":10,"pricing":{"kind":"limit","limit_price":187.5},"client_note":null}`),
	in[broker.PlaceOrderInput]("place_order", `{"symbol":"AAPL.US","side":"sell","quantity":1,"pricing":{"kind":"market"},"time_in_force":"gtc"}`),
	in[broker.PlaceOrderInput]("place_order", `{"symbol":"AAPL.US","side":"sell","quantity":1,"pricing":{"kind":"stop_limit","stop_price":180,"limit_price":179.5},"client_note":"x"}`),
	out[broker.PlaceOrderOutput]("place_order", `{"order_id":"o1","state":"filled","filled_quantity":10,"average_fill_price":187.4,"fees":{"commission":1,"exchange_fee":0.02,"currency":"USD"},"rejection_reason":null,"submitted_at":"2026-11-29T15:00:00Z"}`),
	in[fitness.DeleteWorkoutInput]("delete_workout", `{"workout_id":"w1"}`),
	out[fitness.DeleteWorkoutOutput]("delete_workout", `{"workout_id":"w1","deleted_at":"2026-11-29T07:00:00Z"}`),
	in[fitness.ExportHealthDataInput]("export_health_data", `{"since":null,"include_sleep":false}`),
	out[fitness.ExportHealthDataOutput]("export_health_data", `{"generated_at":"2026-11-29T07:00:00Z","profile":{"nickname":"n","birth_year":null,"height_cm":180.5},"workouts":[{"workout_id":"w","sport":"run","started_at":"2026-11-29T07:00:00Z","duration_seconds":1800,"distance_m":null}],"daily_metrics":{"2026-11-28":{"steps":1000,"resting_heart_rate":null,"sleep_stages":{"deep":90}},"2026-11-29":{"steps":0,"sleep_stages":null}}}`),
	in[fitness.ListWorkoutsInput]("list_workouts", `{"since":"2026-11-01T00:00:00Z","sports":["run","swim"],"limit":10}`),
	out[fitness.ListWorkoutsOutput]("list_workouts", `{"workouts":[{"workout_id":"w","started_at":"2026-11-29T07:00:00Z","duration_seconds":60,"calories_kcal":null,"heart_rate_zones_seconds":{"z1":10},"source":{"kind":"device","device_name":null},"detail":{"sport":"swim","pool_length_m":25,"laps":4,"strokes":["freestyle"]}},{"workout_id":"r","started_at":"2026-11-29T07:00:00Z","duration_seconds":60,"source":{"kind":"manual"},"detail":{"sport":"run","distance_m":5000,"elevation_gain_m":null}},{"workout_id":"b","started_at":"2026-11-29T07:00:00Z","duration_seconds":60,"source":{"kind":"import"},"detail":{"sport":"ride","distance_m":1,"average_power_w":200}}],"truncated":false}`),
	in[fitness.LogWorkoutInput]("log_workout", `{"sport":"ride","started_at":"2026-11-29T07:00:00+08:00","duration_seconds":3600,"distance_m":null,"notes":"x"}`),
	out[fitness.LogWorkoutOutput]("log_workout", `{"workout_id":"w","created_at":"2026-11-29T07:00:00Z"}`),
	in[fitness.SyncWearableInput]("sync_wearable", `{"device_id":null,"full_resync":true}`),
	out[fitness.SyncWearableOutput]("sync_wearable", `{"devices":[{"device_id":"d","model":"m","battery_percent":null,"imported_workouts":2,"last_synced_at":"2026-11-29T07:00:00Z","error":null}]}`),
	in[fitness.UpdatePreferencesInput]("update_preferences", `{"units":"imperial","notifications":{"weekly_report":false},"weekly_goal":null}`),
	in[fitness.UpdatePreferencesInput]("update_preferences", `{"weekly_goal":{"active_minutes":150}}`),
	out[fitness.UpdatePreferencesOutput]("update_preferences", `{"units":"metric","notifications":{},"weekly_goal":{"active_minutes":150,"distance_km":5.5},"updated_at":"2026-11-29T07:00:00Z"}`),
}

// exampleTools maps each example tool name to its IR.
func exampleTools(t *testing.T) map[string]*ir.Tool {
	tools := map[string]*ir.Tool{}
	for _, p := range load(t, "../../../specs/alerts", "../../../specs/brokerage", "../../../specs/fitness") {
		for _, tool := range p.Tools {
			tools[tool.Name] = tool
		}
	}
	return tools
}

// TestRoundTrip proves that each valid instance (checked against the
// tool's schema) decodes into the generated type and encodes back to the
// same JSON value, and that every example tool has a case on both sides.
func TestRoundTrip(t *testing.T) {
	tools := exampleTools(t)
	covered := map[string]bool{}
	for _, c := range instances {
		tool := tools[c.tool]
		schema := tool.Input
		if c.side == "output" {
			schema = tool.Output
		}
		mustValidate(t, schema.JSON, c.json)
		got, err := c.trip([]byte(c.json))
		if err != nil || !sameJSON(t, got, []byte(c.json)) {
			t.Errorf("%s %s: round trip\n got %s, %v\nwant %s", c.tool, c.side, got, err, c.json)
		}
		covered[c.tool+" "+c.side] = true
	}
	for name := range tools {
		if !covered[name+" input"] || !covered[name+" output"] {
			t.Errorf("tool %s lacks a round-trip case", name)
		}
	}
}

// mustValidate fails unless instance is valid against schema.
func mustValidate(t *testing.T, schema []byte, instance string) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem://schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem://schema.json")
	if err != nil {
		t.Fatal(err)
	}
	v, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(instance)))
	if err := sch.Validate(v); err != nil {
		t.Fatalf("test instance %s is invalid: %v", instance, err)
	}
}

// sameJSON compares two JSON texts as decoded values.
func sameJSON(t *testing.T, a, b []byte) bool {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

// rejects are invalid arguments, per Provider: the runtime must answer
// INVALID_ARGS before any handler runs (the handlers here are nil and
// would fail with INTERNAL_ERROR if called).
var rejects = map[string][][2]string{
	"alerts": {
		{"update_alert", `{"alert_id":"a","price":0}`}, {"update_alert", `{"alert_id":"a","paused":true,"extra":1}`},
		{"list_alerts", `{"page_size":0}`}, {"list_alerts", `{"status":"gone"}`},
		{"update_alert", `{"alert_id":"a"}`}, {"delete_alert", `{}`},
		{"create_alert", `{"symbol":"X","price":0}`}, {"create_alert", `{"symbol":"X"}`},
	},
	"brokerage": {
		{"get_quote", `{"symbol":"aapl"}`}, {"get_quote", `{}`}, {"cancel_order", `{"order_id":""}`},
		{"get_portfolio", `{"include_closed_today":"yes"}`},
	},
	"fitness": {
		{"log_workout", `{"sport":"run","started_at":"2026-11-29T07:00:00Z","duration_seconds":10}`},
		{"update_preferences", `{}`}, {"update_preferences", `{"weekly_goal":{"active_minutes":-1}}`},
		{"list_workouts", `{}`}, {"list_workouts", `{"since":"2026-11-01T00:00:00Z","sports":["ski"]}`},
	},
}

// TestInvalidRejected proves invalid instances never reach a handler.
func TestInvalidRejected(t *testing.T) {
	engines := map[string]func(provider.Options) (*provider.Provider, error){
		"alerts":    func(o provider.Options) (*provider.Provider, error) { return alerts.New(struct{ alerts.Handler }{}, o) },
		"brokerage": func(o provider.Options) (*provider.Provider, error) { return broker.New(struct{ broker.Handler }{}, o) },
		"fitness": func(o provider.Options) (*provider.Provider, error) {
			return fitness.New(struct{ fitness.Handler }{}, o)
		},
	}
	for name, newEngine := range engines {
		p, err := newEngine(provider.Options{Store: memstore.New()})
		if err != nil {
			t.Fatal(err)
		}
		c := consumer.New(consumer.InProcess{Provider: p, Caller: provider.Caller{UID: 1000}}, consumer.Options{})
		for _, r := range rejects[name] {
			_, err := c.ExecuteTool(context.Background(), r[0], json.RawMessage(r[1]))
			if consumer.CodeOf(err) != protocol.CodeInvalidArgs {
				t.Errorf("%s %s: got %v, want INVALID_ARGS", r[0], r[1], err)
			}
		}
	}
}
