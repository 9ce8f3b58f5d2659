package cetpcmd

import (
	"context"
	"fmt"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"os"
	"os/signal"
	"syscall"

	"github.com/cetpgen/cetpgen/runtime/buildversion"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/spf13/cobra"
)

// Flags every command takes.
const (
	SocketFlag     = "socket"
	TimeoutFlag    = "timeout"
	ProviderIDFlag = "provider-id"
)

// Main runs cetp with the process's arguments and returns its exit code.
// SIGINT and SIGTERM end the command as its timeout would.
func Main() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Run(ctx, Env{}, os.Args[1:])
}

// Run runs cetp with args (the program name excluded) and returns the exit
// code (see the package doc).
func Run(ctx context.Context, env Env, args []string) int {
	return RunWith(ctx, env, args)
}

// RunWith is Run with extra subcommands added to the tree; they read the
// persistent flags (--socket, --timeout, --provider-id). cmd/cetp adds
// `cetp mcp` this way, so that the MCP SDK stays out of the runtime.
func RunWith(ctx context.Context, env Env, args []string, extra ...*cobra.Command) int {
	root := NewRoot(env)
	root.AddCommand(extra...)
	root.SetArgs(args)
	root.SetIn(env.In())
	root.SetOut(env.Out())
	root.SetErr(env.Err())
	return report(env.Err(), root.ExecuteContext(ctx))
}

// NewRoot returns the cetp command tree.
func NewRoot(env Env) *cobra.Command {
	root := &cobra.Command{
		Use:           "cetp",
		Short:         "Call the tools of a CETP v2 Provider over its Unix socket",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       buildversion.Line("cetp"),
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.CompletionOptions.DisableDefaultCmd = true
	pf := root.PersistentFlags()
	pf.String(SocketFlag, "", "the Provider's socket (default $"+SocketEnv+")")
	pf.Duration(TimeoutFlag, cliout.DefaultTimeout, cliout.TimeoutUsage)
	pf.String(ProviderIDFlag, "", "refuse a Provider whose negotiated provider_id is not this one, before sending it anything")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usagef("%v", err) })
	r := &runner{env: env}
	root.AddCommand(r.toolsCmd(), r.callCmd(), r.operationCmd())
	return root
}

// runner holds what the commands share.
type runner struct {
	env Env
}

// session is a connection, dialed again when it breaks, and the Consumer
// client on it.
type session struct {
	conn *consumer.Redialer
	c    *consumer.Client
}

// Close closes the connection.
func (s *session) Close() error { return s.conn.Close() }

// context returns the command's context bounded by --timeout.
func (r *runner) context(cmd *cobra.Command) (context.Context, context.CancelFunc) {
	d, _ := cmd.Flags().GetDuration(TimeoutFlag)
	if d <= 0 {
		return context.WithCancel(cmd.Context())
	}
	return context.WithTimeout(cmd.Context(), d)
}

// open connects to the Provider at --socket (else $CETP_SOCKET) and
// returns a Consumer client on the connection, which is dialed again when
// it breaks so that a retry under the same request ID reaches the
// Provider. Resolutions are launched through the connection with a notice
// on stderr. Each call's deadline is the command's: --timeout, or the
// client's default when it is 0. With --provider-id the client refuses
// any other Provider.
func (r *runner) open(ctx context.Context, cmd *cobra.Command, opt consumer.Options) (*session, error) {
	if d, _ := cmd.Flags().GetDuration(TimeoutFlag); d > 0 {
		opt.Timeout = d
	}
	opt.ProviderID, _ = cmd.Flags().GetString(ProviderIDFlag)
	socket, _ := cmd.Flags().GetString(SocketFlag)
	if socket == "" {
		socket = r.env.Env(SocketEnv)
	}
	if socket == "" {
		return nil, usagef("no Provider socket: pass --%s or set %s", SocketFlag, SocketEnv)
	}
	rd := consumer.Redial(func(ctx context.Context) (consumer.Conn, error) {
		conn, err := r.env.dial(ctx, socket)
		if err != nil {
			return nil, err
		}
		return cliout.NoticeConn(conn, r.env.Err(), "cetp"), nil
	})
	if err := rd.Connect(ctx); err != nil {
		return nil, &cliout.TransportError{Err: fmt.Errorf("connect to %s: %w", socket, err)}
	}
	return &session{conn: rd, c: consumer.New(rd, opt)}, nil
}
