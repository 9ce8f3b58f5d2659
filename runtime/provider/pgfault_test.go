package provider_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore/pgtest"
)

// terminatingHandler is create_alert whose first run of each request
// reports the server process of its transaction's connection on pids and
// waits until the test has terminated that process; its next statement
// then fails. wrap selects whether the handler passes the driver's error
// on (%w) or replaces it with its own text, as a handler that hides
// driver errors does.
func terminatingHandler(pids chan<- int, terminated <-chan struct{}, wrap bool) provider.Handler {
	seen := map[string]bool{}
	return func(ctx context.Context, call *provider.Call, args json.RawMessage) (json.RawMessage, error) {
		id, err := pgInsertAlert(ctx, call, "AAPL")
		if err != nil {
			return nil, err
		}
		if !seen[call.RequestID] {
			seen[call.RequestID] = true
			var pid int
			if err := call.Tx.(*sql.Tx).QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
				return nil, err
			}
			pids <- pid
			<-terminated
		}
		if _, err := call.Tx.ExecContext(ctx, `INSERT INTO effects (request_id, n) VALUES ($1, 1)
ON CONFLICT (request_id) DO UPDATE SET n = effects.n + 1`, call.RequestID); err != nil {
			if wrap {
				return nil, fmt.Errorf("record effect: %w", err)
			}
			return nil, errors.New("could not record the effect")
		}
		return json.RawMessage(fmt.Sprintf(`{"alert_id":"a-%d"}`, id)), nil
	}
}

// TestPostgresTerminateBackend terminates (pg_terminate_backend) the
// server process of a handler's transaction while the handler runs, for
// a handler that passes the driver's error on and for one that hides it:
// the call is answered UNAVAILABLE, retryable, with retry_after_ms; the
// retry with the same request ID succeeds; the database holds one alert
// and one effect per request.
func TestPostgresTerminateBackend(t *testing.T) {
	for _, wrap := range []bool{true, false} {
		t.Run(fmt.Sprintf("wrap=%v", wrap), func(t *testing.T) {
			dsn := pgSchema(t)
			st := pgtest.OpenDSN(t, dsn)
			pids, terminated := make(chan int), make(chan struct{})
			p, err := pgProvider(st, terminatingHandler(pids, terminated, wrap), 4)
			if err != nil {
				t.Fatal(err)
			}
			c := &providertest.Client{P: p, Caller: callerA}
			if _, err := c.Negotiate(context.Background()); err != nil {
				t.Fatal(err)
			}
			admin := pgtest.OpenDSN(t, pgtest.DSN(t)).DB()
			id := providertest.NewRequestID()
			answer := make(chan protocol.Bundle)
			go func() { answer <- c.Execute(context.Background(), id, "create_alert", alertArgs, "") }()
			pid := <-pids
			var ok bool
			if err := admin.QueryRow(`SELECT pg_terminate_backend($1)`, pid).Scan(&ok); err != nil || !ok {
				t.Fatalf("pg_terminate_backend(%d) = %v, %v", pid, ok, err)
			}
			close(terminated)
			b := <-answer
			e, err := protocol.ParseError(b)
			if err != nil || e.Code != protocol.CodeUnavailable || !e.Retryable || e.RetryAfter <= 0 {
				t.Fatalf("answer after the terminated connection: %v (%v)", b, err)
			}
			data, err := successData(c.Execute(context.Background(), id, "create_alert", alertArgs, ""))
			if err != nil {
				t.Fatalf("retry: %v", err)
			}
			pgVerify(t, st, map[string]string{id: data})
		})
	}
}
