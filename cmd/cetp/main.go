// Command cetp is a small CETP v2 Consumer for the command line: it lists
// the tools of a Provider socket, calls them, follows and cancels their
// background operations (package runtime/cetpcmd), and serves them to an
// MCP host over stdio with `cetp mcp` (package mcpbridge). The MCP SDK is
// linked here, not into the runtime.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/cetpgen/cetpgen/mcpbridge"
	"github.com/cetpgen/cetpgen/runtime/cetpcmd"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cetpcmd.RunWith(ctx, cetpcmd.Env{}, os.Args[1:], mcpbridge.Command())
	stop()
	os.Exit(code)
}
