package provider_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore/pgtest"
)

// TestPostgresAvailable is the one test of this package that fails, with
// the command to run, when no PostgreSQL test database is configured.
func TestPostgresAvailable(t *testing.T) { pgtest.Require(t) }

// runCasesPostgres runs conformance cases again on one PostgreSQL store,
// emptied before each case. Without a database it adds nothing:
// TestPostgresAvailable reports that.
func runCasesPostgres(t *testing.T, cases []conformanceCase) {
	if !pgtest.Available() {
		return
	}
	t.Run("postgres", func(t *testing.T) {
		st := pgtest.Open(t)
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				pgtest.Reset(t, st)
				cfg := tc.cfg
				cfg.store = st
				runCase(t, tc, cfg)
			})
		}
	})
}

// pgDDL is the business schema of the PostgreSQL-backed test Providers.
const pgDDL = `CREATE TABLE IF NOT EXISTS alerts (id bigserial PRIMARY KEY, request_id text NOT NULL, symbol text NOT NULL);
CREATE TABLE IF NOT EXISTS effects (request_id text PRIMARY KEY, n integer NOT NULL)`

// pgHandler is create_alert on PostgreSQL: it inserts the alert, then
// bumps a per-request effect counter, both in the store's transaction.
// Symbol CONFLICT is a terminal business error. With selfKill it kills its
// own process between the two statements, one time in four; delay holds
// the open transaction that long before the second statement.
func pgHandler(runs *atomic.Int64, selfKill bool, delay time.Duration) provider.Handler {
	return func(ctx context.Context, call *provider.Call, args json.RawMessage) (json.RawMessage, error) {
		runs.Add(1)
		var in struct{ Symbol string }
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, err
		}
		if in.Symbol == "CONFLICT" {
			return nil, protocol.NewError(protocol.CodeConflict, "alert already exists")
		}
		id, err := pgInsertAlert(ctx, call, in.Symbol)
		if err != nil {
			return nil, err
		}
		if selfKill && rand.IntN(4) == 0 {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
		time.Sleep(delay)
		if _, err := call.Tx.ExecContext(ctx, `INSERT INTO effects (request_id, n) VALUES ($1, 1)
ON CONFLICT (request_id) DO UPDATE SET n = effects.n + 1`, call.RequestID); err != nil {
			return nil, err
		}
		return json.RawMessage(fmt.Sprintf(`{"alert_id":"a-%d"}`, id)), nil
	}
}

func pgInsertAlert(ctx context.Context, call *provider.Call, symbol string) (int64, error) {
	rows, err := call.Tx.QueryContext(ctx, `INSERT INTO alerts (request_id, symbol) VALUES ($1, $2) RETURNING id`, call.RequestID, symbol)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var id int64
	if !rows.Next() {
		return 0, errors.Join(errors.New("INSERT returned no row"), rows.Err())
	}
	if err := rows.Scan(&id); err != nil {
		return 0, err
	}
	return id, rows.Close()
}

// pgProvider is the create_alert Provider of the PostgreSQL tests.
func pgProvider(st *pgstore.Store, h provider.Handler, maxConcurrent int) (*provider.Provider, error) {
	return provider.New(provider.Descriptor{ID: providerA, Name: "Example App", Versions: []int{2},
		Limits: provider.Limits{MaxConcurrentRequests: maxConcurrent}},
		[]provider.Tool{{
			Name: "create_alert", Title: "创建价格提醒", Description: "为指定证券创建价格提醒",
			InputSchema: json.RawMessage(alertIn), OutputSchema: json.RawMessage(alertOut),
			Annotations: writes(provider.EffectCreate, provider.ConfirmNever), Handler: h,
		}}, provider.Options{Store: st})
}

// pgSchema returns a fresh schema's DSN with the business tables created.
func pgSchema(t testing.TB) string {
	t.Helper()
	dsn := pgtest.Schema(t)
	st := pgtest.OpenDSN(t, dsn)
	if _, err := st.DB().Exec(pgDDL); err != nil {
		t.Fatal(err)
	}
	return dsn
}

// pgVerify proves from the database that each request of sent that made
// an alert made it once with one effect, and that the acknowledged result
// of each is the alert the database holds.
func pgVerify(t *testing.T, st *pgstore.Store, acked map[string]string) {
	t.Helper()
	db := st.DB()
	var dup, maxN, alerts, effects int
	if err := db.QueryRow(`SELECT
 (SELECT COUNT(*) FROM (SELECT request_id FROM alerts GROUP BY request_id HAVING COUNT(*) > 1) d),
 (SELECT COALESCE(MAX(n), 0) FROM effects), (SELECT COUNT(*) FROM alerts), (SELECT COUNT(*) FROM effects)`).
		Scan(&dup, &maxN, &alerts, &effects); err != nil {
		t.Fatal(err)
	}
	if dup != 0 || maxN > 1 || alerts != len(acked) || effects != len(acked) {
		t.Fatalf("%d requests with several alerts, max effect count %d, %d alerts, %d effects, %d acknowledged",
			dup, maxN, alerts, effects, len(acked))
	}
	for id, data := range acked {
		var alert int64
		if err := db.QueryRow(`SELECT id FROM alerts WHERE request_id = $1`, id).Scan(&alert); err != nil {
			t.Fatalf("request %s: %v", id, err)
		}
		if want := fmt.Sprintf(`{"kind":"inline","value":{"alert_id":"a-%d"}}`, alert); data != want {
			t.Fatalf("request %s acknowledged %s, database holds %s", id, data, want)
		}
	}
}

// successData returns the data of a success envelope, or an error naming
// the envelope.
func successData(b protocol.Bundle) (string, error) {
	if s, _, _ := b.String(protocol.KeyStatus); s != protocol.StatusSuccess {
		return "", fmt.Errorf("not a success: %v", b)
	}
	d, _, _ := b.String(protocol.KeyData)
	return d, nil
}
