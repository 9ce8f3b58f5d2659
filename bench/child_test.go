package bench

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Environment of the benchmark processes.
const (
	// envHeap is the live heap, in MiB, that the benchmark process and
	// every child hold for the whole run (0: none, the default GOGC alone).
	envHeap = "BENCH_HEAP_MB"
	// envChild makes the test binary a child: "cetp" serves the CETP
	// Provider on the Unix socket envSocket, "mcp" serves the MCP server on
	// stdin and stdout, "echo" echoes on envSocket.
	envChild  = "BENCH_CHILD"
	envSocket = "BENCH_SOCKET"
)

// TestMain holds the live heap of envHeap, then runs the tests and
// benchmarks, or the child that envChild names.
func TestMain(m *testing.M) {
	holdHeap()
	switch os.Getenv(envChild) {
	case "":
		os.Exit(m.Run())
	case "cetp":
		childCETP(os.Getenv(envSocket))
	case "mcp":
		childMCP()
	case "echo":
		childEcho(os.Getenv(envSocket))
	}
	os.Exit(0)
}

// ballastNode is one object of the live heap: pointers and a string, so
// that the collector marks it as it marks an application's objects.
type ballastNode struct {
	next *ballastNode
	name string
	pad  [13]uint64
}

// ballast keeps the live heap reachable for the life of the process.
var ballast []*ballastNode

// holdHeap allocates envHeap MiB of small linked objects.
func holdHeap() {
	mb, _ := strconv.Atoi(os.Getenv(envHeap))
	n := mb << 20 / 128 // a ballastNode takes a 128-byte size class
	ballast = make([]*ballastNode, n)
	for i := range ballast {
		ballast[i] = &ballastNode{name: "node"}
		if i > 0 {
			ballast[i].next = ballast[i-1]
		}
	}
	runtime.GC()
}

// childCETP serves the orders Provider on the socket at path, says
// "ready" on stdout and serves until stdin closes.
func childCETP(path string) {
	ln, err := unixsock.Listen(path, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { io.Copy(io.Discard, os.Stdin); cancel() }()
	p, err := newOrdersProvider()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("ready")
	if err := unixsock.Serve(ctx, ln, p, unixsock.Options{MaxInFlight: 64}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// childMCP serves the orders MCP server on stdin and stdout, as an MCP
// client's CommandTransport launches a server.
func childMCP() {
	if err := ordersMCPServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// childEcho accepts connections on the socket at path, says "ready" and
// answers each message (a 4-byte length, then that many bytes of which
// the first 4 are the size of the answer) with an answer of that size,
// until stdin closes.
func childEcho(path string) {
	ln, err := net.Listen("unix", path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go func() { io.Copy(io.Discard, os.Stdin); ln.Close() }()
	fmt.Println("ready")
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go echoConn(c)
	}
}

// echoConn answers the messages of c until it ends.
func echoConn(c net.Conn) {
	defer c.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := io.ReadFull(c, buf[:4]); err != nil {
			return
		}
		n := binary.BigEndian.Uint32(buf)
		if _, err := io.ReadFull(c, buf[:n]); err != nil {
			return
		}
		if _, err := c.Write(buf[:binary.BigEndian.Uint32(buf)]); err != nil {
			return
		}
	}
}

// startChild starts the test binary as the child mode, with a socket in
// a fresh directory, waits for its "ready" and returns the socket path.
// The child ends when the test ends.
func startChild(tb testing.TB, mode string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), mode+".sock")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), envChild+"="+mode, envSocket+"="+path)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { stdin.Close(); cmd.Wait() })
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "ready\n" {
		tb.Fatalf("child %s: %q", mode, line)
	}
	return path
}

// mcpChild launches the MCP server child through the SDK's
// CommandTransport and returns the client session, closed when the test
// ends.
func mcpChild(tb testing.TB) *mcp.ClientSession {
	tb.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), envChild+"=mcp")
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close() })
	return cs
}
