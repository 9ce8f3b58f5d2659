// Command gencatalog regenerates catalog/schema_catalog.json and its index
// from dws's reviewed inputs in catalog/, unchanged, and the tree
// reconstructed from them. It runs from `go generate` in examples/dwscli.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/cetpgen/cetpgen/examples/dwscli/app"
	cetpgen "github.com/cetpgen/cetpgen/gen"
	gencatalog "github.com/cetpgen/cetpgen/gen/catalog"
	"github.com/cetpgen/cetpgen/runtime/catalog"
	"github.com/spf13/cobra"
)

const dir = "catalog"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gencatalog:", err)
		os.Exit(1)
	}
}

func run() error {
	root, err := Root(dir)
	if err != nil {
		return err
	}
	in, err := gencatalog.LoadDir(dir, root)
	if err != nil {
		return err
	}
	res, err := cetpgen.WriteCatalog(in, dir, false)
	if err != nil {
		return err
	}
	fmt.Printf("generated %s: %d tools, surface_hash %s\n", gencatalog.CatalogFile, res.Registry.ToolCount(), res.SurfaceHash)
	return nil
}

// Root returns a function building the reconstructed tree from the inputs
// in dir, for the generator (the schema command is never run there).
func Root(dir string) (func() *cobra.Command, error) {
	var in app.Inputs
	for name, dst := range map[string]*[]byte{gencatalog.RegistryFile: &in.Registry,
		gencatalog.BindingsFile: &in.Bindings, gencatalog.ExclusionsFile: &in.Exclusions} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		*dst = b
	}
	if _, err := app.NewRoot(in, nil); err != nil {
		return nil, err
	}
	return func() *cobra.Command {
		root, _ := app.NewRoot(in, func() (*catalog.Catalog, error) { return nil, fmt.Errorf("no catalog while generating") })
		return root
	}, nil
}
