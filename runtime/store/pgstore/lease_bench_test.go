package pgstore_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store/pgstore/pgtest"
)

// BenchmarkOperationLeased is one operation's store work as the engine
// does it on PostgreSQL: Accept, AcquireOperation, RunLeased.
func BenchmarkOperationLeased(b *testing.B) {
	st := pgtest.Open(b)
	b.ResetTimer()
	for i := range b.N {
		a := attempt(benchID(i), time.Now())
		if _, _, err := st.Accept(ctx, a, "op"); err != nil {
			b.Fatal(err)
		}
		l, ok, err := st.AcquireOperation(ctx, a.Key, "bench")
		if err != nil || !ok {
			b.Fatal(ok, err)
		}
		if _, _, err := st.RunLeased(ctx, a.Key, l, a.ExpiresAt, succeed(`{}`)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOperationUnleased is the same operation without leases, as
// the engine ran it before them: Accept, MarkRunning, RunOperation.
func BenchmarkOperationUnleased(b *testing.B) {
	st := pgtest.Open(b)
	b.ResetTimer()
	for i := range b.N {
		a := attempt(benchID(i), time.Now())
		if _, _, err := st.Accept(ctx, a, "op"); err != nil {
			b.Fatal(err)
		}
		if err := st.MarkRunning(ctx, a.Key); err != nil {
			b.Fatal(err)
		}
		if _, _, err := st.RunOperation(ctx, a.Key, a.ExpiresAt, succeed(`{}`)); err != nil {
			b.Fatal(err)
		}
	}
}

// benchID is the request ID of a benchmark's i-th operation; the
// benchmark's fresh schema keeps runs apart.
func benchID(i int) string { return "bench-" + strconv.Itoa(i) }
