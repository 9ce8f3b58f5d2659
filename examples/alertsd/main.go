package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// config is the command line of alertsd.
type config struct {
	socket    string
	db        string
	autoDeny  bool
	workDelay time.Duration
	pollAfter time.Duration
}

// env is what alertsd reads and writes besides its files; tests replace it.
type env struct {
	stdin    io.Reader
	stdout   io.Writer
	stderr   io.Writer
	terminal bool // stdin is a terminal a user can answer on
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	e := env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, terminal: cliout.IsTerminal(os.Stdin)}
	code := run(ctx, os.Args[1:], e)
	stop()
	os.Exit(code)
}

// run parses args, serves until ctx ends and returns the exit code: 0
// after a graceful stop, 1 when serving failed, 2 on a usage error.
func run(ctx context.Context, args []string, e env) int {
	cfg, err := parseFlags(args, e.stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	if err := serve(ctx, cfg, e); err != nil {
		fmt.Fprintln(e.stderr, "alertsd:", err)
		return 1
	}
	return 0
}

// parseFlags reads the command line into a config.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("alertsd", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.socket, "socket", "/tmp/alerts.sock", "path of the Unix socket to serve")
	fs.StringVar(&cfg.db, "db", "alerts.db", "SQLite file of the alerts and the runtime store")
	fs.BoolVar(&cfg.autoDeny, "auto-deny", false, "deny every confirmation without asking (the default when stdin is not a terminal)")
	fs.DurationVar(&cfg.workDelay, "work-delay", 2*time.Second, "how long create_alert works before it saves, reporting progress")
	fs.DurationVar(&cfg.pollAfter, "poll-after", 250*time.Millisecond, "poll_after_ms the Provider suggests for operations")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "alertsd: unexpected argument %q\n", fs.Arg(0))
		return cfg, errors.New("usage")
	}
	return cfg, nil
}
