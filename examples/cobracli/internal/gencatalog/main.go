// Command gencatalog regenerates catalog/schema_catalog.json and its index
// from the reviewed sources in catalog/ and the live notes command tree. It
// runs from `go generate` in examples/cobracli.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/cetpgen/cetpgen/examples/cobracli/app"
	cetpgen "github.com/cetpgen/cetpgen/gen"
	gencatalog "github.com/cetpgen/cetpgen/gen/catalog"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gencatalog:", err)
		os.Exit(1)
	}
}

// run writes the registry's JSON Schema for the root name, loads the
// reviewed sources and generates the catalog through every gate.
func run() error {
	schema := filepath.Join(app.CatalogDir, gencatalog.RegistrySchemaFile)
	if err := os.WriteFile(schema, gencatalog.RegistrySchema(app.GeneratorRoot().Name()), 0o644); err != nil {
		return err
	}
	in, err := gencatalog.LoadDir(app.CatalogDir, app.GeneratorRoot)
	if err != nil {
		return err
	}
	res, err := cetpgen.WriteCatalog(in, app.CatalogDir, false)
	if err != nil {
		return err
	}
	fmt.Printf("generated %s: %d tools, surface_hash %s\n", gencatalog.CatalogFile, res.Registry.ToolCount(), res.SurfaceHash)
	return nil
}
