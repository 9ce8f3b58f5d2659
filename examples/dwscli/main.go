// Command dws is the example of the catalog library on the real dws CLI:
// its command tree is reconstructed from dws's reviewed inputs (commit
// e69a1084) in catalog/, and its catalog is generated from those inputs,
// unchanged, by `go generate` and embedded here. `dws schema …` answers
// as the real binary does; the other commands only describe themselves.
// See docs/catalog.md.
package main

import (
	_ "embed"
	"errors"
	"fmt"
	"os"

	"github.com/cetpgen/cetpgen/examples/dwscli/app"
	"github.com/cetpgen/cetpgen/runtime/catalog"
)

//go:generate go run ./internal/gencatalog

var (
	//go:embed catalog/schema_command_registry.json
	registryJSON []byte
	//go:embed catalog/schema_parameter_bindings.json
	bindingsJSON []byte
	//go:embed catalog/schema_command_exclusions.json
	exclusionsJSON []byte
	//go:embed catalog/schema_catalog.json
	catalogData []byte
	//go:embed catalog/schema_catalog.index.json
	catalogIndex []byte
)

var inputs = app.Inputs{Registry: registryJSON, Bindings: bindingsJSON, Exclusions: exclusionsJSON}

func main() {
	root, err := app.NewRoot(inputs, catalog.Lazy(catalogData, catalogIndex))
	if err == nil {
		err = root.Execute()
	}
	var qe *catalog.QueryError
	switch {
	case errors.As(err, &qe): // printed as JSON on stderr already
		os.Exit(qe.ExitCode())
	case err != nil:
		fmt.Fprintln(os.Stderr, "dws:", err)
		os.Exit(1)
	}
}
