package mcpbridge_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cetpgen/cetpgen/mcpbridge"
	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The per-call overhead of the bridge: the same read tool called through
// a consumer.Client on the Provider's Unix socket, and through the bridge
// (on that socket) by the MCP SDK's client over two OS pipes, as a host
// talks to `cetp mcp` on its stdin and stdout. BENCHMARKS.md has the
// figures.

// quoteTool is a read tool with a small result.
func quoteTool() provider.Tool {
	return provider.Tool{Name: "get_quote", Title: "Quote", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"price":{"type":"number"}}}`),
		Annotations:  annotations(provider.EffectRead, provider.ConfirmNever, provider.ExecSync),
		Handler: func(context.Context, *provider.Call, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`{"price":3.5}`), nil
		}}
}

// serveQuote serves the quote Provider on a fresh socket until the
// benchmark ends.
func serveQuote(b *testing.B) string {
	b.Helper()
	p, err := provider.New(provider.Descriptor{ID: "com.example.app", Name: "Example App", Versions: []int{2}},
		[]provider.Tool{quoteTool()}, provider.Options{})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "cetp.sock")
	ln, err := unixsock.Listen(path, 0o600)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- unixsock.Serve(ctx, ln, p, unixsock.Options{}) }()
	b.Cleanup(func() { cancel(); <-done; p.Close(context.Background()) })
	return path
}

// BenchmarkDirectSocketCall is one execute_tool over the socket.
func BenchmarkDirectSocketCall(b *testing.B) {
	t := mcpbridge.Dial(serveQuote(b))
	defer t.Close()
	c := consumer.New(t, consumer.Options{MaxRetries: -1})
	ctx := context.Background()
	if _, err := c.ListTools(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.ExecuteTool(ctx, "get_quote", json.RawMessage(`{}`)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBridgeCall is one tools/call through the bridge over OS pipes,
// which makes one execute_tool on the same socket.
func BenchmarkBridgeCall(b *testing.B) {
	t := mcpbridge.Dial(serveQuote(b))
	defer t.Close()
	toServer, fromClient := pipe(b)
	toClient, fromServer := pipe(b)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- mcpbridge.New(t, mcpbridge.Options{RefreshInterval: -1}).Run(ctx, &mcp.IOTransport{Reader: toServer, Writer: fromServer})
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v1"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: toClient, Writer: fromClient}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { cs.Close(); cancel(); <-done }()
	params := &mcp.CallToolParams{Name: "get_quote", Arguments: json.RawMessage(`{}`)}
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatalf("tools/call: %v %+v", err, res)
		}
	}
}

// BenchmarkMCPOnlyCall is one tools/call of a plain MCP SDK server over
// the same OS pipes, answering the same result without CETP: the share of
// BenchmarkBridgeCall that is the MCP hop itself.
func BenchmarkMCPOnlyCall(b *testing.B) {
	server := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "v1"}, nil)
	server.AddTool(&mcp.Tool{Name: "get_quote", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{StructuredContent: json.RawMessage(`{"price":3.5}`),
				Content: []mcp.Content{&mcp.TextContent{Text: `{"price":3.5}`}}}, nil
		})
	toServer, fromClient := pipe(b)
	toClient, fromServer := pipe(b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ss, err := server.Connect(ctx, &mcp.IOTransport{Reader: toServer, Writer: fromServer}, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v1"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: toClient, Writer: fromClient}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	params := &mcp.CallToolParams{Name: "get_quote", Arguments: json.RawMessage(`{}`)}
	b.ReportAllocs()
	for b.Loop() {
		if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
			b.Fatalf("tools/call: %v %+v", err, res)
		}
	}
}

// BenchmarkBinaryCall is one tools/call through the cetp binary's `cetp
// mcp`, a process of its own on the MCP client's pipes, as a host runs it,
// on the same socket.
func BenchmarkBinaryCall(b *testing.B) {
	dir := b.TempDir()
	if out, err := exec.Command("go", "build", "-o", dir+"/", "github.com/cetpgen/cetpgen/cmd/cetp").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(filepath.Join(dir, "cetp"), "mcp", "--socket", serveQuote(b), "--refresh", "-1s")
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "get_quote", Arguments: json.RawMessage(`{}`)}
	b.ReportAllocs()
	for b.Loop() {
		if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
			b.Fatalf("tools/call: %v %+v", err, res)
		}
	}
}

// pipe returns the read and write ends of a new OS pipe.
func pipe(b *testing.B) (*os.File, *os.File) {
	b.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}
