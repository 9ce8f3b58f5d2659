package cli

import (
	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/ir"
)

// checked is the result of a successful check: the IR of every Provider and
// the warnings that did not fail the run.
type checked struct {
	providers []*ir.Provider
	diags     diag.List
}
