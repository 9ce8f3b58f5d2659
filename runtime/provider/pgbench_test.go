package provider_test

import (
	"database/sql"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore/pgtest"
)

// benchParallelism is the goroutines per GOMAXPROCS of the parallel write
// benchmarks: 8, so 16 concurrent calls on two cores.
const benchParallelism = 8

// writeBench runs call serially and with benchParallelism, reporting
// calls per second.
func writeBench(b *testing.B, call func() error) {
	b.Run("serial", func(b *testing.B) {
		for b.Loop() {
			if err := call(); err != nil {
				b.Fatal(err)
			}
		}
		reportRate(b)
	})
	b.Run("parallel", func(b *testing.B) {
		b.SetParallelism(benchParallelism)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := call(); err != nil {
					b.Error(err)
					return
				}
			}
		})
		reportRate(b)
	})
}

func reportRate(b *testing.B) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// BenchmarkBareInsertPostgres is the floor of the write benchmarks: the
// handler's own INSERT alone, autocommitted at READ COMMITTED with the
// server's synchronous_commit (on), with no Provider and no store.
func BenchmarkBareInsertPostgres(b *testing.B) {
	st := pgtest.OpenDSN(b, pgSchema(b))
	var n atomic.Int64
	writeBench(b, func() error {
		_, err := st.DB().Exec(`INSERT INTO alerts (request_id, symbol) VALUES ($1, $2)`, fmt.Sprint(n.Add(1)), "AAPL")
		return err
	})
}

// BenchmarkBareTxPostgres is the handler's business change alone: one
// transaction holding its two INSERTs (alert and effect row), at the same
// isolation and synchronous_commit; the Provider and the store add the
// rest of a call.
func BenchmarkBareTxPostgres(b *testing.B) {
	st := pgtest.OpenDSN(b, pgSchema(b))
	var n atomic.Int64
	writeBench(b, func() error {
		tx, err := st.DB().BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
		if err != nil {
			return err
		}
		defer tx.Rollback()
		id := fmt.Sprint(n.Add(1))
		if _, err := tx.Exec(`INSERT INTO alerts (request_id, symbol) VALUES ($1, $2)`, id, "AAPL"); err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO effects (request_id, n) VALUES ($1, 1)`, id); err != nil {
			return err
		}
		return tx.Commit()
	})
}

// BenchmarkCallWritePostgres measures durable write calls through one
// in-process Provider on the PostgreSQL store, each with a new request ID;
// the handler inserts the alert and its effect row.
func BenchmarkCallWritePostgres(b *testing.B) {
	st := pgtest.OpenDSN(b, pgSchema(b))
	var runs atomic.Int64
	p, err := pgProvider(st, pgHandler(&runs, false, 0), 64)
	if err != nil {
		b.Fatal(err)
	}
	c := &providertest.Client{P: p, Caller: callerA}
	if _, err := c.Negotiate(ctx); err != nil {
		b.Fatal(err)
	}
	writeBench(b, func() error {
		_, err := successData(c.Execute(ctx, providertest.NewRequestID(), "create_alert", alertArgs, ""))
		return err
	})
}

// BenchmarkCallWritePostgres2Proc measures the same calls spread over two
// Provider processes on one database, each running benchParallelism
// concurrent callers (16 in all, as the parallel case above).
func BenchmarkCallWritePostgres2Proc(b *testing.B) {
	dsn := pgSchema(b)
	children := []*lineChild{startLineChild(b, "TestPostgresSameIDTwoProcesses", dsn),
		startLineChild(b, "TestPostgresSameIDTwoProcesses", dsn)}
	b.ResetTimer()
	for _, c := range children {
		if err := c.send(fmt.Sprintf("load %d %d", (b.N+1)/2, benchParallelism)); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range children {
		if line, err := c.read(); err != nil || line != "ok" {
			b.Fatalf("child: %q, %v", line, err)
		}
	}
	reportRate(b)
}

// BenchmarkCallWriteSQLiteParallel is BenchmarkCallWriteSQLite with
// concurrent callers, for the comparison with PostgreSQL.
func BenchmarkCallWriteSQLiteParallel(b *testing.B) {
	st := openSQLite(b)
	if _, err := st.DB().Exec(alertsDDL); err != nil {
		b.Fatal(err)
	}
	var runs atomic.Int64
	p := alertProvider(b, st, &runs, 64)
	c := &providertest.Client{P: p, Caller: callerA}
	if _, err := c.Negotiate(ctx); err != nil {
		b.Fatal(err)
	}
	b.SetParallelism(benchParallelism)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := successData(c.Execute(ctx, providertest.NewRequestID(), "create_alert", alertArgs, "")); err != nil {
				b.Error(err)
				return
			}
		}
	})
	reportRate(b)
}
