package mcpbridge

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/cetpgen/cetpgen/runtime/buildversion"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults of Options.
const (
	DefaultCallTimeout     = 2 * time.Minute
	DefaultMaxResultBytes  = 1 << 20
	DefaultMaxDescription  = 2000
	DefaultRefreshInterval = 30 * time.Second
	DefaultCancelWait      = 30 * time.Second
)

// Options configure a Bridge. The zero value is usable.
type Options struct {
	// ProviderID, when set, is the only provider_id the bridge accepts from
	// the negotiation: another Provider behind the transport gets nothing
	// past it (consumer.Options.ProviderID).
	ProviderID string
	// CallTimeout bounds one tools/call, waits for the Provider's UI and
	// background operations included; it defaults to DefaultCallTimeout,
	// and a negative value leaves calls unbounded (the host may still
	// cancel them).
	CallTimeout time.Duration
	// MaxResultBytes caps the result value returned to the host, inline or
	// read from a file result; a larger one is a tool error of the bridge
	// (RESULT_OVER_CAP). It defaults to DefaultMaxResultBytes.
	MaxResultBytes int
	// MaxDescription caps a tool description, in bytes, before the
	// untrusted-text marking; it defaults to DefaultMaxDescription.
	MaxDescription int
	// RefreshInterval is how often list_tools is asked again while the
	// host is idle, so that a new revision becomes
	// notifications/tools/list_changed; it defaults to
	// DefaultRefreshInterval, and a negative value turns it off (the list
	// is still fetched on every tools/list and checked after every call).
	RefreshInterval time.Duration
	// CancelWait is how long the bridge keeps polling an operation after
	// the host cancelled its call, to learn how it ended; it defaults to
	// DefaultCancelWait.
	CancelWait time.Duration
	// Logger receives the bridge's events (never argument values); it
	// defaults to a logger that discards them.
	Logger *slog.Logger
	// Consumer are the options of the CETP client the bridge makes; its
	// ProviderID and LaunchResolutions are set by the bridge, and its
	// Timeout by CallTimeout when that is set.
	Consumer consumer.Options
}

// withDefaults fills the zero fields of o.
func (o Options) withDefaults() Options {
	if o.CallTimeout == 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.MaxResultBytes <= 0 {
		o.MaxResultBytes = DefaultMaxResultBytes
	}
	if o.MaxDescription <= 0 {
		o.MaxDescription = DefaultMaxDescription
	}
	if o.RefreshInterval == 0 {
		o.RefreshInterval = DefaultRefreshInterval
	}
	if o.CancelWait <= 0 {
		o.CancelWait = DefaultCancelWait
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

// Bridge presents one CETP Provider as an MCP server. It is a CETP
// Consumer of the Provider behind its transport, with the identity that
// transport has (on the Unix binding, the UID of the bridge's process as
// the kernel reports it): one Bridge serves one Consumer identity, and
// nothing it holds (tool list, session, operations) is shared with
// another Bridge.
type Bridge struct {
	client *consumer.Client
	server *mcp.Server
	opt    Options

	mu       sync.Mutex
	revision string
	listed   bool
	names    []string
	provider string
}

// New returns a Bridge that reaches its Provider through t, which should
// launch resolutions (consumer.Launcher, as a consumer.Redialer over the
// Unix binding does) so that a confirmation can be asked in the
// Provider's own UI. Nothing is sent before Refresh or Run.
func New(t consumer.Transport, opt Options) *Bridge {
	opt = opt.withDefaults()
	copt := opt.Consumer
	copt.ProviderID = opt.ProviderID
	copt.LaunchResolutions = false
	if opt.CallTimeout > 0 {
		copt.Timeout = opt.CallTimeout
	}
	b := &Bridge{client: consumer.New(t, copt), opt: opt}
	b.server = mcp.NewServer(&mcp.Implementation{Name: "cetp-mcp", Version: buildversion.Line("cetp-mcp")}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
		Logger:       opt.Logger,
	})
	b.server.AddReceivingMiddleware(b.refreshOnList)
	return b
}

// Server returns the MCP server, for a caller that connects it to a
// transport itself (Server.Connect) after Refresh has listed the tools;
// tools/list refreshes the list on every request. Run does all that and
// also refreshes every RefreshInterval.
func (b *Bridge) Server() *mcp.Server { return b.server }

// Client returns the CETP client of the bridge.
func (b *Bridge) Client() *consumer.Client { return b.client }

// Run lists the Provider's tools, serves MCP on t until the host ends the
// session or ctx ends, and asks list_tools again every RefreshInterval
// meanwhile. A Provider that cannot be reached or refuses the
// negotiation fails Run before anything is served.
func (b *Bridge) Run(ctx context.Context, t mcp.Transport) error {
	if err := b.Refresh(ctx); err != nil {
		return err
	}
	ss, err := b.server.Connect(ctx, t, nil)
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	tick := b.ticker()
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case <-ctx.Done():
			ss.Close()
			<-done
			return ctx.Err()
		case <-tick.C:
			if err := b.Refresh(ctx); err != nil {
				b.opt.Logger.Warn("list_tools failed; the listed tools stay", "err", err)
			}
		}
	}
}

// ticker returns the refresh ticker, one that never fires when refreshing
// is off.
func (b *Bridge) ticker() *time.Ticker {
	if b.opt.RefreshInterval < 0 {
		t := time.NewTicker(time.Hour)
		t.Stop()
		return t
	}
	return time.NewTicker(b.opt.RefreshInterval)
}
