package serve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/cetpgen/cetpgen/runtime/authz"
	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"github.com/cetpgen/cetpgen/runtime/confirm"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/store"
	"github.com/cetpgen/cetpgen/runtime/store/storeopen"
)

// CloseTimeout bounds how long a stopping server waits for its background
// operations to return; those still running stay in the store.
const CloseTimeout = 10 * time.Second

// Server is what Main and Run serve.
type Server struct {
	// Name is the command's name; it names the flag set, the defaults of
	// --socket and --db, and starts every terminal question.
	Name string
	// Descriptor is the generated package's Descriptor().
	Descriptor provider.Descriptor
	// Tools returns the tools to serve, normally the generated package's
	// Tools(h). It runs once the store is open, so a handler can keep its
	// business data in the same database (env.Store).
	Tools func(env Env) ([]provider.Tool, error)
	// Options are passed to provider.New. Run sets Store, and Authorizer,
	// Confirmer and Audit when they are nil; an Audit given here receives
	// every event too.
	Options provider.Options
	// Defaults are the defaults of the common flags; a zero field takes
	// the value of Defaults(Name).
	Defaults Flags
	// AddFlags registers the server's own flags beside the common ones;
	// their values are set before Tools runs.
	AddFlags func(fs *flag.FlagSet)
	// Unix configures the socket server.
	Unix unixsock.Options
}

// Env is what Tools receives.
type Env struct {
	// Context ends when the server is asked to stop.
	Context context.Context
	// Store is the open store the --db DSN names: a *sqlitestore.Store or
	// a *pgstore.Store (both have DB() for the handler's own tables).
	Store store.Store
	// Log is the server's logger.
	Log *slog.Logger
	// Flags are the common flags as parsed.
	Flags Flags
	// Options are the options Run passes to provider.New, a copy of
	// Server.Options with the store set; Tools may change them, for
	// example from the server's own flags.
	Options *provider.Options
}

// Stdio are the standard streams of a server; Terminal says whether a
// user can answer confirmations on In.
type Stdio struct {
	In       io.Reader
	Out, Err io.Writer
	Terminal bool
}

// Exit codes of Run.
const (
	ExitOK    = 0 // stopped gracefully, or --help
	ExitError = 1 // serving failed
	ExitUsage = 2 // the command line is wrong
)

// Main runs s with the process's arguments and streams until SIGINT or
// SIGTERM, then exits with Run's code. A second signal ends the process
// at once.
func Main(s Server) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop) // after the first signal, the next one kills
	code := Run(ctx, s, os.Args[1:], Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, Terminal: cliout.IsTerminal(os.Stdin)})
	stop()
	os.Exit(code)
}

// Run parses args, serves s until ctx ends and returns an exit code.
func Run(ctx context.Context, s Server, args []string, io Stdio) int {
	f, err := parseFlags(s.Name, args, s.Defaults.withDefaults(Defaults(s.Name)), s.AddFlags, io.Err)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return ExitOK
	case err != nil:
		return ExitUsage
	}
	log := newLogger(io.Err, f.LogFormat)
	if err := run(ctx, s, f, io, log); err != nil {
		log.Error("cannot serve", "err", err)
		return ExitError
	}
	return ExitOK
}

// run opens the store, builds the Provider and serves it until ctx ends,
// then shuts down in order: socket, operations, store.
func run(ctx context.Context, s Server, f Flags, stdio Stdio, log *slog.Logger) error {
	st, err := storeopen.Open(ctx, f.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	opt := s.Options
	opt.Store = st
	tools, err := s.Tools(Env{Context: ctx, Store: st, Log: log, Flags: f, Options: &opt})
	if err != nil {
		return fmt.Errorf("set up the tools: %w", err)
	}
	w := newWatch(log, s.Descriptor, tools)
	mode := confirmMode(opt.Confirmer != nil, f, stdio)
	if opt, err = options(s, f, stdio, opt, w); err != nil {
		return err
	}
	p, err := provider.New(s.Descriptor, w.wrap(tools), opt)
	if err != nil {
		return fmt.Errorf("build the Provider: %w", err)
	}
	defer closeProvider(p, log)
	ln, err := unixsock.Listen(f.Socket, f.SocketMode)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", f.Socket, err)
	}
	defer os.Remove(f.Socket)
	log.Info("serving", "provider", s.Descriptor.ID, "socket", f.Socket, "socket_mode", fmt.Sprintf("%04o", uint32(f.SocketMode)),
		"store", redactDSN(f.DB), "scopes", w.authorization, "confirmations", mode)
	if err := unixsock.Serve(ctx, ln, p, s.Unix); err != nil {
		return fmt.Errorf("serve %s: %w", f.Socket, err)
	}
	log.Info("stopping: the socket is closed and running calls have finished")
	return nil
}

// options completes the Provider options with the store and the ready
// building blocks.
func options(s Server, f Flags, stdio Stdio, opt provider.Options, w *watch) (provider.Options, error) {
	if opt.Authorizer == nil {
		a, desc, err := defaultAuthorizer(s.Descriptor, f)
		if err != nil {
			return opt, err
		}
		opt.Authorizer, w.authorization = a, desc
	} else {
		w.authorization, w.custom = "decided by the server's Authorizer", true
	}
	opt.Authorizer = w.authorizer(opt.Authorizer)
	if opt.Confirmer == nil {
		opt.Confirmer = defaultConfirmer(s, f, stdio)
	}
	opt.Audit = w.audit(opt.Audit)
	return opt, nil
}

// defaultAuthorizer is the server's own UID holding every scope, plus the
// grants file when one is given.
func defaultAuthorizer(d provider.Descriptor, f Flags) (provider.Authorizer, string, error) {
	owner := authz.NewOwner(os.Getuid(), d.Scopes)
	desc := fmt.Sprintf("uid %d holds every scope", owner.UID())
	if f.Grants == "" {
		return owner, desc + "; no grants file", nil
	}
	g, err := authz.OpenGrants(f.Grants, authz.GrantsOptions{Catalogue: d.Scopes})
	if err != nil {
		return nil, "", err
	}
	return authz.Union{owner, g}, desc + "; other callers as " + f.Grants + " grants", nil
}

// defaultConfirmer is the terminal prompt, or AutoDeny when asked for or
// when nobody can answer on stdin.
func defaultConfirmer(s Server, f Flags, stdio Stdio) provider.Confirmer {
	if f.AutoDeny || !stdio.Terminal {
		return provider.AutoDeny{}
	}
	return confirm.NewPrompt(s.Name, stdio.In, stdio.Out)
}

// confirmMode names the confirmation UI for the start-up line.
func confirmMode(custom bool, f Flags, stdio Stdio) string {
	switch {
	case custom:
		return "the server's Confirmer"
	case f.AutoDeny:
		return "auto-deny"
	case !stdio.Terminal:
		return "auto-deny, stdin is not a terminal"
	}
	return "asked on this terminal"
}

// closeProvider stops the background operations; those still running stay
// in the store and resume at the next start.
func closeProvider(p *provider.Provider, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), CloseTimeout)
	defer cancel()
	if err := p.Close(ctx); err != nil {
		log.Warn("operations still running stay in the store for the next start", "err", err)
	}
	log.Info("stopped")
}

// redactDSN hides a PostgreSQL password in the start-up line.
func redactDSN(dsn string) string {
	if !strings.Contains(dsn, "://") {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "(unparsable DSN)"
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}
