package bench

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The calls-per-second comparison: the same read tool (quoteTool and
// newMCPQuoteServer) called through a consumer.Client in process and over
// the Unix socket binding, and through the MCP Go SDK over OS pipes, all in
// this one process. Every benchmark reports calls/s.

// callArgs are the arguments of every benchmarked call.
var callArgs = json.RawMessage(`{"symbol":"ABC"}`)

// wantResult is the tool's result for callArgs on both sides.
const wantResult = `{"price":3.5}`

// concurrency is the number of goroutines of the parallel benchmarks, and
// the number of connections of BenchmarkCallSocketConns.
const concurrency = 8

// quoteProvider returns a Provider serving the quote tool that lets one
// caller run concurrency calls at once (the protocol minimum is one).
func quoteProvider(tb testing.TB) *provider.Provider {
	tb.Helper()
	p, err := provider.New(provider.Descriptor{ID: "com.example.app", Name: "Example App", Versions: []int{2},
		Limits: provider.Limits{MaxConcurrentRequests: 4 * concurrency}},
		[]provider.Tool{quoteTool()}, provider.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// newClient returns a Client over t with its session negotiated. Retries
// are off, so each call is one exchange and a refusal fails the benchmark.
func newClient(tb testing.TB, t consumer.Transport) *consumer.Client {
	tb.Helper()
	c := consumer.New(t, consumer.Options{MaxRetries: -1})
	if _, err := c.Negotiate(ctx); err != nil {
		tb.Fatal(err)
	}
	return c
}

// inProcessClient returns a Client that calls p directly as the current
// UID, the Caller the socket binding would identify.
func inProcessClient(tb testing.TB, p *provider.Provider) *consumer.Client {
	return newClient(tb, consumer.InProcess{Provider: p, Caller: provider.Caller{UID: os.Getuid()}})
}

// serveSocket serves p on a fresh Unix socket with the default server
// options until the test ends and returns the socket's path.
func serveSocket(tb testing.TB, p *provider.Provider) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "cetp.sock")
	ln, err := unixsock.Listen(path, 0o600)
	if err != nil {
		tb.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- unixsock.Serve(sctx, ln, p, unixsock.Options{}) }()
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("Serve: %v", err)
		}
	})
	return path
}

// socketClient dials the socket at path and returns a Client on that one
// connection, closed when the test ends.
func socketClient(tb testing.TB, path string) *consumer.Client {
	tb.Helper()
	tr, err := unixsock.DialContext(ctx, path, unixsock.ClientOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { tr.Close() })
	return newClient(tb, tr)
}

// mcpPipeSession connects an MCP client to the quote server over two OS
// pipes, one per direction, as a client talks to a server it launched on
// stdin and stdout. Both ends close when the test ends.
func mcpPipeSession(tb testing.TB) *mcp.ClientSession {
	tb.Helper()
	toServer, fromClient := osPipe(tb)
	toClient, fromServer := osPipe(tb)
	ss, err := newMCPQuoteServer(tb).Connect(ctx, &mcp.IOTransport{Reader: toServer, Writer: fromServer}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v1"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: toClient, Writer: fromClient}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// osPipe returns the read and write ends of a new OS pipe.
func osPipe(tb testing.TB) (*os.File, *os.File) {
	tb.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	return r, w
}

// callCETP makes one call of the quote tool through c.
func callCETP(c *consumer.Client) (json.RawMessage, error) {
	return c.ExecuteTool(ctx, "get_quote", callArgs)
}

// callMCP makes one tools/call of the quote tool through cs and returns
// its structured result.
func callMCP(cs *mcp.ClientSession) (json.RawMessage, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_quote", Arguments: callArgs})
	if err != nil {
		return nil, err
	}
	if res.IsError {
		return nil, &mcpToolError{res}
	}
	return json.Marshal(res.StructuredContent)
}

// mcpToolError is a tools/call answered with isError.
type mcpToolError struct{ res *mcp.CallToolResult }

// Error implements error.
func (e *mcpToolError) Error() string {
	data, _ := json.Marshal(e.res.Content)
	return "tools/call failed: " + string(data)
}

// benchSequential times one call after another on one goroutine.
func benchSequential(b *testing.B, call func() (json.RawMessage, error)) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := call(); err != nil {
			b.Fatal(err)
		}
	}
	reportCalls(b)
}

// benchParallel times calls from concurrency goroutines (at least; a
// multiple of GOMAXPROCS), goroutine i calling through clients[i mod
// len(clients)].
func benchParallel(b *testing.B, clients []*consumer.Client) {
	b.ReportAllocs()
	procs := runtime.GOMAXPROCS(0)
	b.SetParallelism((concurrency + procs - 1) / procs)
	var next atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		c := clients[int(next.Add(1)-1)%len(clients)]
		for pb.Next() {
			if _, err := callCETP(c); err != nil {
				b.Error(err)
				return
			}
		}
	})
	reportCalls(b)
}

