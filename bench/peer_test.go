package bench

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The peer comparison: search_orders called through the CETP Consumer
// client and through the MCP Go SDK's client, in process and across
// processes, one caller or 16 sharing one connection. Every benchmark
// reports calls/s; run.sh pairs them.

// callers is the number of concurrent callers of the *16 benchmarks.
const callers = 16

// newClient returns a Consumer client over t with its session
// negotiated. Retries are off, so each call is one exchange and a refusal
// fails the benchmark.
func newClient(tb testing.TB, t consumer.Transport) *consumer.Client {
	tb.Helper()
	c := consumer.New(t, consumer.Options{MaxRetries: -1})
	if _, err := c.Negotiate(ctx); err != nil {
		tb.Fatal(err)
	}
	return c
}

// socketClient dials the CETP socket at path and returns a client on that
// one connection, closed when the test ends.
func socketClient(tb testing.TB, path string) *consumer.Client {
	tb.Helper()
	tr, err := unixsock.DialContext(ctx, path, unixsock.ClientOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { tr.Close() })
	return newClient(tb, tr)
}

// inMemoryMCP connects an MCP client to the orders server over the SDK's
// in-memory transports.
func inMemoryMCP(tb testing.TB) *mcp.ClientSession {
	tb.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := ordersMCPServer().Connect(ctx, st, nil)
	if err != nil {
		tb.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// callCETP makes one call through c, under a fresh request ID.
func callCETP(c *consumer.Client) (json.RawMessage, error) {
	return c.ExecuteTool(ctx, "search_orders", ordersArgs)
}

// callMCP makes one tools/call through cs and returns its structured
// result.
func callMCP(cs *mcp.ClientSession) (json.RawMessage, error) {
	return callMCPArgs(cs, ordersArgs)
}

func callMCPArgs(cs *mcp.ClientSession, args json.RawMessage) (json.RawMessage, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_orders", Arguments: args})
	if err != nil {
		return nil, err
	}
	if res.IsError {
		data, _ := json.Marshal(res.Content)
		return nil, errors.New("tools/call failed: " + string(data))
	}
	return json.Marshal(res.StructuredContent)
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

// benchParallel times calls from callers goroutines.
func benchParallel(b *testing.B, call func() (json.RawMessage, error)) {
	b.ReportAllocs()
	procs := runtime.GOMAXPROCS(0)
	b.SetParallelism((callers + procs - 1) / procs)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := call(); err != nil {
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

// BenchmarkInProcessCETP: the Consumer client over consumer.InProcess to
// a Provider in this process (request envelope, engine with input and
// output schemas, response checks, the client's own output check).
func BenchmarkInProcessCETP(b *testing.B) {
	c := newClient(b, consumer.InProcess{Provider: ordersProvider(b), Caller: provider.Caller{UID: os.Getuid()}})
	benchSequential(b, func() (json.RawMessage, error) { return callCETP(c) })
}

// BenchmarkInProcessMCP: the MCP SDK's client over its in-memory
// transports to its server in this process.
func BenchmarkInProcessMCP(b *testing.B) {
	cs := inMemoryMCP(b)
	benchSequential(b, func() (json.RawMessage, error) { return callMCP(cs) })
}

// BenchmarkInProcessFloor is the floor under BenchmarkInProcessCETP: a
// bare jsonschema/v6 decode and Validate of the arguments, the same
// handler, and a decode and Validate of its result.
func BenchmarkInProcessFloor(b *testing.B) {
	in, out := compileFloor(b, ordersIn), compileFloor(b, ordersOut)
	h := ordersTool().Handler
	benchSequential(b, func() (json.RawMessage, error) { return floorCall(in, out, h, ordersArgs) })
}

// compileFloor compiles raw with jsonschema/v6.
func compileFloor(tb testing.TB, raw string) *jsonschema.Schema {
	tb.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(raw)))
	if err != nil {
		tb.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("floor.json", doc); err != nil {
		tb.Fatal(err)
	}
	s, err := c.Compile("floor.json")
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// floorCall validates args against in, runs h and validates its result
// against out.
func floorCall(in, out *jsonschema.Schema, h provider.Handler, args json.RawMessage) (json.RawMessage, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err == nil {
		err = in.Validate(v)
	}
	if err != nil {
		return nil, err
	}
	res, err := h(ctx, &provider.Call{}, args)
	if err != nil {
		return nil, err
	}
	if v, err = jsonschema.UnmarshalJSON(bytes.NewReader(res)); err == nil {
		err = out.Validate(v)
	}
	return res, err
}

// BenchmarkChildCETP: the Consumer client over one Unix-socket connection
// to a child process serving the Provider.
func BenchmarkChildCETP(b *testing.B) {
	c := socketClient(b, startChild(b, "cetp"))
	benchSequential(b, func() (json.RawMessage, error) { return callCETP(c) })
}

// BenchmarkChildMCP: the MCP SDK's client to a child process it launched
// with CommandTransport (JSON-RPC over the child's stdin and stdout).
func BenchmarkChildMCP(b *testing.B) {
	cs := mcpChild(b)
	benchSequential(b, func() (json.RawMessage, error) { return callMCP(cs) })
}

// BenchmarkChild16CETP is BenchmarkChildCETP from 16 goroutines sharing
// the one client and connection.
func BenchmarkChild16CETP(b *testing.B) {
	c := socketClient(b, startChild(b, "cetp"))
	benchParallel(b, func() (json.RawMessage, error) { return callCETP(c) })
}

// BenchmarkChild16MCP is BenchmarkChildMCP from 16 goroutines sharing the
// one session.
func BenchmarkChild16MCP(b *testing.B) {
	cs := mcpChild(b)
	benchParallel(b, func() (json.RawMessage, error) { return callMCP(cs) })
}

// BenchmarkChildEchoFloor is the floor under BenchmarkChildCETP: a round
// trip over a Unix socket to a child process that answers at once, with a
// request and an answer of the sizes of a CETP call's frames
// (measureFrames), and no protocol.
func BenchmarkChildEchoFloor(b *testing.B) {
	reqSize, respSize := measureFrames(b, startChild(b, "cetp"))
	c, err := net.Dial("unix", startChild(b, "echo"))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	req := make([]byte, reqSize)
	binary.BigEndian.PutUint32(req, uint32(reqSize-4))
	binary.BigEndian.PutUint32(req[4:], uint32(respSize))
	resp := make([]byte, respSize)
	b.ReportMetric(float64(reqSize), "req-bytes")
	b.ReportMetric(float64(respSize), "resp-bytes")
	benchSequential(b, func() (json.RawMessage, error) {
		if _, err := c.Write(req); err != nil {
			return nil, err
		}
		_, err := io.ReadFull(c, resp)
		return nil, err
	})
}

// measureFrames returns the bytes one CETP call writes and reads on the
// socket at path, counted by a proxy between a client and the server.
func measureFrames(tb testing.TB, path string) (int, int) {
	tb.Helper()
	proxy := filepath.Join(tb.TempDir(), "proxy.sock")
	ln, err := net.Listen("unix", proxy)
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	var up, down atomic.Int64
	go relay(ln, path, &up, &down)
	tr, err := unixsock.Dial(proxy)
	if err != nil {
		tb.Fatal(err)
	}
	defer tr.Close()
	c := newClient(tb, tr)
	if _, err := callCETP(c); err != nil { // the first call also lists the tools
		tb.Fatal(err)
	}
	settle := func() (int64, int64) { time.Sleep(50 * time.Millisecond); return up.Load(), down.Load() }
	up0, down0 := settle()
	if _, err := callCETP(c); err != nil {
		tb.Fatal(err)
	}
	up1, down1 := settle()
	return int(up1 - up0), int(down1 - down0)
}

// relay accepts one connection on ln and relays it to the socket at path,
// counting the bytes of each direction.
func relay(ln net.Listener, path string, up, down *atomic.Int64) {
	in, err := ln.Accept()
	if err != nil {
		return
	}
	defer in.Close()
	out, err := net.Dial("unix", path)
	if err != nil {
		return
	}
	defer out.Close()
	go io.Copy(countingWriter{out, up}, in)
	io.Copy(countingWriter{in, down}, out)
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n *atomic.Int64
}

// Write implements io.Writer.
func (c countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n.Add(int64(n))
	return n, err
}

// TestPeersAgree checks that every benchmarked path makes the call it
// claims: the same arguments give the same result in process and across
// processes on both sides and on the floor, and arguments that break the
// input schema are refused by each.
func TestPeersAgree(t *testing.T) {
	in, out := compileFloor(t, ordersIn), compileFloor(t, ordersOut)
	h := ordersTool().Handler
	cetpIn := newClient(t, consumer.InProcess{Provider: ordersProvider(t), Caller: provider.Caller{UID: os.Getuid()}})
	cetpChild := socketClient(t, startChild(t, "cetp"))
	mcpIn, mcpCh := inMemoryMCP(t), mcpChild(t)
	t.Logf("MCP protocol version negotiated: %s (github.com/modelcontextprotocol/go-sdk v1.8.0)", mcpCh.InitializeResult().ProtocolVersion)
	calls := map[string]func(json.RawMessage) (json.RawMessage, error){
		"cetp in process": func(a json.RawMessage) (json.RawMessage, error) { return cetpIn.ExecuteTool(ctx, "search_orders", a) },
		"cetp child": func(a json.RawMessage) (json.RawMessage, error) {
			return cetpChild.ExecuteTool(ctx, "search_orders", a)
		},
		"mcp in memory": func(a json.RawMessage) (json.RawMessage, error) { return callMCPArgs(mcpIn, a) },
		"mcp child":     func(a json.RawMessage) (json.RawMessage, error) { return callMCPArgs(mcpCh, a) },
		"floor":         func(a json.RawMessage) (json.RawMessage, error) { return floorCall(in, out, h, a) },
	}
	want := searchOrders(ordersQuery{CustomerID: "C-10042", Status: "shipped", Limit: 3})
	for name, call := range calls {
		got, err := call(ordersArgs)
		var page ordersPage
		if err == nil {
			err = json.Unmarshal(got, &page)
		}
		if err != nil || !reflect.DeepEqual(page, want) {
			t.Errorf("%s: got %s, %v; want %+v", name, got, err, want)
		}
		if got, err := call(badOrdersArgs); err == nil {
			t.Errorf("%s accepted %s: %s", name, badOrdersArgs, got)
		}
	}
	req, resp := measureFrames(t, startChild(t, "cetp"))
	t.Logf("one CETP call on the socket: %d bytes written, %d bytes read", req, resp)
}
