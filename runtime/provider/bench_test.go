package provider_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/provider/providertest"
)

// BenchmarkCallRead measures one in-process read-tool call through the
// engine. The peer comparisons live in the bench/ module.
func BenchmarkCallRead(b *testing.B) {
	f := newFixture(b, fixtureConfig{})
	c := f.client(b, callerA)
	id := providertest.NewRequestID()
	b.ReportAllocs()
	for b.Loop() {
		if s, _, _ := c.Execute(ctx, id, "get_quote", `{"symbol":"AAPL"}`, "").String("status"); s != "success" {
			b.Fatal(s)
		}
	}
}

// BenchmarkCallWriteSQLite measures one durable write call on the SQLite
// store (WAL, synchronous=FULL), each with a new request ID.
func BenchmarkCallWriteSQLite(b *testing.B) {
	st := openSQLite(b)
	if _, err := st.DB().Exec(alertsDDL); err != nil {
		b.Fatal(err)
	}
	var runs atomic.Int64
	p := alertProvider(b, st, &runs, 4)
	c := &providertest.Client{P: p, Caller: callerA}
	if _, err := c.Negotiate(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012x", i)
		if s, _, _ := c.Execute(ctx, id, "create_alert", alertArgs, "").String("status"); s != "success" {
			b.Fatal(s)
		}
	}
}