// reportCalls reports the completed calls per second of the run.
func reportCalls(b *testing.B) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// BenchmarkCallInProcess is one execute_tool through a consumer.Client
// whose transport calls the Provider directly: client envelope, engine
// (session, input schema, handler, output schema) and response decoding,
// without a binding.
func BenchmarkCallInProcess(b *testing.B) {
	c := inProcessClient(b, quoteProvider(b))
	benchSequential(b, func() (json.RawMessage, error) { return callCETP(c) })
}

// BenchmarkCallInProcessParallel is BenchmarkCallInProcess from
// concurrency goroutines sharing one Client: the engine's ceiling on this
// machine for the parallel socket benchmarks.
func BenchmarkCallInProcessParallel(b *testing.B) {
	benchParallel(b, []*consumer.Client{inProcessClient(b, quoteProvider(b))})
}

// BenchmarkCallSocket is BenchmarkCallInProcess over one Unix socket
// connection, one call after another: framing, two socket writes and
// reads, and the server's per-call goroutine.
func BenchmarkCallSocket(b *testing.B) {
	c := socketClient(b, serveSocket(b, quoteProvider(b)))
	benchSequential(b, func() (json.RawMessage, error) { return callCETP(c) })
}

// BenchmarkCallSocketShared is BenchmarkCallSocket from concurrency
// goroutines sharing one Client and its one connection, whose calls the
// binding multiplexes.
func BenchmarkCallSocketShared(b *testing.B) {
	c := socketClient(b, serveSocket(b, quoteProvider(b)))
	benchParallel(b, []*consumer.Client{c})
}

// BenchmarkCallSocketConns is BenchmarkCallSocket from concurrency
// goroutines, each with its own Client on its own connection.
func BenchmarkCallSocketConns(b *testing.B) {
	path := serveSocket(b, quoteProvider(b))
	clients := make([]*consumer.Client, concurrency)
	for i := range clients {
		clients[i] = socketClient(b, path)
	}
	benchParallel(b, clients)
}

// floorMessage is the size of each message of BenchmarkSocketFloor.
const floorMessage = 256

// BenchmarkSocketFloor is the floor under BenchmarkCallSocket on this
// machine: one round trip of a 256-byte message over a Unix socket between
// two goroutines of this process, with no protocol, framing or Provider.
func BenchmarkSocketFloor(b *testing.B) {
	c := echoConn(b)
	buf := make([]byte, floorMessage)
	for b.Loop() {
		if _, err := c.Write(buf); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(c, buf); err != nil {
			b.Fatal(err)
		}
	}
	reportCalls(b)
}

// echoConn returns a connection to a fresh Unix socket whose one server
// goroutine echoes every floorMessage bytes it reads. Both close when the
// test ends.
func echoConn(tb testing.TB) net.Conn {
	tb.Helper()
	ln, err := net.Listen("unix", filepath.Join(tb.TempDir(), "echo.sock"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	go echoOne(ln)
	c, err := net.Dial("unix", ln.Addr().String())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	return c
}

// echoOne accepts one connection on ln and echoes it message by message
// until the peer closes it.
func echoOne(ln net.Listener) {
	c, err := ln.Accept()
	if err != nil {
		return
	}
	defer c.Close()
	buf := make([]byte, floorMessage)
	for {
		if _, err := io.ReadFull(c, buf); err != nil {
			return
		}
		if _, err := c.Write(buf); err != nil {
			return
		}
	}
}

// BenchmarkCallMCPPipe is one tools/call of the MCP Go SDK client to its
// server over OS pipes (newline-delimited JSON-RPC, as over stdio), one
// call after another, with the same tool, arguments and result.
func BenchmarkCallMCPPipe(b *testing.B) {
	cs := mcpPipeSession(b)
	benchSequential(b, func() (json.RawMessage, error) { return callMCP(cs) })
}

// TestCallsAgree checks that every benchmarked path makes the call it
// claims: the same arguments give the same result JSON in process, over
// the socket and over the MCP pipe, and arguments that break the input
// schema are refused on each.
func TestCallsAgree(t *testing.T) {
	p := quoteProvider(t)
	inProc, socket, pipe := inProcessClient(t, p), socketClient(t, serveSocket(t, p)), mcpPipeSession(t)
	calls := map[string]func() (json.RawMessage, error){
		"in-process": func() (json.RawMessage, error) { return callCETP(inProc) },
		"socket":     func() (json.RawMessage, error) { return callCETP(socket) },
		"mcp-pipe":   func() (json.RawMessage, error) { return callMCP(pipe) },
	}
	for name, call := range calls {
		got, err := call()
		if err != nil || string(got) != wantResult {
			t.Errorf("%s: got %s, %v; want %s", name, got, err, wantResult)
		}
	}
	checkRefused(t, inProc, pipe)
}

// checkRefused checks that an argument the input schema forbids is
// refused by the CETP engine and by the MCP server.
func checkRefused(t *testing.T, c *consumer.Client, cs *mcp.ClientSession) {
	bad := json.RawMessage(`{"symbol":"ABC","extra":1}`)
	if got, err := c.ExecuteTool(ctx, "get_quote", bad); err == nil {
		t.Errorf("CETP accepted %s: %s", bad, got)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_quote", Arguments: bad})
	if err == nil && !res.IsError {
		t.Errorf("MCP accepted %s: %v", bad, res.StructuredContent)
	}
}
