package cetpcli

import (
	"io"

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

// report prints err as {"error": ...} on w and returns the exit code.
func report(w io.Writer, err error) int { return cliout.Report(w, err) }
