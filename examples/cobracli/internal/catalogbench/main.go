//go:build unix

// Command catalogbench measures the catalog of the synthetic CLI of
// examples/cobracli/synth as whole processes, for scripts/bench-catalog.sh:
//
//	catalogbench gen N DIR          generate the N-tool catalog into DIR
//	catalogbench query N DIR ARGS   run the N-leaf CLI with ARGS, its catalog
//	                                mapped from DIR as go:embed data would be
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/cetpgen/cetpgen/examples/cobracli/synth"
	cetpgen "github.com/cetpgen/cetpgen/gen"
	gen "github.com/cetpgen/cetpgen/gen/catalog"
	"github.com/cetpgen/cetpgen/runtime/catalog"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "catalogbench:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) < 3 {
		return fmt.Errorf("usage: catalogbench gen N DIR | query N DIR ARGS...")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		return err
	}
	switch args[0] {
	case "gen":
		res, err := cetpgen.WriteCatalog(synth.Input(n), args[2], false)
		if err == nil {
			fmt.Printf("%d tools, %d catalog bytes, %d index bytes\n", res.Registry.ToolCount(), len(res.Data), len(res.Index))
		}
		return err
	case "query":
		return query(n, args[2], args[3:])
	}
	return fmt.Errorf("unknown mode %q", args[0])
}

// query runs the synthetic CLI; the catalog files are mapped read-only,
// like the data segment that holds go:embed bytes, so only the pages a
// query touches count in its RSS.
func query(n int, dir string, args []string) error {
	data, err := mapFile(filepath.Join(dir, gen.CatalogFile))
	if err != nil {
		return err
	}
	index, err := mapFile(filepath.Join(dir, gen.IndexFile))
	if err != nil {
		return err
	}
	root := synth.RootWith(n, catalog.Lazy(data, index))
	root.SetArgs(args)
	root.SilenceUsage = true
	return root.Execute()
}

func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
}
