package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/cetpgen/cetpgen/out/go/alerts"
	"github.com/cetpgen/cetpgen/runtime/binding/unixsock"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/store/sqlitestore"
)

// closeTimeout bounds how long a stopping alertsd waits for its background
// operations to return.
const closeTimeout = 10 * time.Second

// serve opens the store, builds the Provider and serves it on the socket
// until ctx ends, then shuts down in order: socket, operations, store.
func serve(ctx context.Context, cfg config, e env) error {
	st, err := sqlitestore.Open(cfg.db, sqlitestore.Options{})
	if err != nil {
		return fmt.Errorf("open store %s: %w", cfg.db, err)
	}
	defer st.Close()
	if err := createSchema(ctx, st.DB()); err != nil {
		return err
	}
	h := &handler{db: st.DB(), delay: cfg.workDelay, now: time.Now}
	p, err := alerts.New(h, providerOptions(cfg, e, st))
	if err != nil {
		return fmt.Errorf("build the Provider: %w", err)
	}
	defer closeProvider(p, e.stderr)
	return listenAndServe(ctx, cfg, e, p)
}

// providerOptions wires the store, the scopes of the owner, the terminal
// confirmation UI, the confirmation policy and the audit log.
func providerOptions(cfg config, e env, st *sqlitestore.Store) provider.Options {
	return provider.Options{
		Store:         st,
		Authorizer:    ownerOnly{uid: os.Getuid()},
		Confirmer:     confirmer(cfg, e),
		ConfirmPolicy: alwaysOnly,
		Audit:         auditLog(e.stderr),
		PollAfter:     cfg.pollAfter,
	}
}

// confirmer is the terminal prompt, or AutoDeny when asked for or when
// nobody can answer on stdin.
func confirmer(cfg config, e env) provider.Confirmer {
	if cfg.autoDeny || !e.terminal {
		return provider.AutoDeny{}
	}
	return newPrompt(e.stdin, e.stdout)
}

// listenAndServe creates the socket (mode 0600: only this UID may
// connect) and serves p on it until ctx ends.
func listenAndServe(ctx context.Context, cfg config, e env, p *provider.Provider) error {
	ln, err := unixsock.Listen(cfg.socket, 0o600)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.socket, err)
	}
	defer os.Remove(cfg.socket)
	fmt.Fprintf(e.stderr, "alertsd: serving %s on %s (store %s, confirmations: %s)\n",
		alerts.ProviderID, cfg.socket, cfg.db, confirmMode(cfg, e))
	if err := unixsock.Serve(ctx, ln, p, unixsock.Options{}); err != nil {
		return fmt.Errorf("serve %s: %w", cfg.socket, err)
	}
	return nil
}

// confirmMode names the confirmation UI for the start-up line.
func confirmMode(cfg config, e env) string {
	switch {
	case cfg.autoDeny:
		return "auto-deny"
	case !e.terminal:
		return "auto-deny, stdin is not a terminal"
	}
	return "asked on this terminal"
}

// closeProvider stops the background operations; those still running stay
// in the store and resume at the next start.
func closeProvider(p *provider.Provider, stderr io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	if err := p.Close(ctx); err != nil {
		fmt.Fprintln(stderr, "alertsd:", err)
	}
	fmt.Fprintln(stderr, "alertsd: stopped")
}
