package gen

import (
	"fmt"

	gencatalog "github.com/cetpgen/cetpgen/gen/catalog"
	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/write"
)

// CatalogFiles are the two generated files of a catalog directory,
// schema_catalog.json and its index, as gen/write takes them. JSON has no
// comment to carry the Marker, so they are Unmarked: their names are the
// generator's own.
func CatalogFiles(res *gencatalog.Result) []emit.File {
	return []emit.File{
		{Path: gencatalog.CatalogFile, Data: res.Data, Unmarked: true},
		{Path: gencatalog.IndexFile, Data: res.Index, Unmarked: true},
	}
}

// WriteCatalog builds the catalog of in once, through every gate, and
// writes its files into dir through gen/write, all or none. With check it
// writes nothing and fails, with the bounded diff of write.Check, when a
// file on disk differs: the committed files are the previous generation,
// so check is where two successive generations are held byte identical.
func WriteCatalog(in *gencatalog.Input, dir string, check bool) (*gencatalog.Result, error) {
	res, err := gencatalog.Build(in)
	if err != nil {
		return nil, err
	}
	plan := write.Plan{Root: dir, Files: CatalogFiles(res)}
	if !check {
		_, err := write.Apply(plan)
		return res, err
	}
	stale, err := write.Check(plan)
	if err == nil && stale != "" {
		err = fmt.Errorf("the catalog in %s is stale; regenerate it:\n%s", dir, stale)
	}
	return res, err
}
