package cetpcli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/cetpgen/cetpgen/runtime/consumer"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/spf13/cobra"
)

// Capabilities are the optional CETP capabilities a generated CLI asks
// for; the Consumer client handles what the Provider grants.
var Capabilities = protocol.CapabilityNames()

// Main runs app with the process's arguments and exits with its code.
// open serves the embedded catalog to the schema command.
func Main(app *App, open func() (*catalog.Catalog, error)) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Run(ctx, app, Env{Catalog: open}, os.Args[1:])
	stop()
	os.Exit(code)
}

// Run runs app with args (the program name excluded) and returns the exit
// code (see the package doc).
func Run(ctx context.Context, app *App, env Env, args []string) int {
	root := NewRoot(app, env)
	root.SetArgs(args)
	root.SetIn(env.In())
	root.SetOut(env.Out())
	root.SetErr(env.Err())
	return report(env.Err(), root.ExecuteContext(ctx))
}

// runner runs the leaf commands of an App.
type runner struct {
	app *App
	env Env
}

// run builds the args of c's tool from the command line, calls the tool
// and prints its result.
func (r *runner) run(cmd *cobra.Command, c *Command, values []*value) error {
	args, err := buildArgs(cmd, c, values, r.env.In())
	if err != nil {
		return err
	}
	socket, err := r.socket(cmd)
	if err != nil {
		return err
	}
	id, err := requestID(cmd)
	if err != nil {
		return err
	}
	ctx, cancel := withTimeout(cmd)
	defer cancel()
	res, err := r.call(ctx, socket, id, c.Tool, args)
	if err != nil {
		return cliout.Exchange("call "+c.Tool, err)
	}
	return printJSON(cmd.OutOrStdout(), res)
}

// requestID is --request-id, which must be a UUID, else a new request ID.
func requestID(cmd *cobra.Command) (string, error) {
	id, _ := cmd.Flags().GetString(RequestIDFlag)
	switch {
	case id == "":
		return consumer.NewRequestID(), nil
	case !consumer.IsRequestID(id):
		return "", usagef("--%s %q is not a UUID", RequestIDFlag, id)
	}
	return id, nil
}

// withTimeout is the command's context, bounded by --timeout when given.
func withTimeout(cmd *cobra.Command) (context.Context, context.CancelFunc) {
	if d, _ := cmd.Flags().GetDuration(TimeoutFlag); d > 0 {
		return context.WithTimeout(cmd.Context(), d)
	}
	return context.WithCancel(cmd.Context())
}

// socket is --socket, else the environment variable.
func (r *runner) socket(cmd *cobra.Command) (string, error) {
	s, _ := cmd.Flags().GetString(SocketFlag)
	if s == "" {
		s = r.env.Env(r.app.SocketEnv)
	}
	if s == "" {
		return "", usagef("no Provider socket: pass --%s or set %s", SocketFlag, r.app.SocketEnv)
	}
	return s, nil
}

// call connects to the Provider and executes tool once under requestID;
// the Consumer client negotiates, refuses a Provider that is not
// App.ProviderID, retries (dialing again after a broken connection, under
// the same request ID), launches resolutions and follows operations.
func (r *runner) call(ctx context.Context, socket, requestID, tool string, args json.RawMessage) (json.RawMessage, error) {
	rd := consumer.Redial(func(ctx context.Context) (consumer.Conn, error) {
		c, err := r.env.dial(ctx, socket)
		if err != nil {
			return nil, err
		}
		return cliout.NoticeConn(c, r.env.Err(), r.app.Name), nil
	})
	defer rd.Close()
	if err := rd.Connect(ctx); err != nil {
		return nil, &cliout.TransportError{Err: fmt.Errorf("connect to %s: %w", socket, err)}
	}
	c := consumer.New(rd, consumer.Options{Capabilities: Capabilities, LaunchResolutions: true, ProviderID: r.app.ProviderID})
	return c.ExecuteToolID(ctx, requestID, tool, args)
}

// printJSON writes the result, indented, with a final newline.
func printJSON(w io.Writer, data json.RawMessage) error {
	var b bytes.Buffer
	if err := json.Indent(&b, data, "", "  "); err != nil {
		b.Reset()
		b.Write(data)
	}
	b.WriteByte('\n')
	_, err := w.Write(b.Bytes())
	return err
}

// usageError is a problem with the command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}
