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
)

// The write tool of the durable-write comparison and the table both sides
// insert into.
const (
	alertIn  = `{"type":"object","properties":{"symbol":{"type":"string"},"price":{"type":"number","exclusiveMinimum":0}},"required":["symbol","price"],"additionalProperties":false}`
	alertOut = `{"type":"object","properties":{"alert_id":{"type":"string"}},"required":["alert_id"]}`
	// alertsDDL is the business table both write benchmarks insert into.
	alertsDDL = `CREATE TABLE IF NOT EXISTS alerts (id INTEGER PRIMARY KEY, request_id TEXT NOT NULL, symbol TEXT NOT NULL, price REAL NOT NULL)`
)

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
