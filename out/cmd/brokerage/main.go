// Command brokeraged serves Example Broker (provider_id com.example.broker.trading) over the CETP v2 Unix-socket binding,
// with the generated package go/brokerage and runtime/serve.
//
// cetpgen wrote this file once, from specs/brokerage/provider.yaml, and never overwrites it: it is yours.
// Fill in the methods of server; until then each tool answers INTERNAL_ERROR
// "... is not implemented yet". After a change of the spec, cetpgen generate
// updates go/brokerage and the compiler lists the methods to add or change here.
//
// Run it (flags: brokeraged --help):
//
//	go run ./out/cmd/brokerage --socket /tmp/brokerage.sock --db brokerage.db
package main

import (
	"context"
	"github.com/cetpgen/cetpgen/out/go/brokerage"
	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/serve"
)

func main() {
	serve.Main(serve.Server{
		Descriptor: broker.Descriptor(),
		Name:       "brokeraged",
		Tools: func(env serve.Env) ([]provider.Tool, error) {
			// env.Store is the open store (a *sqlitestore.Store or *pgstore.Store, whose DB()
			// can hold tables of your own); env.Log is the server's logger.
			return broker.Tools(&server{}), nil
		},
	})
}

// server implements broker.Handler: one method per tool. Writes go through call.Tx
// (they commit with the runtime's deduplication record); return a *protocol.Error
// to choose the code the Consumer sees.
type server struct{}

var _ broker.Handler = (*server)(nil)

// CancelOrder runs cancel_order: Cancel an open order
// (effect update, risk moderate, confirmation provider_policy).
func (s *server) CancelOrder(ctx context.Context, call *provider.Call, in broker.CancelOrderInput) (broker.CancelOrderOutput, error) {
	return broker.CancelOrderOutput{}, notImplemented("cancel_order")
}

// ExportStatements runs export_statements: Export account statements
// (effect read, risk low, confirmation never).
func (s *server) ExportStatements(ctx context.Context, call *provider.Call, in broker.ExportStatementsInput) (broker.ExportStatementsOutput, error) {
	return broker.ExportStatementsOutput{}, notImplemented("export_statements")
}

// GetPortfolio runs get_portfolio: Get portfolio
// (effect read, risk low, confirmation never).
func (s *server) GetPortfolio(ctx context.Context, call *provider.Call, in broker.GetPortfolioInput) (broker.GetPortfolioOutput, error) {
	return broker.GetPortfolioOutput{}, notImplemented("get_portfolio")
}

// GetQuote runs get_quote: Get a quote
// (effect read, risk low, confirmation never).
func (s *server) GetQuote(ctx context.Context, call *provider.Call, in broker.GetQuoteInput) (broker.GetQuoteOutput, error) {
	return broker.GetQuoteOutput{}, notImplemented("get_quote")
}

// PlaceOrder runs place_order: Place an order
// (effect transaction, risk high, confirmation always).
func (s *server) PlaceOrder(ctx context.Context, call *provider.Call, in broker.PlaceOrderInput) (broker.PlaceOrderOutput, error) {
	return broker.PlaceOrderOutput{}, notImplemented("place_order")
}

// notImplemented is the answer of a tool whose method is not written yet:
// INTERNAL_ERROR, not retryable, saying so.
func notImplemented(tool string) error {
	return protocol.NewError(protocol.CodeInternalError, "%s is not implemented yet", tool)
}
