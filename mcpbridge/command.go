package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/cetpcmd"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

// Dial returns a transport to the Provider listening on the Unix socket
// at path: a consumer.Redialer, which dials again after the connection
// broke (so that a retry under the same request ID reaches the Provider)
// and launches resolutions through the binding.
func Dial(path string) *consumer.Redialer {
	return consumer.Redial(func(ctx context.Context) (consumer.Conn, error) {
		return unixsock.DialContext(ctx, path, unixsock.ClientOptions{})
	})
}

// Command returns `cetp mcp`, to add to the cetp command tree
// (cetpcmd.NewRoot), whose persistent flags it reads: --socket (else
// $CETP_SOCKET), --provider-id, and --timeout, which for this command
// bounds each tools/call rather than the whole command. It serves MCP on
// stdin and stdout until the host closes stdin; its log goes to stderr.
func Command() *cobra.Command {
	var opt Options
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the Provider's tools to an MCP host over stdio, with CETP's confirmation, exactly-once and result checks",
		Long: "Serve the tools of the Provider at --socket to an MCP host on stdin and stdout, until the host closes stdin.\n" +
			"Confirmations are asked in the Provider's own UI; each tools/call is one CETP request ID; every result is verified.\n" +
			"For this command --timeout bounds each tools/call, not the command (0: calls are unbounded). The log goes to stderr. See docs/mcp.md.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return serve(cmd, opt)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&opt.MaxResultBytes, "max-result-bytes", DefaultMaxResultBytes, "largest result value returned to the host")
	fl.IntVar(&opt.MaxDescription, "max-description-bytes", DefaultMaxDescription, "largest tool description passed to the host")
	fl.DurationVar(&opt.RefreshInterval, "refresh", DefaultRefreshInterval, "how often the tool list is asked again to notice a new revision (negative: never)")
	fl.DurationVar(&opt.CancelWait, "cancel-wait", DefaultCancelWait, "how long to follow an operation after the host cancelled its call")
	return cmd
}

// serve runs the bridge of the command line on stdio.
func serve(cmd *cobra.Command, opt Options) error {
	socket, _ := cmd.Flags().GetString(cetpcmd.SocketFlag)
	if socket == "" {
		socket = os.Getenv(cetpcmd.SocketEnv)
	}
	if socket == "" {
		return fmt.Errorf("no Provider socket: pass --%s or set %s", cetpcmd.SocketFlag, cetpcmd.SocketEnv)
	}
	opt.ProviderID, _ = cmd.Flags().GetString(cetpcmd.ProviderIDFlag)
	switch d, _ := cmd.Flags().GetDuration(cetpcmd.TimeoutFlag); {
	case d > 0:
		opt.CallTimeout = d
	case cmd.Flags().Changed(cetpcmd.TimeoutFlag):
		opt.CallTimeout = -1
	}
	opt.Logger = slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil)).With("program", "cetp mcp")
	t := Dial(socket)
	defer t.Close()
	if err := t.Connect(cmd.Context()); err != nil {
		return &cliout.TransportError{Err: fmt.Errorf("connect to %s: %w", socket, err)}
	}
	err := New(t, opt).Run(cmd.Context(), &mcp.StdioTransport{})
	var pm *consumer.ProviderMismatchError
	if err != nil && !errors.As(err, &pm) && consumer.CodeOf(err) == "" && !errors.Is(err, context.Canceled) {
		return &cliout.TransportError{Err: err}
	}
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
