// Command alertsd serves Example App (provider_id com.example.app) over the CETP v2 Unix-socket binding,
// with the generated package go/alerts and runtime/serve.
//
// cetpgen wrote this file once, from specs/alerts/provider.yaml, and never overwrites it: it is yours.
// Fill in the methods of server; until then each tool answers INTERNAL_ERROR
// "... is not implemented yet". After a change of the spec, cetpgen generate
// updates go/alerts and the compiler lists the methods to add or change here.
//
// Run it (flags: alertsd --help):
//
//	go run ./out/cmd/alerts --socket /tmp/alerts.sock --db alerts.db
package main

import (
	"context"
	"github.com/cetpgen/cetpgen/out/go/alerts"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/serve"
)

func main() {
	serve.Main(serve.Server{
		Descriptor: alerts.Descriptor(),
		Name:       "alertsd",
		Tools: func(env serve.Env) ([]provider.Tool, error) {
			// env.Store is the open store (a *sqlitestore.Store or *pgstore.Store, whose DB()
			// can hold tables of your own); env.Log is the server's logger.
			return alerts.Tools(&server{}), nil
		},
	})
}

// server implements alerts.Handler: one method per tool. Writes go through call.Tx
// (they commit with the runtime's deduplication record); return a *protocol.Error
// to choose the code the Consumer sees.
type server struct{}

var _ alerts.Handler = (*server)(nil)

// CreateAlert runs create_alert: 创建价格提醒
// (effect create, risk moderate, confirmation provider_policy).
func (s *server) CreateAlert(ctx context.Context, call *provider.Call, in alerts.CreateAlertInput) (alerts.CreateAlertOutput, error) {
	return alerts.CreateAlertOutput{}, notImplemented("create_alert")
}

// DeleteAlert runs delete_alert: 删除价格提醒
// (effect delete, risk moderate, confirmation always).
func (s *server) DeleteAlert(ctx context.Context, call *provider.Call, in alerts.DeleteAlertInput) (alerts.DeleteAlertOutput, error) {
	return alerts.DeleteAlertOutput{}, notImplemented("delete_alert")
}

// ListAlerts runs list_alerts: 查看价格提醒
// (effect read, risk low, confirmation never).
func (s *server) ListAlerts(ctx context.Context, call *provider.Call, in alerts.ListAlertsInput) (alerts.ListAlertsOutput, error) {
	return alerts.ListAlertsOutput{}, notImplemented("list_alerts")
}

// UpdateAlert runs update_alert: 修改价格提醒
// (effect update, risk moderate, confirmation provider_policy).
func (s *server) UpdateAlert(ctx context.Context, call *provider.Call, in alerts.UpdateAlertInput) (alerts.UpdateAlertOutput, error) {
	return alerts.UpdateAlertOutput{}, notImplemented("update_alert")
}

// notImplemented is the answer of a tool whose method is not written yet:
// INTERNAL_ERROR, not retryable, saying so.
func notImplemented(tool string) error {
	return protocol.NewError(protocol.CodeInternalError, "%s is not implemented yet", tool)
}
