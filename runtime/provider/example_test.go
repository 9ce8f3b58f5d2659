package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/sqlitestore"
)

// grantAll is an Authorizer for the example: every caller holds every
// scope.
type grantAll struct{ provider.DenyAll }

func (grantAll) Scopes(context.Context, provider.Caller) ([]string, error) {
	return []string{"alerts.write"}, nil
}

// This is the shape generated code targets: a Descriptor, one Tool per
// spec file with its schemas, scopes, annotations and a handler that makes
// its business change in the store's transaction, and a Provider that a
// transport calls with the caller it captured.
func ExampleNew() {
	dir, _ := os.MkdirTemp("", "cetp-example")
	defer os.RemoveAll(dir)
	st, err := sqlitestore.Open(filepath.Join(dir, "app.db"), sqlitestore.Options{})
	if err != nil {
		panic(err)
	}
	defer st.Close()
	st.DB().Exec(`CREATE TABLE alerts (id INTEGER PRIMARY KEY, symbol TEXT, price REAL)`)

	p, err := provider.New(provider.Descriptor{
		ID: "com.example.app", Name: "Example App", Description: "管理价格提醒和自选列表",
		Scopes: []provider.Scope{{Name: "alerts.write", Title: "管理价格提醒", Description: "创建、修改和删除提醒",
			Access: provider.AccessWrite, Sensitivity: provider.SensitivityFinancial}},
		Versions: []int{1, 2},
	}, []provider.Tool{{
		Name: "create_alert", Title: "创建价格提醒", Description: "为指定证券创建价格提醒",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"symbol":{"type":"string"},"price":{"type":"number","exclusiveMinimum":0}},"required":["symbol","price"],"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"alert_id":{"type":"string"}},"required":["alert_id"]}`),
		Scopes:       []string{"alerts.write"},
		Annotations: provider.Annotations{Effect: provider.EffectCreate, Risk: provider.RiskModerate,
			Confirmation: provider.ConfirmNever, Execution: provider.ExecSync},
		Handler: func(ctx context.Context, call *provider.Call, args json.RawMessage) (json.RawMessage, error) {
			var in struct {
				Symbol string  `json:"symbol"`
				Price  float64 `json:"price"`
			}
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, err
			}
			res, err := call.Tx.ExecContext(ctx, `INSERT INTO alerts (symbol, price) VALUES (?, ?)`, in.Symbol, in.Price)
			if err != nil {
				return nil, err
			}
			id, _ := res.LastInsertId()
			return json.RawMessage(`{"alert_id":"a-` + strconv.FormatInt(id, 10) + `"}`), nil
		},
	}}, provider.Options{Store: st, Authorizer: grantAll{}})
	if err != nil {
		panic(err)
	}

	c := &providertest.Client{P: p, Caller: provider.Caller{UID: 10001}}
	c.Negotiate(context.Background())
	id := providertest.NewRequestID()
	for range 2 { // a retry with the same request ID gets the stored result
		b := c.Execute(context.Background(), id, "create_alert", `{"symbol":"AAPL","price":190.5}`, "")
		data, _, _ := b.String(protocol.KeyData)
		fmt.Println(data)
	}
	// Output:
	// {"kind":"inline","value":{"alert_id":"a-1"}}
	// {"kind":"inline","value":{"alert_id":"a-1"}}
}
