package cetpcli

import (
	"errors"
	"io"

	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/cetpgen/cetpgen/runtime/cliout"
)

// Exit codes of a generated CLI (see cliout).
const (
	ExitOK        = cliout.ExitOK
	ExitProvider  = cliout.ExitProvider
	ExitUsage     = cliout.ExitUsage
	ExitTransport = cliout.ExitTransport
)

// Codes of the failures the CLI reports itself, beside the CETP codes of
// Provider errors.
const (
	CodeUsage     = cliout.CodeUsage
	CodeTransport = cliout.CodeTransport
)

// report prints err as {"error": ...} on w and returns the exit code. A
// schema query error was printed on stderr by the schema command.
func report(w io.Writer, err error) int {
	var qe *catalog.QueryError
	if errors.As(err, &qe) {
		return ExitUsage
	}
	return cliout.Report(w, err)
}
