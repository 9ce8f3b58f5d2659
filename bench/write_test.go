package bench

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/sqlitestore"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The read tool of both sides: the same input and output schemas and a
// handler that decodes the symbol and returns a price.
const (
	quoteIn  = `{"type":"object","properties":{"symbol":{"type":"string","maxLength":12}},"required":["symbol"],"additionalProperties":false}`
	quoteOut = `{"type":"object","properties":{"price":{"type":"number"}},"required":["price"]}`
	alertIn  = `{"type":"object","properties":{"symbol":{"type":"string"},"price":{"type":"number","exclusiveMinimum":0}},"required":["symbol","price"],"additionalProperties":false}`
	alertOut = `{"type":"object","properties":{"alert_id":{"type":"string"}},"required":["alert_id"]}`
	// alertsDDL is the business table both write benchmarks insert into.
	alertsDDL = `CREATE TABLE IF NOT EXISTS alerts (id INTEGER PRIMARY KEY, request_id TEXT NOT NULL, symbol TEXT NOT NULL, price REAL NOT NULL)`
)

type quoteArgs struct {
	Symbol string `json:"symbol"`
}

func price(symbol string) float64 { return float64(len(symbol)) + 0.5 }

// quoteTool is the engine's read tool: the quote schemas and a handler
// that decodes the symbol and returns its price.
func quoteTool() provider.Tool {
	return provider.Tool{
		Name: "get_quote", Title: "报价", Description: "查询报价",
		InputSchema: json.RawMessage(quoteIn), OutputSchema: json.RawMessage(quoteOut),
		Annotations: provider.Annotations{Effect: provider.EffectRead, Risk: provider.RiskLow, Idempotent: true,
			Confirmation: provider.ConfirmNever, Execution: provider.ExecSync},
		Handler: func(_ context.Context, _ *provider.Call, args json.RawMessage) (json.RawMessage, error) {
			var in quoteArgs
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, err
			}
			return json.Marshal(map[string]float64{"price": price(in.Symbol)})
		},
	}
}

// newMCPQuoteServer returns an MCP server with the same read tool: the
// same schemas, validated by the SDK's typed AddTool on input and output,
// and the same handler.
func newMCPQuoteServer(tb testing.TB) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "v1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "get_quote", Description: "查询报价",
		InputSchema: schema(tb, quoteIn), OutputSchema: schema(tb, quoteOut)},
		func(_ context.Context, _ *mcp.CallToolRequest, in quoteArgs) (*mcp.CallToolResult, map[string]float64, error) {
			return nil, map[string]float64{"price": price(in.Symbol)}, nil
		})
	return server
}

var ctx = context.Background()

func engine(b *testing.B, tools []provider.Tool, opt provider.Options) *providertest.Client {
	b.Helper()
	p, err := provider.New(provider.Descriptor{ID: "com.example.app", Name: "Example App", Versions: []int{2}}, tools, opt)
	if err != nil {
		b.Fatal(err)
	}
	c := &providertest.Client{P: p, Caller: provider.Caller{UID: 10001}}
	if _, err := c.Negotiate(ctx); err != nil {
		b.Fatal(err)
	}
	return c
}

func mustOK(b *testing.B, r protocol.Bundle) {
	if s, _, _ := r.String(protocol.KeyStatus); s != protocol.StatusSuccess {
		b.Fatalf("call failed: %v", r)
	}
}

// BenchmarkReadEngine is one in-process read-tool call through the CETP
// engine: envelope and session checks, input schema validation, handler,
// output schema validation, response envelope.
func BenchmarkReadEngine(b *testing.B) {
	c := engine(b, []provider.Tool{quoteTool()}, provider.Options{})
	id := providertest.NewRequestID()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		mustOK(b, c.Execute(ctx, id, "get_quote", `{"symbol":"AAPL"}`, ""))
	}
}

// schema decodes the JSON Schema raw for the MCP SDK.
func schema(tb testing.TB, raw string) *jsonschema.Schema {
	tb.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		tb.Fatal(err)
	}
	return &s
}

// BenchmarkReadMCP is one tools/call of the official MCP Go SDK over its
// in-memory transports, with the same schemas (validated by the SDK's
// typed AddTool on input and output) and handler.
func BenchmarkReadMCP(b *testing.B) {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := newMCPQuoteServer(b).Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	args := json.RawMessage(`{"symbol":"AAPL"}`)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_quote", Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("tools/call: %v %v", err, res)
		}
	}
}

// BenchmarkWriteEngine is one durable write call: envelope, schema,
// deduplication lookup, and one SQLite transaction holding the handler's
// insert and the deduplication record with the result (WAL,
// synchronous=FULL).
func BenchmarkWriteEngine(b *testing.B) { benchWriteEngine(b, sqlitestore.SyncFull) }

// BenchmarkWriteEngineNormal is BenchmarkWriteEngine with
// synchronous=NORMAL (WAL): no fsync per commit, so it shows the CPU cost
// of the engine's write path.
func BenchmarkWriteEngineNormal(b *testing.B) { benchWriteEngine(b, sqlitestore.SyncNormal) }

func benchWriteEngine(b *testing.B, sync sqlitestore.Synchronous) {
	st, err := sqlitestore.Open(filepath.Join(b.TempDir(), "cetp.db"), sqlitestore.Options{Synchronous: sync})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if _, err := st.DB().Exec(alertsDDL); err != nil {
		b.Fatal(err)
	}
	c := engine(b, []provider.Tool{{
		Name: "create_alert", Title: "创建价格提醒", Description: "为指定证券创建价格提醒",
		InputSchema: json.RawMessage(alertIn), OutputSchema: json.RawMessage(alertOut),
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
			res, err := call.Tx.ExecContext(ctx, `INSERT INTO alerts (request_id, symbol, price) VALUES (?, ?, ?)`, call.RequestID, in.Symbol, in.Price)
			if err != nil {
				return nil, err
			}
			id, _ := res.LastInsertId()
			return json.RawMessage(`{"alert_id":"a-` + strconv.FormatInt(id, 10) + `"}`), nil
		},
	}}, provider.Options{Store: st})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		mustOK(b, c.Execute(ctx, requestID(i), "create_alert", `{"symbol":"AAPL","price":190.5}`, ""))
	}
}

// BenchmarkWriteBareSQLite is the floor: one autocommitted INSERT of the
// same row into a SQLite file with the same settings (WAL,
// synchronous=FULL).
func BenchmarkWriteBareSQLite(b *testing.B) { benchBareInsert(b, "FULL") }

// BenchmarkWriteBareSQLiteNormal is BenchmarkWriteBareSQLite with
// synchronous=NORMAL (WAL).
func BenchmarkWriteBareSQLiteNormal(b *testing.B) { benchBareInsert(b, "NORMAL") }

func benchBareInsert(b *testing.B, sync string) {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(b.TempDir(), "bare.db")+
		"?_pragma=journal_mode(WAL)&_pragma=synchronous("+sync+")&_pragma=busy_timeout(10000)")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(alertsDDL); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := db.ExecContext(ctx, `INSERT INTO alerts (request_id, symbol, price) VALUES (?, ?, ?)`, requestID(i), "AAPL", 190.5); err != nil {
			b.Fatal(err)
		}
	}
}

// requestID returns a distinct UUID-shaped request ID for iteration i.
func requestID(i int) string {
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", time.Now().Unix()&0xffffffff, i)
}
