package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/cetpgen/cetpgen/out/go/alerts"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/store"
)

// UpdateAlert implements alerts.Handler: it changes the fields given and
// leaves the others as they are. paused true pauses the alert; paused
// false makes a paused alert active again.
func (h *handler) UpdateAlert(ctx context.Context, call *provider.Call, in alerts.UpdateAlertInput) (alerts.UpdateAlertOutput, error) {
	now := h.now()
	set, args := updateSet(in)
	set = append(set, "updated_ms = ?")
	args = append(args, now.UnixMilli(), in.AlertID, call.Caller.Key())
	q := "UPDATE alerts SET " + strings.Join(set, ", ") + " WHERE alert_id = ? AND owner = ? RETURNING status"
	status, err := queryStatus(ctx, call.Tx, h.dialect.bind(q), args)
	if err != nil {
		return alerts.UpdateAlertOutput{}, err
	}
	if status == "" {
		return alerts.UpdateAlertOutput{}, noAlert(in.AlertID)
	}
	return alerts.UpdateAlertOutput{AlertID: in.AlertID, Status: alerts.UpdateAlertOutputStatus(status),
		UpdatedAt: alerts.DateTimeOf(now.UTC())}, nil
}

// queryStatus runs an UPDATE ... RETURNING status in tx and returns the
// status, or "" when no row was updated.
func queryStatus(ctx context.Context, tx store.Tx, q string, args []any) (string, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return "", fmt.Errorf("update alert: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return "", fmt.Errorf("update alert: %w", err)
		}
		return "", nil
	}
	var status string
	if err := rows.Scan(&status); err != nil {
		return "", fmt.Errorf("read the updated alert: %w", err)
	}
	return status, nil
}

// updateSet returns the SET clauses and their arguments for the fields
// in gives.
func updateSet(in alerts.UpdateAlertInput) (set []string, args []any) {
	if in.Price != nil {
		set, args = append(set, "price = ?"), append(args, *in.Price)
	}
	if in.Direction != nil {
		set, args = append(set, "direction = ?"), append(args, string(*in.Direction))
	}
	if in.Note.Set {
		set, args = append(set, "note = ?"), append(args, noteValue(in.Note))
	}
	if in.Paused != nil && *in.Paused {
		set = append(set, "status = 'paused'")
	}
	if in.Paused != nil && !*in.Paused {
		set = append(set, "status = CASE status WHEN 'paused' THEN 'active' ELSE status END")
	}
	return set, args
}

// noteValue is the column value of a note: NULL clears it.
func noteValue(n alerts.Nullable[string]) any {
	if n.Null {
		return nil
	}
	return n.Value
}
