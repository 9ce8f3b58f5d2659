package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The read tool every peer benchmark calls: search_orders, with a schema
// of the size an application's tool has (typed fields, an enum, a range,
// a nested object; an array of objects in the result), the same JSON
// Schemas and the same handler on both sides.
const (
	ordersIn = `{"type":"object","properties":{` +
		`"customer_id":{"type":"string","minLength":3,"maxLength":32},` +
		`"status":{"type":"string","enum":["open","shipped","delivered","cancelled"]},` +
		`"limit":{"type":"integer","minimum":1,"maximum":50},` +
		`"include_items":{"type":"boolean"},` +
		`"placed":{"type":"object","properties":{"from":{"type":"string","maxLength":10},"to":{"type":"string","maxLength":10}},` +
		`"required":["from"],"additionalProperties":false}},` +
		`"required":["customer_id","status","limit","placed"],"additionalProperties":false}`
	ordersOut = `{"type":"object","properties":{` +
		`"customer":{"type":"object","properties":{"id":{"type":"string"},"tier":{"type":"string","enum":["basic","gold"]}},"required":["id","tier"]},` +
		`"orders":{"type":"array","maxItems":50,"items":{"type":"object","properties":{` +
		`"id":{"type":"string"},"status":{"type":"string","enum":["open","shipped","delivered","cancelled"]},` +
		`"total":{"type":"number","minimum":0},"items":{"type":"integer","minimum":0}},` +
		`"required":["id","status","total","items"],"additionalProperties":false}},` +
		`"truncated":{"type":"boolean"}},"required":["customer","orders","truncated"]}`
)

// ordersArgs are the arguments of every benchmarked call.
var ordersArgs = json.RawMessage(`{"customer_id":"C-10042","status":"shipped","limit":3,"include_items":true,"placed":{"from":"2026-01-01","to":"2026-06-30"}}`)

// badOrdersArgs break the input schema (an unknown status).
var badOrdersArgs = json.RawMessage(`{"customer_id":"C-10042","status":"lost","limit":3,"placed":{"from":"2026-01-01"}}`)

type ordersQuery struct {
	CustomerID   string `json:"customer_id"`
	Status       string `json:"status"`
	Limit        int    `json:"limit"`
	IncludeItems bool   `json:"include_items,omitempty"`
	Placed       struct {
		From string `json:"from"`
		To   string `json:"to,omitempty"`
	} `json:"placed"`
}

type order struct {
	ID     string  `json:"id"`
	Status string  `json:"status"`
	Total  float64 `json:"total"`
	Items  int     `json:"items"`
}

type ordersPage struct {
	Customer struct {
		ID   string `json:"id"`
		Tier string `json:"tier"`
	} `json:"customer"`
	Orders    []order `json:"orders"`
	Truncated bool    `json:"truncated"`
}

// searchOrders is the handler of both sides.
func searchOrders(q ordersQuery) ordersPage {
	var p ordersPage
	p.Customer.ID, p.Customer.Tier = q.CustomerID, "gold"
	for i := range q.Limit {
		p.Orders = append(p.Orders, order{ID: fmt.Sprintf("%s-%d", q.CustomerID, i+1), Status: q.Status,
			Total: 19.5 * float64(i+1), Items: i + 2})
	}
	p.Truncated = q.Limit < 50
	return p
}

// ordersTool is the CETP tool: the handler decodes its arguments and
// encodes its result with encoding/json, as a generated server does.
func ordersTool() provider.Tool {
	return provider.Tool{
		Name: "search_orders", Title: "Search orders", Description: "Orders of a customer by status and date",
		InputSchema: json.RawMessage(ordersIn), OutputSchema: json.RawMessage(ordersOut),
		Annotations: provider.Annotations{Effect: provider.EffectRead, Risk: provider.RiskLow, Idempotent: true,
			Confirmation: provider.ConfirmNever, Execution: provider.ExecSync},
		Handler: func(_ context.Context, _ *provider.Call, args json.RawMessage) (json.RawMessage, error) {
			var q ordersQuery
			if err := json.Unmarshal(args, &q); err != nil {
				return nil, err
			}
			return json.Marshal(searchOrders(q))
		},
	}
}

// newOrdersProvider returns a Provider serving ordersTool that lets one
// caller run 64 calls at once.
func newOrdersProvider() (*provider.Provider, error) {
	return provider.New(provider.Descriptor{ID: "com.example.shop", Name: "Shop", Versions: []int{2},
		Limits: provider.Limits{MaxConcurrentRequests: 64}},
		[]provider.Tool{ordersTool()}, provider.Options{})
}

// ordersProvider is newOrdersProvider for a test.
func ordersProvider(tb testing.TB) *provider.Provider {
	tb.Helper()
	p, err := newOrdersProvider()
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// ordersMCPServer returns an MCP server with the same tool: the same
// schemas, against which the SDK's typed AddTool validates input and
// output, and the same handler.
func ordersMCPServer() *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "v1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "search_orders", Description: "Orders of a customer by status and date",
		InputSchema: mustSchema(ordersIn), OutputSchema: mustSchema(ordersOut)},
		func(_ context.Context, _ *mcp.CallToolRequest, q ordersQuery) (*mcp.CallToolResult, ordersPage, error) {
			return nil, searchOrders(q), nil
		})
	return server
}

// mustSchema decodes the JSON Schema raw for the MCP SDK.
func mustSchema(raw string) *jsonschema.Schema {
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		panic(err)
	}
	return &s
}
