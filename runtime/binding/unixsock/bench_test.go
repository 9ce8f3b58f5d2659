package unixsock_test

import (
	"context"
	"encoding/json"
	"os"
	"sync"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// benchArgs are the arguments of the benchmarked echo call.
var benchArgs = json.RawMessage(`{"text":"hello"}`)

// BenchmarkExecuteEcho measures one execute_tool of a read tool through a
// consumer.Client, in process and over the socket, sequentially (one
// connection) and from 8 goroutines (8 connections over the socket, one
// shared Client in process). calls/s counts completed calls.
func BenchmarkExecuteEcho(b *testing.B) {
	p := newProvider(b, nil)
	inProc := func() (consumer.Transport, func() error) {
		return consumer.InProcess{Provider: p, Caller: provider.Caller{UID: os.Getuid()}}, func() error { return nil }
	}
	path := serve(b, p, unixsock.Options{MaxConnsPerUID: 64})
	socket := func() (consumer.Transport, func() error) {
		tr, err := unixsock.Dial(path)
		if err != nil {
			b.Fatal(err)
		}
		return tr, tr.Close
	}
	b.Run("in-process/1", func(b *testing.B) { benchClients(b, inProc, 1, false) })
	b.Run("in-process/8", func(b *testing.B) { benchClients(b, inProc, 8, false) })
	b.Run("socket/1conn", func(b *testing.B) { benchClients(b, socket, 1, true) })
	b.Run("socket/8conns", func(b *testing.B) { benchClients(b, socket, 8, true) })
}

// benchClients runs b.N calls from n goroutines, each with its own Client
// (and its own connection when perConn) or all sharing one.
func benchClients(b *testing.B, transport func() (consumer.Transport, func() error), n int, perConn bool) {
	clients := make([]*consumer.Client, n)
	for i := range clients {
		if i == 0 || perConn {
			tr, closeTr := transport()
			defer closeTr()
			clients[i] = consumer.New(tr, consumer.Options{})
			mustCall(b, clients[i]) // negotiate outside the timing
		} else {
			clients[i] = clients[0]
		}
	}
	work := make(chan struct{}, 1024)
	var wg sync.WaitGroup
	b.ResetTimer()
	for _, c := range clients {
		wg.Add(1)
		go func() { defer wg.Done(); drain(b, c, work) }()
	}
	for range b.N {
		work <- struct{}{}
	}
	close(work)
	wg.Wait()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// drain makes one call per token of work.
func drain(b *testing.B, c *consumer.Client, work <-chan struct{}) {
	for range work {
		mustCall(b, c)
	}
}

func mustCall(b *testing.B, c *consumer.Client) {
	if _, err := c.ExecuteTool(context.Background(), "echo", benchArgs); err != nil {
		b.Error(err)
	}
}
