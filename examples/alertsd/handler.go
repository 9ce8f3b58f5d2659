package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"github.com/cetpgen/cetpgen/runtime/cliout"
	"strings"
	"time"

	"github.com/cetpgen/cetpgen/out/go/alerts"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// workSteps is the number of progress steps create_alert reports.
const workSteps = 4

// maxSymbol is the longest symbol create_alert accepts.
const maxSymbol = 32

// handler implements alerts.Handler on the alerts table. Writes go through
// call.Tx, so they commit together with the deduplication record; reads
// use the database directly.
type handler struct {
	db      *sql.DB
	dialect dialect
	delay   time.Duration // how long create_alert works before it saves
	now     func() time.Time
}

var _ alerts.Handler = (*handler)(nil)

// CreateAlert implements alerts.Handler: it works for h.delay, reporting
// its progress, then inserts an active alert above the given price.
func (h *handler) CreateAlert(ctx context.Context, call *provider.Call, in alerts.CreateAlertInput) (alerts.CreateAlertOutput, error) {
	symbol := strings.TrimSpace(in.Symbol)
	if symbol == "" || len(symbol) > maxSymbol {
		return alerts.CreateAlertOutput{}, protocol.NewError(protocol.CodeInvalidArgs, "symbol must have 1 to %d characters", maxSymbol)
	}
	if err := h.work(ctx, call, symbol); err != nil {
		return alerts.CreateAlertOutput{}, err
	}
	id, err := newAlertID()
	if err != nil {
		return alerts.CreateAlertOutput{}, err
	}
	ms := h.now().UnixMilli()
	_, err = call.Tx.ExecContext(ctx, h.dialect.bind(`INSERT INTO alerts
(alert_id, owner, symbol, price, direction, status, created_ms, updated_ms) VALUES (?, ?, ?, ?, 'above', 'active', ?, ?)`),
		id, call.Caller.Key(), symbol, in.Price, ms, ms)
	if err != nil {
		return alerts.CreateAlertOutput{}, fmt.Errorf("insert alert %s: %w", id, err)
	}
	return alerts.CreateAlertOutput{AlertID: id}, nil
}

// work stands for the checks a real Provider makes before it saves an
// alert (the symbol exists, the market is open): it takes h.delay in
// workSteps steps, reports each as progress, and stops when ctx ends (a
// cancelled operation, a Provider shutting down).
func (h *handler) work(ctx context.Context, call *provider.Call, symbol string) error {
	msgs := [workSteps]string{"looking up " + symbol, "checking the market hours", "checking the price", "scheduling the trigger"}
	for i, msg := range msgs {
		call.ReportProgress(provider.Progress{Current: int64(i), Total: workSteps, Message: msg})
		if err := cliout.Sleep(ctx, h.delay/workSteps); err != nil {
			return fmt.Errorf("create_alert stopped at step %d: %w", i+1, err)
		}
	}
	call.ReportProgress(provider.Progress{Current: workSteps, Total: workSteps, Message: "saving"})
	return nil
}

// newAlertID returns "a_" and 48 random bits in hex.
func newAlertID() (string, error) {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("random alert ID: %w", err)
	}
	return "a_" + hex.EncodeToString(b[:]), nil
}

// DeleteAlert implements alerts.Handler. An alert the caller does not own
// or that does not exist is CONFLICT: the current state does not allow
// the deletion.
func (h *handler) DeleteAlert(ctx context.Context, call *provider.Call, in alerts.DeleteAlertInput) (alerts.DeleteAlertOutput, error) {
	res, err := call.Tx.ExecContext(ctx, h.dialect.bind(`DELETE FROM alerts WHERE alert_id = ? AND owner = ?`), in.AlertID, call.Caller.Key())
	if err != nil {
		return alerts.DeleteAlertOutput{}, fmt.Errorf("delete alert: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return alerts.DeleteAlertOutput{}, noAlert(in.AlertID)
	}
	return alerts.DeleteAlertOutput{AlertID: in.AlertID, Deleted: true}, nil
}

// noAlert is the error of a call naming an alert the caller does not have.
func noAlert(id string) error {
	return protocol.NewError(protocol.CodeConflict, "there is no alert %s", protocol.Truncate(id, 64)).
		WithDetails(map[string]any{"alert_id": protocol.Truncate(id, 64)})
}
