package mcpbridge

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// notifier sends the progress notifications of one tools/call, when the
// host asked for them with a progress token. Each notification's progress
// is one more than the last (MCP asks it to increase); what the Provider
// reports is in the message and, structured, in _meta.
type notifier struct {
	session *mcp.ServerSession
	token   any

	mu   sync.Mutex
	sent float64
}

// newNotifier returns the notifier of req.
func newNotifier(req *mcp.CallToolRequest) *notifier {
	return &notifier{session: req.Session, token: req.Params.GetProgressToken()}
}

// send sends one progress notification; it does nothing without a
// progress token or once ctx ended (the host cancelled the call).
func (n *notifier) send(ctx context.Context, message string, meta mcp.Meta) {
	if n.token == nil || n.session == nil || ctx.Err() != nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.sent++
	n.session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: n.token, Progress: n.sent,
		Message: message, Meta: meta})
}
