package main

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/cetpgen/cetpgen/out/go/alerts"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// defaultPageSize is the page_size of list_alerts when the call gives none.
const defaultPageSize = 50

// alertColumns are the columns scanAlert reads, in order.
const alertColumns = "alert_id, symbol, price, direction, status, note, created_ms, triggered_ms"

// ListAlerts implements alerts.Handler: the caller's alerts, newest first,
// filtered by symbol and status, a page at a time. The page token is the
// offset of the next page.
func (h *handler) ListAlerts(ctx context.Context, call *provider.Call, in alerts.ListAlertsInput) (alerts.ListAlertsOutput, error) {
	offset, err := pageOffset(in.PageToken)
	if err != nil {
		return alerts.ListAlertsOutput{}, err
	}
	size := int64(defaultPageSize)
	if in.PageSize != nil {
		size = int64(*in.PageSize)
	}
	q, args := listQuery(call.Caller.Key(), in)
	rows, err := h.db.QueryContext(ctx, h.dialect.bind(q), append(args, size+1, offset)...)
	if err != nil {
		return alerts.ListAlertsOutput{}, fmt.Errorf("list alerts: %w", err)
	}
	defer rows.Close()
	out, err := scanAlerts(rows)
	if err != nil {
		return alerts.ListAlertsOutput{}, err
	}
	return page(out, size, offset), nil
}

// pageOffset reads a page token: absent or null is the first page.
func pageOffset(tok alerts.Nullable[string]) (int64, error) {
	if !tok.Set || tok.Null {
		return 0, nil
	}
	n, err := strconv.ParseInt(tok.Value, 10, 64)
	if err != nil || n < 0 {
		return 0, protocol.NewError(protocol.CodeInvalidArgs, "page_token is not one this Provider returned")
	}
	return n, nil
}

// listQuery returns the query of one page of owner's alerts and its
// filter arguments; LIMIT and OFFSET come last.
func listQuery(owner string, in alerts.ListAlertsInput) (string, []any) {
	q, args := "SELECT "+alertColumns+" FROM alerts WHERE owner = ?", []any{owner}
	if in.Symbol != nil {
		q, args = q+" AND symbol = ?", append(args, *in.Symbol)
	}
	if in.Status != nil {
		q, args = q+" AND status = ?", append(args, string(*in.Status))
	}
	return q + " ORDER BY created_ms DESC, alert_id DESC LIMIT ? OFFSET ?", args
}

// page cuts the rows read (one more than size, when there are) to size and
// sets the token of the next page.
func page(rows []alerts.ListAlertsAlert, size, offset int64) alerts.ListAlertsOutput {
	out := alerts.ListAlertsOutput{Alerts: rows}
	if int64(len(rows)) > size {
		next := strconv.FormatInt(offset+size, 10)
		out.Alerts, out.NextPageToken = rows[:size], &next
	}
	if out.Alerts == nil {
		out.Alerts = []alerts.ListAlertsAlert{}
	}
	return out
}

// scanAlerts reads every row of rows.
func scanAlerts(rows *sql.Rows) ([]alerts.ListAlertsAlert, error) {
	var out []alerts.ListAlertsAlert
	for rows.Next() {
		a, err := scanAlert(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list alerts: %w", err)
	}
	return out, nil
}

// scanAlert reads one row of alertColumns.
func scanAlert(rows *sql.Rows) (alerts.ListAlertsAlert, error) {
	var a alerts.ListAlertsAlert
	var note sql.NullString
	var created int64
	var triggered sql.NullInt64
	err := rows.Scan(&a.AlertID, &a.Symbol, &a.Price, &a.Direction, &a.Status, &note, &created, &triggered)
	if err != nil {
		return a, fmt.Errorf("read an alert: %w", err)
	}
	a.Note = alerts.NullableNull[string]()
	if note.Valid {
		a.Note = alerts.NullableValue(note.String)
	}
	a.CreatedAt = alerts.DateTimeOf(time.UnixMilli(created).UTC())
	if triggered.Valid {
		t := alerts.DateTimeOf(time.UnixMilli(triggered.Int64).UTC())
		a.TriggeredAt = &t
	}
	return a, nil
}
