// Command notes is the example of a hand-written Cobra CLI that serves the
// Agent schema of its own commands with runtime/catalog: its catalog is
// generated from the reviewed sources in catalog/ by `go generate` and
// embedded here. See docs/catalog.md.
package main

import (
	_ "embed"
	"errors"
	"fmt"
	"os"

	"github.com/cetpgen/cetpgen/examples/cobracli/app"
	"github.com/cetpgen/cetpgen/runtime/catalog"
)

//go:generate go run ./internal/gencatalog

var (
	//go:embed catalog/schema_catalog.json
	catalogData []byte
	//go:embed catalog/schema_catalog.index.json
	catalogIndex []byte
)

func main() {
	root := app.NewRoot(catalog.Lazy(catalogData, catalogIndex))
	if err := root.Execute(); err != nil {
		var qe *catalog.QueryError
		if errors.As(err, &qe) { // printed as JSON on stderr already; dws's exit status
			os.Exit(qe.ExitCode())
		}
		fmt.Fprintln(os.Stderr, "notes:", err)
		os.Exit(1)
	}
}
